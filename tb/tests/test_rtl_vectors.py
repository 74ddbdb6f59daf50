"""Every directed vector of vectors/ on both simulators (one simulator process per
configuration), and once more under random AXI backpressure on Icarus."""
from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import pytest

from models.vector import load_vector
from tb.runner import ROOT, find_vectors, run_vectors

VECTOR_DIR = ROOT / "vectors"
VECTORS = find_vectors([VECTOR_DIR])
RUNS = {"icarus": None, "verilator": None, "icarus-stall": "0.5:11"}


@lru_cache(maxsize=None)
def results(run: str) -> dict[str, dict]:
    sim = run.split("-")[0]
    groups = defaultdict(list)
    for d in VECTORS:
        groups[load_vector(d).config].append(d)
    out = {}
    for cfg, dirs in groups.items():
        for r in run_vectors(sim, cfg, dirs, stall=RUNS[run], tag=f"pytest-{run}"):
            out[r["vector"]] = r
    return out


def test_vectors_exist():
    assert len(VECTORS) >= 10, f"expected the directed vectors under {VECTOR_DIR}"


@pytest.mark.parametrize("run", sorted(RUNS))
@pytest.mark.parametrize("vector", [d.name for d in VECTORS])
def test_vector(run, vector):
    r = results(run)[vector]
    assert r["passed"], f"{vector} [{run}]: {r['message']}"
    assert r["cycles"] and r["cycles"] > 0
