"""RTL runs of the programs in tb/sweep_programs.py through the pyuvm testbench (tb/launch/api.py):
``make sim``'s sweep flow (every instruction form, odd bases, degenerate shapes, with and
without backpressure, expectations from the golden model) on nine configurations, and the
functional check of the performance programs and counters."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.predict import predict
from models.spec import SHIPPED_CONFIGS as SHIPPED
from models.spec.configs import load_config
from tb import sweep_programs as P
from tb.launch.api import explain, run_jobs
from tb.plan.flow_jobs import SWEEP_PROFILES
from tb.plan.registry import JobRequest, make_jobs
from tb.tests.test_lint import EXTRA_CONFIGS

SWEEP = sorted(EXTRA_CONFIGS) + list(SHIPPED)
#: (configuration, simulator) pairs of the sweep: Icarus simulates every configuration;
#: Verilator the shipped ones whose models the other tests build anyway (a Verilator build
#: takes a minute of the suite's budget; tb/tests/test_lint.py lints all of them with it).
#: upstream_chisel (tb/duts) is the default with deeper queues: Icarus covers it.
SWEEP_RUNS = ([(name, "icarus") for name in SWEEP]
              + [(name, "verilator") for name in SHIPPED if name != "upstream_chisel"])


#: The sweep's testbench mode per simulator: the full mode on Icarus (every configuration,
#: builds of seconds), the fast mode on Verilator (the builds `make sim` makes; a full-mode
#: C++ build per configuration would cost make test about 25 s of CPU each).
SWEEP_MODE = {"icarus": "full", "verilator": "fast"}


def config_file(name: str, root: Path) -> str:
    """A shipped name as is; an extra configuration as the JSON file the runner reads."""
    if name in SHIPPED:
        return name
    path = root / f"{name}.json"
    path.write_text(json.dumps(EXTRA_CONFIGS[name]))
    return str(path)


@pytest.mark.sim
@pytest.mark.parametrize("name, sim", SWEEP_RUNS)
def test_config_sweep(name: str, sim: str, tmp_path: Path) -> None:
    """``make sim TEST=sweep CONFIG=...`` (tb/plan/flow_jobs.py) on every configuration."""
    config = config_file(name, tmp_path)
    jobs = make_jobs("sweep", JobRequest(sim, config=config, seed=5))
    results = run_jobs(sim, config, [job for _, job in jobs], mode=SWEEP_MODE[sim])
    bad = {r["job"]: explain(r) for r in results if not r["passed"]}
    assert len(results) == 3 * len(SWEEP_PROFILES) and not bad, \
        "\n\n".join(f"{name}/{job}: {text[:2000]}" for job, text in bad.items())
    assert all(r["compared_bytes"] > 0 for r in results)


def test_performance_programs_count_what_they_hold() -> None:
    """The work the benchmark programs (tb/bench_rtl.py, ``make sim TEST=perf``, where the
    RTL's counters are held to the model's prediction) hold, counted by hand. The figures
    themselves are measured by `python -m tb.bench_rtl` and reported in rtl/README.md."""
    cfg = load_config("default")
    gemm, load_store = predict(P.perf_gemm(cfg)).counters, predict(P.perf_load_store(cfg)).counters
    assert gemm is not None and load_store is not None  # both well-formed
    # perf_gemm: a reset over 65 entries, 64x64 loops of two uops, 64x64 loops of one.
    assert gemm["GEMM_UOPS"] == 1 * 65 + 2 * 64 * 64 + 64 * 64
    # perf_load_store: one STORE row of 2048 OUT elements.
    assert load_store["WR_BYTES"] == 2048 * cfg.out_bytes
