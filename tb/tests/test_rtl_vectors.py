"""Every directed vector of vectors/ on both simulators (one simulator process per
configuration), and once more under random AXI backpressure on Icarus. One test per
simulator run, so parallel workers (pytest -n) never repeat a simulation."""
from __future__ import annotations

from collections import defaultdict

import pytest

from models.vector import load_vector
from tb.runner import ROOT, find_vectors, run_vectors

VECTOR_DIR = ROOT / "vectors"
VECTORS = find_vectors([VECTOR_DIR])
RUNS = {"icarus": ("icarus", None), "verilator": ("verilator", None),
        "icarus-stall": ("icarus", "0.5:11"), "verilator-stall": ("verilator", "0.3:12")}


def test_vectors_exist():
    assert len(VECTORS) >= 10, f"expected the directed vectors under {VECTOR_DIR}"


@pytest.mark.parametrize("run", sorted(RUNS))
def test_directed_vectors(run):
    sim, stall = RUNS[run]
    groups = defaultdict(list)
    for d in VECTORS:
        groups[load_vector(d).config].append(d)
    results = []
    for cfg, dirs in groups.items():
        results += run_vectors(sim, cfg, dirs, stall=stall, tag=f"pytest-{run}")
    assert len(results) == len(VECTORS)
    assert all(r["cycles"] for r in results if r["passed"])
    bad = [f"{r['vector']}: {r['message']}\n  reproduce: python -m tb.sim --sim {sim}"
           f"{' --stall ' + stall if stall else ''} {r['path']}" for r in results if not r["passed"]]
    assert not bad, f"{len(bad)} of {len(results)} vectors failed [{run}]:\n" + "\n".join(bad)
