"""models.timing: cycle counts worked out by hand from the RTL's description.

Every expectation below is derived in its comment from rtl/README.md and the RTL sources,
not from the model: the fetch stream, the four phases of an instruction, token and queue
hand-over, the engines' per-element and per-beat costs. (The same programs on Verilator,
memory profile none, show the same CYCLES; tb/tests/test_timing_rtl.py checks the model
against the RTL on larger programs.)

The timeline every derivation uses (cycle 0 = the first cycle after START, bus 8 bytes):
fetch's first burst request is on the arbiter in cycle 2 and its beats enter fetch's FIFO
one per cycle from cycle 5, so with the stream aligned, instruction n (beats 2n and 2n+1)
is dispatched in cycle 8 + 2n. A module takes it from its queue in the next cycle (IDLE,
``start``), pops in the cycle after (POP, ``go``, longer while a token is missing), is in
EXEC for the engine's busy cycles E plus one, and pushes in one cycle (PUSH, longer while
a counter is full): the next instruction's IDLE is at go + E + 3. A token pushed in cycle
c can be popped in c + 1. CYCLES = FINISH's PUSH cycle + 1. A LOAD's engine requests its
data 2 cycles after go, and its first beat comes 3 cycles later unless the read channel
is still returning beats requested before (fetch's included). The shipped configurations
have PIPE_STAGES 3: a GEMM/ALU of n micro-ops keeps the pipeline busy n + 5 cycles (n + 2 +
PIPE_STAGES, rtl/README.md, "GEMM/ALU pipeline").
"""
from __future__ import annotations

import numpy as np
import pytest

from models.config import VtaConfig
from models.decode import decode_program
from models.isa import MemType, Opcode, insns_to_bytes
from models.progbuild import Program, UopRange
from models.spec.configs import load_config
from models.timing import TimingError, TimingEstimate, estimate, estimate_vector, insn_work
from models.vector import Image, Vector

DEFAULT = load_config("default")  # INP 16 B (2 beats), WGT 256 B, ACC 64 B, OUT 16 B
SMALL = load_config("small")      # INP 4 B, WGT 16 B, ACC 16 B, OUT 4 B, UOP 4 B
BASES = {b: 0 for b in ("uop", "inp", "wgt", "acc", "out")}


def with_keys(cfg: VtaConfig, **keys: int) -> VtaConfig:
    """A configuration with some keys changed (queue depths, say)."""
    return VtaConfig.from_dict({**cfg.values, **keys})


def data(n: int) -> bytes:
    return np.arange(n, dtype=np.int64).astype(np.int8).tobytes()


def run(program: Program, queues_may_fill: bool = False) -> TimingEstimate:
    return estimate_vector(program.build("timing test", queues_may_fill))


# --- whole programs ------------------------------------------------------------------------

def test_finish_alone() -> None:
    # FINISH is instruction 0: dispatched in 8, IDLE 9, POP 10, EXEC 11 (nothing to do),
    # PUSH 12 -> CYCLES 13; compute is busy in POP, EXEC and PUSH.
    p = Program(DEFAULT)
    p.finish()
    est = run(p)
    assert est.cycles == 13
    assert est.busy == {"LOAD_BUSY": 0, "COMPUTE_BUSY": 3, "STORE_BUSY": 0}
    assert set(est.exec_cycles.values()) == {0} and set(est.stall.values()) == {0}


def test_gemm_of_n_micro_ops_on_chip() -> None:
    # 0 LOAD UOP of 1 micro-op (the builder's table), 1 GEMM of n micro-ops, 2 FINISH.
    # Fetch reads 3 x 16 B = 6 beats in cycles 5..10, so the channel is free for the LOAD.
    # LOAD UOP: dispatched 8, IDLE 9, go 10; 4-byte elements come faster than the writer
    #   takes them: first beat in 10 + 5, written in the next cycle, write enable dropped
    #   one later: E = 1 + 6 = 7; next IDLE 10 + 7 + 3 = 20.
    # GEMM: IDLE 20, go 21; the pipeline takes one micro-op per cycle and 2 + PIPE_STAGES
    #   = 5 cycles to drain: E = n + 5; next IDLE 21 + n + 8 = n + 29.
    # FINISH: IDLE n + 29, go n + 30, PUSH n + 32 -> CYCLES n + 33.
    n = 100
    p = Program(DEFAULT)
    p.gemm([(0, 0, 0)], (n, 1), dst=(1, 0), reset=True)
    p.finish()
    est = run(p)
    assert est.cycles == n + 33
    assert est.exec_cycles == {"GEMM_EXEC": n + 5, "ALU_EXEC": 0, "CLOAD_EXEC": 7, "LOAD_EXEC": 0,
                               "STORE_EXEC": 0}
    assert est.busy["COMPUTE_BUSY"] == (7 + 3) + (n + 5 + 3) + 3


@pytest.mark.parametrize("cfg, kind, k, exec_cycles", [
    (DEFAULT, "inp", 64, 2 * 64 + 6),  # 16-byte elements: 2 beats each, the beats set the pace
    (DEFAULT, "wgt", 1, 32 + 6),       # 256 bytes: 32 beats
    (SMALL, "inp", 16, 16 + 6),        # 4-byte elements: the writer's one per cycle sets it
])
def test_load_of_k_elements(cfg: VtaConfig, kind: str, k: int, exec_cycles: int) -> None:
    # 0 LOAD push_next, 1 FINISH pop_prev. The LOAD: dispatched 8, IDLE 9, go 10; its first
    # beat in 15 (fetch's 4 beats ended in 8); data then flow one beat (or one element)
    # per cycle, the last element is written one cycle after it is complete and the
    # write enable drops one later: E = max(beats, elements) + 6; PUSH in 12 + E.
    # FINISH: IDLE 11, pops in 13 + E (stalling 13 + E - 12 cycles), PUSH 15 + E.
    p = Program(cfg)
    dram = p.alloc(kind, k, data(k * p.elem_bytes(kind)))
    p.load(kind, 0, dram, 1, k, push_next=True)
    p.finish(pop_prev=True)
    est = run(p)
    assert est.exec_cycles["LOAD_EXEC"] == exec_cycles
    assert est.cycles == 16 + exec_cycles
    assert est.stall == {"LOAD_STALL": 0, "COMPUTE_STALL": exec_cycles + 1, "STORE_STALL": 0}


def test_compute_waits_for_the_load_token() -> None:
    # small; 0 LOAD UOP (1), 1 LOAD INP 16 push_next, 2 GEMM of 10 pop_prev, 3 FINISH.
    # Fetch: 8 beats in cycles 5..12. LOAD UOP: IDLE 9, go 10, E 7, next IDLE 20.
    # LOAD INP: dispatched 10, IDLE 11, go 12, first beat 17 (the UOP's one beat was in
    #   15), E = 16 + 6 = 22, PUSH 12 + 2 + 22 = 36.
    # GEMM: IDLE 20, pops in 37 (a 16-cycle stall), E = 15, next IDLE 37 + 18 = 55.
    # FINISH: IDLE 55, go 56 -> CYCLES 59.
    p = Program(SMALL)
    dram = p.alloc("inp", 16, data(16 * SMALL.inp_bytes))
    p.load("inp", 0, dram, 1, 16, push_next=True)
    p.gemm([(0, 0, 0)], (10, 1), dst=(1, 0), reset=True, pop_prev=True)
    p.finish()
    est = run(p)
    assert est.cycles == 59
    assert est.stall == {"LOAD_STALL": 0, "COMPUTE_STALL": 16, "STORE_STALL": 0}
    assert est.busy["LOAD_BUSY"] == 22 + 3


def test_push_waits_for_room_in_a_full_counter() -> None:
    # small with TOKEN_QUEUE_DEPTH 1: 0 LOAD UOP (1), 1-2 two no-op LOADs pushing L2C,
    # 3 GEMM of 50, 4-5 two empty GEMMs popping L2C, 6 FINISH.
    # Fetch: 7 x 2 = 14 beats in cycles 5..18, so the LOAD UOP (go 10) gets its beat in 19,
    #   4 cycles late: E = 7 + 4 = 11, next IDLE 24.
    # LOAD 1: IDLE 11, go 12, PUSH 14 (next IDLE 15). LOAD 2: IDLE 15, go 16, PUSH from
    #   18, but L2C already holds its one token.
    # GEMM of 50: IDLE 24, go 25, E 55, next IDLE 83. GEMM 4 pops in 84, so LOAD 2
    #   pushes in 85 (stalled 85 - 18 = 67 cycles). GEMM 4 done 87; GEMM 5 pops in 88,
    #   next IDLE 91; FINISH IDLE 91, go 92 -> CYCLES 95.
    p = Program(with_keys(SMALL, TOKEN_QUEUE_DEPTH=1))
    p.load("inp", 0, 0, 0, 0, push_next=True)
    p.load("inp", 0, 0, 0, 0, push_next=True)
    p.gemm([(0, 0, 0)], (50, 1), dst=(1, 0), reset=True)
    p.gemm(UopRange(0, 0), pop_prev=True)
    p.gemm(UopRange(0, 0), pop_prev=True)
    p.finish()
    est = run(p, queues_may_fill=True)
    assert est.cycles == 95
    assert est.stall["LOAD_STALL"] == 67
    assert est.exec_cycles["CLOAD_EXEC"] == 11


def test_fetch_stalls_in_order_on_a_full_command_queue() -> None:
    # small with CMD_QUEUE_DEPTH 1: 0 LOAD UOP (1), 1 GEMM of 30, 2-3 empty GEMMs,
    # 4 LOAD INP 16 push_next, 5 FINISH pop_prev. Fetch: 12 beats in cycles 5..16.
    # LOAD UOP: IDLE 9, go 10, beat due in 15 but the channel is busy until 16:
    #   E = 7 + 2 = 9, next IDLE 22. GEMM 1: dispatched 10 (the queue emptied in 9),
    #   IDLE 22, go 23, E 35, next IDLE 61. GEMM 2 waits for GEMM 1 to leave the queue:
    #   dispatched 23, IDLE 61, next 65. GEMM 3: dispatched 62, IDLE 65, next 69.
    # The LOAD, for the load module's empty queue, waits behind GEMM 3 in fetch: its
    #   gearbox got one beat while GEMM 3 waited, so it needs one more cycle: dispatched
    #   63, IDLE 64, go 65, E 22, PUSH 89.
    # FINISH: dispatched 66, IDLE 69, pops in 90 -> CYCLES 93.
    p = Program(with_keys(SMALL, CMD_QUEUE_DEPTH=1))
    p.gemm([(0, 0, 0)], (30, 1), dst=(1, 0), reset=True)
    p.gemm(UopRange(0, 0))
    p.gemm(UopRange(0, 0))
    dram = p.alloc("inp", 16, data(16 * SMALL.inp_bytes))
    p.load("inp", 0, dram, 1, 16, push_next=True)
    p.finish(pop_prev=True)
    est = run(p)
    assert est.cycles == 93
    assert est.busy["LOAD_BUSY"] == 22 + 3


def test_loads_of_two_modules_share_the_read_channel() -> None:
    # default: 0 LOAD ACC 16 (compute), 1 LOAD INP 8 push_next (load), 2 FINISH pop_prev.
    # LOAD ACC: go 10, requests in 12, beats 15..142 (16 x 8 beats), E = 128 + 6.
    # LOAD INP: go 12, requests in 14, its first beat would come in 17 but the ACC's are
    #   ahead (one burst, so all of them): 126 cycles later. E = 16 + 6 + 126 = 148,
    #   PUSH 12 + 2 + 148 = 162. FINISH pops in 163 -> CYCLES 166.
    p = Program(DEFAULT)
    acc = p.alloc("acc", 16, bytes(16 * DEFAULT.acc_bytes))
    p.load("acc", 0, acc, 1, 16)
    inp = p.alloc("inp", 8, data(8 * DEFAULT.inp_bytes))
    p.load("inp", 0, inp, 1, 8, push_next=True)
    p.finish(pop_prev=True)
    est = run(p)
    assert (est.exec_cycles["CLOAD_EXEC"], est.exec_cycles["LOAD_EXEC"]) == (134, 148)
    assert est.cycles == 166


def test_store_waits_for_compute_and_finish_for_the_store() -> None:
    # small: 0 LOAD UOP (1), 1 GEMM of 64 push_next, 2 STORE 4 rows x 16 pop_prev
    # push_prev, 3 FINISH pop_next. LOAD UOP next IDLE 20; GEMM go 21, E 69, PUSH 92.
    # STORE: IDLE 13, pops in 93 (79 stall cycles). A row is 16 OUT elements of 4 B =
    #   8 beats; one element per cycle is read: 16 cycles a row, 2 between rows, 6 until
    #   the last write response: E = 4 x 16 + 3 x 2 + 6 = 76, PUSH 93 + 2 + 76 = 171.
    # FINISH: IDLE 93, pops in 172 -> CYCLES 175.
    p = Program(SMALL)
    out = p.alloc("out", 64)
    p.gemm([(0, 0, 0)], (64, 1), dst=(1, 0), reset=True, push_next=True)
    p.store(0, out, 4, 16, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    est = run(p)
    assert est.cycles == 175
    assert est.exec_cycles["STORE_EXEC"] == 76
    assert est.stall == {"LOAD_STALL": 0, "COMPUTE_STALL": 172 - 93 - 1, "STORE_STALL": 79}


def test_module_slower_than_fetch_fills_its_queue() -> None:
    # 32 empty GEMMs then FINISH: each takes 4 cycles (IDLE, POP, EXEC, PUSH) while fetch
    # dispatches one every 2, so compute sets the pace: instruction k's IDLE is 9 + 4k and
    # FINISH's (k = 32) 137 -> CYCLES 141.
    p = Program(SMALL)
    for _ in range(32):
        p.gemm(UopRange(0, 0))
    p.finish()
    assert run(p).cycles == 141


# --- one instruction's engine cycles ---------------------------------------------------------

def loop(op: Opcode, bgn: int, end: int, iter_out: int, iter_in: int, use_imm: int = 1,
         alu_opcode: int = 2) -> dict[str, int]:
    return {"opcode": op, "uop_bgn": bgn, "uop_end": end, "iter_out": iter_out, "iter_in": iter_in,
            **({"use_imm": use_imm, "alu_opcode": alu_opcode} if op == Opcode.ALU else {})}


def mem(op: Opcode, mt: MemType, y: int, x: int, pads: tuple[int, int, int, int] = (0, 0, 0, 0),
        stride: int | None = None) -> dict[str, int]:
    return {"opcode": op, "memory_type": mt, "sram_base": 0, "dram_base": 0, "y_size": y, "x_size": x,
            "x_stride": x if stride is None else stride, "y_pad_0": pads[0], "y_pad_1": pads[1],
            "x_pad_0": pads[2], "x_pad_1": pads[3]}


@pytest.mark.parametrize("cfg, insn, module, cycles", [
    # 3 x 4 x 5 = 60 micro-ops + 2 + PIPE_STAGES (3) to drain; an empty loop never starts
    # the pipeline
    (DEFAULT, loop(Opcode.GEMM, 2, 7, 3, 4), "compute", 65),
    (DEFAULT, loop(Opcode.ALU, 0, 9, 1, 1), "compute", 14),
    # an ALU reading ACC[src] reads the ACC buffer's one port twice per micro-op: 2 x 9 + 5
    (DEFAULT, loop(Opcode.ALU, 0, 9, 1, 1, use_imm=0), "compute", 23),
    # a MUL leaves min(PIPE_STAGES, 2) = 2 bubbles after each micro-op (P = 3's read-data
    # register is ahead of C: the MUL's write-back is as long as at P = 2), the drain is
    # 2 + 3: 9 x (1 + 2) + 5, 9 x (2 + 2) + 5
    (DEFAULT, loop(Opcode.ALU, 0, 9, 1, 1, alu_opcode=4), "compute", 32),
    (DEFAULT, loop(Opcode.ALU, 0, 9, 1, 1, use_imm=0, alu_opcode=4), "compute", 41),
    # PIPE_STAGES 2: 60 + 2 + 2; MUL 9 x (1 + 2) + 4, 9 x (2 + 2) + 4
    (with_keys(DEFAULT, PIPE_STAGES=2), loop(Opcode.GEMM, 2, 7, 3, 4), "compute", 64),
    (with_keys(DEFAULT, PIPE_STAGES=2), loop(Opcode.ALU, 0, 9, 1, 1, alu_opcode=4), "compute", 31),
    (with_keys(DEFAULT, PIPE_STAGES=2), loop(Opcode.ALU, 0, 9, 1, 1, use_imm=0, alu_opcode=4),
     "compute", 40),
    # PIPE_STAGES 0 (the pipeline of A, B, C alone) and 1: 60 + 2 + P, MUL 9 x (1 + P) + 2 + P
    (with_keys(DEFAULT, PIPE_STAGES=0), loop(Opcode.GEMM, 2, 7, 3, 4), "compute", 62),
    (with_keys(DEFAULT, PIPE_STAGES=0), loop(Opcode.ALU, 0, 9, 1, 1, alu_opcode=4), "compute", 11),
    (with_keys(DEFAULT, PIPE_STAGES=1), loop(Opcode.GEMM, 2, 7, 3, 4), "compute", 63),
    (with_keys(DEFAULT, PIPE_STAGES=1), loop(Opcode.ALU, 0, 9, 1, 1, use_imm=0, alu_opcode=4),
     "compute", 30),
    (DEFAULT, loop(Opcode.GEMM, 5, 5, 8, 8), "compute", 0),
    # x_size 0, and a LOAD of OUT: no-ops
    (DEFAULT, mem(Opcode.LOAD, MemType.INP, 3, 0, (1, 1, 1, 1)), "load", 0),
    (DEFAULT, mem(Opcode.LOAD, MemType.OUT, 1, 4), "compute", 0),
    # pad rows only (y_size 0): the writer's 3 x 4 zeros, then its write enable drops
    (DEFAULT, mem(Opcode.LOAD, MemType.INP, 0, 4, (2, 1, 0, 0)), "load", 13),
    # default INP 4 x 16 with pads (1, 1, 2, 2): 128 beats set the pace, the 22 leading
    # pad elements are written while the gearbox (264 B) fills, the 22 trailing ones
    # (x_pad_1 2 + a 20-element row) come after the last beat: 128 + 6 + 22
    (DEFAULT, mem(Opcode.LOAD, MemType.INP, 4, 16, (1, 1, 2, 2)), "load", 156),
    # small UOP 3 x 8 with pads (1, 2, 3, 4): the writer sets the pace over the whole
    # 15 x 6 tile; the 18 leading pads cover the first beat's latency: 90 + 1
    (SMALL, mem(Opcode.LOAD, MemType.UOP, 3, 8, (1, 2, 3, 4)), "compute", 91),
    # default STORE of 32 rows of 1 OUT element (2 beats): 32 x 2 + 31 x 2 + 6
    (DEFAULT, mem(Opcode.STORE, MemType.OUT, 32, 1), "store", 132),
    # small STORE with rows of 16 elements (8 beats): elements set the pace, 2 x 16 + 2 + 6
    (SMALL, mem(Opcode.STORE, MemType.OUT, 2, 16, stride=20), "store", 40),
])
def test_engine_cycles(cfg: VtaConfig, insn: dict[str, int], module: str, cycles: int) -> None:
    assert insn_work(cfg, insn, module, BASES).cycles == cycles


def test_unaligned_rows_take_their_extra_beats() -> None:
    # INP rows of 16 B at odd addresses cover 3 beats instead of 2: 4 rows, 12 beats + 6
    insn = mem(Opcode.LOAD, MemType.INP, 4, 1, stride=3)
    assert insn_work(DEFAULT, insn, "load", {**BASES, "inp": 5}).cycles == 12 + 6


# --- interface -------------------------------------------------------------------------------

def test_estimate_of_a_decoded_program_equals_estimate_vector() -> None:
    p = Program(SMALL)
    p.gemm([(0, 0, 0)], (4, 1), dst=(1, 0), reset=True, push_next=True)
    p.store(0, p.alloc("out", 4), 1, 4, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    vector = p.build("interface")
    program = decode_program(SMALL, vector.dram(), vector.insn_addr, vector.insn_count)
    assert estimate(SMALL, program, vector.bases) == estimate_vector(vector)


@pytest.mark.parametrize("insns", [
    [{"opcode": Opcode.GEMM, "pop_prev_dep": 1}, {"opcode": Opcode.FINISH}],  # a pop never pushed
    [{"opcode": Opcode.GEMM}],                                                # no FINISH
])
def test_a_program_that_cannot_complete_is_an_error(insns: list[dict[str, int]]) -> None:
    stream = Image(0x1000, insns_to_bytes(SMALL, insns), "insns.bin")
    with pytest.raises(TimingError):
        estimate_vector(Vector(SMALL, 0x1000, len(insns), [stream], None, BASES, "cannot complete"))


def test_twenty_thousand_instructions_estimate_exactly() -> None:
    # The report estimates whole workloads: a long program's GEMM time is counted exactly
    # (its speed is not asserted here: a wall-time bound fails on a loaded machine).
    p = Program(DEFAULT, insn_addr=0x1000000)
    inp = p.alloc("inp", 16, data(16 * DEFAULT.inp_bytes))
    out = p.alloc("out", 16)
    n = 6666
    for i in range(n):
        p.load("inp", 0, inp, 1, 16, push_next=True)
        p.gemm([(0, 0, 0), (1, 1, 0)], (64, 2), dst=(1, 0), pop_prev=True, push_next=True)
        p.store(0, out, 1, 16, pop_prev=True, push_prev=i == n - 1)
    p.finish(pop_next=True)
    vector = p.build("speed", queues_may_fill=True)
    program = decode_program(DEFAULT, vector.dram(), vector.insn_addr, vector.insn_count)
    est = estimate(DEFAULT, program, vector.bases)
    assert est.exec_cycles["GEMM_EXEC"] == n * (64 * 2 * 2 + 5)
