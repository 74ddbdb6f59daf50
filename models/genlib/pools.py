"""DRAM data a program reads (inputs, micro-ops) and writes (outputs), in element offsets.

Offsets are relative to each pool's first element; ``layout`` later places every pool at a
DRAM address and adds the pool's element offset to each LOAD/STORE's dram_base. Read
pools may be read any number of times; output blocks are fresh for every STORE, so no
two STOREs write the same byte and no output overlaps an input.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.genlib.rand import below


@dataclass
class ReadPool:
    """Input elements for LOADs: dram_base drawn in [0, span); sized to what is read."""

    span: int = 24
    extent: int = 0

    def place(self, rng: np.random.Generator, y_size: int, x_size: int, x_stride: int) -> int:
        base = below(rng, self.span)
        if x_size:
            self.extent = max(self.extent, base + (y_size - 1) * x_stride + x_size)
        return base


@dataclass
class OutPool:
    """Output elements: each STORE gets its own block after a small random gap."""

    extent: int = 0

    def place(self, rng: np.random.Generator, y_size: int, x_size: int, x_stride: int) -> int:
        base = self.extent + below(rng, 3)
        self.extent = base + (y_size - 1) * x_stride + x_size
        return base


@dataclass
class UopPool:
    """Micro-ops in DRAM, in the order LOAD UOPs read them."""

    uops: list[dict[str, int]] = field(default_factory=list)

    def append(self, uops: list[dict[str, int]]) -> int:
        base = len(self.uops)
        self.uops.extend(uops)
        return base


def int8_data(rng: np.random.Generator, count: int) -> bytes:
    """Uniform int8 over the full range."""
    return rng.integers(-128, 128, size=count, dtype=np.int64).astype(np.int8).tobytes()


def acc_data(rng: np.random.Generator, count: int, extreme_prob: float) -> bytes:
    """int32 lanes: mostly moderate values, some full-range, some at the corners."""
    moderate = rng.integers(-(1 << 16), 1 << 16, size=count, dtype=np.int64)
    full = rng.integers(-(1 << 31), 1 << 31, size=count, dtype=np.int64)
    corners = np.array([-(1 << 31), (1 << 31) - 1, 0, 1, -1], dtype=np.int64)
    corner = corners[rng.integers(0, len(corners), size=count)]
    kind = rng.random(size=count)
    values = np.where(kind < extreme_prob, corner, np.where(kind < 0.3 + extreme_prob, full, moderate))
    return values.astype("<i4").tobytes()
