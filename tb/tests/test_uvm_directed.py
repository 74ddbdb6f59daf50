"""Every directed vector (vectors/*/manifest.json) on both simulators, checked end to end.
On Verilator: the fast mode (``make sim``'s) with an ideal memory and with every AXI channel
stalled (profile heavy), and the full mode (Python's bus checkers) stalled, the harder of its
two; the full mode on an ideal memory runs every contract-edge flow (test_rtl_flows.py). On
Icarus (several times the CPU per cycle): the fast mode with no backpressure. Icarus's full
mode and its backpressure are held elsewhere: the register-map flows and every checker's
fault in the full mode (tb/tests/test_uvm_flows.py, test_uvm_negative.py), random programs
with drawn profiles (test_uvm_random.py)."""
from __future__ import annotations

import pytest

from models.vector import find_vectors
from tb.launch.api import explain
from tb.launch.pytest_support import run
from tb.paths import ROOT
from tb.plan.makers import vector_jobs

#: The directed vectors' count when this test was written: a lost vector fails the test.
MIN_VECTORS = 40


#: (simulator, profile, mode)
RUNS = [("verilator", "none", "fast"), ("verilator", "heavy", "fast"), ("verilator", "heavy", "full"),
        ("icarus", "none", "fast")]


@pytest.mark.sim
@pytest.mark.parametrize("sim, profile, mode", RUNS)
def test_directed_vectors(sim: str, profile: str, mode: str) -> None:
    dirs = find_vectors([ROOT / "vectors"])
    assert len(dirs) >= MIN_VECTORS, f"expected the directed vectors under {ROOT / 'vectors'}"
    results = run(sim, vector_jobs(dirs, profile, 1), mode)
    assert len(results) == len(dirs)
    bad = {name: explain(r) for name, r in results.items() if not r["passed"]}
    assert not bad, "\n\n".join(f"{n}: {m}" for n, m in bad.items())
    assert all(r["compared_bytes"] > 0 and r["cycles"] > 0 for r in results.values())
    assert all(r["job_spec"]["profile"] == profile for r in results.values())
