"""ALU: every opcode in register and immediate form, shift edges, loop nests, in-order overlap.

Results are exposed byte by byte (emit_expose) so wrap-around and sign bits show;
expected values come from :func:`vectors.reference.alu_ref` lane by lane.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from models.config import VtaConfig
from models.isa import AluOp
from models.vector import Vector
from vectors.data import DEFAULT, SMALL, acc_shape, i32, rng_for
from vectors.programs import Builder, Program, as_bytes, emit_expose
from vectors.reference import I32_MAX, I32_MIN, Uop, alu_ref, byte_planes, loop_nest, wrap32


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
    out = emit_expose(p, nd)
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


def alu_basic(name: str, *, op: AluOp, note: str) -> Vector:
    """MIN, MAX, ADD and MUL share one shape: random int32 operands, the ALU_IMMS immediates."""
    rng = rng_for(name)
    return alu_op_vector(name, op, i32(rng, *acc_shape(SMALL, 4)), ALU_IMMS,
                         i32(rng, *acc_shape(SMALL, 4 + len(ALU_IMMS))), note)


def alu_shr(name: str) -> Vector:
    rng = rng_for(name)
    shifts = rng.integers(-31, 32, size=acc_shape(SMALL, 4), dtype=np.int64)
    return alu_op_vector(name, AluOp.SHR, shifts, [1, 5, -1, -5, 13, -13, 0],
                         i32(rng, *acc_shape(SMALL, 4 + 7)),
                         "Register shift amounts are random in [-31, 31]: arithmetic right "
                         "shift when >= 0, left shift by -amount when negative.")


def alu_shr_edges(name: str) -> Vector:
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


def alu_shr_beyond_width(name: str) -> Vector:
    cfg, rng = SMALL, rng_for(name)
    reg = np.array([32, -32, 33, -33, I32_MAX, I32_MIN, 64, -64], dtype=np.int64).reshape(
        acc_shape(cfg, 2))
    dst = i32(rng, *acc_shape(cfg, 2 + 6))
    dst[:, 0, :2] = [-5, 5]
    return alu_op_vector(name, AluOp.SHR, reg, [32, 100, 32767, -32, -100, -32768], dst,
                         "Shift amounts with |operand| >= 32, which upstream leaves undefined "
                         "and the spec defines: right shifts give the sign fill (0 or -1), left "
                         "shifts give 0.")


def alu_overlap(name: str, cfg: VtaConfig) -> Vector:
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
    out = emit_expose(p, nd)
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


def alu_loops_factors(name: str) -> Vector:
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
    uops_a: list[Uop] = [(0, S, 0), (1, S + 2, 0)]
    p.alu(AluOp.ADD, uops_a, iters=(3, 4), dst=(5, 1), src=(1, 3))
    # Immediate form touching a strided subset: ACC[6o + 2i + 1] *= -3 for o<2, i<3.
    p.alu(AluOp.MUL, [(1, 0, 0)], iters=(2, 3), dst=(6, 2), src=(0, 0), imm=-3)
    out = emit_expose(p, nd)
    ref = dst.copy()
    for d, x, _ in loop_nest(uops_a, (3, 4), (5, 1), (1, 3)):
        ref[d] = wrap32(ref[d] + srcv[x - S])
    for d, _, _ in loop_nest([(1, 0, 0)], (2, 3), (6, 2), (0, 0)):
        ref[d] = wrap32(ref[d] * -3)
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""ALU loop nest with iter_out and iter_in > 1 and non-zero factors: a
        register-form ADD with two micro-ops, iter_out=3, iter_in=4, dst factors 5/1 and src
        factors 1/3 (some destinations are hit by both micro-ops, in order), and an
        immediate-form MUL (imm -3) over a strided subset (dst factors 6/2) leaving the other
        elements unchanged. Expected by explicit loops over the spec's index formulas; exposed
        byte by byte.""")


VECTORS: list[tuple[str, Builder]] = [
    ("alu_min", partial(alu_basic, op=AluOp.MIN,
                        note="Signed comparison across the full int32 range.")),
    ("alu_max", partial(alu_basic, op=AluOp.MAX,
                        note="Signed comparison across the full int32 range.")),
    ("alu_add", partial(alu_basic, op=AluOp.ADD,
                        note="Sums wrap modulo 2^32 (2^31-1 + 32767 etc.).")),
    ("alu_mul", partial(alu_basic, op=AluOp.MUL, note="Products keep the low 32 bits (wrap).")),
    ("alu_shr", alu_shr),
    ("alu_shr_edges", alu_shr_edges),
    ("alu_shr_beyond_width", alu_shr_beyond_width),
    ("alu_overlap_in_order", partial(alu_overlap, cfg=SMALL)),
    ("default_alu_overlap_in_order", partial(alu_overlap, cfg=DEFAULT)),
    ("alu_loops_factors", alu_loops_factors),
]
