"""The independent reference of the workloads: integer conv2d and dense in plain numpy
(im2col and one matrix product in int64), with the epilogue of TVM's ResNet-18 benchmark.

It shares nothing with the executor (models/executor.py) or the compiler (lower.py): it
works on the logical NCHW/OIHW tensors, never on VTA's blocked layouts or instructions,
so a lowering mistake and an executor mistake cannot cancel out.
"""
from __future__ import annotations

import numpy as np

#: The epilogue: y = clip((acc >> SHIFT) + bias, CLIP_LO, CLIP_HI), stored as int8.
SHIFT = 8
CLIP_LO, CLIP_HI = 0, 127


def _wrap32(values: np.ndarray) -> np.ndarray:
    """Two's-complement 32-bit wrap (VTA's accumulators are 32 bits wide)."""
    return ((values + 2**31) % 2**32 - 2**31).astype(np.int64)


def im2col(x: np.ndarray, kernel: int, stride: int, pad: int) -> np.ndarray:
    """(N, C, H, W) -> (N, OH*OW, C*kernel*kernel), zero padding, patch order (c, dy, dx)."""
    n, c, h, w = x.shape
    xp = np.zeros((n, c, h + 2 * pad, w + 2 * pad), dtype=np.int64)
    xp[:, :, pad:pad + h, pad:pad + w] = x
    oh = (h + 2 * pad - kernel) // stride + 1
    ow = (w + 2 * pad - kernel) // stride + 1
    cols = np.empty((n, c, kernel, kernel, oh, ow), dtype=np.int64)
    for dy in range(kernel):
        for dx in range(kernel):
            cols[:, :, dy, dx] = xp[:, :, dy:dy + stride * oh:stride, dx:dx + stride * ow:stride]
    return cols.reshape(n, c * kernel * kernel, oh * ow).transpose(0, 2, 1)


def conv2d_acc(x: np.ndarray, w: np.ndarray, stride: int, pad: int) -> np.ndarray:
    """The 32-bit accumulator values of a convolution: (N, O, OH, OW) int64."""
    n, _, h, width = x.shape
    o, _, k, _ = w.shape
    oh = (h + 2 * pad - k) // stride + 1
    ow = (width + 2 * pad - k) // stride + 1
    cols = im2col(x, k, stride, pad)                      # (N, OH*OW, C*k*k)
    acc = cols @ w.reshape(o, -1).astype(np.int64).T       # (N, OH*OW, O)
    return _wrap32(acc.transpose(0, 2, 1).reshape(n, o, oh, ow))


def epilogue(acc: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Shift, bias add (per output channel, axis 1), clip, int8; each step wraps at 32 bits."""
    shape = [1] * acc.ndim
    shape[1] = -1
    y = _wrap32((acc >> SHIFT) + bias.astype(np.int64).reshape(shape))
    return np.clip(y, CLIP_LO, CLIP_HI).astype(np.int8)


def conv2d(x: np.ndarray, w: np.ndarray, bias: np.ndarray, stride: int, pad: int) -> np.ndarray:
    """int8 NCHW activations, int8 OIHW weights, int32 bias -> int8 NCHW output."""
    return epilogue(conv2d_acc(x, w, stride, pad), bias)


def dense(x: np.ndarray, w: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """int8 (N, IN) activations, int8 (OUT, IN) weights, int32 bias -> int8 (N, OUT)."""
    acc = _wrap32(x.astype(np.int64) @ w.astype(np.int64).T)
    return epilogue(acc, bias)
