"""The checkers built from the checker table (tb/rules/checks.py), resolved and made here.

The table names each such checker as ``module:Class`` of this package, because it lives below
the simulator; this module turns a name into the class and makes one instance per watched
port, so the full mode's environment and the fast mode's checks both build the table's
checkers through it and neither names one.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any, Callable, Protocol

from tb.rules.checks import CHECKS, Check, built
from tb.rules.failure import Failure
from tb.uvm.agents.sampler import ChannelSample, Port
from tb.uvm.context import JobContext


class TableChecker(Protocol):
    """What a table-built checker is: an EdgeSampler listener on its port that gets every
    program's job context (the class also has ``fast_findings(top)`` when its entry says
    ``fast``)."""

    def on_sample(self, cycle: int, sample: dict[str, ChannelSample]) -> None: ...

    def on_reset(self) -> None: ...

    def start_job(self, ctx: JobContext) -> None: ...


def checker_class(check: Check) -> Any:
    """The class an entry names (``module:Class`` of tb/uvm/checkers/)."""
    module, name = check.checker.split(":")
    return getattr(import_module(f"{__package__}.{module}"), name)


def make_checkers(ports: dict[str, Port],
                  report: Callable[[Failure], None]) -> list[tuple[Port, TableChecker]]:
    """Every table-built checker, one per port it watches, with the port to attach it to."""
    return [(ports[p], checker_class(c)(ports[p], report)) for c in built(CHECKS) for p in c.ports]


def fast_findings(top: Any) -> list[Failure]:
    """The latched findings of the Verilog twins of the table's fast-mode checkers."""
    return [f for c in built(CHECKS) if c.fast for f in checker_class(c).fast_findings(top)]
