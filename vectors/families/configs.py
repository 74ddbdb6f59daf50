"""What only another configuration shows: BLOCK 16 padding, BATCH=2 lanes and loops, and
elements narrower than half the bus.

Vectors that merely rerun another family's program on the default or batch2
configuration (default_layer, batch2_pipeline_tokens, ...) stay in that family; these
three exist for one larger configuration only: the 1024-element tile of maximal pads at
BLOCK 16 (the padded-load builder of vectors.families.load_store), ACC_8BIT and ALU on
two batch rows, and GEMM loops whose INP elements hold two batch rows. The `wide_bus_`
vectors rerun the strided 2-D loads of UOP, INP and ACC_8BIT on `small` with a 128-bit bus:
each row of 4-byte elements starts at another offset of the 16-byte beat, and on a 64-bit
bus (every shipped configuration) a row's offset moved by twice its stride lands where it
should, so an unpacker that steps the wrong way passes there.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from models.config import VtaConfig
from models.isa import AluOp
from models.vector import Vector
from vectors.data import BATCH2, DEFAULT, SMALL_WIDE_BUS, acc_shape, i8, i32, random_inp_wgt, rng_for
from vectors.families.gemm import gemm_padded_inp_wgt, load_uop_2d
from vectors.families.load_store import load_acc8_negative, padded_load
from vectors.programs import Builder, Program, as_bytes, emit_expose
from vectors.reference import Uop, byte_planes, gemm_ref, loop_nest, shr_ref, wrap32


def batch2_alu_acc8(name: str) -> Vector:
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
    out = emit_expose(p, 2 * n)
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


def batch2_gemm_loops(name: str) -> Vector:
    cfg, rng = BATCH2, rng_for(name)
    p = Program(cfg)
    n_inp, n_wgt, n_acc = 6, 4, 4
    inp, wgt, inp_d, wgt_d = random_inp_wgt(p, rng, n_inp, n_wgt)
    bias = rng.integers(-50000, 50000, size=acc_shape(cfg, n_acc), dtype=np.int64)
    bias_d = p.alloc("acc", n_acc, as_bytes(bias, np.int32), "bias")
    p.load("acc", 0, bias_d, 1, n_acc)
    p.load("inp", 0, inp_d, 1, n_inp)
    p.load("wgt", 0, wgt_d, 1, n_wgt, push_next=True)
    uops: list[Uop] = [(0, 0, 0), (1, 1, 2)]
    iters, dst, src, wgt_f = (2, 3), (2, 0), (1, 1), (1, 0)
    p.gemm(uops, iters, dst, src, wgt_f, pop_prev=True)
    out = emit_expose(p, n_acc)
    # INP element x is BATCH x BLOCK_IN; each batch row b gets its own product.
    ref = gemm_ref(bias, inp, wgt, loop_nest(uops, iters, dst, src, wgt_f))
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""BATCH=2 GEMM loops: on a loaded bias, two micro-ops with iter_out=2,
        iter_in=3 (dst factors 2/0 so the inner loop accumulates into one entry, src 1/1, wgt
        1/0); each INP element holds two batch rows, each multiplied by the same 16x16 weight
        block. Expected by explicit loops with numpy block products; exposed byte by byte.""")


def on_wide_bus(build: Callable[[str, VtaConfig], Vector], name: str) -> Vector:
    """A `small` vector's program on SMALL_WIDE_BUS (its data seeded by the new name)."""
    vec = build(name, SMALL_WIDE_BUS)
    vec.description = "On a 128-bit bus (small, LOG_BUS_WIDTH 7): " + vec.description
    return vec


VECTORS: list[tuple[str, Builder]] = [
    ("default_pads_all15", partial(
        padded_load, cfg=DEFAULT, rows=2, x=2, stride=2, pads=(15, 15, 15, 15), fill=77, at=0,
        after=32, description="""Default configuration (BLOCK 16): LOAD ACC of a 2x2 tile with all four
        pads at their maximum of 15 (a 32x32 = 1024-element padded tile) over a region pre-filled
        with 77; the STORE of 1056 elements checks the zero pads, the data at rows/columns
        15..16 and the 32 untouched elements after the tile.""")),
    ("batch2_alu_acc8", batch2_alu_acc8),
    ("batch2_gemm_loops", batch2_gemm_loops),
    ("wide_bus_load_uop_2d", partial(on_wide_bus, load_uop_2d)),
    ("wide_bus_gemm_padded_inp_wgt", partial(on_wide_bus, gemm_padded_inp_wgt)),
    ("wide_bus_load_acc8_negative", partial(on_wide_bus, load_acc8_negative)),
]
