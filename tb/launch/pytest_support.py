"""Helpers shared by the pytest launchers tb/tests/test_uvm_*.py (one simulator run per call)."""
from __future__ import annotations

import pytest

from tb.launch.launch import prepare_env, run_all
from tb.paths import SIMS
from tb.plan.jobs import Job


def run(sim: str, jobs: list[tuple[str, Job]], mode: str = "full") -> dict[str, dict]:
    """Run jobs on a simulator in a testbench mode (one process per configuration); results
    by job name."""
    prepare_env()
    return {r["job"]: r for r in run_all(sim, jobs, parallel=1, waves=False, mode=mode)}


sims = pytest.mark.parametrize("sim", SIMS)
