"""Failure signatures: what makes two failures "the same bug" for bucketing and shrinking.

A regression of hundreds of programs that all trip over one RTL bug should read as one
bucket, not hundreds of failures; and a shrinker must know that a smaller program still
shows *that* bug, not another one it uncovered on the way. Both need a key that ignores
what varies from program to program (addresses, cycles, values, instruction indices) and
keeps what names the bug: the verdict kind, the module it points at, the rule or class of
mismatch, and the form of the instruction involved. It is read from the first failure's
fields (tb/rules/failure.py: kind, module, rule, instruction form or bus channel), which the
checker that fired filled and both a run's result records and a saved failure's
tb_uvm.json hold, so the runner, the regression and the shrinker agree on it without
rerunning anything. No message text is parsed here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tb.rules.failure import NONE, Failure, FailureError, form_of

__all__ = ["NONE", "Signature", "form_of", "of_failure", "signature"]


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


def of_failure(f: Failure) -> Signature:
    """A failure's signature: its kind, module, rule and instruction form (a protocol
    finding, which has no instruction, is keyed by its channel instead)."""
    form = f.form if f.form != NONE else f"{f.channel} channel" if f.channel != NONE else NONE
    return Signature(f.kind, f.module, f.rule, form)


def signature(record: dict[str, Any]) -> Signature:
    """The signature of a failure record (a run's result record or a saved tb_uvm.json):
    that of its first failure, which is the one that ended the job."""
    failures = record.get("failures") or []
    if not failures:
        return Signature("error", NONE, "no failure recorded")
    first = failures[0]
    if isinstance(first, Failure):
        return of_failure(first)
    try:
        return of_failure(Failure.from_json(first))
    except FailureError as exc:
        return Signature("error", NONE, f"malformed failure record: {exc}"[:80])
