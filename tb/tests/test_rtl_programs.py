"""RTL runs of the programs in tb/programs.py: configuration and alignment sweeps
(expectations from the golden model), performance targets, and the host interface."""
from __future__ import annotations

from pathlib import Path

import pytest

from models.config import VtaConfig, load_config
from models.vector import save_vector
from tb import programs as P
from tb.runner import build_dir, run_cocotb, run_vectors
from tb.tests.test_lint import EXTRA_CONFIGS

SWEEP = {name: VtaConfig.from_dict(v, name) for name, v in EXTRA_CONFIGS.items()
         if name != "deep_queues"}
SWEEP.update({name: load_config(name) for name in ("default", "small", "batch2")})
ODD_BASES = {"uop": 0x1001, "inp": 0x333, "wgt": 0x7, "acc": 0x1235, "out": 0x4F}


def _vectors(cfg: VtaConfig, name: str, root: Path) -> list[Path]:
    return [save_vector(P.mixed(cfg, 0), root / f"{name}_mixed0"),
            save_vector(P.mixed(cfg, 1, bases=ODD_BASES), root / f"{name}_oddbases"),
            save_vector(P.edges(cfg), root / f"{name}_edges")]


@pytest.mark.parametrize("sim,stall", [("icarus", None), ("verilator", "0.4:5")])
@pytest.mark.parametrize("name", sorted(SWEEP))
def test_config_sweep(name, sim, stall, tmp_path):
    cfg = SWEEP[name]
    res = run_vectors(sim, cfg, _vectors(cfg, name, tmp_path), stall=stall, tag="pytest-sweep")
    bad = [f"{r['vector']}: {r['message']}" for r in res if not r["passed"]]
    assert len(res) == 3 and not bad, bad


def test_performance_programs_and_counters(tmp_path):
    """The bench programs (tb/bench_rtl.py) compute the right results and the performance
    counters count what the programs hold. The figures themselves are measured by
    `python -m tb.bench_rtl` and reported in rtl/README.md, not asserted here."""
    cfg = load_config("default")
    vecs = [save_vector(P.perf_gemm(cfg), tmp_path / "perf_gemm"),
            save_vector(P.perf_load_store(cfg), tmp_path / "perf_load_store"),
            save_vector(P.perf_overlap(cfg), tmp_path / "perf_overlap")]
    res = {r["vector"]: r for r in run_vectors("verilator", cfg, vecs, tag="pytest-perf")}
    for r in res.values():
        assert r["passed"], f"{r['vector']}: {r['message']}"
    # perf_gemm: a reset over 65 entries, 64x64 loops of two uops, 64x64 loops of one.
    assert res["perf_gemm"]["counters"]["GEMM_UOPS"] == 1 * 65 + 2 * 64 * 64 + 64 * 64
    # perf_load_store: one STORE row of 2048 OUT elements.
    assert res["perf_load_store"]["counters"]["WR_BYTES"] == 2048 * cfg.out_bytes


@pytest.mark.parametrize("sim", ["icarus", "verilator"])
def test_host_interface(sim, tmp_path):
    cfg = load_config("small")
    vec = save_vector(P.mixed(cfg, 2), tmp_path / "regs")
    tdir, crash = run_cocotb(sim, cfg, "tb.cocotb_regs", {"VTA_VECTOR": str(vec)}, tag="pytest-regs")
    xml = (tdir / "results.xml").read_text() if (tdir / "results.xml").exists() else ""
    assert not crash and "<testcase" in xml and "<failure" not in xml, \
        f"{crash}; see {tdir / 'sim.log'}"
