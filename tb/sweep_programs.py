"""Programs the RTL tests build themselves (performance and configuration sweeps).

Each function returns a models.vector.Vector; its expectation comes from the golden
model (expect = None: the testbench's scoreboard runs models.executor) unless stated
otherwise. Programs are written with models.progbuild.Program, which checks the token protocol.
"""
from __future__ import annotations

import math

import numpy as np

from models.config import VtaConfig
from models.isa import AluOp
from models.progbuild import Program, UopRange
from models.vector import Vector

#: DRAM regions (relative to each base) far enough apart for the largest tiles here
REGIONS = {"uop": 0x0, "inp": 0x100000, "wgt": 0x200000, "acc": 0x400000, "acc8": 0x500000,
           "out": 0x600000}
INSN_ADDR = 0x80000
#: Base registers of the alignment sweep: odd, unaligned to the bus and to every element.
ODD_BASES = {"uop": 0x1001, "inp": 0x333, "wgt": 0x7, "acc": 0x1235, "out": 0x4F}
#: Rows of padding ahead of the data of :func:`padded_head`'s LOAD.
PAD_ROWS = 15


def program(cfg: VtaConfig, bases: dict[str, int] | None = None) -> Program:
    """A program of these tests: instructions at INSN_ADDR, data in REGIONS, far apart."""
    return Program(cfg, bases=bases, insn_addr=INSN_ADDR, regions=REGIONS)


def rand_bytes(rng: np.random.Generator, n: int, lo: int = -128, hi: int = 128) -> bytes:
    """``n`` random int8 bytes in [lo, hi): data whose every byte shows in a result."""
    return rng.integers(lo, hi, size=n, dtype=np.int64).astype(np.int8).tobytes()


def model_expect(vec: Vector) -> Vector:
    """The vector without expect images: the testbench's scoreboard asks the golden model."""
    vec.expect = None
    return vec


def perf_gemm(cfg: VtaConfig, n_out: int = 64, n_in: int = 64) -> Vector:
    """Long GEMMs once data is on chip: n_out*n_in micro-ops over 64 distinct ACC
    entries, then the same count all on one entry (accumulation hazard every cycle)."""
    rng = np.random.default_rng(1)
    p = program(cfg)
    inp = p.alloc("inp", 4, rand_bytes(rng, 4 * cfg.inp_bytes))
    wgt = p.alloc("wgt", 4, rand_bytes(rng, 4 * cfg.wgt_bytes))
    p.load("inp", 0, inp, 1, 4)
    p.load("wgt", 0, wgt, 1, 4, push_next=True)
    p.gemm([(0, 0, 0)], (1, n_in + 1), dst=(0, 1), reset=True, pop_prev=True)
    p.gemm([(0, 0, 0), (0, 1, 1)], (n_out, n_in), dst=(0, 1), src=(0, 0), wgt=(0, 0))
    p.gemm([(n_in, 2, 2)], (n_out, n_in), push_next=True)
    out = p.alloc("out", n_in + 1)
    p.store(0, out, 1, n_in + 1, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build("perf: long GEMMs"))


def perf_load_store(cfg: VtaConfig, inp_elems: int | None = None, wgt_elems: int | None = None,
                    rows: int = 4) -> Vector:
    """Long LOAD rows of INP and WGT (one row each, then `rows` strided rows), a GEMM
    reset over the ACC buffer and a long STORE row."""
    rng = np.random.default_rng(2)
    n_inp = inp_elems or cfg.inp_depth
    n_wgt = wgt_elems or min(cfg.wgt_depth, 256)
    n_acc = min(cfg.acc_depth, 2048)
    p = program(cfg)
    inp = p.alloc("inp", n_inp, rand_bytes(rng, n_inp * cfg.inp_bytes))
    wgt = p.alloc("wgt", n_wgt, rand_bytes(rng, n_wgt * cfg.wgt_bytes))
    p.load("inp", 0, inp, 1, n_inp)
    p.load("wgt", 0, wgt, 1, n_wgt)
    x = n_inp // (rows + 1)
    p.load("inp", 0, inp, rows, x, stride=x + 1, push_next=True)
    p.gemm([(0, 0, 0)], (1, n_acc), dst=(0, 1), reset=True, pop_prev=True)
    p.gemm([(0, 0, 0)], (1, 1), push_next=True)
    out = p.alloc("out", n_acc)
    p.store(0, out, 1, n_acc, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build("perf: long LOAD and STORE rows"))


def perf_overlap(cfg: VtaConfig, chunks: int = 6, n_inp: int = 64, n_wgt: int = 16) -> Vector:
    """Double-buffered GEMM: the load of chunk k+1 overlaps the GEMMs of chunk k."""
    rng = np.random.default_rng(3)
    p = program(cfg)
    half_i, half_w = cfg.inp_depth // 2, cfg.wgt_depth // 2
    n_inp, n_wgt = min(n_inp, half_i), min(n_wgt, half_w)
    p.gemm([(0, 0, 0)], (1, n_wgt), dst=(0, 1), reset=True)
    for k in range(chunks):
        slot = k % 2
        inp = p.alloc("inp", n_inp, rand_bytes(rng, n_inp * cfg.inp_bytes))
        wgt = p.alloc("wgt", n_wgt, rand_bytes(rng, n_wgt * cfg.wgt_bytes))
        p.load("inp", slot * half_i, inp, 1, n_inp, pop_next=k >= 2)
        p.load("wgt", slot * half_w, wgt, 1, n_wgt, push_next=True)
        p.gemm([(0, slot * half_i, slot * half_w)], (n_inp, n_wgt), dst=(0, 1), src=(1, 0),
               wgt=(0, 1), pop_prev=True, push_prev=k < chunks - 2)
    p.gemm([(0, 0, 0)], (1, 1), push_next=True)
    out = p.alloc("out", n_wgt)
    p.store(0, out, 1, n_wgt, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build("perf: double-buffered loads overlapping GEMM"))


def perf_blocked_gemm(cfg: VtaConfig, n: int = 256, vt: int = 2, rows: int = 64) -> Vector:
    """C = A x B^T for n x n int8 matrices, blocked as TVM's VTA GEMM benchmark does: the
    weights loaded once, then tiles of ``rows`` rows of A on ``vt`` virtual threads (SRAM
    slots handed over by tokens, so the LOAD of the next tile overlaps the GEMM of this
    one and the STORE of the last), each tile one reset GEMM and one GEMM over a micro-op
    kernel of (output block, input block) pairs looped over the tile's rows. GEMM-bound:
    n^3 / block^2 micro-ops; the benchmark program of `make bench`."""
    assert cfg.batch == 1 and n % cfg.block_in == 0 and cfg.block_in == cfg.block_out
    rng = np.random.default_rng(256)
    nb = n // cfg.block_in
    tiles = n // rows
    assert rows * nb * vt <= min(cfg.inp_depth, cfg.acc_depth) and nb * nb <= cfg.wgt_depth
    p = program(cfg)
    a = p.alloc("inp", n * nb, rand_bytes(rng, n * nb * cfg.inp_bytes))
    b = p.alloc("wgt", nb * nb, rand_bytes(rng, nb * nb * cfg.wgt_bytes))
    out = p.alloc("out", n * nb)
    p.load("wgt", 0, b, 1, nb * nb)
    slot = rows * nb  # elements of one tile in INP and in ACC
    reset = {t: [(t * slot + j, 0, 0) for j in range(nb)] for t in range(vt)}
    kernel = {t: [(t * slot + j, t * slot + k, j * nb + k) for j in range(nb) for k in range(nb)]
              for t in range(vt)}
    for i in range(tiles):
        t = i % vt
        p.load("inp", t * slot, a + i * slot, 1, slot, pop_next=i >= vt, push_next=True)
        p.gemm(reset[t], (rows, 1), dst=(nb, 0), reset=True, pop_prev=True, pop_next=i >= vt)
        p.gemm(kernel[t], (rows, 1), dst=(nb, 0), src=(nb, 0),
               push_prev=i + vt < tiles, push_next=True)
        p.store(t * slot, out + i * slot, rows, nb, pop_prev=True,
                push_prev=i + vt < tiles or i == tiles - 1)
    p.finish(pop_next=True)
    return model_expect(p.build(f"perf: blocked GEMM {n}x{n}x{n}, {vt} virtual threads, "
                                 f"tiles of {rows} rows"))


def perf_dma(cfg: VtaConfig, rounds: int = 8) -> Vector:
    """DMA-bound: each round LOADs half the input buffer from DRAM and STOREs half the
    accumulator buffer (reset once) to its own DRAM region, so the load and store modules
    stream on the bus concurrently with almost no compute; a benchmark program of
    `make bench`."""
    rng = np.random.default_rng(9)
    p = program(cfg)
    n_inp, n_acc = cfg.inp_depth // 2, cfg.acc_depth // 2
    p.gemm([(0, 0, 0)], (n_acc, 1), dst=(1, 0), reset=True, push_next=True)
    for k in range(rounds):
        inp = p.alloc("inp", n_inp, rand_bytes(rng, n_inp * cfg.inp_bytes))
        p.load("inp", 0, inp, 1, n_inp)
        out = p.alloc("out", n_acc)
        p.store(0, out, 1, n_acc, pop_prev=k == 0, push_prev=k == rounds - 1)
    p.finish(pop_next=True)
    return model_expect(p.build(f"perf: {rounds} rounds of LOAD {n_inp} INP and STORE {n_acc} "
                                 f"OUT elements"))


def capacity(cfg: VtaConfig) -> Vector:
    """Every token counter and command queue driven to full capacity with its producer then
    waiting: in turn, the consumer of L2C, C2L, C2S and S2C is kept busy with one long
    instruction while the producer pushes one token more than the counter holds, then pops
    them all; the consumer's queued pops fill its command queue and block fetch. The
    ordering checker (tb/rtl/vta_tb_order_check.v) records each and checks no token or
    instruction is lost; the result is the STORE of a reset tile."""
    rng = np.random.default_rng(7)
    p = program(cfg)
    n = cfg.token_queue_depth + 1
    none = UopRange(0, 0)  # an empty micro-op range: an instruction that only moves tokens
    tile = min(cfg.inp_depth, cfg.acc_depth, cfg.uop_depth, 256)
    p.gemm([(0, 0, 0)], (1000, 1), reset=True)  # L2C: compute busy, load pushes n
    for _ in range(n):
        p.load("inp", 0, 0, 0, 0, push_next=True)
    for _ in range(n):
        p.gemm(none, pop_prev=True)
    inp = p.alloc("inp", 16 * tile, rand_bytes(rng, 16 * tile * cfg.inp_bytes))
    p.load("inp", 0, inp, tile, 1, stride=16)  # C2L: load busy (a burst per row), compute pushes n
    for _ in range(n):
        p.gemm(none, push_prev=True)
    for _ in range(n):
        p.load("inp", 0, 0, 0, 0, pop_next=True)
    out = p.alloc("out", tile)
    p.gemm([(0, 0, 0)], (tile, 1), dst=(1, 0), reset=True, push_next=True)  # C2S: store busy
    p.store(0, out, 1, tile, pop_prev=True)
    for _ in range(n):
        p.gemm(none, push_next=True)
    for _ in range(n):
        p.store(0, out, 0, 0, pop_prev=True)
    uops = p.alloc("uop", tile, bytes(4 * tile))
    p.load("uop", 0, uops, 1, tile)  # S2C: compute busy, store pushes n
    for _ in range(n):
        p.store(0, out, 0, 0, push_prev=True)
    for _ in range(n):
        p.gemm(none, pop_next=True)
    p.finish()
    return model_expect(p.build("every token counter and command queue filled, producer waiting",
                                 queues_may_fill=True))


def contention(cfg: VtaConfig, rows: int = 48, stores: int = 96) -> Vector:
    """All three read clients of the arbiter requesting at once: the load module LOADs
    `rows` INP rows and compute `rows` ACC rows (a burst per row each, no token between
    them), while fetch keeps fetching a stream of `stores` empty STOREs that the idle store
    module retires as fast as they come. The liveness checker (tb/rtl/vta_tb_live_check.v)
    records the longest waits and the most bursts in flight; the result is the STORE of
    the loaded ACC rows."""
    rng = np.random.default_rng(11)
    p = program(cfg)
    n = min(rows, cfg.inp_depth, cfg.acc_depth)
    inp = p.alloc("inp", 2 * n, rand_bytes(rng, 2 * n * cfg.inp_bytes))
    acc = p.alloc("acc", 2 * n, rand_bytes(rng, 2 * n * cfg.acc_bytes, -(1 << 31), 1 << 31))
    p.load("inp", 0, inp, n, 1, stride=2)
    p.load("acc", 0, acc, n, 1, stride=2, push_next=True)
    out = p.alloc("out", n)
    for _ in range(stores):
        p.store(0, out, 0, 0)
    p.store(0, out, n, 1, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build(f"read contention: {n} INP and {n} ACC rows loaded while "
                                 f"{stores} empty STOREs are fetched"))


def padded_head(cfg: VtaConfig, stores: int = 40) -> Vector:
    """A LOAD whose 15 padding rows come before its data, while fetch fetches `stores`
    empty STOREs: the LOAD engine writes the padding one element per cycle and holds the
    shared, in-order R channel meanwhile, so fetch's bursts wait behind its data. Returns
    the vector; its padding is 15 rows of :func:`padded_head_row` elements."""
    rng = np.random.default_rng(12)
    p = program(cfg)
    x = padded_head_row(cfg)
    inp = p.alloc("inp", x, rand_bytes(rng, x * cfg.inp_bytes))
    p.load("inp", 0, inp, 1, x, pads=(PAD_ROWS, 0, 0, 0), push_next=True)
    out = p.alloc("out", 4)
    for _ in range(stores):
        p.store(0, out, 0, 0)
    p.gemm([(0, 0, 0)], (4, 1), dst=(1, 0), reset=True, pop_prev=True, push_next=True)
    p.store(0, out, 1, 4, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build(f"a LOAD of {x} INP elements after 15 padding rows, "
                                 f"{stores} empty STOREs fetched meanwhile"))


def padded_head_row(cfg: VtaConfig) -> int:
    """Elements per row of :func:`padded_head`'s LOAD: 16 rows of it fill the INP buffer."""
    return min(64, cfg.inp_depth // 16)


def mixed(cfg: VtaConfig, seed: int = 0, bases: dict[str, int] | None = None) -> Vector:
    """A small end-to-end program touching every instruction form: padded LOADs of INP,
    WGT, ACC and ACC_8BIT, GEMM with loops, every ALU op (register and immediate, SHR both
    ways), strided STOREs; for configuration and alignment sweeps."""
    rng = np.random.default_rng(seed)
    p = program(cfg, bases)
    ni, nw, na = 6, 4, 8
    inp = p.alloc("inp", ni, rand_bytes(rng, ni * cfg.inp_bytes))
    wgt = p.alloc("wgt", nw, rand_bytes(rng, nw * cfg.wgt_bytes))
    acc = p.alloc("acc", na, rng.integers(-2**31, 2**31, size=na * cfg.batch * cfg.block_out,
                                          dtype=np.int64).astype("<i4").tobytes())
    acc8 = p.alloc("acc8", na, rand_bytes(rng, na * cfg.acc8_bytes))
    p.load("inp", 0, inp, 2, 3, stride=3, pads=(1, 0, 1, 1))
    p.load("wgt", 0, wgt, 2, 2, stride=2, pads=(0, 1, 0, 0), push_next=True)
    p.load("acc", 0, acc, 2, 4, stride=4, pop_prev=True)
    p.load("acc8", 8, acc8, 1, na, pads=(0, 0, 1, 0))
    p.gemm([(0, 0, 0), (1, 1, 1), (2, 2, 2)], (2, 3), dst=(3, 1), src=(5, 1), wgt=(1, 1))
    p.gemm([(17, 4, 3)], (2, 2), dst=(1, 0), reset=True)
    for op in AluOp:
        p.alu(op, [(8, 0, 0), (9, 1, 0)], (2, 1), dst=(2, 0), src=(1, 0))
    p.alu(AluOp.SHR, [(10, 0, 0)], (1, 2), dst=(0, 1), imm=-3)
    p.alu(AluOp.SHR, [(12, 0, 0)], (1, 2), dst=(0, 1), imm=35)
    p.alu(AluOp.SHR, [(14, 0, 0)], (1, 1), imm=-40)
    p.alu(AluOp.MAX, [(2, 0, 0)], (1, 6), dst=(0, 1), imm=-100)
    p.alu(AluOp.MIN, [(3, 0, 0)], (1, 4), dst=(0, 1), imm=90)
    p.alu(AluOp.ADD, [(4, 5, 0), (5, 4, 0)], (1, 3), dst=(0, 1), src=(0, 1), push_next=True)
    out = p.alloc("out", 64)
    p.store(0, out, 3, 5, stride=7, pop_prev=True)
    p.store(9, out + 30, 2, 3, stride=4, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build(f"mixed program, seed {seed}"))


def status_probe(cfg: VtaConfig, elems: int = 256, uops: int = 256) -> Vector:
    """Each kind of instruction a status word describes, long enough (a few hundred cycles)
    for the register-map flow to read every one's status while it runs
    (tb/uvm/seq_lib/status_probe.py): LOADs of INP and WGT (load module) and of ACC (compute),
    a GEMM, one ALU of each opcode, a STORE; one module at a time, in a chain of tokens.
    Behind the GEMM wait more one-micro-op ALUs than the command queue holds, so fetch is
    blocked by a full queue while the GEMM runs, and behind the STORE more empty STOREs than
    the store's queue holds; a padded LOAD ends the program with only FINISH left (waiting
    for its token)."""
    rng = np.random.default_rng(7)
    p = program(cfg)
    n_inp, n_wgt, n_acc = (min(elems, depth) for depth in (cfg.inp_depth, cfg.wgt_depth, cfg.acc_depth))
    inp = p.alloc("inp", n_inp, rand_bytes(rng, n_inp * cfg.inp_bytes))
    wgt = p.alloc("wgt", n_wgt, rand_bytes(rng, n_wgt * cfg.wgt_bytes))
    acc = p.alloc("acc", n_acc, rand_bytes(rng, n_acc * cfg.batch * cfg.block_out * 4))
    p.load("inp", 0, inp, 1, n_inp)
    p.load("wgt", 0, wgt, 1, n_wgt, push_next=True)
    p.load("acc", 0, acc, 1, n_acc, pop_prev=True)
    p.gemm([(0, 0, 0)], (uops // 16, 16))
    p.gemm([(0, 0, 0)], (0, 16))  # no iterations over a non-empty micro-op range: no work
    for _ in range(cfg.cmd_queue_depth + 2):
        p.alu(AluOp.ADD, [(1, 0, 0)], imm=1)
    for op in AluOp:
        p.alu(op, [(1, 0, 0)], (uops // 16, 16), imm=1 if op == AluOp.SHR else None,
              push_next=op == max(AluOp))
    out = p.alloc("out", n_acc)
    p.store(0, out, 1, n_acc, pop_prev=True)
    # behind it, while it waits for its token, more STOREs of no rows than the store's
    # command queue holds: fetch must stall on the full queue, not overrun it
    for n in range(cfg.cmd_queue_depth + 2):
        p.store(0, out, 0, 1, push_prev=n == cfg.cmd_queue_depth + 1)
    # last, once the STOREs are done (S2C, then C2L from a one-micro-op ALU), a LOAD of one
    # element padded to (1 + 2 * pad)^2 while FINISH waits for it: the bus is idle, every
    # queue empty and store idle, yet the program runs. It writes from INP[1]: the GEMM
    # reads INP[0] only.
    p.alu(AluOp.ADD, [(1, 0, 0)], imm=1, pop_next=True, push_prev=True)
    pad = min(15, (math.isqrt(cfg.inp_depth - 1) - 1) // 2)
    p.load("inp", 1, inp, 1, 1, pads=(pad, pad, pad, pad), pop_next=True, push_next=True)
    p.finish(pop_prev=True)
    return model_expect(p.build("status probe: one long instruction of each kind"))


def edges(cfg: VtaConfig, seed: int = 0) -> Vector:
    """Degenerate shapes: LOADs with y_size = 0 (pad rows only, or nothing), x_size = 0,
    STOREs of zero rows or columns, GEMM/ALU with empty loops or micro-op ranges, over
    previously loaded data so that any stray write shows in the stored result."""
    rng = np.random.default_rng(seed)
    p = program(cfg)
    na = 12
    acc = p.alloc("acc", na, rng.integers(-2**31, 2**31, size=na * cfg.batch * cfg.block_out,
                                          dtype=np.int64).astype("<i4").tobytes())
    inp = p.alloc("inp", 2, rand_bytes(rng, 2 * cfg.inp_bytes))
    wgt = p.alloc("wgt", 1, rand_bytes(rng, cfg.wgt_bytes))
    p.load("inp", 0, inp, 1, 2)
    p.load("wgt", 0, wgt, 1, 1)
    p.load("inp", 0, inp, 0, 2, pads=(0, 0, 0, 0))             # no rows: nothing written
    p.load("inp", 1, inp, 3, 0, pads=(1, 1, 1, 1), push_next=True)  # x_size = 0: no-op
    p.load("acc", 0, acc, 1, na, pop_prev=True)
    p.load("acc", 2, acc, 0, 1, pads=(1, 1, 0, 1))             # 2 pad rows of 2 zeros: 2..5
    p.load("acc", 7, acc, 0, 3)                                 # nothing
    p.load("acc8", 8, acc, 2, 0, pads=(2, 0, 0, 0))             # x_size = 0: no-op
    p.gemm([(0, 0, 0)], (0, 3), reset=True)                     # iter_out = 0
    p.gemm([(1, 0, 0)], (3, 0), reset=True)                     # iter_in = 0
    p.gemm(UopRange(1, 1), (2, 2), reset=True)                  # empty micro-op range
    p.alu(AluOp.ADD, [(9, 10, 0)], (0, 0), imm=5)
    p.gemm([(10, 0, 0), (11, 1, 0)], (1, 1), push_next=True)    # real GEMM on 10, 11
    out = p.alloc("out", 2 * na)
    p.store(0, out, 0, 4, pop_prev=True)                        # y_size = 0
    p.store(0, out, 3, 0)                                       # x_size = 0
    p.store(0, out, 1, na, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build(f"degenerate shapes, seed {seed}"))


def tokens_held(cfg: VtaConfig) -> Vector:
    """A window in which all four token counters hold a token at once: load pushes L2C and
    store pushes S2C, compute pushes C2L and C2S, then each consumer is kept busy with one
    long instruction (a LOAD and a STORE of a burst per row, a GEMM of a thousand
    micro-ops) before the instruction that pops. The reset flow resets the DUT in that
    window: every counter must read 0 after the reset, not only after the next launch."""
    rng = np.random.default_rng(13)
    p = program(cfg)
    none = UopRange(0, 0)
    tile = min(cfg.inp_depth, cfg.acc_depth, 256) // 2
    out = p.alloc("out", tile)
    p.gemm([(0, 0, 0)], (tile, 1), dst=(1, 0), reset=True, push_next=True)  # OUT rows to store
    p.store(0, out, 0, 0, pop_prev=True, push_prev=True)                    # S2C held
    p.store(0, out, tile, 1)                                                # store busy
    p.load("inp", 0, 0, 0, 0, push_next=True)                               # L2C held
    inp = p.alloc("inp", 2 * tile, rand_bytes(rng, 2 * tile * cfg.inp_bytes))
    p.load("inp", 0, inp, tile, 1, stride=2)                                # load busy
    p.gemm(none, push_prev=True, push_next=True)                            # C2L, C2S held
    p.gemm([(tile, 0, 0)], (1000, 1), reset=True)                           # compute busy
    p.gemm(none, pop_prev=True, pop_next=True)
    p.load("inp", 0, 0, 0, 0, pop_next=True)
    p.store(0, out, 0, 0, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return model_expect(p.build("all four token counters held at once"))

