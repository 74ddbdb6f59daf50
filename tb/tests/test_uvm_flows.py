"""Register map and launch semantics, back-to-back launches without reset, and a reset in
mid-program, in both testbench modes."""
from __future__ import annotations

import pytest

from tb.uvm.api import explain
from tb.uvm.pytest_support import MODES, run, sims
from tb.uvm.registry import JobRequest, make_jobs


@pytest.mark.sim
@pytest.mark.parametrize("mode", MODES)
@sims
def test_register_map_and_launch_flows(sim: str, mode: str) -> None:
    jobs = (make_jobs("regmap", JobRequest(sim, "small", 1))
            + make_jobs("back2back", JobRequest(sim, "small", 7, profile="light"))
            + make_jobs("reset", JobRequest(sim, "small", 11, profile="bursty")))
    results = run(sim, jobs, mode)
    assert len(results) == len(jobs)
    for name, r in results.items():
        assert r["passed"], f"{name}: {explain(r)}"
    assert results["regmap"]["launch_cycles"] > 0  # the launch semantics ran too
    assert results["reset-mid-s11-bursty"]["reset_after"] > 0
    assert [r["job_spec"]["reset"] for n, r in results.items() if n.startswith("b2b")] == \
        [True, False, False]
