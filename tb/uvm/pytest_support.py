"""Helpers shared by the pytest launchers tb/tests/test_uvm_*.py (one simulator run per call)."""
from __future__ import annotations

import pytest

from tb.uvm.jobs import Job
from tb.uvm.run import prepare_env, run_all

SIMS = ("icarus", "verilator")


def run(sim: str, jobs: list[tuple[str, Job]]) -> dict[str, dict]:
    """Run jobs on a simulator (one process per configuration); results by job name."""
    prepare_env()
    return {r["job"]: r for r in run_all(sim, jobs, parallel=1, waves=False)}


sims = pytest.mark.parametrize("sim", SIMS)
