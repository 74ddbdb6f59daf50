"""GEMM: blocked products, loop nests, reset, 32-bit wrap, and the loads only GEMM reads.

The INP, WGT and UOP buffers are observable only through a GEMM, so the vectors that
check their loads (padding, strides, 2-D micro-op loads) live here too. Expected values
are numpy block products placed by the spec's index formulas (vectors.reference.loop_nest).
"""
from __future__ import annotations

from functools import partial
from itertools import chain

import numpy as np

from models.config import VtaConfig
from models.isa import uops_to_bytes
from models.vector import Vector
from vectors.data import (
    DEFAULT,
    SMALL,
    acc_elements,
    acc_shape,
    i8,
    inp_shape,
    put_matrices,
    random_inp_wgt,
    rng_for,
    wgt_shape,
)
from vectors.programs import Builder, Program, UopRange, as_bytes, emit_expose, emit_reset
from vectors.reference import (
    I32_MAX,
    I32_MIN,
    Uop,
    byte_planes,
    gemm_ref,
    load_2d,
    loop_nest,
    matmul_wt,
    wrap32,
)


def blocked_uops(mb: int, nb: int, kb: int) -> list[Uop]:
    """One micro-op per (m, n, k) block: ACC[m*nb+n] += INP[m*kb+k] . WGT[n*kb+k]^T."""
    return [(m * nb + n, m * kb + k, n * kb + k)
            for m in range(mb) for n in range(nb) for k in range(kb)]


def blocked_gemm(name: str, *, mb: int, nb: int, kb: int, saturate_row0: bool, shuffle: bool,
                 description: str) -> Vector:
    """C = A . B^T on mb x nb result blocks over kb k-blocks, one micro-op per block product,
    all in one GEMM after a reset; with ``saturate_row0`` row 0 of A and B is all -128 (so
    C[0][0] needs the upper bytes), with ``shuffle`` the micro-ops run in random order."""
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    A = i8(rng, mb * cfg.batch, kb * cfg.block_in)
    B = i8(rng, nb * cfg.block_out, kb * cfg.block_in)
    if saturate_row0:
        A[0, :] = B[0, :] = -128
    inp_d, wgt_d = put_matrices(p, A, B)
    p.load("inp", 0, inp_d, 1, mb * kb)
    p.load("wgt", 0, wgt_d, 1, nb * kb, push_next=True)
    emit_reset(p, 0, mb * nb)
    uops = blocked_uops(mb, nb, kb)
    if shuffle:
        uops = [uops[i] for i in rng.permutation(len(uops))]
    p.gemm(uops, pop_prev=True)
    out = emit_expose(p, mb * nb)
    p.expect("out", out, byte_planes(acc_elements(cfg, matmul_wt(A, B))), "out")
    return p.build(description)


def gemm_loops(name: str, cfg: VtaConfig) -> Vector:
    """GEMM loop nest with non-zero factors on every index stream."""
    p = Program(cfg)
    n_acc = 8
    inp, wgt, inp_d, wgt_d = random_inp_wgt(p, rng_for(name), 12, 8)
    p.load("inp", 0, inp_d, 1, 12)
    p.load("wgt", 0, wgt_d, 1, 8, push_next=True)
    emit_reset(p, 0, n_acc)
    uops: list[Uop] = [(0, 0, 0), (1, 3, 2)]
    iters, dst, src, wgt_f = (3, 2), (2, 2), (2, 1), (1, 2)
    p.gemm(uops, iters, dst, src, wgt_f, pop_prev=True)
    out = emit_expose(p, n_acc)
    # Reference: the spec's loop nest written out; (o=0,i=1) and (o=1,i=0) hit the same
    # accumulator, so entries accumulate across loop iterations too.
    ref = gemm_ref(np.zeros(acc_shape(cfg, n_acc)), inp, wgt, loop_nest(uops, iters, dst, src, wgt_f))
    p.expect("out", out, byte_planes(ref), "out")
    return p.build(f"""GEMM loop nest with iter_out=3, iter_in=2, two micro-ops and non-zero
        factors for all three index streams (dst 2/2, src 2/1, wgt 1/2). Different (o, i)
        pairs map to the same accumulator, so results also accumulate across iterations.
        Expected by the spec's index formulas written as explicit Python loops over numpy
        block products; exposed byte by byte. BATCH={cfg.batch}, BLOCK={cfg.block}.""")


def gemm_reset(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    inp, wgt, inp_d, wgt_d = random_inp_wgt(p, rng, 4, 2)
    bias = rng.integers(-10**6, 10**6, size=acc_shape(cfg, 4), dtype=np.int64)
    bias_d = p.alloc("acc", 4, as_bytes(bias, np.int32), "bias")
    p.load("acc", 0, bias_d, 1, 4)
    p.load("inp", 0, inp_d, 1, 4)
    p.load("wgt", 0, wgt_d, 1, 2, push_next=True)
    p.gemm([(m, m, 0) for m in range(4)] + [(m, 3 - m, 1) for m in range(4)], pop_prev=True)
    # Reset ACC 2 and 3; src/wgt indices of a reset micro-op are irrelevant.
    p.gemm([(2, 5, 7)], iters=(1, 2), dst=(0, 1), src=(3, 1), wgt=(1, 1), reset=True)
    p.gemm([(m, m, 1) for m in range(1, 4)])
    out = emit_expose(p, 4)
    ref = np.stack([bias[m] + matmul_wt(inp[m], wgt[0]) + matmul_wt(inp[3 - m], wgt[1])
                    for m in range(4)])
    ref[2:4] = 0
    for m in range(1, 4):
        ref[m] += matmul_wt(inp[m], wgt[1])
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""GEMM reset: a bias loaded with LOAD ACC, a GEMM accumulating onto it,
        a reset GEMM (reset_reg=1, inner loop of 2, non-zero src/wgt indices and factors that must
        be ignored) clearing ACC 2..3 only, then another GEMM accumulating onto ACC 1..3.
        Expected by hand: bias + products, zero, + products; exposed byte by byte.""")


def gemm_acc_wrap(name: str) -> Vector:
    cfg = SMALL
    p = Program(cfg)
    inp = np.full(inp_shape(cfg, 2), 127, dtype=np.int64)
    inp[1] = -128
    wgt = np.full(wgt_shape(cfg, 1), 127, dtype=np.int64)
    wgt[0, 2:, :] = -128
    acc = np.array([[[I32_MAX, I32_MAX - 5000, I32_MIN, I32_MIN + 5000]],
                    [[I32_MIN, I32_MAX, 1, -1]]], dtype=np.int64)
    inp_d = p.alloc("inp", 2, as_bytes(inp, np.int8), "inp")
    wgt_d = p.alloc("wgt", 1, as_bytes(wgt, np.int8), "wgt")
    acc_d = p.alloc("acc", 2, as_bytes(acc, np.int32), "acc_in")
    p.load("acc", 0, acc_d, 1, 2)
    p.load("inp", 0, inp_d, 1, 2)
    p.load("wgt", 0, wgt_d, 1, 1, push_next=True)
    # Each accumulator gets its INP row . W^T three times (three micro-ops).
    p.gemm([(0, 0, 0)] * 3 + [(1, 1, 0)] * 3, pop_prev=True)
    out = emit_expose(p, 2)
    ref = wrap32(np.stack([acc[m] + 3 * matmul_wt(inp[m], wgt[0]) for m in range(2)]))
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""GEMM 32-bit wrap-around: accumulators loaded with values at and near
        2^31-1 and -2^31 receive three repeated products of 127/-128 rows (+-193548 or so), so
        they wrap past the int32 limits in both directions. Expected = (init + 3 * a . w)
        wrapped modulo 2^32 by hand; exposed byte by byte.""")


def gemm_padded_inp_wgt(name: str, cfg: VtaConfig = SMALL) -> Vector:
    rng = rng_for(name)
    p = Program(cfg)
    # INP: DRAM rows of 3 elements, 2 of them loaded, padded (1, 2, 2, 1) -> X=5, Y=5.
    # WGT: 1 row of 2 elements padded (0, 1, 3, 0) -> X=5, Y=2.
    inp_pads, inp_rows, inp_x, inp_stride = (1, 2, 2, 1), 2, 2, 3
    wgt_pads, wgt_x = (0, 1, 3, 0), 2
    inp_dram, wgt_dram, inp_d, wgt_d = random_inp_wgt(p, rng, inp_rows * inp_stride, wgt_x)
    junk_inp = i8(rng, *inp_shape(cfg, 30))
    junk_wgt = i8(rng, *wgt_shape(cfg, 12))
    jinp_d = p.alloc("inp", 30, as_bytes(junk_inp, np.int8), "inp_prefill")
    jwgt_d = p.alloc("wgt", 12, as_bytes(junk_wgt, np.int8), "wgt_prefill")
    # Pre-fill the buffers with junk so that the pad zeros are observable.
    p.load("inp", 0, jinp_d, 1, 30)
    p.load("wgt", 0, jwgt_d, 1, 12)
    p.load("inp", 0, inp_d, inp_rows, inp_x, stride=inp_stride, pads=inp_pads)
    p.load("wgt", 0, wgt_d, 1, wgt_x, pads=wgt_pads, push_next=True)
    n_acc = 30
    emit_reset(p, 0, n_acc)
    # ACC[x] = sum over all 12 WGT entries of INP[x] . WGT[w]^T, for every INP entry x.
    p.gemm([(0, 0, w) for w in range(12)], iters=(1, n_acc), dst=(0, 1), src=(0, 1),
           pop_prev=True)
    out = emit_expose(p, n_acc)
    # Reference: both SRAM images (junk, overwritten by the padded tiles), then numpy products.
    inp_sram, wgt_sram = junk_inp.copy(), junk_wgt.copy()
    inp_tile = load_2d(inp_dram, inp_rows, inp_x, inp_stride, inp_pads)
    wgt_tile = load_2d(wgt_dram, 1, wgt_x, wgt_x, wgt_pads)
    inp_sram[:len(inp_tile)] = inp_tile
    wgt_sram[:len(wgt_tile)] = wgt_tile
    wsum = wgt_sram.sum(axis=0)
    ref = np.stack([matmul_wt(inp_sram[x], wsum) for x in range(n_acc)])
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""Padding and strides on the load module's loads, checked through GEMM:
        INP and WGT buffers are first filled with junk, then LOAD INP (2 rows of 2 from DRAM rows
        3 elements apart, pads y 1/2 x 2/1) and LOAD WGT (pads y_pad_1=1, x_pad_0=3) overwrite
        entries 0..24 and 0..9 with a zero-padded tile. A GEMM with 12 micro-ops and an inner
        loop of 30 computes
        ACC[x] = sum_w INP[x] . WGT[w]^T, so every zero pad entry and every untouched junk entry
        shows. Expected: SRAM images built by hand, then numpy products; exposed byte by
        byte.""")


def load_uop_2d(name: str, cfg: VtaConfig = SMALL) -> Vector:
    rng = rng_for(name)
    p = Program(cfg)
    inp = i8(rng, *inp_shape(cfg, 8))
    wgt = i8(rng, *wgt_shape(cfg, 8))
    table = [(k % 3, k % 8, (3 * k) % 8) for k in range(10)]
    uop_d = p.alloc("uop", len(table), uops_to_bytes(
        cfg, [{"dst_idx": d, "src_idx": s, "wgt_idx": w} for d, s, w in table]), "uop_table")
    inp_d = p.alloc("inp", 8, as_bytes(inp, np.int8), "inp")
    wgt_d = p.alloc("wgt", 8, as_bytes(wgt, np.int8), "wgt")
    # Explicit micro-ops live at 100.. and 120.., above the builder's own table at 0.
    # UOP SRAM 100..111: y_pad_0 row of 4 zero uops, rows [t0 t1 t2 0] and [t5 t6 t7 0].
    p.load("uop", 100, uop_d, 2, 3, stride=5, pads=(1, 0, 0, 1))
    p.load("uop", 104, uop_d, 1, 0)  # x_size 0: no-op
    p.load("uop", 120, uop_d + 8, 1, 2)  # plain load of t8, t9 at 120..121
    p.load("inp", 0, inp_d, 1, 8)
    p.load("wgt", 0, wgt_d, 1, 8, push_next=True)
    emit_reset(p, 0, 4)
    p.gemm(UopRange(100, 112), pop_prev=True)
    p.gemm(UopRange(120, 122), iters=(2, 1), dst=(1, 0), src=(2, 0), wgt=(0, 0))
    out = emit_expose(p, 4)
    # Reference: the micro-op buffer as the spec's padded 2-D LOAD builds it (zero micro-ops
    # are (0, 0, 0)), then the two GEMMs' loop nests.
    at100: list[Uop] = [(d, s, w) for d, s, w in load_2d(np.array(table), 2, 3, 5, (1, 0, 0, 1)).tolist()]
    at120 = table[8:10]
    ref = gemm_ref(np.zeros(acc_shape(cfg, 4)), inp, wgt, chain(
        loop_nest(at100, (1, 1), (0, 0), (0, 0)), loop_nest(at120, (2, 1), (1, 0), (2, 0))))
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""LOAD UOP forms: a 2-D micro-op load (2 rows of 3 from DRAM rows 5
        apart) with y_pad_0=1 and x_pad_1=1 to sram_base 100, which places zero micro-ops
        (dst 0, src 0, wgt 0) in the pad slots; a LOAD UOP with x_size 0 over it that must not
        change anything; and a plain LOAD UOP to sram_base 120. Two GEMMs run over micro-op
        ranges [100, 112) and [120, 122) (the latter with iter_out=2 and dst/src factors). Expected
        by hand from the micro-op buffer image; exposed byte by byte.""")


VECTORS: list[tuple[str, Builder]] = [
    ("gemm_basic", partial(
        blocked_gemm, mb=3, nb=2, kb=2, saturate_row0=False, shuffle=False,
        description="""Basic GEMM: C = A (3x8) . B (8x8)^T on BLOCK 4, one micro-op per
        (row block, column block, k block) = 12 micro-ops in one GEMM after a GEMM reset; the
        full 32-bit results are exposed byte by byte. Expected = numpy matmul of the full
        matrices.""")),
    ("gemm_32uops_accumulate", partial(
        blocked_gemm, mb=2, nb=2, kb=8, saturate_row0=True, shuffle=True,
        description="""One GEMM instruction with 32 micro-ops (shuffled order) where every
        accumulator entry receives 8 micro-ops from different INP/WGT entries: C = A (2x32) .
        B (8x32)^T with row 0 of both all -128 so C[0][0] = 524288 needs the upper bytes.
        Expected = numpy matmul, exposed byte by byte.""")),
    ("gemm_loops_factors", partial(gemm_loops, cfg=SMALL)),
    ("default_gemm_loops_factors", partial(gemm_loops, cfg=DEFAULT)),
    ("gemm_reset", gemm_reset),
    ("gemm_acc_wrap", gemm_acc_wrap),
    ("gemm_padded_inp_wgt", gemm_padded_inp_wgt),
    ("load_uop_2d", load_uop_2d),
]
