"""The job context (tb/uvm/context.py): built once from a job and its vector, it answers what
the components ask (footprints, memory faults, error responses, limits) without a simulator."""
from __future__ import annotations

import numpy as np

from models.progbuild import Program, as_bytes
from models.vector import load_vector
from tb.paths import ROOT
from tb.plan.backpressure import SLOWDOWN
from tb.plan.bus_errors import SLVERR, BusErrorEvent
from tb.plan.jobs import Job
from tb.plan.negative_programs import deadlock_vector
from tb.rules.watchdog import STALL_BASE
from tb.uvm.context import JobContext

GEMM = load_vector(ROOT / "vectors" / "gemm_basic")


def context(profile: str = "none", fault: str = "none") -> JobContext:
    ctx, problems = JobContext.build(Job("t", profile=profile, fault=fault), GEMM, "small", wall=5.0)
    assert not problems
    return ctx


def test_prediction_and_limits() -> None:
    ctx = context(profile="heavy")
    assert len(ctx.insns) == GEMM.insn_count and ctx.expect and ctx.result is not None
    assert ctx.limits.wall == 5.0 and 0 < ctx.limits.stall < ctx.limits.bound
    plain = context()
    assert ctx.limits.bound == plain.limits.bound * SLOWDOWN["heavy"] // SLOWDOWN["none"]
    assert ctx.store_ranges() and all(n > 0 for _, n, _ in ctx.store_ranges())
    assert ctx.describe(ctx.store_ranges()[0][2]).startswith("STORE")


def test_memory_faults_follow_the_job_fault() -> None:
    assert context().memory_faults().corrupt == []
    corrupt = context(fault="corrupt-read").memory_faults()
    assert corrupt.corrupt == context().data_reads() and corrupt.fail_reads == []
    assert len(context(fault="unrequested-slverr").memory_faults().fail_reads) == 1
    fetch = context(fault="slverr-fetch").memory_faults().errors
    assert fetch.resp("read", GEMM.insn_addr, GEMM.insn_addr + 4) == SLVERR
    assert not context().memory_faults().errors.active


def test_issuer_names_the_instruction_fetch() -> None:
    event = BusErrorEvent("R", SLVERR, GEMM.insn_addr, 1, 0, GEMM.insn_addr, 10)
    assert context().issuer(event, 8).startswith("the instruction fetch of insns #0..#0")


def test_a_deadlocking_program_is_predicted_without_problems_when_expected() -> None:
    vector = deadlock_vector(GEMM.config)
    _, problems = JobContext.build(Job("d", deadlock=True), vector, "small")
    assert problems == []
    _, problems = JobContext.build(Job("d"), vector, "small")
    assert problems and "not well-formed" in problems[0].message
    assert (problems[0].kind, problems[0].rule) == ("model", "token-imbalance")


def test_a_bus_only_dut_gets_a_stall_window_over_its_longest_compute_run() -> None:
    """A foreign DUT shows progress only as bus beats: between two instructions that move
    bytes it may legally compute for as long as the run of GEMMs and ALUs there takes.
    The run between the LOAD WGT and the STORE is two GEMMs of 1 micro-op x 60 x 50
    iterations, 2 x (2 x 3000 + 16) cycles of loop cost (tb/rules/watchdog.py); the window is
    4096 plus twice the run. rtl/ counts micro-ops, so its window stays 4096."""
    p = Program(GEMM.config)
    inp = p.alloc("inp", 1, as_bytes(np.ones((1, 1, 4), dtype=np.int8), np.int8))
    wgt = p.alloc("wgt", 1, as_bytes(np.ones((1, 4, 4), dtype=np.int8), np.int8))
    out = p.alloc("out", 1)
    p.load("inp", 0, inp, 1, 1)
    p.load("wgt", 0, wgt, 1, 1, push_next=True)
    p.gemm([(0, 0, 0)], iters=(60, 50), pop_prev=True)
    p.gemm([(0, 0, 0)], iters=(60, 50), push_next=True)
    p.store(0, out, 1, 1, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    vector = p.build("two long GEMMs")
    native, _ = JobContext.build(Job("n"), vector, "small")
    foreign, _ = JobContext.build(Job("f"), vector, "small", bus_only=True)
    assert native.limits.stall == STALL_BASE
    assert foreign.limits.stall == STALL_BASE + 2 * (2 * (2 * 60 * 50 + 16))
