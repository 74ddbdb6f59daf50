"""The RTL flows of ``make sim`` that run programs of their own (tb/plan/flow_jobs.py, the
registry's entries launched from here) pass on the real RTL on both simulators and in both
testbench modes, each reaching what it exists to test (tb/rules/reach.py). That each one
catches its class of bug is tb/tests/test_breaks.py's; what a flow asserts is in the flow,
so ``make sim TEST=NAME`` and this test judge alike.

Verilator runs every flow in the fast mode (``make sim``'s), and in the full mode with the
edges flow on the narrow bus only (its 16 jobs, not 48: the full mode wakes Python on every
clock, and the wide bus's programs differ only in their offsets); Icarus runs them in the
fast mode, the edges flow on the narrow bus. The perf flow (three programs on the default
configuration, long GEMMs and LOAD/STORE rows: half of each other run's CPU) runs in
Verilator's fast mode only: it checks its results and work counters against the model, which
hold alike on every simulator and in every mode, and its programs add no edge the others
miss. Both modes' checkers are held to the same verdicts on every fault by
tb/tests/test_uvm_negative.py."""
from __future__ import annotations

import pytest

from tb.launch.api import explain
from tb.launch.pytest_support import run
from tb.plan.jobs import Job
from tb.plan.registry import ENTRIES, FLOW_CONFIG, JobRequest, make_jobs

FLOWS = tuple(e.name for e in ENTRIES if e.launcher == "tb/tests/test_rtl_flows.py")


RUNS = (("verilator", "fast"), ("verilator", "full"), ("icarus", "fast"))


#: run only where the fast mode runs on Verilator (what it asserts is simulator-independent)
FAST_ONLY = ("perf",)


def flow_jobs(sim: str, mode: str) -> list[tuple[str, Job]]:
    narrow = (sim, mode) != ("verilator", "fast")
    return [pair for name in FLOWS if not (narrow and name in FAST_ONLY) for pair in make_jobs(
        name, JobRequest(sim, config=FLOW_CONFIG if narrow and name == "edges" else None))]


@pytest.mark.sim
@pytest.mark.parametrize("sim, mode", RUNS)
def test_flows_pass_and_reach_their_edges(sim: str, mode: str) -> None:
    jobs = flow_jobs(sim, mode)
    results = run(sim, jobs, mode)
    assert set(results) == {job.name for _, job in jobs}
    bad = {name: explain(r) for name, r in results.items() if not r["passed"]}
    assert not bad, "\n".join(f"{name}: {text[:1500]}" for name, text in bad.items())
    reached = {name for name, r in results.items() if r.get("capacity")}
    assert reached == set(results), "every job reports the checkers' records it is judged on"


def test_every_flow_is_launched_here() -> None:
    assert {"capacity", "push-pop", "leftover", "illegal", "contention", "padding", "b-bound",
            "pad-only", "edges", "sweep", "perf"} == set(FLOWS)
