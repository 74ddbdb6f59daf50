"""Random programs (configuration and backpressure profile drawn from each seed)."""
from __future__ import annotations

import pytest

from tb.uvm.api import explain
from tb.uvm.pytest_support import run, sims
from tb.uvm.run import random_jobs

SEED, COUNT = 1000, 50


@pytest.mark.sim
@sims
def test_random_programs(sim: str) -> None:
    results = run(sim, random_jobs(SEED, COUNT, None, None))
    assert len(results) == COUNT
    bad = {name: explain(r) for name, r in results.items() if not r["passed"]}
    assert not bad, "\n\n".join(f"{n}: {m[:2000]}" for n, m in bad.items())
