"""Random programs (configuration and backpressure profile drawn from each seed), in the
fast mode as the regression runs them (the directed vectors and flows cover both modes)."""
from __future__ import annotations

import pytest

from tb.launch.api import explain
from tb.launch.pytest_support import run, sims
from tb.plan.makers import random_jobs

SEED = 1000
#: Programs per simulator: Icarus runs about a third as fast in the fast mode (its share is
#: what make test's budget allows; `make regress SIM=icarus` runs more).
COUNT = {"icarus": 20, "verilator": 80}


@pytest.mark.sim
@sims
def test_random_programs(sim: str) -> None:
    results = run(sim, random_jobs(SEED, COUNT[sim], None, None), "fast")
    assert len(results) == COUNT[sim]
    bad = {name: explain(r) for name, r in results.items() if not r["passed"]}
    assert not bad, "\n\n".join(f"{n}: {m[:2000]}" for n, m in bad.items())
