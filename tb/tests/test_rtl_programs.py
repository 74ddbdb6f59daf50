"""RTL runs of the programs in tb/sweep_programs.py through the pyuvm testbench (tb/uvm/api.py):
a configuration and alignment sweep with and without backpressure (expectations from the
golden model), and the functional check of the performance programs and counters."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.config import VtaConfig, load_config
from models.spec import SHIPPED_CONFIGS as SHIPPED
from models.vector import save_vector
from tb import sweep_programs as P
from tb.bench_rtl import run_programs
from tb.tests.test_lint import EXTRA_CONFIGS
from tb.uvm.api import explain, program_jobs, run_jobs

SWEEP = sorted(EXTRA_CONFIGS) + list(SHIPPED)
#: (configuration, simulator) pairs of the sweep: Icarus simulates every configuration;
#: Verilator the shipped ones whose models the other tests build anyway (a Verilator build
#: takes a minute of the suite's budget; tb/tests/test_lint.py lints all of them with it).
#: upstream_chisel (tb/duts) is the default with deeper queues: Icarus covers it.
SWEEP_RUNS = ([(name, "icarus") for name in SWEEP]
              + [(name, "verilator") for name in SHIPPED if name != "upstream_chisel"])
#: Profiles of the sweep: an ideal memory and one that stalls every channel.
PROFILES = ("none", "heavy")


def config_file(name: str, root: Path) -> str:
    """A shipped name as is; an extra configuration as the JSON file the runner reads."""
    if name in SHIPPED:
        return name
    path = root / f"{name}.json"
    path.write_text(json.dumps(EXTRA_CONFIGS[name]))
    return str(path)


def sweep_vectors(cfg: VtaConfig, root: Path) -> list[Path]:
    """Every instruction form, odd (unaligned) bases, degenerate shapes."""
    return [save_vector(P.mixed(cfg, 0), root / "mixed0"),
            save_vector(P.mixed(cfg, 1, bases=P.ODD_BASES), root / "oddbases"),
            save_vector(P.edges(cfg), root / "edges")]


@pytest.mark.sim
@pytest.mark.parametrize("name, sim", SWEEP_RUNS)
def test_config_sweep(name: str, sim: str, tmp_path: Path) -> None:
    config = config_file(name, tmp_path)
    dirs = sweep_vectors(load_config(config), tmp_path)
    jobs = [j for profile in PROFILES for j in program_jobs(dirs, profile, seed=5)]
    results = run_jobs(sim, config, jobs, mode="full")
    bad = {r["job"]: explain(r) for r in results if not r["passed"]}
    assert len(results) == len(dirs) * len(PROFILES) and not bad, \
        "\n\n".join(f"{name}/{job}: {text[:2000]}" for job, text in bad.items())
    assert all(r["compared_bytes"] > 0 for r in results)


@pytest.mark.sim
def test_performance_programs_and_counters(tmp_path: Path) -> None:
    """The bench programs (tb/bench_rtl.py) compute the right results and the performance
    counters count what the programs hold. The figures themselves are measured by
    `python -m tb.bench_rtl` and reported in rtl/README.md, not asserted here."""
    cfg = load_config("default")
    res = run_programs("verilator", "default", tmp_path)
    for name, r in res.items():
        assert r["passed"], f"{name}: {explain(r)}"
    # perf_gemm: a reset over 65 entries, 64x64 loops of two uops, 64x64 loops of one.
    assert res["perf_gemm"]["counters"]["GEMM_UOPS"] == 1 * 65 + 2 * 64 * 64 + 64 * 64
    # perf_load_store: one STORE row of 2048 OUT elements.
    assert res["perf_load_store"]["counters"]["WR_BYTES"] == 2048 * cfg.out_bytes
