"""One failure as data: the record every checker fills and everyone downstream reads.

A checker knows which rule it saw broken, on which module, port or channel, and on which
instruction form; it puts them in the record's fields when it reports (``Verdict.fail``),
so the signature (tb/rules/signature.py), the buckets, the summary, JUnit, the saved failure
(tb/plan/saved.py) and the shrinker read fields and never parse the message. No cocotb
import: the launcher, triage and the regression use it outside the simulator.

Fields a checker has no value for hold :data:`NONE`. A record read from JSON without them
(written before they existed) gets :data:`NONE` too: its signature is then its kind alone.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from tb.rules.checks import CHECKS, kinds

#: Failure kinds, one per entry of the checker table (tb/rules/checks.py), in its order;
#: negative tests, signatures and JUnit types name these.
KINDS = kinds(CHECKS)
#: A field the failure gives no value for.
NONE = "-"
#: Longest rule text kept when a checker has no rule name but its own wording (register,
#: reach, model and error findings without one): see :func:`shape`.
RULE_CHARS = 60
_FORM = re.compile(r"\b(LOAD|STORE|GEMM|ALU|FINISH)\b(?! #)((?: [A-Z][A-Z0-9_]*\b)?)([^;\n)]*)")


class FailureError(ValueError):
    """A malformed failure record; the message is one line naming the field."""


@dataclass(frozen=True)
class Failure:
    """One failure: which checker fired (``kind``), when, the rule it saw broken, the module
    (or port, read client, token counter) and bus channel it points at, the form of the
    instruction involved, and a message that stands on its own."""

    kind: str
    message: str
    cycle: int = 0
    rule: str = NONE
    module: str = NONE
    channel: str = NONE
    form: str = NONE

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise FailureError(f"unknown failure kind {self.kind!r} (one of {', '.join(KINDS)})")

    def __str__(self) -> str:
        return f"[{self.kind}] cycle {self.cycle}: {self.message}"

    @property
    def has_fields(self) -> bool:
        """Whether any of rule, module, channel, form is known (records written before the
        fields existed have none)."""
        return any(v != NONE for v in (self.rule, self.module, self.channel, self.form))

    def at(self, cycle: int) -> "Failure":
        """The same failure stamped with ``cycle``."""
        return replace(self, cycle=cycle)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: Any, where: str = "failure") -> "Failure":
        """A record read back (results.jsonl, tb_uvm.json); errors are one line naming
        ``where`` and the field. Missing optional fields are :data:`NONE`."""
        if not isinstance(raw, dict):
            raise FailureError(f"{where}: must be an object, got {type(raw).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = set(raw) - known
        if unknown:
            raise FailureError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                               f"(known: {', '.join(sorted(known))})")
        for key in ("kind", "message"):
            if not isinstance(raw.get(key), str):
                raise FailureError(f"{where}: {key} must be a string, got {raw.get(key)!r}")
        if type(raw.get("cycle", 0)) is not int:
            raise FailureError(f"{where}: cycle must be an integer, got {raw.get('cycle')!r}")
        text = {}
        for key in ("rule", "module", "channel", "form"):
            value = raw.get(key, NONE)
            if not isinstance(value, str):
                raise FailureError(f"{where}: {key} must be a string, got {value!r}")
            text[key] = value or NONE
        if raw["kind"] not in KINDS:
            raise FailureError(f"{where}: kind must be one of {', '.join(KINDS)}, got {raw['kind']!r}")
        return cls(raw["kind"], raw["message"], raw.get("cycle", 0), **text)


def shape(text: str) -> str:
    """A finding's wording as its rule, for checkers without rule names: the first line
    with its numbers blanked, so values and addresses do not split buckets."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = re.sub(r"0x[0-9a-fA-F]+|\d+", "#", line)
    return re.sub(r"\s+", " ", line).strip()[:RULE_CHARS] or NONE


def form_of(text: str) -> str:
    """The form of the first instruction disassembled in ``text`` (models/asm.py words):
    opcode, its memory type or ALU operation, and whether it is a reset GEMM or an
    immediate ALU. Called by the checker that has the instruction's disassembly."""
    m = _FORM.search(text)
    if m is None:
        return NONE
    extra = m.group(3)
    tags = [tag for tag, word in (("reset", "reset"), ("imm", "use_imm"))
            if re.search(rf"(^|\s){word}(\s|$)", extra)]
    return " ".join([m.group(1) + m.group(2), *tags])


def exception_rule(exc: BaseException) -> str:
    """The rule of an ``error`` failure: the exception's type as its traceback names it."""
    t = type(exc)
    return t.__qualname__ if t.__module__ in ("builtins", "__main__") else f"{t.__module__}.{t.__qualname__}"


def earliest(found: list[Failure]) -> list[Failure]:
    """Findings in the order they happened (cycle, then kind and message: deterministic)."""
    return sorted(found, key=lambda f: (f.cycle, f.kind, f.message))


def model_rule(exc: BaseException) -> str:
    """The rule of a ``model`` failure from the model's exception: the rule a program error
    names (models/executor.py ProgramError.rule), else the exception's type."""
    rule = getattr(exc, "rule", None)
    return rule if isinstance(rule, str) and rule else type(exc).__name__
