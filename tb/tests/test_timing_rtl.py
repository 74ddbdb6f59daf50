"""models.timing against the RTL: the estimate stays within its stated tolerance of CYCLES.

The workload report prints the model's cycles next to the RTL's CYCLES counter; this test
runs a GEMM-bound and a DMA-bound benchmark program and a random one on Verilator (fast
testbench mode, memory profile none, the conditions the model is calibrated for) and
fails when a change of the RTL or of the model moves them apart.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from models.gen import generate
from models.spec.configs import load_config
from models.timing import estimate_vector
from models.vector import Vector, save_vector
from tb import sweep_programs as P
from tb.launch.api import explain, program_jobs, run_jobs

#: Largest |estimate - CYCLES| / CYCLES: benchmark programs, and small random ones.
PERF_TOLERANCE = 0.10
RANDOM_TOLERANCE = 0.25
RANDOM_SEED = 4242


@pytest.mark.sim
def test_estimate_within_tolerance_of_rtl_cycles(tmp_path: Path) -> None:
    cfg = load_config("default")
    programs: dict[str, tuple[Vector, float]] = {
        "blocked_gemm": (P.perf_blocked_gemm(cfg, n=128, vt=2, rows=64), PERF_TOLERANCE),
        "dma": (P.perf_dma(cfg, rounds=4), PERF_TOLERANCE),
        "random": (generate(RANDOM_SEED, cfg), RANDOM_TOLERANCE),
    }
    dirs = [save_vector(vector, tmp_path / name) for name, (vector, _) in programs.items()]
    records = run_jobs("verilator", "default", program_jobs(dirs), mode="fast")
    for (name, (vector, tolerance)), record in zip(programs.items(), records, strict=True):
        assert record["passed"], f"{name}: {explain(record)}"
        cycles, estimate = record["cycles"], estimate_vector(vector).cycles
        assert abs(estimate - cycles) <= tolerance * cycles, \
            f"{name}: estimate {estimate}, RTL CYCLES {cycles} ({(estimate - cycles) / cycles:+.1%})"
