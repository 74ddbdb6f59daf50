"""Dependency tokens between the load, compute and store modules.

Software-pipelined tiles, two virtual threads, queues filled to capacity and a compute
instruction carrying all four flags: programs whose bytes come out right only if every
push and pop is honoured.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from models.config import VtaConfig
from models.isa import AluOp
from models.vector import Vector
from vectors.data import (
    BATCH2,
    DEFAULT,
    SMALL,
    acc_elements,
    i8,
    inp_shape,
    put_matrices,
    random_inp_wgt,
    rng_for,
    tiles,
    wgt_shape,
)
from vectors.programs import Builder, Program, as_bytes, emit_reset
from vectors.reference import low8, matmul_wt


def pipeline_tokens(name: str, cfg: VtaConfig) -> Vector:
    """Six tiles through load -> compute -> store with two buffers of each kind and
    C2L / S2C back-pressure tokens, in upstream's software-pipelined program order."""
    rng = rng_for(name)
    p = Program(cfg)
    n_tiles, rows = 6, 2
    A = [i8(rng, rows * cfg.batch, cfg.block_in) for _ in range(n_tiles)]
    W = [i8(rng, cfg.block_out, cfg.block_in) for _ in range(n_tiles)]
    inp_d = [p.alloc("inp", rows, as_bytes(tiles(a, cfg.batch, cfg.block_in), np.int8),
                     f"inp{t}") for t, a in enumerate(A)]
    wgt_d = [p.alloc("wgt", 1, as_bytes(w, np.int8), f"wgt{t}") for t, w in enumerate(W)]
    out = p.alloc("out", n_tiles * rows)

    def load(t: int) -> None:
        buf = t % 2
        p.load("inp", rows * buf, inp_d[t], 1, rows, pop_next=t >= 2)
        p.load("wgt", buf, wgt_d[t], 1, 1, push_next=True)

    def compute(t: int) -> None:
        buf = t % 2
        acc = rows * buf
        emit_reset(p, acc, rows, pop_next=t >= 2)
        p.gemm([(acc, rows * buf, buf)], iters=(1, rows), dst=(0, 1), src=(0, 1),
               pop_prev=True, push_prev=t + 2 < n_tiles)
        p.alu(AluOp.ADD, [(acc, acc, 0)], iters=(1, rows), dst=(0, 1), src=(0, 1), imm=-3 * t,
              push_next=True)

    def store(t: int) -> None:
        p.store(rows * (t % 2), out + rows * t, 1, rows, pop_prev=True,
                push_prev=t + 2 < n_tiles or t == n_tiles - 1)

    load(0)
    for t in range(n_tiles):
        if t + 1 < n_tiles:
            load(t + 1)
        compute(t)
        store(t)
    p.finish(pop_next=True)
    ref = np.concatenate([acc_elements(cfg, matmul_wt(A[t], W[t]) - 3 * t) for t in range(n_tiles)])
    p.expect("out", out, low8(ref), "out")
    return p.build(f"""Tokens among all three modules: six tiles pipelined load -> compute ->
        store in upstream's order (L0 L1 C0 S0 L2 C1 S1 ...), with two INP/WGT buffers and two
        ACC buffers. Loads push L2C; compute pops it, pushes C2L when the input buffer may be
        reused two tiles later (the load of tile t+2 pops it) and C2S after an ALU ADD; stores
        pop C2S and push S2C when the ACC buffer is reused (the reset of tile t+2 pops it) and
        on the last tile (FINISH pops it). BATCH={cfg.batch}, BLOCK={cfg.block}. Expected per
        tile = numpy matmul - 3*t, truncated to the low byte.""")


def vthread_blocked_gemm(name: str, cfg: VtaConfig) -> Vector:
    """Blocked GEMM with two virtual threads, double-buffered like upstream's test."""
    rng = rng_for(name)
    p = Program(cfg)
    mb, kb, nb = 4, 3, 2  # thread t owns row blocks 2t, 2t+1
    A = i8(rng, mb * cfg.batch, kb * cfg.block_in)
    B = i8(rng, nb * cfg.block_out, kb * cfg.block_in)
    inp_d, wgt_d = put_matrices(p, A, B)
    out = p.alloc("out", mb * nb)
    for t in range(2):
        emit_reset(p, 4 * t, 4)

    def load(t: int, kc: int) -> None:
        # Rows 2t, 2t+1 of column block kc: DRAM elements (2t)*kb + kc, stride kb.
        p.load("inp", 2 * t, inp_d + 2 * t * kb + kc, 2, 1, stride=kb, pop_next=kc > 0)
        p.load("wgt", 2 * t, wgt_d + kc, nb, 1, stride=kb, push_next=True)

    def gemm(t: int, kc: int) -> None:
        p.gemm([(4 * t, 2 * t, 2 * t)], iters=(2, nb), dst=(nb, 1), src=(1, 0), wgt=(0, 1),
               pop_prev=True, push_prev=kc + 1 < kb, push_next=kc + 1 == kb)

    steps = [(t, kc) for kc in range(kb) for t in range(2)]
    load(*steps[0])
    load(*steps[1])
    for n, step in enumerate(steps):
        gemm(*step)
        if n + 2 < len(steps):
            load(*steps[n + 2])
    p.store(0, out, 2, nb, stride=nb, pop_prev=True)
    p.store(4, out + 2 * nb, 2, nb, stride=nb, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    p.expect("out", out, low8(acc_elements(cfg, matmul_wt(A, B))), "out")
    return p.build(f"""Blocked GEMM with two virtual threads: C = A ({mb * cfg.batch}x
        {kb * cfg.block_in}) . B ({nb * cfg.block_out}x{kb * cfg.block_in})^T, larger than one
        tile. Thread t owns row blocks 2t..2t+1 and its own INP/WGT buffer set and ACC region;
        the k dimension is walked in 3 steps, each a strided LOAD INP (x_stride 3 > x_size 1),
        a strided LOAD WGT pushing L2C, and a GEMM with iter_out=2, iter_in=2 that pops L2C and
        pushes C2L to free its buffer set for the thread's next load. Instructions of the two
        threads interleave (L0 L1 G0 L0' G1 L1' ...). BATCH={cfg.batch}, BLOCK={cfg.block}.
        Expected = numpy matmul of the full matrices, truncated to int8 per STORE.""")


def tokens_capacity(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    n = 8
    inp, wgt, inp_d, wgt_d = random_inp_wgt(p, rng, n, 1)
    out = p.alloc("out", n)
    emit_reset(p, 0, n)
    p.load("wgt", 0, wgt_d, 1, 1)
    for k in range(n):
        p.load("inp", k, inp_d + k, 1, 1, push_next=True)
    for k in range(n):
        p.gemm([(k, k, 0)], pop_prev=True, push_next=True)
    for k in range(n):
        p.store(k, out + k, 1, 1, pop_prev=True, push_prev=k == n - 1)
    p.finish(pop_next=True)
    ref = np.stack([matmul_wt(inp[k], wgt[0]) for k in range(n)])
    p.expect("out", out, low8(ref), "out")
    return p.build("""Token queues filled to their capacity of 8: eight single-element LOAD
        INP each push L2C before any is popped, then eight GEMMs each pop L2C and push C2S
        (eight outstanding C2S), then eight STOREs pop them; only the last STORE pushes S2C for
        FINISH. Load-side program order also puts 9 load instructions behind one another.
        Expected ACC[k] = INP[k] . W^T (numpy), truncated.""")


def all_four_flags(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    rows = 2
    A = [i8(rng, *inp_shape(cfg, rows)) for _ in range(3)]
    W = i8(rng, *wgt_shape(cfg, 1))
    inp_d = [p.alloc("inp", rows, as_bytes(a, np.int8), f"inp{k}") for k, a in enumerate(A)]
    wgt_d = p.alloc("wgt", 1, as_bytes(W, np.int8), "wgt")
    out = p.alloc("out", 3 * rows)
    n_junk = 200  # a long LOAD ahead of round two's input: its L2C token comes late
    junk_d = p.alloc("inp", n_junk, as_bytes(i8(rng, *inp_shape(cfg, n_junk)), np.int8), "junk")
    uops = [(0, 0, 0)]
    emit_reset(p, 0, rows)
    p.load("wgt", 0, wgt_d, 1, 1)
    p.load("inp", 0, inp_d[0], 1, rows, push_next=True)
    p.gemm(uops, iters=(1, rows), dst=(0, 1), src=(0, 1),
           pop_prev=True, push_prev=True, push_next=True)
    p.store(0, out, 1, rows, pop_prev=True, push_prev=True)
    p.load("inp", 8, junk_d, 1, n_junk)
    p.load("inp", 0, inp_d[1], 1, rows, pop_next=True, push_next=True)
    p.gemm(uops, iters=(1, rows), dst=(0, 1), src=(0, 1),
           pop_prev=True, pop_next=True, push_prev=True, push_next=True)
    p.store(0, out + rows, 1, rows, pop_prev=True, push_prev=True)
    p.load("inp", 0, inp_d[2], 1, rows, pop_next=True, push_next=True)
    p.alu(AluOp.ADD, [(0, 0, 0)], iters=(1, rows), dst=(0, 1), src=(0, 1), imm=0, pop_next=True)
    p.gemm(uops, iters=(1, rows), dst=(0, 1), src=(0, 1), pop_prev=True, push_next=True)
    p.store(0, out + 2 * rows, 1, rows, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    r1 = np.stack([matmul_wt(A[0][m], W[0]) for m in range(rows)])
    r2 = r1 + np.stack([matmul_wt(A[1][m], W[0]) for m in range(rows)])
    r3 = r2 + np.stack([matmul_wt(A[2][m], W[0]) for m in range(rows)])
    p.expect("out", out, low8(np.concatenate([r1, r2, r3])), "out")
    return p.build("""A compute instruction carrying all four dependency flags: a GEMM that
        pops L2C (new input loaded), pops S2C (the previous STORE has read the accumulators it
        now updates), pushes C2L (its input buffer may be reloaded) and pushes C2S (its result
        may be stored). Three rounds reuse one INP buffer and one ACC region; the loads pop C2L
        before overwriting the buffer. Expected: running sums of numpy products after each
        round, truncated. Round two's LOAD waits behind a 200-element LOAD, so that GEMM's S2C
        token arrives long before its L2C token: having popped one, it must wait for the other
        without popping the first again.""")


VECTORS: list[tuple[str, Builder]] = [
    ("pipeline_tokens", partial(pipeline_tokens, cfg=SMALL)),
    ("default_pipeline_tokens", partial(pipeline_tokens, cfg=DEFAULT)),
    ("batch2_pipeline_tokens", partial(pipeline_tokens, cfg=BATCH2)),
    ("vthread_blocked_gemm", partial(vthread_blocked_gemm, cfg=SMALL)),
    ("default_vthread_blocked_gemm", partial(vthread_blocked_gemm, cfg=DEFAULT)),
    ("batch2_vthread_blocked_gemm", partial(vthread_blocked_gemm, cfg=BATCH2)),
    ("tokens_capacity", tokens_capacity),
    ("all_four_flags", all_four_flags),
]
