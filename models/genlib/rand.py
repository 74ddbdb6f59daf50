"""Small draw helpers over a numpy Generator, returning plain Python ints.

Plain ints keep instruction dicts and JSON descriptions free of numpy scalar types,
and routing every draw through these helpers keeps a program a pure function of its seed.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np


def between(rng: np.random.Generator, bounds: tuple[int, int]) -> int:
    """Uniform integer in the inclusive range ``bounds``."""
    lo, hi = bounds
    return int(rng.integers(lo, hi + 1))


def below(rng: np.random.Generator, n: int) -> int:
    """Uniform integer in [0, n); n must be positive."""
    return int(rng.integers(0, n))


def chance(rng: np.random.Generator, p: float) -> bool:
    """True with probability p (never for 0, always for 1)."""
    return bool(rng.random() < p)


def pick(rng: np.random.Generator, weights: Sequence[float]) -> int:
    """Index drawn in proportion to non-negative weights (at least one positive)."""
    total = float(sum(weights))
    if total <= 0:
        raise ValueError(f"no positive weight among {list(weights)}")
    point = rng.random() * total
    for n, w in enumerate(weights):
        point -= w
        if point < 0 and w > 0:
            return n
    return max(n for n, w in enumerate(weights) if w > 0)
