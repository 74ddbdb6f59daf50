"""LOAD UOP in every form a LOAD can take: 2-D, strided and padded (spec section 3, LOAD).

A GEMM/ALU runs the micro-ops of one contiguous range [uop_bgn, uop_end) of the micro-op
buffer, and a pad writes zero micro-ops, which would touch entry 0 of every buffer (outside
the tile's windows) if a range ran over them. So a shaped LOAD UOP places each run of
micro-ops that one instruction needs where no pad can fall inside it:

* several runs (one LOAD for a whole compute stage): one run per row, rows as long as the
  longest run (a shorter run is followed by copies of its own micro-ops, loaded but never
  run); any pad may be set, as pads only surround whole rows;
* a single run: either one row with pads on both sides, or a 2-D block of rows of equal
  length without x pads (rows are then contiguous in SRAM, so the run is too).

Rows sit in DRAM ``x_stride`` micro-ops apart; the micro-ops between rows (strided form)
are zeros that the LOAD skips.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

import numpy as np

from models.genlib.knobs import GenKnobs
from models.genlib.rand import below, between, chance
from models.genlib.shapes import PAD_MAX

Uop = dict[str, int]
ZERO_UOP: Uop = {"dst_idx": 0, "src_idx": 0, "wgt_idx": 0}


@dataclass
class UopLayout:
    """A shaped LOAD UOP: its fields (sram_base is filled in by the caller), the micro-ops
    of its DRAM block in order (gaps included), and each run's offset from sram_base."""

    fields: dict[str, int]
    dram: list[Uop]
    offsets: list[int]

    @property
    def footprint(self) -> int:
        """SRAM entries the LOAD writes, pads included."""
        f = self.fields
        return (f["y_pad_0"] + f["y_size"] + f["y_pad_1"]) * (f["x_pad_0"] + f["x_size"] + f["x_pad_1"])


def plain_layout(runs: list[list[Uop]]) -> UopLayout:
    """The runs one after the other in a single unpadded row (the LOAD UOP of default knobs)."""
    uops = [u for run in runs for u in run]
    fields = {"y_size": 1, "x_size": len(uops), "x_stride": len(uops),
              "y_pad_0": 0, "y_pad_1": 0, "x_pad_0": 0, "x_pad_1": 0}
    return UopLayout(fields, uops, list(accumulate((len(run) for run in runs[:-1]), initial=0)))


def _pad(rng: np.random.Generator, knobs: GenKnobs) -> int:
    """A pad drawn like a data LOAD's (pad_prob, pad15_prob)."""
    if not chance(rng, knobs.pad_prob):
        return 0
    return PAD_MAX if chance(rng, knobs.pad15_prob) else between(rng, (1, PAD_MAX - 1))


def _rows(rng: np.random.Generator, runs: list[list[Uop]]) -> tuple[list[list[Uop]], list[int], bool]:
    """(rows, offset of each run within the unpadded block, whether x pads are allowed)."""
    if len(runs) > 1:
        width = max(len(r) for r in runs)
        rows = [r + [r[n % len(r)] for n in range(width - len(r))] for r in runs]
        return rows, [n * width for n in range(len(runs))], True
    run = runs[0]
    heights = [h for h in range(2, len(run) + 1) if len(run) % h == 0]
    if heights and chance(rng, 0.5):
        h = heights[below(rng, len(heights))]
        w = len(run) // h
        return [run[n * w:(n + 1) * w] for n in range(h)], [0], False
    return [run], [0], True


def shaped_layout(rng: np.random.Generator, knobs: GenKnobs, runs: list[list[Uop]],
                  room: int) -> UopLayout | None:
    """A 2-D, strided and/or padded LOAD UOP of ``runs`` whose footprint is at most ``room``
    entries, or None when even the unpadded block does not fit (the caller then loads the
    runs as one plain row)."""
    rows, offsets, x_pads = _rows(rng, runs)
    width = len(rows[0])
    stride = width + (between(rng, knobs.x_stride_extra) if chance(rng, knobs.stride_extra_prob) else 0)
    pads = [_pad(rng, knobs), _pad(rng, knobs)] + ([_pad(rng, knobs), _pad(rng, knobs)] if x_pads else [0, 0])
    if len(rows) * width > room:
        return None
    while (pads[0] + len(rows) + pads[1]) * (pads[2] + width + pads[3]) > room:
        nonzero = [n for n in range(4) if pads[n]]
        pads[nonzero[below(rng, len(nonzero))]] = 0
    row_len = pads[2] + width + pads[3]
    dram: list[Uop] = []
    for n, row in enumerate(rows):
        dram += row + ([ZERO_UOP] * (stride - width) if n < len(rows) - 1 else [])
    fields = {"y_size": len(rows), "x_size": width, "x_stride": stride, "y_pad_0": pads[0],
              "y_pad_1": pads[1], "x_pad_0": pads[2], "x_pad_1": pads[3]}
    first = pads[0] * row_len + pads[2]
    return UopLayout(fields, dram, [first + (o // width) * row_len + o % width for o in offsets])
