"""LOAD ACC / ACC_8BIT and STORE: truncation, sign extension, padding, strides, x_size 0.

These vectors move accumulator data in and out with as little compute as possible, so a
wrong byte points at the load or store module: STORE keeps the low 8 bits of a lane,
ACC_8BIT loads sign-extend, pads write zeros, strides skip DRAM elements, and a
transfer with x_size 0 writes nothing yet still passes its tokens on.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from models.config import VtaConfig
from models.isa import AluOp
from models.vector import Vector
from vectors.data import SMALL, acc_shape, fill_bytes, i8, i32, random_inp_wgt, rng_for
from vectors.programs import Builder, Program, as_bytes, emit_expose, emit_fill, emit_reset, store_and_finish
from vectors.reference import I32_MAX, I32_MIN, Pads, byte_planes, load_2d, low8, matmul_wt, store_2d, wrap32


def store_reset_acc(name: str) -> Vector:
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


def load_acc_store(name: str) -> Vector:
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


def store_truncation(name: str) -> Vector:
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


def load_acc8_negative(name: str, cfg: VtaConfig = SMALL) -> Vector:
    rng = rng_for(name)
    p = Program(cfg)
    # 8-bit accumulator initialisers in DRAM: 2 rows of 5 elements, of which 3 are loaded.
    rows, row_len, x = 2, 5, 3
    acc8 = i8(rng, *acc_shape(cfg, rows * row_len))
    acc8[0, 0, :] = [-128, -1, 127, 0]
    acc8[1, 0, :] = [-2, 1, -127, 126]
    src = p.alloc("acc8", rows * row_len, as_bytes(acc8, np.int8), "acc8_in")
    # Padded tile: y_pad_0=1, x_pad_0=1, x_pad_1=1 -> rows of 5, 3 rows = 15 elements.
    pads = (1, 0, 1, 1)
    n = (pads[2] + x + pads[3]) * (pads[0] + rows + pads[1])
    emit_fill(p, n, 99)  # pre-fill so that pad zeros are visible
    p.load("acc8", 0, src, rows, x, stride=row_len, pads=pads)
    out = emit_expose(p, n)
    # Reference: the padded tile, sign-extending int8 to int32 (int64 here).
    p.expect("out", out, byte_planes(load_2d(acc8, rows, x, row_len, pads)), "out")
    return p.build("""LOAD ACC_8BIT with negative values (-128, -1, -127, ...) from a strided
        DRAM tile (2 rows of 3 elements, x_stride 5) with y_pad_0=1, x_pad_0=1, x_pad_1=1 into a
        pre-filled (99) accumulator region. The 32-bit result of every lane is exposed byte by
        byte (copies shifted right by 8/16/24 with ALU SHR) so the sign extension into bits
        8..31 (0xFF bytes for negatives) and the zero padding are both checked.""")


def padded_load(name: str, *, cfg: VtaConfig, rows: int, x: int, stride: int, pads: Pads,
                fill: int, at: int, after: int, description: str) -> Vector:
    """LOAD ACC of a padded tile to ACC ``at`` over a region pre-filled with ``fill``.

    The STORE covers ``at`` elements before the tile and ``after`` elements after it, so
    the zero pads, the data and the untouched neighbours are all checked.
    """
    rng = rng_for(name)
    p = Program(cfg)
    acc = i32(rng, *acc_shape(cfg, rows * stride))
    src = p.alloc("acc", rows * stride, as_bytes(acc, np.int32), "acc_in")
    tile = load_2d(acc, rows, x, stride, pads)
    total = at + tile.shape[0] + after
    emit_fill(p, total, fill)
    p.load("acc", at, src, rows, x, stride=stride, pads=pads, push_next=True)
    out = store_and_finish(p, total)
    ref = np.full(acc_shape(cfg, total), fill, dtype=np.int64)
    ref[at:at + tile.shape[0]] = tile
    p.expect("out", out, low8(ref), "out")
    return p.build(description)


def stride_load_store(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    rows, x, in_stride, out_stride = 3, 2, 5, 4
    acc = i32(rng, *acc_shape(cfg, rows * in_stride))
    src = p.alloc("acc", rows * in_stride, as_bytes(acc, np.int32), "acc_in")
    init = fill_bytes(rows * out_stride * cfg.out_bytes, 0xEE)
    out = p.alloc("out", rows * out_stride, init, "out_init")
    p.load("acc", 0, src, rows, x, stride=in_stride, push_next=True)
    p.store(0, out, rows, x, stride=out_stride, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    # Reference: ACC row y = DRAM elements y*5 .. y*5+1; DRAM out row y at y*4, the two
    # elements after each row keep the 0xEE init.
    tile = load_2d(acc, rows, x, in_stride, (0, 0, 0, 0)).reshape((rows, x) + acc.shape[1:])
    p.expect("out", out, store_2d(init, tile, out_stride), "out")
    return p.build("""x_stride > x_size on both LOAD and STORE: LOAD ACC of 3 rows of 2
        elements from DRAM rows 5 elements apart, then STORE of the same 3x2 tile to DRAM rows
        4 elements apart. The output region is pre-filled with 0xEE and the expectation covers
        it whole, so the 2-element gaps after each stored row must keep 0xEE.""")


def xsize_zero_noops(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    p = Program(cfg)
    n = 4
    inp, wgt, inp_d, wgt_d = random_inp_wgt(p, rng, n, 1)
    acc = i32(rng, *acc_shape(cfg, n)) >> 8
    acc8 = i8(rng, *acc_shape(cfg, 2))
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
    p.alu(AluOp.ADD, [(0, 0, 0)], iters=(1, n), dst=(0, 1), src=(0, 1), imm=1, pop_next=True,
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


VECTORS: list[tuple[str, Builder]] = [
    ("store_reset_acc", store_reset_acc),
    ("load_acc_store", load_acc_store),
    ("store_truncation", store_truncation),
    ("load_acc8_negative", load_acc8_negative),
    ("load_pads_x15", partial(
        padded_load, cfg=SMALL, rows=2, x=3, stride=4, pads=(0, 0, 15, 15), fill=-7, at=1,
        after=3, description="""LOAD ACC with x_pad_0 = x_pad_1 = 15 (the maximum), 2 rows of 3
        elements read with x_stride 4, into ACC 1..66 of a region pre-filled with -7. The STORE
        of ACC 0..69 checks the 15 zero elements on each side of each row, the data, and that
        the elements just outside the padded tile keep -7 (0xF9).""")),
    ("load_pads_y15", partial(
        padded_load, cfg=SMALL, rows=2, x=2, stride=2, pads=(15, 15, 1, 0), fill=300, at=2,
        after=2, description="""LOAD ACC with y_pad_0 = y_pad_1 = 15 (the maximum) and x_pad_0 = 1:
        15 zero rows, 2 data rows of [0, d, d], 15 zero rows (96 elements at ACC 2) into a
        region pre-filled with 300. The STORE of ACC 0..99 checks the zero rows, the data and
        the untouched neighbours (300 -> 0x2C).""")),
    ("stride_load_store", stride_load_store),
    ("xsize_zero_noops", xsize_zero_noops),
]
