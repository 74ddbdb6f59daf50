"""Python API of the testbench for tests and benchmarks that build their own programs.

    run_jobs(sim, config, jobs, mode) -> list[dict] # one result record per job, in order
    program_jobs(dirs, profile, seed) -> list[Job]  # a job per vector directory
    explain(record) -> str                          # its failures, one per line

``config`` is a shipped name or a JSON file (as ``--config``); all jobs run in one
simulator process on that configuration's build. A record holds ``job``, ``passed``,
``failures`` (kind, cycle, message), ``cycles`` (the CYCLES register), ``compared_bytes``
and, for every program that reached DONE, ``counters``: the RTL's performance counters
by name (tb/rules/regs.py: COUNTERS).
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from tb.launch.launch import prepare_env, run_all
from tb.plan.dutmap import NATIVE
from tb.plan.jobs import Job


def program_jobs(dirs: Sequence[Path], profile: str = "none", seed: int = 1) -> list[Job]:
    """One program job per vector directory; ``seed`` seeds the backpressure generators."""
    return [Job(f"{Path(d).name}-{profile}", vector=str(Path(d).resolve()), seed=seed,
                profile=profile) for d in dirs]


def run_jobs(sim: str, config: str, jobs: Sequence[Job], mode: str = "fast",
             parallel: int = 1, dut: str = NATIVE) -> list[dict]:
    """Run jobs on one configuration's build in a testbench mode (tb/run.py ``--mode``),
    in ``parallel`` simulator processes, on DUT profile ``dut``; records in the order of ``jobs``."""
    prepare_env()
    by_name = {r["job"]: r for r in run_all(sim, [(config, j) for j in jobs], parallel, False,
                                            mode=mode, dut=dut)}
    return [by_name[j.name] for j in jobs]


def explain(record: dict) -> str:
    """A record's failures as text, for assertion messages."""
    return "\n".join(f"[{f['kind']}] {f['message']}" for f in record["failures"]) or "no failure"
