"""Reference arithmetic for the directed vectors' expected bytes.

The vectors exist to check the golden model (models/executor.py) and the RTL, so the
expected DRAM bytes must not come from either: this module recomputes the spec's
semantics (../shared/VTA_SPEC.md section 3) with plain numpy and Python integers --
matrix products, GEMM/ALU loop nests, padded loads, strided stores, wrap-around,
shifts, STORE truncation -- and imports nothing from models/ but the ALU opcode names.
Keep it that way: an expectation computed with the executor would check the executor
against itself.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Sequence

import numpy as np

from models.isa import AluOp

I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1

#: A micro-op as (dst_idx, src_idx, wgt_idx).
Uop = tuple[int, int, int]

#: LOAD padding (y_pad_0, y_pad_1, x_pad_0, x_pad_1), as Program.load takes it.
Pads = tuple[int, int, int, int]


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


def loop_nest(uops: Sequence[Uop], iters: tuple[int, int], dst: tuple[int, int],
              src: tuple[int, int], wgt: tuple[int, int] = (0, 0)) -> Iterator[Uop]:
    """The (dst, src, wgt) indices a GEMM or ALU visits, in execution order (spec section 3).

    for o < iter_out, for i < iter_in, for each micro-op (d, s, w):
    (d + o*dst_factor_out + i*dst_factor_in, s + o*src_factor_out + ..., w + ...).
    """
    for o in range(iters[0]):
        for i in range(iters[1]):
            for d, s, w in uops:
                yield d + o * dst[0] + i * dst[1], s + o * src[0] + i * src[1], w + o * wgt[0] + i * wgt[1]


def gemm_ref(acc: np.ndarray, inp: np.ndarray, wgt: np.ndarray, visits: Iterable[Uop]) -> np.ndarray:
    """ACC after GEMM steps (d, s, w) in order: ACC[d] += INP[s] . WGT[w]^T, wrapped to 32 bits."""
    ref = np.array(acc, dtype=np.int64)
    for d, s, w in visits:
        ref[d] = wrap32(ref[d] + matmul_wt(inp[s], wgt[w]))
    return ref


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


def load_2d(dram: np.ndarray, rows: int, x: int, stride: int, pads: Pads) -> np.ndarray:
    """The SRAM elements a padded 2-D LOAD writes, from sram_base on (spec LOAD).

    ``dram`` holds DRAM elements along its first axis; row y of the tile is elements
    y*stride .. y*stride+x. The tile is (y_pad_0 + rows + y_pad_1) rows of
    (x_pad_0 + x + x_pad_1) elements, row-major, with zero elements in the pads; the
    values keep their sign (an ACC_8BIT load sign-extends).
    """
    y0, y1, x0, x1 = pads
    width, height = x0 + x + x1, y0 + rows + y1
    tile = np.zeros((height, width) + dram.shape[1:], dtype=np.int64)
    for y in range(rows):
        tile[y0 + y, x0:x0 + x] = dram[y * stride:y * stride + x]
    return tile.reshape((height * width,) + dram.shape[1:])


def store_2d(region: bytes, tile: np.ndarray, stride: int) -> bytes:
    """An OUT region after a strided STORE of ``tile`` over its initial bytes ``region``.

    ``tile`` is (rows, x, ...lanes): element xx of row y lands at element y*stride + xx,
    truncated to the low 8 bits of each lane (:func:`low8`); the gaps keep their bytes.
    """
    out = bytearray(region)
    size = tile[0, 0].size
    for y, row in enumerate(tile):
        start = y * stride * size
        out[start:start + row.size] = low8(row)
    return bytes(out)
