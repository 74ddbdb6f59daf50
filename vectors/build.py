"""Generate the directed test vectors of the VTA verification suite.

Run from the repository root as ``.venv/bin/python vectors/build.py``. It deletes every
vector directory under vectors/ (a directory holding a manifest.json) and writes them
again; random data comes from generators seeded by the vector name, so two runs give
byte-identical files.

Each vector is written as three parts, kept apart on purpose:

1. data: numpy arrays placed into DRAM;
2. program: instructions built with :mod:`vectors.programs`;
3. reference: the expected DRAM bytes, computed here from the same arrays with plain
   numpy (matmul, explicit loops, hand arithmetic in :mod:`vectors.reference`) and the
   semantics of ../shared/VTA_SPEC.md section 3 -- never with models/executor.py, so
   that the executor and these vectors check each other.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))  # run as a script from anywhere: models/ and vectors/

from models.config import VtaConfig  # noqa: E402
from models.isa import AluOp, uops_to_bytes  # noqa: E402
from models.vector import Vector, save_vector  # noqa: E402
from vectors.data import (  # noqa: E402
    BATCH2,
    DEFAULT,
    SMALL,
    acc_shape,
    fill_bytes,
    i8,
    i32,
    inp_shape,
    rng_for,
    tiles,
    wgt_shape,
)
from vectors.programs import (  # noqa: E402
    MEMTYPE_OF,
    Program,
    UopRange,
    as_bytes,
    emit_expose,
    emit_fill,
    emit_reset,
    store_and_finish,
)
from vectors.reference import (  # noqa: E402
    I32_MAX,
    I32_MIN,
    alu_ref,
    byte_planes,
    low8,
    matmul_wt,
    shr_ref,
    wrap32,
)

# =====================================================================================
# Vectors
# =====================================================================================
VECTORS: list[tuple[str, Callable[[str], Vector]]] = []


def vector(name: str) -> Callable[[Callable[[str], Vector]], Callable[[str], Vector]]:
    """Register a vector generator under its directory name.

    Generators take the name (it seeds their random data) and return the Vector; the
    description each passes to Program.build is its documentation and goes into the
    manifest and the README.
    """
    def register(fn: Callable[[str], Vector]) -> Callable[[str], Vector]:
        VECTORS.append((name, fn))
        return fn
    return register


# ---- STORE / LOAD ACC basics ----------------------------------------------------------
@vector("store_reset_acc")
def v_store_reset_acc(name: str) -> Vector:
    cfg = SMALL
    p = Program(cfg)
    n = 6
    out = p.alloc("out", n, fill_bytes(n * cfg.out_bytes, 0xA5), "out_init")
    emit_reset(p, 10, n, push_next=True)
    p.store(10, out, 2, 3, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    # Reference: GEMM reset zeroes ACC 10..15, so every stored byte is 0 and the 0xA5
    # init pattern is overwritten.
    p.expect("out", out, bytes(n * cfg.out_bytes), "out")
    return p.build("""Minimal program: a GEMM reset of six accumulator elements (ACC 10..15)
        handed to the store module (C2S), one STORE of them as two rows of three, then FINISH
        popping the store's S2C token. Shows that reset really zeroes and that the STORE really
        writes: the output region is pre-filled with 0xA5 and must become 0. (SRAM is not
        cleared by reset or launch, so a program may only read what it wrote.)""")


@vector("load_acc_store")
def v_load_acc_store(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    n = 8
    acc = i32(rng, *acc_shape(cfg, n))
    src = p.alloc("acc", n, as_bytes(acc, np.int32), "acc_in")
    out = p.alloc("out", n)
    p.load("acc", 0, src, 1, n, push_next=True)
    p.store(0, out, 1, n, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    p.expect("out", out, low8(acc), "out")
    return p.build("""LOAD ACC of eight 32-bit accumulator elements (random values with the
        int32 extremes, 0, -1, 127, -128, 255 mixed in) followed by a STORE of the same eight
        elements: the simplest compute->store token hand-off (C2S) and the STORE truncation
        to the low 8 bits of each lane.""")


@vector("store_truncation")
def v_store_truncation(name: str) -> Vector:
    cfg = SMALL
    p = Program(cfg)
    values = [0x1FF, -129, I32_MAX, I32_MIN, 255, 256, -1, -128, 127, 128, 0x12345678,
              -0x12345678, 0, 1, -2, 0x7FFFFF80, -0x7FFFFF81, 383, -383, 0xFF00, 65535,
              -65536, 0x80, -0x80000000 + 0x7F]
    acc = np.array(values, dtype=np.int64).reshape(acc_shape(cfg, len(values) // cfg.block_out))
    n = acc.shape[0]
    src = p.alloc("acc", n, as_bytes(acc, np.int32), "acc_in")
    out = p.alloc("out", n)
    p.load("acc", 5, src, 1, n, push_next=True)
    p.store(5, out, 1, n, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    # Reference by hand: e.g. 0x1FF -> 0xFF, -129 -> 0x7F, 2^31-1 -> 0xFF, -2^31 -> 0x00.
    p.expect("out", out, bytes(v & 0xFF for v in values), "out")
    return p.build("""STORE truncation of negative and overflowing accumulators: LOAD ACC of
        24 hand-picked lanes (0x1FF, -129, 2^31-1, -2^31, 255, 256, -1, -128, 127, 128,
        0x12345678, its negation, ...) and STORE; each output byte must be the low 8 bits of
        the lane (0x1FF -> 0xFF, -129 -> 0x7F, 2^31-1 -> 0xFF, -2^31 -> 0x00).""")


@vector("load_acc8_negative")
def v_load_acc8_negative(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    # 8-bit accumulator initialisers in DRAM: 2 rows of 5 elements, of which 3 are loaded.
    rows, row_len, x = 2, 5, 3
    acc8 = i8(rng, *acc_shape(cfg, rows * row_len))
    acc8[0, 0, :] = [-128, -1, 127, 0]
    acc8[1, 0, :] = [-2, 1, -127, 126]
    src = p.alloc("acc8", rows * row_len, as_bytes(acc8, np.int8), "acc8_in")
    # Padded tile: y_pad_0=1, x_pad_0=1, x_pad_1=1 -> rows of X=5, Y=3 rows = 15 elements.
    pads = (1, 0, 1, 1)
    X, Y = pads[2] + x + pads[3], pads[0] + rows + pads[1]
    n = X * Y
    emit_fill(p, 0, n, 99)  # pre-fill so that pad zeros are visible
    p.load("acc8", 0, src, rows, x, stride=row_len, pads=pads)
    emit_expose(p, 0, n, push_next=True)
    out = p.alloc("out", 4 * n)
    store_and_finish(p, 0, out, 4 * n)
    # Reference: build the padded tile by hand, sign-extending int8 to int32 (int64 here).
    tile = np.zeros((Y, X) + acc_shape(cfg, 1)[1:], dtype=np.int64)
    for y in range(rows):
        for xx in range(x):
            tile[pads[0] + y, pads[2] + xx] = acc8[y * row_len + xx]
    p.expect("out", out, byte_planes(tile.reshape(acc_shape(cfg, n))), "out")
    return p.build("""LOAD ACC_8BIT with negative values (-128, -1, -127, ...) from a strided
        DRAM tile (2 rows of 3 elements, x_stride 5) with y_pad_0=1, x_pad_0=1, x_pad_1=1 into a
        pre-filled (99) accumulator region. The 32-bit result of every lane is exposed byte by
        byte (copies shifted right by 8/16/24 with ALU SHR) so the sign extension into bits
        8..31 (0xFF bytes for negatives) and the zero padding are both checked.""")


@vector("load_pads_x15")
def v_load_pads_x15(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    rows, x, stride = 2, 3, 4
    acc = i32(rng, *acc_shape(cfg, rows * stride))
    src = p.alloc("acc", rows * stride, as_bytes(acc, np.int32), "acc_in")
    pads = (0, 0, 15, 15)
    X = 15 + x + 15
    total = 1 + rows * X + 3  # one untouched element before, three after
    emit_fill(p, 0, total, -7)
    p.load("acc", 1, src, rows, x, stride=stride, pads=pads, push_next=True)
    out = p.alloc("out", total)
    store_and_finish(p, 0, out, total)
    # Reference: -7 everywhere, then the padded tile (zeros + data) at ACC 1.
    ref = np.full(acc_shape(cfg, total), -7, dtype=np.int64)
    for y in range(rows):
        row = np.zeros(acc_shape(cfg, X), dtype=np.int64)
        row[15:15 + x] = acc[y * stride:y * stride + x]
        ref[1 + y * X:1 + (y + 1) * X] = row
    p.expect("out", out, low8(ref), "out")
    return p.build("""LOAD ACC with x_pad_0 = x_pad_1 = 15 (the maximum), 2 rows of 3
        elements read with x_stride 4, into ACC 1..66 of a region pre-filled with -7. The STORE
        of ACC 0..69 checks the 15 zero elements on each side of each row, the data, and that
        the elements just outside the padded tile keep -7 (0xF9).""")


@vector("load_pads_y15")
def v_load_pads_y15(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    rows, x = 2, 2
    acc = i32(rng, *acc_shape(cfg, rows * x))
    src = p.alloc("acc", rows * x, as_bytes(acc, np.int32), "acc_in")
    pads = (15, 15, 1, 0)
    X, Y = 1 + x, 15 + rows + 15
    total = 2 + X * Y + 2
    emit_fill(p, 0, total, 300)
    p.load("acc", 2, src, rows, x, pads=pads, push_next=True)
    out = p.alloc("out", total)
    store_and_finish(p, 0, out, total)
    ref = np.full(acc_shape(cfg, total), 300, dtype=np.int64)
    tile = np.zeros((Y, X) + acc_shape(cfg, 1)[1:], dtype=np.int64)
    for y in range(rows):
        tile[15 + y, 1:1 + x] = acc[y * x:(y + 1) * x]
    ref[2:2 + X * Y] = tile.reshape(acc_shape(cfg, X * Y))
    p.expect("out", out, low8(ref), "out")
    return p.build("""LOAD ACC with y_pad_0 = y_pad_1 = 15 (the maximum) and x_pad_0 = 1:
        15 zero rows, 2 data rows of [0, d, d], 15 zero rows (96 elements at ACC 2) into a
        region pre-filled with 300. The STORE of ACC 0..99 checks the zero rows, the data and
        the untouched neighbours (300 -> 0x2C).""")


@vector("stride_load_store")
def v_stride_load_store(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    rows, x, in_stride, out_stride = 3, 2, 5, 4
    acc = i32(rng, *acc_shape(cfg, rows * in_stride))
    src = p.alloc("acc", rows * in_stride, as_bytes(acc, np.int32), "acc_in")
    out_n = rows * out_stride
    out = p.alloc("out", out_n, fill_bytes(out_n * cfg.out_bytes, 0xEE), "out_init")
    p.load("acc", 0, src, rows, x, stride=in_stride, push_next=True)
    p.store(0, out, rows, x, stride=out_stride, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    # Reference: ACC row y = DRAM elements y*5 .. y*5+1; DRAM out row y at y*4, the two
    # elements after each row keep the 0xEE init.
    ref = bytearray(fill_bytes(out_n * cfg.out_bytes, 0xEE))
    ob = cfg.out_bytes
    for y in range(rows):
        for xx in range(x):
            e = y * out_stride + xx
            ref[e * ob:(e + 1) * ob] = low8(acc[y * in_stride + xx])
    p.expect("out", out, bytes(ref), "out")
    return p.build("""x_stride > x_size on both LOAD and STORE: LOAD ACC of 3 rows of 2
        elements from DRAM rows 5 elements apart, then STORE of the same 3x2 tile to DRAM rows
        4 elements apart. The output region is pre-filled with 0xEE and the expectation covers
        it whole, so the 2-element gaps after each stored row must keep 0xEE.""")


@vector("xsize_zero_noops")
def v_xsize_zero_noops(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    n = 4
    inp = i8(rng, *inp_shape(cfg, n))
    wgt = i8(rng, *wgt_shape(cfg, 1))
    acc = i32(rng, *acc_shape(cfg, n)) >> 8
    acc8 = i8(rng, *acc_shape(cfg, 2))
    inp_d = p.alloc("inp", n, as_bytes(inp, np.int8), "inp")
    wgt_d = p.alloc("wgt", 1, as_bytes(wgt, np.int8), "wgt")
    acc_d = p.alloc("acc", n, as_bytes(acc, np.int32), "acc_in")
    acc8_d = p.alloc("acc8", 2, as_bytes(acc8, np.int8), "acc8_in")
    out = p.alloc("out", 2 * n, fill_bytes(2 * n * cfg.out_bytes, 0x3C), "out_init")
    p.load("acc", 0, acc_d, 1, n)
    # No-ops: x_size = 0 with non-zero y_size and pads must not write anything.
    p.load("acc", 0, acc_d, 2, 0, stride=1, pads=(1, 1, 1, 1))
    p.load("acc8", 1, acc8_d, 1, 0, pads=(0, 2, 0, 0))
    p.load("uop", 0, 0, 1, 0, pads=(1, 1, 1, 1))
    p.load("inp", 0, inp_d, 1, n)
    p.load("inp", 0, inp_d, 3, 0, stride=2, pads=(2, 2, 2, 2))
    p.load("wgt", 0, wgt_d, 1, 1)
    p.load("wgt", 0, wgt_d, 1, 0, pads=(0, 0, 3, 0), push_next=True)
    p.gemm([(0, 0, 0)], iters=(1, n), dst=(0, 1), src=(0, 1), pop_prev=True, push_next=True)
    p.store(0, out, 3, 0, stride=1, pop_prev=True, push_prev=True)
    p.alu(AluOp.ADD, [(0, 0, 0)], iters=(1, n), dst=(0, 1), imm=1, pop_next=True,
          push_next=True)
    p.store(0, out + n, 1, n, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    # Reference: ACC[m] = acc[m] + INP[m] . WGT^T + 1; first n output elements untouched.
    res = np.stack([acc[m] + matmul_wt(inp[m], wgt[0]) + 1 for m in range(n)])
    p.expect("out", out, fill_bytes(n * cfg.out_bytes, 0x3C) + low8(wrap32(res)), "out")
    return p.build("""x_size = 0 makes LOAD and STORE no-ops whose tokens still count:
        LOAD ACC, LOAD ACC_8BIT, LOAD UOP, LOAD INP and LOAD WGT with x_size 0 but non-zero
        y_size and pads must leave SRAM untouched (the WGT no-op carries the L2C push the GEMM
        pops); a STORE with x_size 0 (popping C2S, pushing S2C) must leave its pre-filled (0x3C)
        output untouched, and the ALU after it waits for its S2C token. Result = acc + INP . W^T + 1,
        stored after the no-op region.""")


# ---- GEMM --------------------------------------------------------------------------------
def blocked_uops(mb: int, nb: int, kb: int, acc0: int = 0, inp0: int = 0,
                 wgt0: int = 0) -> list[tuple[int, int, int]]:
    """One micro-op per (m, n, k) block: ACC[m*nb+n] += INP[m*kb+k] . WGT[n*kb+k]^T."""
    return [(acc0 + m * nb + n, inp0 + m * kb + k, wgt0 + n * kb + k)
            for m in range(mb) for n in range(nb) for k in range(kb)]


@vector("gemm_basic")
def v_gemm_basic(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    mb, nb, kb = 3, 2, 2
    A = i8(rng, mb * cfg.batch, kb * cfg.block_in)
    B = i8(rng, nb * cfg.block_out, kb * cfg.block_in)
    inp_d = p.alloc("inp", mb * kb, as_bytes(tiles(A, cfg.batch, cfg.block_in), np.int8), "inp")
    wgt_d = p.alloc("wgt", nb * kb, as_bytes(tiles(B, cfg.block_out, cfg.block_in), np.int8),
                    "wgt")
    p.load("inp", 0, inp_d, 1, mb * kb)
    p.load("wgt", 0, wgt_d, 1, nb * kb, push_next=True)
    emit_reset(p, 0, mb * nb)
    p.gemm(blocked_uops(mb, nb, kb), pop_prev=True)
    emit_expose(p, 0, mb * nb, push_next=True)
    out = p.alloc("out", 4 * mb * nb)
    store_and_finish(p, 0, out, 4 * mb * nb)
    C = matmul_wt(A, B)
    p.expect("out", out, byte_planes(tiles(C, cfg.batch, cfg.block_out).reshape(
        acc_shape(cfg, mb * nb))), "out")
    return p.build("""Basic GEMM: C = A (3x8) . B (8x8)^T on BLOCK 4, one micro-op per
        (row block, column block, k block) = 12 micro-ops in one GEMM after a GEMM reset; the
        full 32-bit results are exposed byte by byte. Expected = numpy matmul of the full
        matrices.""")


@vector("gemm_32uops_accumulate")
def v_gemm_32uops(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    mb, nb, kb = 2, 2, 8
    A = i8(rng, mb * cfg.batch, kb * cfg.block_in)
    B = i8(rng, nb * cfg.block_out, kb * cfg.block_in)
    A[0, :] = -128
    B[0, :] = -128  # C[0][0] = 32 * 16384 = 524288: needs bits 16..19
    inp_d = p.alloc("inp", mb * kb, as_bytes(tiles(A, cfg.batch, cfg.block_in), np.int8), "inp")
    wgt_d = p.alloc("wgt", nb * kb, as_bytes(tiles(B, cfg.block_out, cfg.block_in), np.int8),
                    "wgt")
    p.load("inp", 0, inp_d, 1, mb * kb)
    p.load("wgt", 0, wgt_d, 1, nb * kb, push_next=True)
    emit_reset(p, 0, mb * nb)
    uops = blocked_uops(mb, nb, kb)
    order = rng.permutation(len(uops))
    p.gemm([uops[i] for i in order], pop_prev=True)
    emit_expose(p, 0, mb * nb, push_next=True)
    out = p.alloc("out", 4 * mb * nb)
    store_and_finish(p, 0, out, 4 * mb * nb)
    C = matmul_wt(A, B)
    p.expect("out", out, byte_planes(tiles(C, cfg.batch, cfg.block_out).reshape(
        acc_shape(cfg, mb * nb))), "out")
    return p.build("""One GEMM instruction with 32 micro-ops (shuffled order) where every
        accumulator entry receives 8 micro-ops from different INP/WGT entries: C = A (2x32) .
        B (8x32)^T with row 0 of both all -128 so C[0][0] = 524288 needs the upper bytes.
        Expected = numpy matmul, exposed byte by byte.""")


def gemm_loops_vector(name: str, cfg: VtaConfig) -> Vector:
    """GEMM loop nest with non-zero factors on every index stream."""
    rng = rng_for(name)
    p = Program(cfg)
    n_inp, n_wgt, n_acc = 12, 8, 8
    inp = i8(rng, *inp_shape(cfg, n_inp))
    wgt = i8(rng, *wgt_shape(cfg, n_wgt))
    inp_d = p.alloc("inp", n_inp, as_bytes(inp, np.int8), "inp")
    wgt_d = p.alloc("wgt", n_wgt, as_bytes(wgt, np.int8), "wgt")
    p.load("inp", 0, inp_d, 1, n_inp)
    p.load("wgt", 0, wgt_d, 1, n_wgt, push_next=True)
    emit_reset(p, 0, n_acc)
    uops = [(0, 0, 0), (1, 3, 2)]
    iter_out, iter_in = 3, 2
    dst_f, src_f, wgt_f = (2, 2), (2, 1), (1, 2)
    p.gemm(uops, iters=(iter_out, iter_in), dst=dst_f, src=src_f, wgt=wgt_f, pop_prev=True)
    emit_expose(p, 0, n_acc, push_next=True)
    out = p.alloc("out", 4 * n_acc)
    store_and_finish(p, 0, out, 4 * n_acc)
    # Reference: the spec's loop nest written out; (o=0,i=1) and (o=1,i=0) hit the same
    # accumulator, so entries accumulate across loop iterations too.
    ref = np.zeros(acc_shape(cfg, n_acc), dtype=np.int64)
    for o in range(iter_out):
        for i in range(iter_in):
            for d, s, w in uops:
                a = d + o * dst_f[0] + i * dst_f[1]
                x = s + o * src_f[0] + i * src_f[1]
                wi = w + o * wgt_f[0] + i * wgt_f[1]
                ref[a] += matmul_wt(inp[x], wgt[wi])
    p.expect("out", out, byte_planes(ref), "out")
    return p.build(f"""GEMM loop nest with iter_out=3, iter_in=2, two micro-ops and non-zero
        factors for all three index streams (dst 2/2, src 2/1, wgt 1/2). Different (o, i)
        pairs map to the same accumulator, so results also accumulate across iterations.
        Expected by the spec's index formulas written as explicit Python loops over numpy
        block products; exposed byte by byte. BATCH={cfg.batch}, BLOCK={cfg.block}.""")


@vector("gemm_loops_factors")
def v_gemm_loops_small(name: str) -> Vector:
    return gemm_loops_vector(name, SMALL)


@vector("default_gemm_loops_factors")
def v_gemm_loops_default(name: str) -> Vector:
    return gemm_loops_vector(name, DEFAULT)


@vector("gemm_reset")
def v_gemm_reset(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    inp = i8(rng, *inp_shape(cfg, 4))
    wgt = i8(rng, *wgt_shape(cfg, 2))
    bias = rng.integers(-10**6, 10**6, size=acc_shape(cfg, 4), dtype=np.int64)
    inp_d = p.alloc("inp", 4, as_bytes(inp, np.int8), "inp")
    wgt_d = p.alloc("wgt", 2, as_bytes(wgt, np.int8), "wgt")
    bias_d = p.alloc("acc", 4, as_bytes(bias, np.int32), "bias")
    p.load("acc", 0, bias_d, 1, 4)
    p.load("inp", 0, inp_d, 1, 4)
    p.load("wgt", 0, wgt_d, 1, 2, push_next=True)
    p.gemm([(m, m, 0) for m in range(4)] + [(m, 3 - m, 1) for m in range(4)], pop_prev=True)
    # Reset ACC 2 and 3; src/wgt indices of a reset micro-op are irrelevant.
    p.gemm([(2, 5, 7)], iters=(1, 2), dst=(0, 1), src=(3, 1), wgt=(1, 1), reset=True)
    p.gemm([(m, m, 1) for m in range(1, 4)])
    emit_expose(p, 0, 4, push_next=True)
    out = p.alloc("out", 16)
    store_and_finish(p, 0, out, 16)
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


@vector("gemm_acc_wrap")
def v_gemm_acc_wrap(name: str) -> Vector:
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
    emit_expose(p, 0, 2, push_next=True)
    out = p.alloc("out", 8)
    store_and_finish(p, 0, out, 8)
    ref = wrap32(np.stack([acc[m] + 3 * matmul_wt(inp[m], wgt[0]) for m in range(2)]))
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""GEMM 32-bit wrap-around: accumulators loaded with values at and near
        2^31-1 and -2^31 receive three repeated products of 127/-128 rows (+-193548 or so), so
        they wrap past the int32 limits in both directions. Expected = (init + 3 * a . w)
        wrapped modulo 2^32 by hand; exposed byte by byte.""")


@vector("gemm_padded_inp_wgt")
def v_gemm_padded(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    # INP: DRAM rows of 3 elements, 2 of them loaded, padded (1, 2, 2, 1) -> X=5, Y=5.
    inp_pads, inp_rows, inp_x, inp_stride = (1, 2, 2, 1), 2, 2, 3
    inp_dram = i8(rng, *inp_shape(cfg, inp_rows * inp_stride))
    # WGT: 1 row of 2 elements padded (0, 1, 3, 0) -> X=5, Y=2.
    wgt_pads, wgt_x = (0, 1, 3, 0), 2
    wgt_dram = i8(rng, *wgt_shape(cfg, wgt_x))
    junk_inp = i8(rng, *inp_shape(cfg, 30))
    junk_wgt = i8(rng, *wgt_shape(cfg, 12))
    inp_d = p.alloc("inp", inp_rows * inp_stride, as_bytes(inp_dram, np.int8), "inp")
    wgt_d = p.alloc("wgt", wgt_x, as_bytes(wgt_dram, np.int8), "wgt")
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
    emit_expose(p, 0, n_acc, push_next=True)
    out = p.alloc("out", 4 * n_acc)
    store_and_finish(p, 0, out, 4 * n_acc)
    # Reference: build both SRAM images by hand, then a numpy product.
    inp_sram = junk_inp.copy()
    X = inp_pads[2] + inp_x + inp_pads[3]
    inp_sram[:X * (inp_pads[0] + inp_rows + inp_pads[1])] = 0
    for y in range(inp_rows):
        for xx in range(inp_x):
            inp_sram[(inp_pads[0] + y) * X + inp_pads[2] + xx] = inp_dram[y * inp_stride + xx]
    wgt_sram = junk_wgt.copy()
    WX = wgt_pads[2] + wgt_x + wgt_pads[3]
    wgt_sram[:WX * 2] = 0
    wgt_sram[wgt_pads[2]:wgt_pads[2] + wgt_x] = wgt_dram
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


@vector("load_uop_2d")
def v_load_uop_2d(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
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
    emit_expose(p, 0, 4, push_next=True)
    out = p.alloc("out", 16)
    store_and_finish(p, 0, out, 16)
    # Reference: the micro-op buffer as the spec's padded 2-D LOAD builds it (zero micro-ops
    # are (0, 0, 0)), then the GEMM loops by hand.
    zero = (0, 0, 0)
    sram = {100 + k: zero for k in range(4)}
    sram.update({104: table[0], 105: table[1], 106: table[2], 107: zero,
                 108: table[5], 109: table[6], 110: table[7], 111: zero,
                 120: table[8], 121: table[9]})
    ref = np.zeros(acc_shape(cfg, 4), dtype=np.int64)
    for k in range(100, 112):
        d, s, w = sram[k]
        ref[d] += matmul_wt(inp[s], wgt[w])
    for o in range(2):
        for k in (120, 121):
            d, s, w = sram[k]
            ref[d + o] += matmul_wt(inp[s + 2 * o], wgt[w])
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""LOAD UOP forms: a 2-D micro-op load (2 rows of 3 from DRAM rows 5
        apart) with y_pad_0=1 and x_pad_1=1 to sram_base 100, which places zero micro-ops
        (dst 0, src 0, wgt 0) in the pad slots; a LOAD UOP with x_size 0 over it that must not
        change anything; and a plain LOAD UOP to sram_base 120. Two GEMMs run over micro-op
        ranges [100, 112) and [120, 122) (the latter with iter_out=2 and dst/src factors). Expected
        by hand from the micro-op buffer image; exposed byte by byte.""")


# ---- ALU ----------------------------------------------------------------------------------
def alu_op_vector(name: str, op: AluOp, reg_src: np.ndarray, imms: list[int],
                  dst_vals: np.ndarray, what: str) -> Vector:
    """Generic ALU vector: one register-form ALU over n elements and one immediate-form ALU
    per immediate (one element each), all results exposed byte by byte.

    ACC layout: D (results, nd elements) | 3*nd scratch for emit_expose | S (register operands).
    """
    cfg = SMALL
    p = Program(cfg)
    n_reg = reg_src.shape[0]
    nd = n_reg + len(imms)
    assert dst_vals.shape[0] == nd
    src_base = 4 * nd
    d_dram = p.alloc("acc", nd, as_bytes(dst_vals, np.int32), "acc_dst")
    s_dram = p.alloc("acc", n_reg, as_bytes(reg_src, np.int32), "acc_src")
    p.load("acc", 0, d_dram, 1, nd)
    p.load("acc", src_base, s_dram, 1, n_reg)
    p.alu(op, [(0, src_base, 0)], iters=(1, n_reg), dst=(0, 1), src=(0, 1))
    for k, imm in enumerate(imms):
        p.alu(op, [(n_reg + k, 0, 0)], imm=imm)
    emit_expose(p, 0, nd, push_next=True)
    out = p.alloc("out", 4 * nd)
    store_and_finish(p, 0, out, 4 * nd)
    ref = dst_vals.copy()
    ref[:n_reg] = alu_ref(op, dst_vals[:n_reg], reg_src)
    for k, imm in enumerate(imms):
        ref[n_reg + k] = alu_ref(op, dst_vals[n_reg + k], imm)
    p.expect("out", out, byte_planes(ref), "out")
    return p.build(f"""ALU {op.name} in both forms: register operand over {n_reg} elements
        (one micro-op, inner loop, dst and src factors 1) and immediate form with imm in
        {imms} (one element each, immediates sign-extended from 16 bits). {what} Expected lane by
        lane with numpy / Python integers per spec section 3; every result exposed byte by
        byte.""")


ALU_IMMS = [-5, 3, -32768, 32767, 0, -1]


def alu_basic_vector(op: AluOp, note: str) -> Callable[[str], Vector]:
    """MIN, MAX, ADD and MUL share one shape: random int32 operands, the ALU_IMMS immediates."""
    def build(name: str) -> Vector:
        rng = rng_for(name)
        return alu_op_vector(name, op, i32(rng, *acc_shape(SMALL, 4)), ALU_IMMS,
                             i32(rng, *acc_shape(SMALL, 4 + len(ALU_IMMS))), note)
    return build


for _op, _note in ((AluOp.MIN, "Signed comparison across the full int32 range."),
                   (AluOp.MAX, "Signed comparison across the full int32 range."),
                   (AluOp.ADD, "Sums wrap modulo 2^32 (2^31-1 + 32767 etc.)."),
                   (AluOp.MUL, "Products keep the low 32 bits (wrap).")):
    vector(f"alu_{_op.name.lower()}")(alu_basic_vector(_op, _note))


@vector("alu_shr")
def v_alu_shr(name: str) -> Vector:
    rng = rng_for(name)
    shifts = rng.integers(-31, 32, size=acc_shape(SMALL, 4), dtype=np.int64)
    return alu_op_vector(name, AluOp.SHR, shifts, [1, 5, -1, -5, 13, -13, 0],
                         i32(rng, *acc_shape(SMALL, 4 + 7)),
                         "Register shift amounts are random in [-31, 31]: arithmetic right "
                         "shift when >= 0, left shift by -amount when negative.")


@vector("alu_shr_edges")
def v_alu_shr_edges(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    shifts = np.array([31, -31, 30, -30, 31, -31, 0, 16, 1, -1, 31, -31], dtype=np.int64)
    reg = shifts.reshape(acc_shape(cfg, 3))
    dst = i32(rng, *acc_shape(cfg, 3 + 4))
    dst[:3, 0, :] = [[I32_MIN, I32_MAX, -1, 1], [-12345, 12345, 3, -3], [I32_MIN, -1, 1, 7]]
    dst[3:, 0, :] = [[I32_MIN, I32_MAX, -1, 1]] * 4
    return alu_op_vector(name, AluOp.SHR, reg, [31, -31, 31, -31], dst,
                         "Edges: shifts of +31 and -31 (ACC width - 1) both by immediate and "
                         "by register operand, on int32 extremes, -1 and 1 (e.g. -2^31 >> 31 "
                         "= -1, 1 << 31 = -2^31, 3 << 31 wraps).")


@vector("alu_shr_beyond_width")
def v_alu_shr_beyond(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    reg = np.array([32, -32, 33, -33, I32_MAX, I32_MIN, 64, -64], dtype=np.int64).reshape(
        acc_shape(cfg, 2))
    dst = i32(rng, *acc_shape(cfg, 2 + 6))
    dst[:, 0, :2] = [-5, 5]
    return alu_op_vector(name, AluOp.SHR, reg, [32, 100, 32767, -32, -100, -32768], dst,
                         "Shift amounts with |operand| >= 32, which upstream leaves undefined "
                         "and the spec defines: right shifts give the sign fill (0 or -1), left "
                         "shifts give 0.")


def alu_overlap_vector(name: str, cfg: VtaConfig) -> Vector:
    """ALU micro-ops whose sources were written earlier in the same instruction."""
    rng = rng_for(name)
    p = Program(cfg)
    n_chain, n_mul, n_dbl = 8, 6, 2
    chain = rng.integers(-1000, 1000, size=acc_shape(cfg, n_chain), dtype=np.int64)
    loop_chain = rng.integers(-1000, 1000, size=acc_shape(cfg, n_chain), dtype=np.int64)
    mul = rng.integers(-40, 40, size=acc_shape(cfg, n_mul), dtype=np.int64)
    dbl = i32(rng, *acc_shape(cfg, n_dbl))
    data = np.concatenate([chain, loop_chain, mul, dbl])
    nd = data.shape[0]
    P, L, M, D = 0, n_chain, 2 * n_chain, 2 * n_chain + n_mul
    d_dram = p.alloc("acc", nd, as_bytes(data, np.int32), "acc_in")
    p.load("acc", 0, d_dram, 1, nd)
    # Prefix sum by a list of micro-ops: uop k adds element k-1 (already updated) into k.
    p.alu(AluOp.ADD, [(P + k, P + k - 1, 0) for k in range(1, n_chain)])
    # The same chain by the loop: dst = L+1+i, src = L+i for i in 0..6.
    p.alu(AluOp.ADD, [(L + 1, L, 0)], iters=(1, n_chain - 1), dst=(0, 1), src=(0, 1))
    # Prefix product chain, walking downward through the outer loop (wraps past 2^31).
    p.alu(AluOp.MUL, [(M + n_mul - 2, M + n_mul - 1, 0)], iters=(n_mul - 1, 1),
          dst=(0, 0), src=(0, 0))
    p.alu(AluOp.MUL, [(M + 3, M + 4, 0), (M + 2, M + 3, 0), (M + 1, M + 2, 0),
                      (M, M + 1, 0)])
    # dst == src, three outer iterations with zero factors: x -> 2x -> 4x -> 8x.
    p.alu(AluOp.ADD, [(D, D, 0), (D + 1, D + 1, 0)], iters=(3, 1))
    emit_expose(p, 0, nd, push_next=True)
    out = p.alloc("out", 4 * nd)
    store_and_finish(p, 0, out, 4 * nd)
    # Reference by hand.
    ref_p = wrap32(np.cumsum(chain, axis=0))
    ref_l = wrap32(np.cumsum(loop_chain, axis=0))
    ref_m = mul.copy()
    for _ in range(n_mul - 1):  # first ALU: element 4 *= element 5, five times
        ref_m[n_mul - 2] = wrap32(ref_m[n_mul - 2] * ref_m[n_mul - 1])
    for k in (3, 2, 1, 0):  # second ALU: element k *= updated element k+1
        ref_m[k] = wrap32(ref_m[k] * ref_m[k + 1])
    ref_d = wrap32(dbl * 8)
    p.expect("out", out, byte_planes(np.concatenate([ref_p, ref_l, ref_m, ref_d])), "out")
    return p.build(f"""ALU with source and destination overlapping inside one instruction:
        micro-ops run strictly in loop order, so a micro-op reading an element written by an
        earlier micro-op/iteration sees the new value. A prefix sum built from 7 micro-ops
        (dst k, src k-1), the same prefix sum from one micro-op with an inner loop of 7, a
        downward prefix-product chain (MUL, wrapping) partly driven by an outer loop with zero
        factors, and dst == src doubling repeated 3 times (x -> 8x). Expected by np.cumsum and
        explicit loops; a parallel (read-all-then-write) implementation gives different
        bytes. BATCH={cfg.batch}, BLOCK={cfg.block}.""")


@vector("alu_overlap_in_order")
def v_alu_overlap_small(name: str) -> Vector:
    return alu_overlap_vector(name, SMALL)


@vector("default_alu_overlap_in_order")
def v_alu_overlap_default(name: str) -> Vector:
    return alu_overlap_vector(name, DEFAULT)


@vector("alu_loops_factors")
def v_alu_loops(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    nd, ns = 16, 14
    dst = i32(rng, *acc_shape(cfg, nd)) >> 4
    srcv = i32(rng, *acc_shape(cfg, ns)) >> 4
    S = 4 * nd
    d_dram = p.alloc("acc", nd, as_bytes(dst, np.int32), "acc_dst")
    s_dram = p.alloc("acc", ns, as_bytes(srcv, np.int32), "acc_src")
    p.load("acc", 0, d_dram, 1, nd)
    p.load("acc", S, s_dram, 1, ns)
    # Register form: ACC[u_d + 5o + i] += ACC[S + u_s + o + 3i] for o<3, i<4, two uops.
    uops_a = [(0, S, 0), (1, S + 2, 0)]
    p.alu(AluOp.ADD, uops_a, iters=(3, 4), dst=(5, 1), src=(1, 3))
    # Immediate form touching a strided subset: ACC[6o + 2i + 1] *= -3 for o<2, i<3.
    p.alu(AluOp.MUL, [(1, 0, 0)], iters=(2, 3), dst=(6, 2), src=(0, 0), imm=-3)
    emit_expose(p, 0, nd, push_next=True)
    out = p.alloc("out", 4 * nd)
    store_and_finish(p, 0, out, 4 * nd)
    ref = dst.copy()
    for o in range(3):
        for i in range(4):
            for d, s, _ in uops_a:
                a = d + 5 * o + i
                x = (s - S) + 1 * o + 3 * i
                ref[a] = wrap32(ref[a] + srcv[x])
    for o in range(2):
        for i in range(3):
            a = 1 + 6 * o + 2 * i
            ref[a] = wrap32(ref[a] * -3)
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""ALU loop nest with iter_out and iter_in > 1 and non-zero factors: a
        register-form ADD with two micro-ops, iter_out=3, iter_in=4, dst factors 5/1 and src
        factors 1/3 (some destinations are hit by both micro-ops, in order), and an
        immediate-form MUL (imm -3) over a strided subset (dst factors 6/2) leaving the other
        elements unchanged. Expected by explicit loops over the spec's index formulas; exposed
        byte by byte.""")


# ---- tokens and pipelines -------------------------------------------------------------------
def pipeline_vector(name: str, cfg: VtaConfig) -> Vector:
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
        p.alu(AluOp.ADD, [(acc, acc, 0)], iters=(1, rows), dst=(0, 1), imm=-3 * t,
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
    ref = np.concatenate([tiles(matmul_wt(A[t], W[t]) - 3 * t, cfg.batch, cfg.block_out)
                          .reshape(acc_shape(cfg, rows)) for t in range(n_tiles)])
    p.expect("out", out, low8(ref), "out")
    return p.build(f"""Tokens among all three modules: six tiles pipelined load -> compute ->
        store in upstream's order (L0 L1 C0 S0 L2 C1 S1 ...), with two INP/WGT buffers and two
        ACC buffers. Loads push L2C; compute pops it, pushes C2L when the input buffer may be
        reused two tiles later (the load of tile t+2 pops it) and C2S after an ALU ADD; stores
        pop C2S and push S2C when the ACC buffer is reused (the reset of tile t+2 pops it) and
        on the last tile (FINISH pops it). BATCH={cfg.batch}, BLOCK={cfg.block}. Expected per
        tile = numpy matmul - 3*t, truncated to the low byte.""")


@vector("pipeline_tokens")
def v_pipeline_small(name: str) -> Vector:
    return pipeline_vector(name, SMALL)


@vector("default_pipeline_tokens")
def v_pipeline_default(name: str) -> Vector:
    return pipeline_vector(name, DEFAULT)


@vector("batch2_pipeline_tokens")
def v_pipeline_batch2(name: str) -> Vector:
    return pipeline_vector(name, BATCH2)


def vthread_vector(name: str, cfg: VtaConfig) -> Vector:
    """Blocked GEMM with two virtual threads, double-buffered like upstream's test."""
    rng = rng_for(name)
    p = Program(cfg)
    mb, kb, nb = 4, 3, 2  # thread t owns row blocks 2t, 2t+1
    A = i8(rng, mb * cfg.batch, kb * cfg.block_in)
    B = i8(rng, nb * cfg.block_out, kb * cfg.block_in)
    inp_d = p.alloc("inp", mb * kb, as_bytes(tiles(A, cfg.batch, cfg.block_in), np.int8), "inp")
    wgt_d = p.alloc("wgt", nb * kb, as_bytes(tiles(B, cfg.block_out, cfg.block_in), np.int8),
                    "wgt")
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
    C = matmul_wt(A, B)
    p.expect("out", out, low8(tiles(C, cfg.batch, cfg.block_out).reshape(
        acc_shape(cfg, mb * nb))), "out")
    return p.build(f"""Blocked GEMM with two virtual threads: C = A ({mb * cfg.batch}x
        {kb * cfg.block_in}) . B ({nb * cfg.block_out}x{kb * cfg.block_in})^T, larger than one
        tile. Thread t owns row blocks 2t..2t+1 and its own INP/WGT buffer set and ACC region;
        the k dimension is walked in 3 steps, each a strided LOAD INP (x_stride 3 > x_size 1),
        a strided LOAD WGT pushing L2C, and a GEMM with iter_out=2, iter_in=2 that pops L2C and
        pushes C2L to free its buffer set for the thread's next load. Instructions of the two
        threads interleave (L0 L1 G0 L0' G1 L1' ...). BATCH={cfg.batch}, BLOCK={cfg.block}.
        Expected = numpy matmul of the full matrices, truncated to int8 per STORE.""")


@vector("vthread_blocked_gemm")
def v_vthread_small(name: str) -> Vector:
    return vthread_vector(name, SMALL)


@vector("default_vthread_blocked_gemm")
def v_vthread_default(name: str) -> Vector:
    return vthread_vector(name, DEFAULT)


@vector("batch2_vthread_blocked_gemm")
def v_vthread_batch2(name: str) -> Vector:
    return vthread_vector(name, BATCH2)


@vector("tokens_capacity")
def v_tokens_capacity(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    n = 8
    inp = i8(rng, *inp_shape(cfg, n))
    wgt = i8(rng, *wgt_shape(cfg, 1))
    inp_d = p.alloc("inp", n, as_bytes(inp, np.int8), "inp")
    wgt_d = p.alloc("wgt", 1, as_bytes(wgt, np.int8), "wgt")
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


@vector("all_four_flags")
def v_all_four_flags(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    rows = 2
    A = [i8(rng, *inp_shape(cfg, rows)) for _ in range(3)]
    W = i8(rng, *wgt_shape(cfg, 1))
    inp_d = [p.alloc("inp", rows, as_bytes(a, np.int8), f"inp{k}") for k, a in enumerate(A)]
    wgt_d = p.alloc("wgt", 1, as_bytes(W, np.int8), "wgt")
    out = p.alloc("out", 3 * rows)
    uops = [(0, 0, 0)]
    emit_reset(p, 0, rows)
    p.load("wgt", 0, wgt_d, 1, 1)
    p.load("inp", 0, inp_d[0], 1, rows, push_next=True)
    p.gemm(uops, iters=(1, rows), dst=(0, 1), src=(0, 1),
           pop_prev=True, push_prev=True, push_next=True)
    p.store(0, out, 1, rows, pop_prev=True, push_prev=True)
    p.load("inp", 0, inp_d[1], 1, rows, pop_next=True, push_next=True)
    p.gemm(uops, iters=(1, rows), dst=(0, 1), src=(0, 1),
           pop_prev=True, pop_next=True, push_prev=True, push_next=True)
    p.store(0, out + rows, 1, rows, pop_prev=True, push_prev=True)
    p.load("inp", 0, inp_d[2], 1, rows, pop_next=True, push_next=True)
    p.alu(AluOp.ADD, [(0, 0, 0)], iters=(1, rows), dst=(0, 1), imm=0, pop_next=True)
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
        round, truncated.""")


# ---- typical layer (GEMM + ALU + strided STORE), reused for bases and configs ---------------
def layer_vector(name: str, cfg: VtaConfig, bases: dict[str, int] | None = None,
                 insn_addr: int = 0x2000, regions: dict[str, int] | None = None,
                 extra: str = "") -> Vector:
    """bias (ACC_8BIT) + A . B^T, then SHR 3, MAX -20, MIN 100, STORE with gaps."""
    rng = rng_for(name)
    p = Program(cfg, bases, insn_addr, regions)
    mb, kb, nb = 2, 2, 3
    A = i8(rng, mb * cfg.batch, kb * cfg.block_in)
    B = i8(rng, nb * cfg.block_out, kb * cfg.block_in)
    bias = i8(rng, mb * cfg.batch, nb * cfg.block_out)
    # INP in DRAM with one junk element after each row block: row stride kb + 1.
    inp_t = tiles(A, cfg.batch, cfg.block_in)
    inp_dram = np.concatenate([inp_t, i8(rng, mb, 1, cfg.batch, cfg.block_in)], axis=1)
    inp_d = p.alloc("inp", mb * (kb + 1), as_bytes(inp_dram, np.int8), "inp")
    wgt_d = p.alloc("wgt", nb * kb, as_bytes(tiles(B, cfg.block_out, cfg.block_in), np.int8),
                    "wgt")
    bias_d = p.alloc("acc8", mb * nb, as_bytes(tiles(bias, cfg.batch, cfg.block_out), np.int8),
                     "bias8")
    out_stride = nb + 2
    out_n = mb * out_stride
    out = p.alloc("out", out_n, fill_bytes(out_n * cfg.out_bytes, 0x5A), "out_init")
    p.load("acc8", 0, bias_d, 1, mb * nb)
    p.load("inp", 0, inp_d, mb, kb, stride=kb + 1)
    p.load("wgt", 0, wgt_d, 1, nb * kb, push_next=True)
    p.gemm([(0, k, k) for k in range(kb)], iters=(mb, nb), dst=(nb, 1), src=(kb, 0),
           wgt=(0, kb), pop_prev=True)
    n = mb * nb
    p.alu(AluOp.SHR, [(0, 0, 0)], iters=(1, n), dst=(0, 1), imm=3)
    p.alu(AluOp.MAX, [(0, 0, 0)], iters=(1, n), dst=(0, 1), imm=-20)
    p.alu(AluOp.MIN, [(0, 0, 0)], iters=(1, n), dst=(0, 1), imm=100, push_next=True)
    p.store(0, out, mb, nb, stride=out_stride, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    C = np.clip((bias + matmul_wt(A, B)) >> 3, -20, 100)
    ct = tiles(C, cfg.batch, cfg.block_out)  # (mb, nb, BATCH, BLOCK_OUT)
    ob = cfg.out_bytes
    ref = bytearray(fill_bytes(out_n * ob, 0x5A))
    for m in range(mb):
        for j in range(nb):
            e = m * out_stride + j
            ref[e * ob:(e + 1) * ob] = low8(ct[m, j])
    p.expect("out", out, bytes(ref), "out")
    return p.build(f"""A typical quantized layer: LOAD ACC_8BIT bias, LOAD INP with x_stride
        > x_size (a junk element after each row), LOAD WGT, one GEMM with iter_out=mb, iter_in=nb
        and kb micro-ops (upstream's blocked form), then ALU SHR 3, MAX -20, MIN 100 by immediate,
        and a STORE of 2 rows of 3 elements with x_stride 5 into a region pre-filled with 0x5A
        (gaps must keep it). BATCH={cfg.batch}, BLOCK={cfg.block}. {extra} Expected =
        clip((bias + A . B^T) >> 3, -20, 100) with numpy.""")


@vector("layer_small")
def v_layer_small(name: str) -> Vector:
    return layer_vector(name, SMALL)


@vector("default_layer")
def v_layer_default(name: str) -> Vector:
    return layer_vector(name, DEFAULT)


@vector("batch2_layer")
def v_layer_batch2(name: str) -> Vector:
    return layer_vector(name, BATCH2)


#: With a base register per kind the data can start near each base (every kind of
#: progbuild.MEMTYPE_OF at offset 0x100).
SEPARATE_BASES_REGIONS = dict.fromkeys(MEMTYPE_OF, 0x100)


@vector("bases_nonzero")
def v_bases_nonzero(name: str) -> Vector:
    return layer_vector(name, SMALL, {"uop": 0x40000, "inp": 0x10000, "wgt": 0x14000,
                                      "acc": 0x18000, "out": 0x20000}, insn_addr=0x30000,
                        regions=SEPARATE_BASES_REGIONS,
                        extra="Non-zero base registers for every memory type (uop 0x40000, "
                              "inp 0x10000, wgt 0x14000, acc 0x18000, out 0x20000); "
                              "instructions at 0x30000.")


@vector("bases_unaligned")
def v_bases_unaligned(name: str) -> Vector:
    return layer_vector(name, SMALL, {"uop": 0x40004, "inp": 0x1000C, "wgt": 0x14004,
                                      "acc": 0x18004, "out": 0x20004}, insn_addr=0x30008,
                        regions=SEPARATE_BASES_REGIONS,
                        extra="Base registers that are multiples of 4 but not of the 8-byte bus "
                              "width (uop 0x40004, inp 0x1000C, wgt 0x14004, acc 0x18004, out "
                              "0x20004) and the instruction stream at 0x30008, so every burst "
                              "starts and ends in the middle of a bus word.")


@vector("bases_odd")
def v_bases_odd(name: str) -> Vector:
    return layer_vector(name, SMALL, {"uop": 0x40002, "inp": 0x10001, "wgt": 0x14003,
                                      "acc": 0x18005, "out": 0x20007}, insn_addr=0x30004,
                        regions=SEPARATE_BASES_REGIONS,
                        extra="Odd base registers (inp 0x10001, wgt 0x14003, acc 0x18005, out "
                              "0x20007) and a uop base at 2 mod 4 (0x40002): the spec allows any "
                              "byte address, so micro-ops, accumulators and outputs straddle "
                              "bus words at odd byte offsets.")


@vector("high_address")
def v_high_address(name: str) -> Vector:
    cfg = SMALL
    out_bytes = 2 * (3 + 2) * cfg.out_bytes
    return layer_vector(name, cfg, {"uop": 0xFFFF0000, "inp": 0xFFFF1000, "wgt": 0xFFFF2000,
                                    "acc": 0xFFFF3000, "out": 0}, insn_addr=0xFFFE0000,
                        regions={"uop": 0, "inp": 0, "wgt": 0, "acc": 0, "acc8": 0x800,
                                 "out": (1 << 32) - out_bytes},
                        extra="Addresses near the top of the 4 GiB space: base registers "
                              "0xFFFF0000..0xFFFF3000 for uop/inp/wgt/acc, instructions at "
                              "0xFFFE0000, and the output addressed with out base 0 and a large "
                              "dram_base so that its last byte is 0xFFFFFFFF.")


@vector("default_pads_all15")
def v_default_pads(name: str) -> Vector:
    cfg, rng = DEFAULT, rng_for(name)
    p = Program(cfg)
    rows, x = 2, 2
    acc = i32(rng, *acc_shape(cfg, rows * x))
    src = p.alloc("acc", rows * x, as_bytes(acc, np.int32), "acc_in")
    X, Y = 15 + x + 15, 15 + rows + 15
    total = X * Y + 32
    emit_fill(p, 0, total, 77)
    p.load("acc", 0, src, rows, x, pads=(15, 15, 15, 15), push_next=True)
    out = p.alloc("out", total)
    store_and_finish(p, 0, out, total)
    ref = np.full(acc_shape(cfg, total), 77, dtype=np.int64)
    tile = np.zeros((Y, X) + acc_shape(cfg, 1)[1:], dtype=np.int64)
    for y in range(rows):
        tile[15 + y, 15:15 + x] = acc[y * x:(y + 1) * x]
    ref[:X * Y] = tile.reshape(acc_shape(cfg, X * Y))
    p.expect("out", out, low8(ref), "out")
    return p.build("""Default configuration (BLOCK 16): LOAD ACC of a 2x2 tile with all four
        pads at their maximum of 15 (a 32x32 = 1024-element padded tile) over a region pre-filled
        with 77; the STORE of 1056 elements checks the zero pads, the data at rows/columns
        15..16 and the 32 untouched elements after the tile.""")


@vector("batch2_alu_acc8")
def v_batch2_alu(name: str) -> Vector:
    cfg, rng = BATCH2, rng_for(name)
    p = Program(cfg)
    n = 3
    acc8 = i8(rng, *acc_shape(cfg, 2 * n))
    accs = i32(rng, *acc_shape(cfg, n))
    a8_d = p.alloc("acc8", 2 * n, as_bytes(acc8, np.int8), "acc8_in")
    s_d = p.alloc("acc", n, as_bytes(accs, np.int32), "acc_src")
    S = 8 * n
    p.load("acc8", 0, a8_d, 1, 2 * n)
    p.load("acc", S, s_d, 1, n)
    p.alu(AluOp.MUL, [(0, S, 0)], iters=(1, n), dst=(0, 1), src=(0, 1))
    p.alu(AluOp.SHR, [(n, 0, 0)], iters=(1, n), dst=(0, 1), imm=-31)
    p.alu(AluOp.MAX, [(0, S, 0)], iters=(2, 1), dst=(n, 0), src=(1, 0))
    emit_expose(p, 0, 2 * n, push_next=True)
    out = p.alloc("out", 8 * n)
    store_and_finish(p, 0, out, 8 * n)
    ref = acc8.copy()
    ref[:n] = wrap32(acc8[:n] * accs)
    ref[n:] = np.vectorize(lambda v: shr_ref(int(v), -31))(acc8[n:])
    for o in range(2):
        ref[n * o] = np.maximum(ref[n * o], accs[o])
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""BATCH=2: LOAD ACC_8BIT of 6 elements (2x16 sign-extended lanes each),
        ALU MUL by a register operand, SHR by immediate -31 (left shift by 31), and a MAX with
        iter_out=2 and factors (dst 3, src 1), all full 32-bit results exposed byte by byte.
        Expected lane by lane with numpy.""")


@vector("batch2_gemm_loops")
def v_batch2_gemm(name: str) -> Vector:
    cfg, rng = BATCH2, rng_for(name)
    p = Program(cfg)
    n_inp, n_wgt, n_acc = 6, 4, 4
    inp = i8(rng, *inp_shape(cfg, n_inp))
    wgt = i8(rng, *wgt_shape(cfg, n_wgt))
    bias = rng.integers(-50000, 50000, size=acc_shape(cfg, n_acc), dtype=np.int64)
    inp_d = p.alloc("inp", n_inp, as_bytes(inp, np.int8), "inp")
    wgt_d = p.alloc("wgt", n_wgt, as_bytes(wgt, np.int8), "wgt")
    bias_d = p.alloc("acc", n_acc, as_bytes(bias, np.int32), "bias")
    p.load("acc", 0, bias_d, 1, n_acc)
    p.load("inp", 0, inp_d, 1, n_inp)
    p.load("wgt", 0, wgt_d, 1, n_wgt, push_next=True)
    uops = [(0, 0, 0), (1, 1, 2)]
    p.gemm(uops, iters=(2, 3), dst=(2, 0), src=(1, 1), wgt=(1, 0), pop_prev=True)
    emit_expose(p, 0, n_acc, push_next=True)
    out = p.alloc("out", 4 * n_acc)
    store_and_finish(p, 0, out, 4 * n_acc)
    ref = bias.copy()
    for o in range(2):
        for i in range(3):
            for d, s, w in uops:
                a, x, wi = d + 2 * o, s + o + i, w + o
                # INP element x is BATCH x BLOCK_IN; each batch row b gets its own product.
                ref[a] += matmul_wt(inp[x], wgt[wi])
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""BATCH=2 GEMM loops: on a loaded bias, two micro-ops with iter_out=2,
        iter_in=3 (dst factors 2/0 so the inner loop accumulates into one entry, src 1/1, wgt
        1/0); each INP element holds two batch rows, each multiplied by the same 16x16 weight
        block. Expected by explicit loops with numpy block products; exposed byte by byte.""")


# =====================================================================================
README_HEAD = """# Directed test vectors

Generated by `.venv/bin/python vectors/build.py` (run from the repository root). The
script deletes every directory under `vectors/` that holds a `manifest.json`, writes
them all again (format: spec section 6) and rewrites this file from the vectors'
descriptions, so the list below always matches the vectors on disk. Random data comes
from generators seeded by the vector name; two runs give byte-identical files.

## How the expectations are computed

Every `expect` image is computed in `build.py` **independently of
`models/executor.py`**: from the numpy arrays the vector places in DRAM, with
`np.matmul` / `@` for GEMM blocks, explicit Python loops over the spec's index formulas
(`a = dst_idx + o*dst_factor_out + i*dst_factor_in`, ...), `np.cumsum`, and hand
arithmetic for the ALU (`wrap32`, `shr_ref`, `alu_ref`) and STORE truncation (`low8`:
low 8 bits of every lane). Each expect image covers the whole output region,
including bytes a strided STORE must leave alone (the init pattern, e.g. 0xEE).

STORE keeps only the low 8 bits of a lane, so many vectors end with `emit_expose`:
the result region is copied three times into scratch accumulators (GEMM reset + ALU
ADD) and the copies are shifted right by 8, 16 and 24 (ALU SHR imm 8); one STORE then
writes four planes holding bytes 0..3 of every 32-bit lane (`byte_planes`).

`vectors/progbuild.py` is the assembler: it lays out DRAM (instructions, one micro-op
table loaded by a leading LOAD UOP, data), and refuses programs with illegal token
flags, a pop without an earlier push in program order, more than 8 outstanding tokens,
unbalanced tokens, FINISH not last, a last STORE that does not push S2C, or
overlapping DRAM images.

## Cross-checks

Every vector was run through `models.executor.run_vector` (program order and random
token-respecting schedules) and compared with `models.compare.compare_vector`, and
checked with `models.checker.check_vector` (no findings with command-queue and token
depths of 8).

SRAM contents are undefined at launch (reset does not clear them), so no vector reads an
SRAM entry it did not write first; the checker's `uninitialized-read` rule enforces it.

## Vectors

| vector | config | insns | covers / expectation |
|---|---|---|---|
"""


def readme(vectors: list[tuple[str, Vector]]) -> str:
    """The README: fixed introduction plus one table row per vector from its manifest."""
    def config_name(cfg: VtaConfig) -> str:
        return next(n for n, c in (("small", SMALL), ("default", DEFAULT), ("batch2", BATCH2))
                    if c == cfg)
    rows = [f"| `{name}` | {config_name(v.config)} | {v.insn_count} | {v.description} |"
            for name, v in vectors]
    return README_HEAD + "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Delete every vector directory under the output directory, write all vectors and the README."""
    parser = argparse.ArgumentParser(prog="vectors/build.py", description=main.__doc__)
    parser.add_argument("--out", type=Path, default=ROOT,
                        help="output directory (default: vectors/ itself, as `make vectors`)")
    out: Path = parser.parse_args(argv).out
    try:
        out.mkdir(parents=True, exist_ok=True)
        for old in sorted(out.iterdir()):
            if old.is_dir() and (old / "manifest.json").exists():
                shutil.rmtree(old)
        names = [n for n, _ in VECTORS]
        assert len(set(names)) == len(names), "duplicate vector names"
        built = []
        for vname, fn in VECTORS:
            vec = fn(vname)
            save_vector(vec, out / vname)
            built.append((vname, vec))
        (out / "README.md").write_text(readme(built))
    except OSError as exc:
        print(f"error: {exc.filename or out}: cannot write: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {len(VECTORS)} vectors to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
