"""Reference arithmetic for the directed vectors' expected bytes.

The vectors exist to check the golden model (models/executor.py) and the RTL, so the
expected DRAM bytes must not come from either: this module recomputes the spec's
semantics (../shared/VTA_SPEC.md section 3) with plain numpy and Python integers --
matrix products, wrap-around, shifts, STORE truncation -- and imports nothing from
models/ but the ALU opcode names. Keep it that way: an expectation computed with the
executor would check the executor against itself.
"""
from __future__ import annotations

import numpy as np

from models.isa import AluOp

I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1


def wrap32(x: np.ndarray | int) -> np.ndarray:
    """Two's-complement wrap of int64 values to int32 range (spec: ints wrap modulo 2^32)."""
    return ((np.asarray(x, dtype=np.int64) + (1 << 31)) % (1 << 32)) - (1 << 31)


def low8(acc: np.ndarray) -> bytes:
    """STORE semantics: the low 8 bits of every accumulator lane, in element order."""
    return (np.asarray(acc, dtype=np.int64) & 0xFF).astype(np.uint8).tobytes()


def byte_planes(acc: np.ndarray) -> bytes:
    """What emit_expose + STORE produce: low8(acc), low8(acc>>8), low8(acc>>16), low8(acc>>24)."""
    acc = np.asarray(acc, dtype=np.int64)
    return b"".join(low8(acc >> (8 * k)) for k in range(4))


def matmul_wt(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """a @ w.T in int64: GEMM's ACC[b][j] += sum_k INP[b][k] * WGT[j][k]."""
    return np.asarray(a, dtype=np.int64) @ np.asarray(w, dtype=np.int64).T


def shr_ref(a: int, s: int) -> int:
    """Spec ALU SHR on one lane: arithmetic right by s >= 0 (>= 32 gives the sign fill),
    left by -s when s < 0 (>= 32 gives 0), result wrapped to 32 bits."""
    if s >= 0:
        return a >> min(s, 31)
    if -s >= 32:
        return 0
    return int(wrap32(a << -s))


def alu_ref(op: AluOp, a: np.ndarray, b: np.ndarray | int) -> np.ndarray:
    """Lane-wise spec ALU result op(dst, operand) on int64 arrays of int32 values."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    if op == AluOp.MIN:
        return np.minimum(a, b)
    if op == AluOp.MAX:
        return np.maximum(a, b)
    if op == AluOp.ADD:
        return wrap32(a + b)
    if op == AluOp.MUL:
        return wrap32(a * b)
    return np.array([shr_ref(int(x), int(y)) for x, y in zip(a.ravel(), b.ravel(), strict=True)],
                    dtype=np.int64).reshape(a.shape)
