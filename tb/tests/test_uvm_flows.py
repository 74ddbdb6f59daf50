"""Register map and launch semantics, back-to-back launches without reset, a reset in
mid-program, and the register map under every host write timing, in both testbench modes
(on Verilator; on Icarus the first in the fast mode and the second in the full one);
the INSN_COUNT claim failing on the design built with VTA_TEST_BREAK_INSN_COUNT_HIGH."""
from __future__ import annotations

import pytest

from models.spec.configs import load_config
from tb.launch.api import explain
from tb.launch.pytest_support import run, sim_modes
from tb.plan.registry import JobRequest, make_jobs
from tb.uvm.seq_lib.hostvar import variants
from tb.uvm.seq_lib.launch_flow import launch_program


@pytest.mark.sim
@sim_modes("fast")
def test_register_map_and_launch_flows(sim: str, mode: str) -> None:
    jobs = (make_jobs("regmap", JobRequest(sim, "small", 1))
            + make_jobs("back2back", JobRequest(sim, "small", 7, profile="light"))
            + make_jobs("reset", JobRequest(sim, "small", 11, profile="bursty")))
    results = run(sim, jobs, mode)
    assert len(results) == len(jobs)
    for name, r in results.items():
        assert r["passed"], f"{name}: {explain(r)}"
    assert results["regmap"]["launch_cycles"] > 0  # the launch semantics ran too
    assert len(results["regmap"]["status_probed"]) >= 10  # every long instruction seen held
    # the probes saw every counted state (so each counter was held to a bound) and a START
    # was tried while the GEMM ran and while the padded LOAD ended the program
    assert set(results["regmap"]["status_tally"]) == {
        "LOAD_BUSY", "COMPUTE_BUSY", "STORE_BUSY", "LOAD_STALL", "COMPUTE_STALL", "STORE_STALL",
        "FETCH_STALL", "LOAD_EXEC", "GEMM_EXEC", "ALU_EXEC", "CLOAD_EXEC", "STORE_EXEC",
    }, results["regmap"]["status_tally"]
    assert results["regmap"]["ignored_start_at"] > 0 and len(results["regmap"]["ignored_starts_during"]) == 2
    # rtl/ is held to every claim: the relaunch with INSN_COUNT's bits 31:28 set (the register
    # table: ignored) and ERROR's stickiness, the last step, ran; nothing is left unchecked
    count = launch_program(load_config("small"), "vta").insn_count
    assert results["regmap"]["ignored_bits_count"] == 0xF0000000 | count
    assert results["regmap"]["error_sticky"] is True and "not_checked" not in results["regmap"]
    assert results["reset-mid-s11-bursty"]["reset_after"] > 0
    assert [r["job_spec"]["reset"] for n, r in results.items() if n.startswith("b2b")] == \
        [True, False, False]


#: Seeds of the host-timing flow's two jobs: address or data first with no lag (seed 2), and
#: lags and BREADY and RREADY holds of 1..3 cycles in every timing (seed 3).
HOSTVAR_SEEDS = (2, 3)


@pytest.mark.sim
@sim_modes("full")
def test_register_map_under_every_host_timing(sim: str, mode: str) -> None:
    """Every timing of tb/uvm/seq_lib/hostvar.py passes the register map, the WSTRB patterns, a batch
    of writes and a launch read during its run, and reached the port as asked (the flow
    checks tb/rtl/vta_tb_lite_watch.v's counts itself)."""
    jobs = [pair for seed in HOSTVAR_SEEDS for pair in make_jobs("hostvar", JobRequest(sim, "small", seed))]
    results = run(sim, jobs, mode)
    assert len(results) == len(jobs)
    for name, r in results.items():
        assert r["passed"], f"{name}: {explain(r)}"
        timings = {k: str(v) for k, v in variants(r["job_spec"]["seed"]).items()}
        assert r["timings"] == timings
        assert set(r["presented"]) == set(timings)
        assert all(n > 0 for n in r["sweeps_while_running"].values()), r["sweeps_while_running"]
