"""Progress of a run while it runs: simulator processes write records, this prints them.

Each simulator process appends records to its plan's ``results.jsonl`` (tb/uvm/checkers/verdict.py):
``start``/``end`` per job, ``progress`` every few seconds of a long job (cycles since launch,
instructions dispatched and completed, cycles/s, an estimate of the time left) and ``note``
before a job whose bound is hours or days of simulation. The runner's :class:`Progress`
thread tails those files: it prints every note at once and, once the run has lasted
INTERVAL seconds, one line per running plan every INTERVAL seconds, so a long run is never
silent for longer than that.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

#: Seconds between progress lines (a long run is never silent for longer); the environment
#: variable VTA_PROGRESS_INTERVAL overrides it.
INTERVAL = float(os.environ.get("VTA_PROGRESS_INTERVAL", "10"))
POLL = 1.0  # seconds between reads of the results files (notes are printed this fast)


@dataclass
class _Plan:
    """What the printer knows of one running simulator process."""

    label: str
    path: Path
    jobs: int
    offset: int = 0
    done: int = 0
    current: str = ""
    last: dict = field(default_factory=dict)  # newest progress record of the current job
    since: float = field(default_factory=time.perf_counter)  # wall time the current job began


class Progress:
    """Tails the results files of running plans; use as a context manager around a run."""

    def __init__(self, out: TextIO = sys.stdout, interval: float = INTERVAL) -> None:
        self.out = out
        self.interval = interval
        self.plans: list[_Plan] = []
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="progress", daemon=True)

    def __enter__(self) -> "Progress":
        self.t0 = time.perf_counter()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()

    def watch(self, label: str, path: Path, jobs: int) -> None:
        """Follow a plan's results file (it may not exist yet)."""
        with self.lock:
            self.plans.append(_Plan(label, path, jobs))

    def forget(self, path: Path) -> None:
        with self.lock:
            self.plans = [p for p in self.plans if p.path != path]

    def _run(self) -> None:
        next_line = self.t0 + self.interval
        while not self.stopped.wait(POLL):
            with self.lock:
                plans = list(self.plans)
            for plan in plans:
                self._read(plan)
            if time.perf_counter() >= next_line:
                for plan in plans:
                    print(self.line(plan), file=self.out, flush=True)
                next_line = time.perf_counter() + self.interval

    def _read(self, plan: _Plan) -> None:
        try:
            with plan.path.open() as f:
                f.seek(plan.offset)
                text = f.read()
        except OSError:
            return
        complete = text[:text.rfind("\n") + 1]  # a record still being written waits
        plan.offset += len(complete)
        for raw in complete.splitlines():
            rec = json.loads(raw)
            event = rec.get("event")
            if event == "start":
                plan.current, plan.last, plan.since = rec["job"], {}, time.perf_counter()
            elif event == "end":
                plan.done += 1
                plan.current = ""
            elif event == "progress":
                plan.last = rec
            elif event == "note":
                print(f"note: {rec['message']}", file=self.out, flush=True)

    def line(self, plan: _Plan) -> str:
        """One line: jobs done, and what the running job has done so far."""
        head = f"[progress] {plan.label}: {plan.done} of {plan.jobs} jobs done"
        if not plan.current:
            return head
        wall = time.perf_counter() - plan.since
        r = plan.last
        if not r:
            return f"{head}; {plan.current} running for {wall:.0f} s"
        eta = f", at most ~{r['eta']:,} s left" if r.get("eta") is not None else ""
        return (f"{head}; {plan.current}: {r['cycles']:,} cycles, {r['dispatched']}/{r['insns']} "
                f"insns dispatched, {r['completed']} completed, {r['rate']:,} cycles/s{eta} "
                f"({wall:.0f} s so far)")
