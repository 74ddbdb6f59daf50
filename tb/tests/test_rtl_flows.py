"""The RTL flows of ``make sim`` that run programs of their own (tb/uvm/flow_jobs.py, the
registry's entries launched from here) pass on the real RTL on both simulators and in both
testbench modes, each reaching what it exists to test (tb/uvm/reach.py). That each one
catches its class of bug is tb/tests/test_breaks.py's; what a flow asserts is in the flow,
so ``make sim TEST=NAME`` and this test judge alike.

On Icarus the edges flow runs on the flows' configuration only (its 16 jobs, not the 48 of
the narrow and the wide bus: a minute of Icarus for the same programs Verilator runs)."""
from __future__ import annotations

import pytest

from tb.uvm.api import explain
from tb.uvm.jobs import Job
from tb.uvm.pytest_support import MODES, SIMS, run
from tb.uvm.registry import ENTRIES, FLOW_CONFIG, JobRequest, make_jobs

FLOWS = tuple(e.name for e in ENTRIES if e.launcher == "tb/tests/test_rtl_flows.py")


def flow_jobs(sim: str) -> list[tuple[str, Job]]:
    return [pair for name in FLOWS for pair in make_jobs(
        name, JobRequest(sim, config=FLOW_CONFIG if sim == "icarus" and name == "edges" else None))]


@pytest.mark.sim
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sim", SIMS)
def test_flows_pass_and_reach_their_edges(sim: str, mode: str) -> None:
    jobs = flow_jobs(sim)
    results = run(sim, jobs, mode)
    assert set(results) == {job.name for _, job in jobs}
    bad = {name: explain(r) for name, r in results.items() if not r["passed"]}
    assert not bad, "\n".join(f"{name}: {text[:1500]}" for name, text in bad.items())
    reached = {name for name, r in results.items() if r.get("capacity")}
    assert reached == set(results), "every job reports the checkers' records it is judged on"


def test_every_flow_is_launched_here() -> None:
    assert {"capacity", "push-pop", "leftover", "illegal", "contention", "padding", "b-bound",
            "pad-only", "edges", "sweep"} == set(FLOWS)
