"""A simulator process that stays up and runs batches of jobs handed to it one after another.

tb/run.py knows every job before it starts a simulator. The shrinker (tb/triage/shrink.py)
does not: each batch of candidate programs depends on which of the previous batch still
failed. Starting a simulator per batch costs seconds (Python, cocotb, pyuvm, the
environment's build phase), many times what a small candidate takes to simulate, so the
session starts one process and feeds it: the client writes ``batch-<k>.json`` (the jobs)
into a queue directory, the cocotb test (tb/uvm/cocotb_plan.py, ``Plan.queue``; its side of
the queue is tb/plan/handoff.py) runs them like any plan's jobs, appending their records to
the results file, and writes ``batch-<k>.done``. A ``stop`` file, the client's death or an
idle hour ends the process. If the simulator dies in a job, that job gets an ``error`` record
and the rest of the batch runs in a fresh process, as the launcher's restarts do
(tb/launch/launch.py).
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import asdict
from pathlib import Path

from tb.plan.handoff import POLL
from tb.plan.jobs import Job, Plan, Results

#: Fresh simulator processes after one dies in a job, for the rest of its jobs: a session's
#: batch here, a plan's jobs in tb/launch/launch.py; jobs still left then get an error record.
MAX_RESTARTS = 5


class SimSession:
    """The client's side: ``run(jobs)`` returns one result record per job, in order.

    Records are the end records of tb/uvm/cocotb_plan.py (``job``, ``passed``, ``failures``,
    ``cycles``, ...) plus ``job_spec``, ``sim``, ``config`` and ``mode``, as the launcher's
    (tb/launch/launch.py).
    """

    def __init__(self, sim: str, config: str, mode: str, workdir: Path, failures: Path,
                 timeout: float | None = None, dut: str = "vta") -> None:
        self.sim, self.config, self.mode, self.timeout = sim, config, mode, timeout
        self.dut = dut  # the DUT profile (tb/duts): its build, register map and limits
        self.workdir, self.failures = workdir, failures
        self.starts = 0
        self.thread: threading.Thread | None = None

    def __enter__(self) -> "SimSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        """A fresh simulator process waiting on its own queue directory."""
        from models.spec.configs import load_config
        from tb.launch.simbuild import build, run_plan_test

        bdir = build(self.sim, load_config(self.config), False, self.mode, self.dut)
        self.tdir = self.workdir / f"session-{self.starts}"
        self.starts += 1
        self.queue = self.tdir / "queue"
        self.queue.mkdir(parents=True, exist_ok=True)
        self.results = self.tdir / "results.jsonl"
        self.results.unlink(missing_ok=True)
        self.batch = 0
        plan = Plan(self.sim, self.config, [], str(self.results), str(self.failures), {},
                    self.timeout, self.mode, dut=self.dut, queue=str(self.queue))
        plan.save(self.tdir / "plan.json")
        tdir = self.tdir

        def target() -> None:
            try:
                run_plan_test(self.sim, self.mode, bdir, tdir, tdir / "plan.json")
            except (SystemExit, RuntimeError):  # failed jobs fail the cocotb test: expected
                pass

        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()

    def run(self, jobs: list[Job]) -> list[dict]:
        """Run ``jobs`` (unique names) in the session's process, restarting it after a crash."""
        done: dict[str, dict] = {}
        remaining = list(jobs)
        for _ in range(MAX_RESTARTS + 1):
            if not remaining:
                break
            if self.thread is None or not self.thread.is_alive():
                self._start()
            finished = self._batch(remaining)
            done.update(finished)
            remaining = [j for j in remaining if j.name not in done]
        for job in remaining:
            done[job.name] = job.no_result("the simulator kept stopping")
        for job in jobs:
            done[job.name].update(job_spec=asdict(job), sim=self.sim, config=self.config,
                                  mode=self.mode)
        return [done[j.name] for j in jobs]

    def _batch(self, jobs: list[Job]) -> dict[str, dict]:
        """Hand one batch to the running process; the records of the jobs it finished (and an
        error record for the job it died in, if it died)."""
        name = f"batch-{self.batch}"
        tmp = self.queue / f"{name}.tmp"
        tmp.write_text(json.dumps([asdict(j) for j in jobs]))
        tmp.replace(self.queue / f"{name}.json")
        marker = self.queue / f"{name}.done"
        while not marker.exists() and self.thread is not None and self.thread.is_alive():
            time.sleep(POLL)
        self.batch += 1
        read = Results.read(self.results, {j.name for j in jobs})
        out, current = {rec["job"]: rec for rec in read.ends}, read.unfinished
        if not marker.exists() and current is not None:  # died in this job
            out[current] = next(j for j in jobs if j.name == current).no_result(
                f"the simulator stopped during this job; see {self.tdir / 'sim.log'}")
        return out

    def close(self) -> None:
        """Stop the process (it ends its cocotb test and exits) and wait for it."""
        if self.thread is not None and self.thread.is_alive():
            (self.queue / "stop").write_text("")
            self.thread.join(timeout=60)
        self.thread = None
