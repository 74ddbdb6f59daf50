"""VTA's blocked DRAM layouts (spec section 3, TVM's packed NCHWnc/OIHWoi), as bytes.

Activations are elements of BATCH x BLOCK_IN int8 ordered (channel block, row, column);
weights elements of BLOCK_OUT x BLOCK_IN int8 ordered (output block, input block, dy, dx);
the bias elements of BATCH x BLOCK_OUT int32 (ACC), one per output block; the output
elements of BATCH x BLOCK_OUT int8 ordered like the activations. Channels are padded with
zeros to a whole block. Packing is layout only: the arithmetic is the reference's.
"""
from __future__ import annotations

import numpy as np


def blocks(channels: int, block: int) -> int:
    """Channel blocks of ``block`` lanes that hold ``channels`` (the last one zero-padded)."""
    return -(-channels // block)


def _pad_axis(a: np.ndarray, axis: int, size: int) -> np.ndarray:
    widths = [(0, 0)] * a.ndim
    widths[axis] = (0, size - a.shape[axis])
    return np.pad(a, widths)


def pack_activations(x: np.ndarray, block_in: int) -> bytes:
    """(N, C, H, W) int8 with N = BATCH -> elements [(cb, y, x)][b][k] = x[b, cb*B + k, y, x]."""
    n, c, h, w = x.shape
    cb = blocks(c, block_in)
    xp = _pad_axis(x, 1, cb * block_in).reshape(n, cb, block_in, h, w)
    return np.ascontiguousarray(xp.transpose(1, 3, 4, 0, 2)).astype(np.int8).tobytes()


def pack_weights(w: np.ndarray, block_out: int, block_in: int) -> bytes:
    """(O, C, k, k) int8 -> elements [(ob, ib, dy, dx)][j][k] = w[ob*Bo + j, ib*Bi + k, dy, dx]."""
    o, c, kh, kw = w.shape
    ob, ib = blocks(o, block_out), blocks(c, block_in)
    wp = _pad_axis(_pad_axis(w, 0, ob * block_out), 1, ib * block_in)
    wp = wp.reshape(ob, block_out, ib, block_in, kh, kw)
    return np.ascontiguousarray(wp.transpose(0, 2, 4, 5, 1, 3)).astype(np.int8).tobytes()


def pack_bias(bias: np.ndarray, batch: int, block_out: int) -> bytes:
    """(O,) int32 -> ACC elements [ob][b][j] = bias[ob*Bo + j] (the same for every image)."""
    ob = blocks(bias.shape[0], block_out)
    bp = _pad_axis(bias.astype(np.int64), 0, ob * block_out).reshape(ob, 1, block_out)
    return np.ascontiguousarray(np.broadcast_to(bp, (ob, batch, block_out))).astype("<i4").tobytes()


def pack_output(y: np.ndarray, block_out: int) -> bytes:
    """(N, O, OH, OW) int8 -> OUT elements [(ob, y, x)][b][j], padded channels zero."""
    return pack_activations(y, block_out)
