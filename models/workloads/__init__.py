"""Real workloads: ResNet-18's layers lowered to VTA programs (models/workloads/lower.py)
with expected results from an independent numpy reference (reference.py).

    workload(name, scale, cfg, vt) -> Workload   # the layer, its tiling and its vector
    python -m models workload NAME|all [--config C] [--vt 1|2] [--scale S] --out DIR
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from models.config import VtaConfig
from models.timing import estimate_vector
from models.vector import Vector
from models.workloads import layout, reference
from models.workloads.layers import Layer, WorkloadError, get_layer
from models.workloads.lower import Tensors, lower
from models.workloads.tiling import Tiling, candidates

__all__ = ["Workload", "WorkloadError", "workload", "tensors"]

#: Tilings the cost model ranks best that are then timed by models.timing (the calibrated
#: estimate of the whole program); the fastest one is kept.
TIMED_CANDIDATES = 12

#: Target standard deviation of the accumulator before the shift, so that after ``>> 8``
#: and the bias most outputs land inside [0, 127] instead of saturating: a clip that
#: saturates everything would hide a wrong sum.
ACC_STD = 40 << reference.SHIFT


@dataclass(frozen=True)
class Workload:
    """One lowered layer."""

    layer: Layer
    vt: int
    tiling: Tiling
    vector: Vector


def _weight_bound(layer: Layer) -> int:
    """Uniform weights in [-b, b] with activations uniform in [0, 127]: the accumulator's
    variance is fan_in * E[x^2] * Var(w), E[x^2] ~ 5400, Var(w) ~ b^2 / 3."""
    fan_in = layer.in_channels * layer.kernel ** 2
    return int(max(1, min(127, round((3 * ACC_STD ** 2 / (fan_in * 5400)) ** 0.5))))


def tensors(layer: Layer, cfg: VtaConfig) -> Tensors:
    """Seeded random tensors of the layer (BATCH images), packed, with the reference result."""
    rng = np.random.default_rng(zlib.crc32(layer.name.encode()))
    n, k, b = cfg.batch, layer.kernel, _weight_bound(layer)
    x = rng.integers(0, 128, size=(n, layer.in_channels, layer.height, layer.width), dtype=np.int64)
    w = rng.integers(-b, b + 1, size=(layer.out_channels, layer.in_channels, k, k), dtype=np.int64)
    bias = rng.integers(-64, 65, size=layer.out_channels, dtype=np.int64)
    if layer.kind == "dense":
        y = reference.dense(x.reshape(n, -1), w.reshape(layer.out_channels, -1), bias)
        y = y.reshape(n, layer.out_channels, 1, 1)
    else:
        y = reference.conv2d(x, w, bias, layer.stride, layer.pad)
    return Tensors(layout.pack_activations(x.astype(np.int8), cfg.block_in),
                   layout.pack_weights(w.astype(np.int8), cfg.block_out, cfg.block_in),
                   layout.pack_bias(bias, cfg.batch, cfg.block_out),
                   layout.pack_output(y, cfg.block_out))


def workload(name: str, scale: str, cfg: VtaConfig, vt: int) -> Workload:
    """Lower the layer ``name`` at ``scale`` for ``cfg`` with ``vt`` virtual threads, with
    the tiling whose program models.timing expects to finish first (like TVM's tuning of
    a schedule's tile sizes, with a cycle model in place of measurements)."""
    layer = get_layer(name, scale, cfg.block_in, cfg.block_out)
    data = tensors(layer, cfg)
    best: tuple[int, Tiling, Vector] | None = None
    for tiling in candidates(layer, cfg, vt, TIMED_CANDIDATES):
        vector = lower(layer, cfg, vt, data, tiling)
        cycles = estimate_vector(vector).cycles
        if best is None or cycles < best[0]:
            best = (cycles, tiling, vector)
    assert best is not None  # candidates() raises when nothing fits
    return Workload(layer, vt, best[1], best[2])
