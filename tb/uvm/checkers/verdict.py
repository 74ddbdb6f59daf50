"""The verdict of the job being simulated: every checker reports failures here.

Checkers run as coroutines on clock edges; raising from them would abort the whole
cocotb test (and with it the remaining programs of the simulation) and lose the
message's kind. Instead each failure is recorded with its kind, written at once to the
results file (so it survives a simulator crash) and signalled through an event that the
running virtual sequence waits on, which ends the job at the first failure. The record
(kind, rule, module, channel, instruction form, cycle, message) is tb/rules/failure.py's
``Failure``; each checker passes the fields it knows.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Callable

from cocotb.triggers import Event

from tb.rules.failure import KINDS, NONE, Failure

__all__ = ["KINDS", "Failure", "Verdict"]


class Verdict:
    """Failures of the current job plus the event that ends it."""

    def __init__(self, results: Path | None = None, now: Callable[[], int] = lambda: 0) -> None:
        self.results = results
        self.now = now  # the simulation's cycle count, stamped on every failure
        self.log = logging.getLogger("cocotb.vta.verdict")
        self.failures: list[Failure] = []
        self.failed = Event()
        self.job: str = ""

    def start(self, job: str) -> None:
        """Begin a new job: forget earlier failures and log the start (to attribute crashes)."""
        self.job = job
        self.failures = []
        self.failed = Event()
        self.write({"event": "start", "job": job})

    def fail(self, kind: str, message: str, *, rule: str = NONE, module: str = NONE,
             channel: str = NONE, form: str = NONE) -> None:
        """Record a failure of the current job with the fields its checker knows; the first
        one ends the job."""
        self.report(Failure(kind, message, 0, rule, module, channel, form))

    def report(self, failure: Failure) -> None:
        """Record a failure built by its checker, stamped with the current cycle."""
        failure = failure.at(self.now())
        self.failures.append(failure)
        self.log.error("%s", failure)
        self.write({"event": "failure", "job": self.job, **failure.to_json()})
        self.failed.set()

    @property
    def ok(self) -> bool:
        return not self.failures

    def finish(self, **info: Any) -> None:
        """Write the job's end record with its result and extra figures (cycles, bytes)."""
        self.write({"event": "end", "job": self.job, "ok": self.ok,
                    "failures": [f.to_json() for f in self.failures], **info})

    def progress(self, **info: Any) -> None:
        """A progress record of the running job (tb/launch/progress.py prints them)."""
        self.write({"event": "progress", "job": self.job, **info})

    def note(self, message: str) -> None:
        """Something the user should know before a job runs (printed at once by the runner)."""
        self.log.warning("%s", message)
        self.write({"event": "note", "job": self.job, "message": message})

    def write(self, record: dict[str, Any]) -> None:
        if self.results is None:
            return
        with self.results.open("a") as out:
            out.write(json.dumps(record) + "\n")
