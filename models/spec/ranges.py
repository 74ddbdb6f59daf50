"""Byte ranges of DRAM: merging, intersecting.

A range is ``(address, length)``; lists of them are kept merged (sorted, disjoint, not
touching). Footprints, expected images, init-image coverage and the testbench's
stray-write check all reduce to these operations.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from models.dram import ADDR_LIMIT

Range = tuple[int, int]  # (byte address, length)


def merge_ranges(starts: np.ndarray | Sequence[int], lengths: np.ndarray | Sequence[int]) -> list[Range]:
    """Merge overlapping or touching (start, length) ranges, clipped to 4 GiB; empty ones vanish."""
    lo = np.asarray(starts, dtype=np.int64)
    hi = np.minimum(lo + np.asarray(lengths, dtype=np.int64), ADDR_LIMIT)
    keep = hi > lo
    lo, hi = lo[keep], hi[keep]
    if lo.size == 0:
        return []
    order = np.argsort(lo, kind="stable")
    lo, hi = lo[order], hi[order]
    reach = np.maximum.accumulate(hi)
    new = np.ones(lo.size, dtype=bool)
    new[1:] = lo[1:] > reach[:-1]
    heads = np.flatnonzero(new)
    group_ends = np.maximum.reduceat(hi, heads)
    return [(int(s), int(e - s)) for s, e in zip(lo[heads], group_ends, strict=True)]


def merge_spans(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge ``[lo, hi)`` spans into maximal disjoint ``[lo, hi)`` spans, in address order."""
    pairs = list(spans)
    merged = merge_ranges([lo for lo, _ in pairs], [hi - lo for lo, hi in pairs])
    return [(a, a + n) for a, n in merged]


def intersect_ranges(a: Sequence[Range], b: Sequence[Range]) -> list[Range]:
    """Byte ranges common to two merged range lists."""
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][0] + a[i][1], b[j][0] + b[j][1])
        if lo < hi:
            out.append((lo, hi - lo))
        if a[i][0] + a[i][1] < b[j][0] + b[j][1]:
            i += 1
        else:
            j += 1
    return out
