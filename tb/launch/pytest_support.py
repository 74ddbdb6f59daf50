"""Helpers shared by the pytest launchers tb/tests/test_uvm_*.py (one simulator run per call)."""
from __future__ import annotations

import pytest

from tb.launch.launch import prepare_env, run_all
from tb.paths import SIMS
from tb.plan.jobs import Job
from tb.plan.testbench import MODES


def run(sim: str, jobs: list[tuple[str, Job]], mode: str = "full") -> dict[str, dict]:
    """Run jobs on a simulator in a testbench mode (one process per configuration); results
    by job name."""
    prepare_env()
    return {r["job"]: r for r in run_all(sim, jobs, parallel=1, waves=False, mode=mode)}


sims = pytest.mark.parametrize("sim", SIMS)


def sim_modes(icarus_mode: str) -> pytest.MarkDecorator:
    """(simulator, testbench mode) pairs of a test that holds both simulators to its checks:
    every mode on Verilator (make sim's default), one on Icarus (four-state, three to eight
    times the CPU per cycle). Tests that come in pairs name opposite Icarus modes, so each
    pair of values still runs, at half the Icarus time (make test's 10-minute budget)."""
    assert icarus_mode in MODES, icarus_mode
    return pytest.mark.parametrize("sim, mode", [("verilator", m) for m in MODES] + [("icarus", icarus_mode)])
