"""Programs of the contract-edge flows (tb/plan/flow_jobs.py): each drives one contract
between rtl/'s modules to its edge, where a realistic bug would hide from programs drawn
at random, and each is built for any configuration.

* :func:`push_pop`: pops and pushes in one cycle at every count of every token counter;
* :func:`leftover_tokens`: a program that ends with a token in every counter, for the next
  launch to start from empty counters;
* :func:`illegal_ops`: the documented behaviour of illegal opcodes, memory types and ALU
  opcodes (rtl/README.md: executed by compute as no-ops, their tokens still processed);
* :func:`b_bound`: one STORE of more write bursts than the design keeps awaiting B;
* :func:`pad_only`: LOADs of padding rows only, each followed at once by a LOAD into the
  same buffer, for every memory type and pad side;
* :func:`edges`: rows of every element size starting at every byte offset of a bus word
  and in each of the last bus words below a 4 KiB boundary, LOADs padded so the SRAM
  writer stalls with the read gearbox at every fill level, STOREs with partial strobes.

Expected bytes come from the golden model (``expect`` None: the testbench's scoreboard
runs models/executor.py), except where a program breaks a checker rule on purpose; then
the expectation comes from a legal program that does what the RTL documents.
"""
from __future__ import annotations

import dataclasses
from functools import partial
from typing import Callable

import numpy as np

from models.config import VtaConfig
from models.isa import AluOp, Opcode, layout, uops_to_bytes
from models.predict import predict
from models.progbuild import Program, UopRange
from models.vector import Vector
from models.widths import INSN_BYTES
from tb.sweep_programs import INSN_ADDR, REGIONS, model_expect, program, rand_bytes

Step = Callable[[], None]


def push_pop(cfg: VtaConfig, delays: tuple[int, ...] = (1, 2, 3, 4, 5, 6)) -> Vector:
    """Pops meeting pushes in the same cycle at every count of every token counter.

    For each counter, the producer pushes a token every few cycles with short instructions
    while the consumer pops one per instruction about twice as long, so the count climbs
    about one step per pop from 1 to the capacity, where the producer then waits. Whether a
    pop and a push fall in the same cycle depends on the two modules' relative phase: after
    its first pop (which follows the first push by a cycle, whatever came before) the
    consumer runs one token-free instruction of ``delay`` extra cycles, one segment per
    delay. The extra cycles come from LOADs of padding rows only (a row of one element per
    cycle). The ordering checker records the counts at which pops met pushes
    (tb/rules/reach.py: ``push-pop``); the result is a STORE of a reset tile."""
    p = program(cfg)
    none = UopRange(0, 0)
    tokens = 2 * cfg.token_queue_depth + 2
    # a reset GEMM of two micro-ops, about twice a token-only instruction: 2 + 2 + P cycles of
    # execution; with PIPE_STAGES 3 one micro-op, so that it keeps PIPE_STAGES 2's 6 (the
    # phases the delays below sweep were chosen with that length: a 7-cycle one left a count
    # unmet)
    slow = [(1, 0, 0), (2, 0, 0)] if cfg.pipe_stages <= 2 else [(1, 0, 0)]
    acc = 8  # ACC (and OUT) rows compute pads, apart from OUT[0..2] of the reset GEMMs
    out = p.alloc("out", max(delays))
    p.gemm([(0, 0, 0)], (max(delays), 1), dst=(1, 0), reset=True, push_next=True)
    p.store(0, out, 0, 0, pop_prev=True)  # the OUT rows the STOREs read are written before them

    def segment(release: Callable[[], None], produce: Callable[[], None],
                consume: Callable[[], None], delay: Callable[[], None]) -> None:
        """The producer released by a token from the consumer's side (so it cannot run ahead
        into the segment while the consumer still pops the last one's tokens), then producer
        and consumer instructions two to one in program order, so fetch feeds both modules
        while they run (all of one side first would fill its command queue and stall fetch),
        the consumer's delay after its first pop."""
        release()
        delay()
        for n in range(tokens):
            produce()
            if n % 2:
                consume()
        for _ in range(tokens - tokens // 2):
            consume()

    def both(*steps: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            for step in steps:
                step()
        return run

    nop_load = partial(p.load, "inp", 0, 0, 0, 0)  # a token-only LOAD (x_size 0)
    nop_store = partial(p.store, 0, out, 0, 0)      # a token-only STORE
    for d in delays:  # L2C: load produces, compute consumes
        segment(both(partial(p.gemm, none, push_prev=True), partial(nop_load, pop_next=True)),
                partial(p.load, "inp", 0, 0, 0, 0, push_next=True),
                partial(p.gemm, slow, (1, 1), reset=True, pop_prev=True),
                partial(p.load, "acc", acc, 0, 0, 1, pads=(d, 0, 0, 0)))
    for d in delays:  # C2L: compute produces, load consumes rows of padding
        segment(both(partial(nop_load, push_next=True), partial(p.gemm, none, pop_prev=True)),
                partial(p.gemm, none, push_prev=True),
                partial(p.load, "inp", 0, 0, 0, 1, pads=(4, 0, 0, 0), pop_next=True),
                partial(p.load, "inp", 0, 0, 0, 1, pads=(d, 0, 0, 0)))
    for rows in (1, 2, 3, 4, 5):  # C2S: compute produces (rows of padding into ACC), store consumes
        for d in delays:
            segment(both(partial(nop_store, push_prev=True), partial(p.gemm, none, pop_next=True)),
                    partial(p.load, "acc", acc, 0, 0, 1, pads=(rows, 0, 0, 0), push_next=True),
                    partial(p.store, 0, out, 1, 1, pop_prev=True),
                    partial(p.store, 0, out, 1, d))
    for d in delays:  # S2C: store produces, compute consumes
        segment(both(partial(p.gemm, none, push_next=True), partial(nop_store, pop_prev=True)),
                partial(p.store, 0, out, 0, 0, push_prev=True),
                partial(p.gemm, slow, (1, 1), reset=True, pop_next=True),
                partial(p.load, "acc", acc, 0, 0, 1, pads=(d, 0, 0, 0)))
    p.gemm(none, push_next=True)
    p.store(0, out, 1, 1, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build("pops meeting pushes in one cycle at every count of every "
                                 "token counter", queues_may_fill=True))


def leftover_tokens(cfg: VtaConfig) -> Vector:
    """A program that ends with one token in each of the four counters: load pushes L2C,
    compute C2L and C2S, store a second S2C, and nobody pops them (checker rule
    token-imbalance, on purpose). rtl/README.md, "Launch semantics": an accepted START
    empties the token counters, so the next program, launched without a reset, starts
    from zero (the ordering checker, cleared by that START, sees any token left)."""
    p = program(cfg)
    none = UopRange(0, 0)
    out = p.alloc("out", 4)
    p.gemm([(0, 0, 0)], (4, 1), dst=(1, 0), reset=True, push_next=True)
    p.store(0, out, 1, 4, pop_prev=True, push_prev=True)
    p.load("inp", 0, 0, 0, 0, push_next=True)       # L2C, never popped
    p.gemm(none, push_prev=True, push_next=True)     # C2L and C2S, never popped
    p.store(0, out, 0, 0, push_prev=True)            # a second S2C, never popped
    p.finish(pop_next=True)
    p.expect("out", out, bytes(4 * cfg.out_bytes), "out")
    return p.build("a token left in every counter at the end", leftover=True)


#: The checker rules :func:`illegal_ops`' program breaks on purpose.
ILLEGAL_RULES = ("illegal-opcode", "illegal-memory-type", "illegal-alu-opcode")


def illegal_ops(cfg: VtaConfig, seed: int = 31) -> Vector:
    """Every documented behaviour of illegal instructions (rtl/README.md, "Queues, tokens
    and flow control" and "Datapath notes"): opcodes 5, 6 and 7 and LOADs of the illegal
    memory types 6 and 7 go to compute, which executes them as no-ops and still pops and
    pushes their tokens; an ALU of an illegal alu_opcode leaves its destination unchanged.
    The tokens of the illegal instructions are the only ones ordering a LOAD ACC before its
    ALU and STORE, so a design that drops them deadlocks or races.

    Built as a legal program first, with a token-only GEMM (or an ALU MIN of each element
    with itself) where each illegal instruction goes; its result, from the golden model, is
    the expectation. Then those words are rewritten in the instruction image into the
    illegal forms, their token flags kept and their other fields random."""
    rng = np.random.default_rng(seed)
    p = program(cfg)
    none = UopRange(0, 0)
    n = 4
    acc = p.alloc("acc", n, rng.integers(-2**31, 2**31, size=n * cfg.batch * cfg.block_out,
                                         dtype=np.int64).astype("<i4").tobytes())
    out = p.alloc("out", n)
    rewrite: dict[int, Callable[[int], int]] = {}

    def mark(how: Callable[[int], int]) -> None:
        rewrite[len(p.insns) - 1] = how

    p.load("inp", 0, 0, 0, 0, push_next=True)
    p.gemm(none, pop_prev=True)
    mark(_opcode(5, rng))
    p.gemm(none, push_prev=True)                     # C2L: releases the load below
    mark(_opcode(6, rng))
    p.load("inp", 0, 0, 0, 0, pop_next=True, push_next=True)
    p.load("acc", 0, acc, 1, n)
    p.gemm(none, pop_prev=True, push_next=True)      # pops L2C, pushes C2S
    mark(_memory_type(cfg, 6, rng))
    p.store(0, out, 0, 0, pop_prev=True, push_prev=True)
    p.gemm(none, pop_next=True)                      # pops S2C
    mark(_memory_type(cfg, 7, rng))
    for op in (5, 6, 7):
        p.alu(AluOp.MIN, [(k, k, 0) for k in range(n)], (1, 1))
        mark(_alu_opcode(cfg, op))
    p.alu(AluOp.ADD, [(k, k, 0) for k in range(n)], (1, 1), imm=3)
    p.gemm(none, push_next=True)
    mark(_opcode(7, rng))
    p.store(0, out, 1, n, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    legal = model_expect(p.build("illegal opcodes, memory types and ALU opcodes as compute's no-ops"))
    expect = predict(legal).expect
    words = bytearray(legal.init[-1].data)  # the instruction image, placed last by build()
    shift = legal.insn_count - len(p.insns)  # build() puts the micro-op table's LOAD first
    for index, how in ((i + shift, how) for i, how in rewrite.items()):
        at = slice(index * INSN_BYTES, (index + 1) * INSN_BYTES)
        words[at] = how(int.from_bytes(words[at], "little")).to_bytes(INSN_BYTES, "little")
    init = [*legal.init[:-1], dataclasses.replace(legal.init[-1], data=bytes(words))]
    return dataclasses.replace(legal, init=init, expect=expect)


#: The head of every instruction: opcode [2:0] and the four token flags [6:3] (spec section 2).
HEAD_BITS = 7


def _opcode(op: int, rng: np.random.Generator) -> Callable[[int], int]:
    """An illegal opcode with the word's token flags and random other bits."""
    def how(word: int) -> int:
        rest = int.from_bytes(rng.bytes(INSN_BYTES), "little") >> HEAD_BITS << HEAD_BITS
        return rest | (word & 0b1111000) | op
    return how


def _memory_type(cfg: VtaConfig, mt: int, rng: np.random.Generator) -> Callable[[int], int]:
    """A LOAD of an illegal memory type with the word's token flags and random fields."""
    fields = {f.name: f for f in layout(cfg, "mem")}

    def how(word: int) -> int:
        rest = int.from_bytes(rng.bytes(INSN_BYTES), "little") >> HEAD_BITS << HEAD_BITS
        field = fields["memory_type"]
        rest &= ~(((1 << field.width) - 1) << field.lsb)
        return rest | mt << field.lsb | (word & 0b1111000) | Opcode.LOAD
    return how


def _alu_opcode(cfg: VtaConfig, op: int) -> Callable[[int], int]:
    """The same ALU with an illegal alu_opcode."""
    field = next(f for f in layout(cfg, "alu") if f.name == "alu_opcode")

    def how(word: int) -> int:
        return word & ~(((1 << field.width) - 1) << field.lsb) | op << field.lsb
    return how


def b_bound(cfg: VtaConfig) -> Vector:
    """One STORE of one element per row, every row its own write burst, more rows than the
    255 bursts the design keeps awaiting a response (rtl/README.md, "Arbitration and
    liveness bounds"). With the memory withholding responses until that bound (fault
    b-hold) the store must stop issuing at 255 and go on once responses come."""
    p = program(cfg)
    rows = min(cfg.acc_depth, 300)
    out = p.alloc("out", 2 * rows)
    p.gemm([(0, 0, 0)], (rows, 1), dst=(1, 0), reset=True, push_next=True)
    p.store(0, out, rows, 1, stride=2, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build(f"a STORE of {rows} one-element rows, a write burst each"))


#: UOP buffer entries below this hold the program's own micro-op table (the LOAD UOP that
#: :meth:`models.progbuild.Program.build` puts first); the flows' UOP LOADs go above it.
UOP_TABLE = 64


class _Exposer:
    """Makes what LOADs put into the on-chip buffers visible in DRAM, phase by phase.

    A phase: the load module's LOADs (INP, WGT), then an L2C token to compute; compute's
    own LOADs (UOP, ACC, ACC_8BIT); compute turns every loaded element into ACC elements
    (a GEMM against a row of odd values, so that any changed byte changes the low byte of
    every output lane; ALU copies shifted by 8, 16 and 24 for the bytes of 32-bit ACC
    lanes) and hands them to store with C2S and the INP/WGT buffers back to load with C2L;
    store writes them out (``rows`` places each STORE row) and hands the ACC buffer back
    with S2C, so the next phase reuses every buffer. The odd rows sit in the last INP and
    WGT entries, loaded first."""

    def __init__(self, p: Program, rows: Callable[[int], tuple[int, int]]) -> None:
        self.p, self.rows = p, rows
        cfg = p.cfg
        rng = np.random.default_rng(41)
        self.odd_inp, self.odd_wgt = cfg.inp_depth - 1, cfg.wgt_depth - 1
        odd_i = (rng.integers(-64, 64, size=cfg.inp_bytes) * 2 + 1).astype(np.int8).tobytes()
        odd_w = (rng.integers(-64, 64, size=cfg.wgt_bytes) * 2 + 1).astype(np.int8).tobytes()
        p.load("inp", self.odd_inp, p.alloc("inp", 1, odd_i), 1, 1)
        p.load("wgt", self.odd_wgt, p.alloc("wgt", 1, odd_w), 1, 1)
        self.first = True

    def phase(self, load_side: list[Step], compute_side: list[Step], expose: Callable[[], int]) -> None:
        """One phase: ``load_side`` then ``compute_side`` steps (LOADs), then ``expose()``
        writes ACC from entry 0 on and returns how many entries; then the STOREs."""
        p, none = self.p, UopRange(0, 0)
        if not self.first:
            p.load("inp", 0, 0, 0, 0, pop_next=True)  # compute is done with the last phase's
        for step in load_side:
            step()
        p.load("inp", 0, 0, 0, 0, push_next=True)
        p.gemm(none, pop_prev=True, pop_next=not self.first)
        self.first = False
        for step in compute_side:
            step()
        n = expose()
        p.gemm(none, push_prev=True, push_next=True)
        at = 0
        while at < n:
            dram, x = self.rows(n - at)
            p.store(at, dram, 1, x, pop_prev=at == 0)
            at += x
        p.store(0, 0, 0, 0, push_prev=True)

    def finish(self) -> None:
        """FINISH after the last phase's STOREs, its C2L token taken back by load."""
        self.p.load("inp", 0, 0, 0, 0, pop_next=True, push_next=True)
        self.p.finish(pop_prev=True, pop_next=True)

    def gemm_inp(self, count: int) -> int:
        """ACC[i] = INP[i] . the odd WGT row, for i < ``count``."""
        self.p.gemm([(0, 0, self.odd_wgt)], (count, 1), dst=(1, 0), reset=True)
        self.p.gemm([(0, 0, self.odd_wgt)], (count, 1), dst=(1, 0), src=(1, 0))
        return count

    def gemm_wgt(self, count: int) -> int:
        """ACC[i] = the odd INP row . WGT[i], for i < ``count``."""
        self.p.gemm([(0, self.odd_inp, 0)], (count, 1), dst=(1, 0), reset=True)
        self.p.gemm([(0, self.odd_inp, 0)], (count, 1), dst=(1, 0), wgt=(1, 0))
        return count

    def gemm_uops(self, count: int, acc: int) -> int:
        """Runs the micro-ops of UOP[UOP_TABLE, UOP_TABLE + count) (each adding a product of
        INP and WGT entries into its ACC[dst], every dst below ``acc``) over a reset
        ACC[0, acc)."""
        self.p.gemm([(0, 0, 0)], (acc, 1), dst=(1, 0), reset=True)
        self.p.gemm(UopRange(UOP_TABLE, UOP_TABLE + count), (1, 1))
        return acc

    def acc_bytes(self, count: int) -> int:
        """Bytes 0..3 of every lane of ACC[0, count): three copies after it, shifted right
        by 8, 16 and 24."""
        p = self.p
        p.gemm([(count, 0, 0)], (3 * count, 1), dst=(1, 0), reset=True)
        p.alu(AluOp.ADD, [(count, 0, 0)], (3, count), dst=(count, 1), src=(0, 1))
        for k in range(3):
            start = (k + 1) * count
            p.alu(AluOp.SHR, [(start, start, 0)], (1, (3 - k) * count), dst=(0, 1), src=(0, 1), imm=8)
        return 4 * count

    def expose(self, kind: str, count: int) -> Callable[[], int]:
        """The exposure of ``count`` loaded entries of ``kind`` (UOP: their micro-ops run)."""
        exposures: dict[str, Callable[[], int]] = {
            "inp": partial(self.gemm_inp, count), "wgt": partial(self.gemm_wgt, count),
            "acc": partial(self.acc_bytes, count), "acc8": partial(int, count),
            "uop": partial(self.gemm_uops, count, UOP_ACC)}
        return exposures[kind]


#: ACC entries the micro-ops of the flows' UOP LOADs write (their dst_idx is below it).
UOP_ACC = 16
#: The memory types of the flows, each with the module that LOADs it.
KINDS = ("inp", "wgt", "uop", "acc", "acc8")


def _data(p: Program, kind: str, count: int, rng: np.random.Generator) -> bytes:
    """``count`` elements of ``kind``: random bytes, or micro-ops that add the product of
    INP[0] and WGT[0] (written by the first phases) into ACC[i % UOP_ACC]."""
    if kind == "uop":
        return uops_to_bytes(p.cfg, [{"dst_idx": i % UOP_ACC, "src_idx": 0, "wgt_idx": 0}
                                     for i in range(count)])
    return rand_bytes(rng, count * p.elem_bytes(kind))


def _sram(kind: str) -> int:
    return UOP_TABLE if kind == "uop" else 0


def pad_only(cfg: VtaConfig) -> Vector:
    """LOADs of padding rows only (y_size 0: rows of x_pad_0 + x_size + x_pad_1 zeros),
    each over data loaded before it and followed at once by a LOAD of data into the same
    buffer, for every memory type and for padding before, after and on both sides of the
    rows. rtl/README.md, "Queues, tokens and flow control": a LOAD completes when its last
    SRAM write is done, so the next LOAD must not restart the SRAM writer while padding
    rows are still being written; the zeros and the data are both checked."""
    rng = np.random.default_rng(43)
    p = program(cfg)
    shapes = ((2, 0, 0, 0), (0, 2, 0, 0), (1, 1, 1, 1), (3, 0, 0, 2))  # (y0, y1, x0, x1)
    x = 3
    tile = max(y0 + y1 for y0, y1, _, _ in shapes) * (x + 4)  # more than a pad-only LOAD zeroes
    ex = _Exposer(p, lambda n: (p.alloc("out", n), n))
    for kind in KINDS:
        for pads in shapes:
            at = _sram(kind)
            first = p.alloc(kind, tile, _data(p, kind, tile, rng))
            then = p.alloc(kind, tile, _data(p, kind, tile, rng))
            steps: list[Step] = [
                partial(p.load, kind, at, first, 1, tile),
                partial(p.load, kind, at, 0, 0, x, pads=pads),
                partial(p.load, kind, at + tile, then, 1, tile)]
            module_steps = (steps, []) if kind in ("inp", "wgt") else ([], steps)
            ex.phase(*module_steps, ex.expose(kind, 2 * tile))
    ex.finish()
    return model_expect(p.build("padding-only LOADs, each followed at once by a LOAD into "
                                 "the same buffer, every memory type and pad side"))


#: Bus words below a 4 KiB boundary at which the flows' rows start.
BELOW = (1, 2, 3)


def edge_offsets(cfg: VtaConfig) -> range:
    """The byte offsets the :func:`edges` programs give every base register: each offset
    within two bus words, so rows of every element size start at every byte of a bus word
    and in odd and even bus words below a 4 KiB boundary."""
    return range(2 * cfg.bus_bytes)


def edges(cfg: VtaConfig, offset: int) -> Vector:
    """Rows at a 4 KiB boundary, through the read gearbox with the SRAM writer stalled.

    Every base register is ``offset`` (any byte alignment is legal), the instruction
    stream starts three bus words below a 4 KiB boundary, and for each memory type one
    LOAD per word count in :data:`BELOW` reads a row starting that many bus words (less the
    offset) below a boundary and running two bus words past it, after a padding row and
    with padding on both sides: while the writer fills the padding, the gearbox takes beats
    until it is full, so over the offsets it stalls at every fill level (rtl/README.md,
    "Datapath notes": bursts never cross 4 KiB; vta_unpack.v). The loaded elements are
    exposed (:class:`_Exposer`) and stored in rows that start below a boundary too, with
    partly strobed first and last beats (WR_BYTES counts only strobed bytes)."""
    bus = cfg.bus_bytes
    rng = np.random.default_rng(1000 + offset)
    bases = dict.fromkeys(("uop", "inp", "wgt", "acc", "out"), offset)
    p = Program(cfg, bases=bases, insn_addr=INSN_ADDR + 0x1000 - 3 * bus, regions=REGIONS)
    page = dict.fromkeys(REGIONS, 1)
    turn = [0]

    def near(kind: str, below: int) -> int:
        """dram_base of a row starting ``below`` bus words (less the offset) under a 4 KiB
        boundary of ``kind``'s region, a fresh boundary each time."""
        boundary = REGIONS[kind] + 0x1000 * page[kind]
        page[kind] += 1
        return (boundary - below * bus - offset) // p.elem_bytes(kind)

    def out_row(n: int) -> tuple[int, int]:
        turn[0] += 1
        return near("out", BELOW[turn[0] % len(BELOW)]), n

    ex = _Exposer(p, out_row)
    for kind in KINDS:
        esz = p.elem_bytes(kind)
        steps: list[Step] = []
        at = _sram(kind)
        for below in BELOW:
            x = -(-(below + 2) * bus // esz) + 1
            dram = near(kind, below)
            p.put(kind, dram, _data(p, kind, x, rng), f"{kind}{len(p.inits)}")
            steps.append(partial(p.load, kind, at, dram, 1, x, pads=(1, 0, 1, 1)))
            at += 2 * (x + 2)
        module_steps = (steps, []) if kind in ("inp", "wgt") else ([], steps)
        ex.phase(*module_steps, ex.expose(kind, at - _sram(kind)))
    ex.finish()
    return model_expect(p.build(f"rows at 4 KiB boundaries through the gearbox, every base at "
                                 f"byte offset {offset}"))
