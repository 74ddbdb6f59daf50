"""Failure signatures: what makes two failures "the same bug" for bucketing and shrinking.

A regression of hundreds of programs that all trip over one RTL bug should read as one
bucket, not hundreds of failures; and a shrinker must know that a smaller program still
shows *that* bug, not another one it uncovered on the way. Both need a key that ignores
what varies from program to program (addresses, cycles, values, instruction indices) and
keeps what names the bug: the verdict kind, the module it points at, the rule or class of
mismatch, and the form of the instruction involved. It is derived only from a failure
record's fields (the first failure's kind and message), which both a run's result records
and a saved failure's tb_uvm.json hold, so the runner, the regression and the shrinker
agree on it without rerunning anything.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

#: Shown for a field a failure gives no value for.
NONE = "-"
#: Longest rule text kept when it is derived from free text (register, model, error).
RULE_CHARS = 60
_FORM = re.compile(r"\b(LOAD|STORE|GEMM|ALU|FINISH)\b(?! #)((?: [A-Z][A-Z0-9_]*\b)?)([^;\n)]*)")


@dataclass(frozen=True, order=True)
class Signature:
    """The bucket key of a failure; equal signatures are taken to be one bug."""

    kind: str
    module: str = NONE
    rule: str = NONE
    form: str = NONE

    def __str__(self) -> str:
        return f"{self.kind} | {self.module} | {self.rule} | {self.form}"

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "module": self.module, "rule": self.rule, "form": self.form}


def shape(text: str) -> str:
    """Free text with its numbers blanked, so values and addresses do not split buckets."""
    text = re.sub(r"0x[0-9a-fA-F]+|\d+", "#", text)
    return re.sub(r"\s+", " ", text).strip()[:RULE_CHARS] or NONE


def form_of(text: str) -> str:
    """The form of the first instruction disassembled in ``text``: opcode, its memory type or
    ALU operation, and whether it is a reset GEMM or an immediate ALU (models/asm.py words)."""
    m = _FORM.search(text)
    if m is None:
        return NONE
    extra = m.group(3)
    tags = [tag for tag, word in (("reset", "reset"), ("imm", "use_imm"))
            if re.search(rf"(^|\s){word}(\s|$)", extra)]
    return " ".join([m.group(1) + m.group(2), *tags])


def _scoreboard(message: str) -> Signature:
    first = next((line for line in message.splitlines() if line.strip().startswith("0x")), "")
    if "written by STORE" in first:
        return Signature("scoreboard", "store", "out-mismatch", form_of(first.split("written by", 1)[1]))
    if "below the OUT base" in first:
        return Signature("scoreboard", NONE, "below-out-base")
    return Signature("scoreboard", NONE, "unwritten-by-model")


def _protocol(message: str) -> Signature:
    m = re.search(r"on (\S+) (\w+) channel.*?\[([\w-]+)\]", message)
    if m:
        return Signature("protocol", m.group(1), m.group(3), f"{m.group(2).upper()} channel")
    return Signature("protocol", NONE, shape(message))


def _checker(kind: str) -> Callable[[str], Signature]:
    """The ordering and liveness checkers: ``... [rule]: the <who> module|token ...``."""
    def parse(message: str) -> Signature:
        rule = re.search(r"\[([\w-]+)\]", message)
        who = re.search(r"the (\w+) (module|command queue|token counter|read client)", message)
        return Signature(kind, f"{who.group(1)} {who.group(2)}" if who else NONE,
                         rule.group(1) if rule else shape(message))
    return parse


def _watchdog(message: str) -> Signature:
    head = message.split(";", 1)[0]
    rule = ("stalled" if "no progress" in head else "wall-time" if "wall-time" in head
            else "port-hung" if "control port" in head else "bound" if "within" in head
            else shape(head))
    for line in message.splitlines():
        m = re.match(r"\s+(load|compute|store)\s*:.*?on insn #\d+: (.*)", line)
        if m:
            return Signature("watchdog", m.group(1), rule, form_of(m.group(2)))
    fetch = re.search(r"fetch\s*:.*(blocked|fetching)", message)
    return Signature("watchdog", "fetch" if fetch else NONE, rule)


def _bus_error(message: str) -> Signature:
    resp = re.search(r"\b(SLVERR|DECERR)\b", message)
    issuer = message.split("issued by", 1)[1] if "issued by" in message else ""
    module = "fetch" if "instruction fetch" in issuer else NONE
    return Signature("bus-error", module, resp.group(1) if resp else NONE, form_of(issuer))


def _counter(message: str) -> Signature:
    names = sorted(set(re.findall(r"\b([A-Z][A-Z0-9_]{2,}) reads", message)))
    if names:
        return Signature("counter", NONE, "work:" + ",".join(names))
    return Signature("counter", NONE, "relations" if "relations" in message else shape(message))


def _error(message: str) -> Signature:
    """A testbench or model exception: its type (the traceback's last line)."""
    lines = [line for line in message.strip().splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    m = re.match(r"(\w+(?:\.\w+)*)(?::|$)", last.strip())
    return Signature("error", NONE, m.group(1) if m else shape(last))


def _model(message: str) -> Signature:
    m = re.search(r"breaks rule '([\w-]+)'", message) or re.match(r"(\w+Error):", message)
    return Signature("model", NONE, m.group(1) if m else shape(message), form_of(message))


PARSERS: dict[str, Callable[[str], Signature]] = {
    "scoreboard": _scoreboard,
    "protocol": _protocol,
    "ordering": _checker("ordering"),
    "liveness": _checker("liveness"),
    "watchdog": _watchdog,
    "bus-error": _bus_error,
    "counter": _counter,
    "error": _error,
    "model": _model,
    "stray-write": lambda m: Signature("stray-write", "store", "outside-footprints", form_of(m)),
    "no-compare": lambda m: Signature("no-compare"),
    "assertion": lambda m: Signature("assertion", NONE, (re.findall(r" at ([\w./-]+:\d+)", m) or [NONE])[0]),
}


def signature(record: dict[str, Any]) -> Signature:
    """The signature of a failure record (a run's result record or a saved tb_uvm.json):
    that of its first failure, which is the one that ended the job."""
    failures = record.get("failures") or []
    if not failures:
        return Signature("error", NONE, "no failure recorded")
    first = failures[0]
    kind, message = str(first.get("kind", "error")), str(first.get("message", ""))
    parse = PARSERS.get(kind)
    return parse(message) if parse else Signature(kind, NONE, shape(message.splitlines()[0]
                                                                   if message else ""))
