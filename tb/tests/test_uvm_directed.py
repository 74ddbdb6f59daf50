"""Every directed vector (vectors/*/manifest.json) on both simulators, checked end to end."""
from __future__ import annotations

from tb.runner import ROOT, find_vectors
from tb.uvm.pytest_support import explain, run, sims
from tb.uvm.run import vector_jobs


@sims
def test_directed_vectors(sim: str) -> None:
    dirs = find_vectors([ROOT / "vectors"])
    assert dirs, "no directed vectors found"
    results = run(sim, vector_jobs(dirs, None, 1))
    assert len(results) == len(dirs)
    bad = {name: explain(r) for name, r in results.items() if not r["passed"]}
    assert not bad, "\n\n".join(f"{n}: {m}" for n, m in bad.items())
    assert all(r["compared_bytes"] > 0 for r in results.values())
