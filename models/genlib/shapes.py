"""Random shapes that stay inside an SRAM window: LOAD/STORE tiles, micro-op loops, immediates.

A window is ``(lo, size)``: the SRAM entries [lo, lo+size) a stage owns. Everything drawn
here keeps every index it can touch inside its window, so no instruction overflows a
buffer and no access strays into a slot that another module may be using.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.genlib.knobs import GenKnobs
from models.genlib.rand import below, between, chance, pick
from models.isa import AluOp
from models.widths import LOOP_MAX

Window = tuple[int, int]
PAD_FIELDS = ("y_pad_0", "y_pad_1", "x_pad_0", "x_pad_1")
PAD_MAX = 15


@dataclass
class MemShape:
    """A 2-D LOAD/STORE tile: sizes, stride and pads (SRAM footprint X*Y at sram_base)."""

    sram_base: int
    y_size: int
    x_size: int
    x_stride: int
    pads: tuple[int, int, int, int]   # y_pad_0, y_pad_1, x_pad_0, x_pad_1

    def fields(self) -> dict[str, int]:
        out = {"sram_base": self.sram_base, "y_size": self.y_size, "x_size": self.x_size,
               "x_stride": self.x_stride}
        out.update(zip(PAD_FIELDS, self.pads, strict=True))
        return out


@dataclass
class Loop:
    """The loop fields of a GEMM/ALU and the micro-ops it runs."""

    fields: dict[str, int]
    uops: list[dict[str, int]]


def _pad(rng: np.random.Generator, knobs: GenKnobs) -> int:
    """A non-zero pad: the maximum with probability pad15_prob, else 1..14."""
    return PAD_MAX if chance(rng, knobs.pad15_prob) else between(rng, (1, PAD_MAX - 1))


def _pads(rng: np.random.Generator, knobs: GenKnobs, size: int) -> list[int]:
    """Pad fields drawn for coverage, then dropped at random until a 1x1 core fits."""
    pads = [0, 0, 0, 0]
    for n in range(4):
        if chance(rng, knobs.pad_prob):
            pads[n] = _pad(rng, knobs)
    while (pads[0] + pads[1] + 1) * (pads[2] + pads[3] + 1) > size:
        nonzero = [n for n in range(4) if pads[n]]
        pads[nonzero[below(rng, len(nonzero))]] = 0
    return pads


def mem_shape(rng: np.random.Generator, knobs: GenKnobs, window: Window, padded: bool) -> MemShape:
    """A tile whose padded footprint fits the window; pads only when ``padded`` (LOAD)."""
    lo, size = window
    pads = _pads(rng, knobs, size) if padded else [0, 0, 0, 0]
    py, px = pads[0] + pads[1], pads[2] + pads[3]
    y = min(between(rng, knobs.y_size), size // (px + 1) - py)
    x = min(between(rng, knobs.x_size), size // (py + y) - px)
    footprint = (py + y) * (px + x)
    stride = x + (between(rng, knobs.x_stride_extra) if chance(rng, knobs.stride_extra_prob) else 0)
    if chance(rng, knobs.zero_size_prob):
        x = 0
    return MemShape(lo + below(rng, size - footprint + 1), y, x, stride,
                    (pads[0], pads[1], pads[2], pads[3]))


def _pad_pair(rng: np.random.Generator, knobs: GenKnobs, room: int) -> tuple[int, int]:
    """Two pads drawn like _pads, clipped so that together they leave ``room``."""
    first, second = (_pad(rng, knobs) if chance(rng, knobs.pad_prob) else 0 for _ in range(2))
    first = min(first, room)
    return first, min(second, room - first)


def cover_shape(rng: np.random.Generator, knobs: GenKnobs, window: Window) -> MemShape:
    """A LOAD tile whose padded footprint is exactly the window, so it writes every entry."""
    lo, size = window
    divisors = [d for d in range(1, size + 1) if size % d == 0]
    rows = divisors[below(rng, len(divisors))]
    cols = size // rows
    y0, y1 = _pad_pair(rng, knobs, rows - 1)
    x0, x1 = _pad_pair(rng, knobs, cols - 1)
    x = cols - x0 - x1
    stride = x + (between(rng, knobs.x_stride_extra) if chance(rng, knobs.stride_extra_prob) else 0)
    return MemShape(lo, rows - y0 - y1, x, stride, (y0, y1, x0, x1))


def reset_cover(rng: np.random.Generator, window: Window) -> Loop:
    """A reset GEMM's loops and single micro-op that zero every entry of an ACC window."""
    lo, size = window
    divisors = [d for d in range(1, size + 1) if size % d == 0 and d < 1 << 14 and size // d < 1 << 14]
    outer = divisors[below(rng, len(divisors))]
    inner = size // outer
    fields = {"iter_out": outer, "iter_in": inner, "dst_factor_out": inner if outer > 1 else 0,
              "dst_factor_in": 1}
    return Loop(fields, [{"dst_idx": lo, "src_idx": 0, "wgt_idx": 0}])


def _factors(rng: np.random.Generator, knobs: GenKnobs, iters: tuple[int, int], size: int) -> tuple[int, int]:
    """(factor_out, factor_in) below ``size`` (so they fit their field) whose loop span does too."""
    io, ii = iters
    kind = pick(rng, knobs.factor_weights)
    fo, fi = {0: (0, 0), 1: (ii, 1), 2: (1, io)}.get(kind, (-1, -1))
    if kind == 3 or (io - 1) * fo + (ii - 1) * fi >= size or max(fo, fi) >= size:
        fo = below(rng, (size - 1) // (io - 1) + 1) if io > 1 else below(rng, size)
        room = size - 1 - (io - 1) * fo if io > 1 else size - 1
        fi = below(rng, room // (ii - 1) + 1) if ii > 1 else below(rng, size)
    return fo, fi


def _iters(rng: np.random.Generator, knobs: GenKnobs, max_uops: int) -> tuple[int, int, int]:
    """(iter_out, iter_in, micro-ops) with their product at most max_loop_work."""
    io = 1 if chance(rng, knobs.iter_one_prob) else between(rng, knobs.iter_out)
    ii = 1 if chance(rng, knobs.iter_one_prob) else between(rng, knobs.iter_in)
    nu = min(between(rng, knobs.uops), max_uops)
    while io * ii * nu > knobs.max_loop_work:
        if nu >= max(io, ii):
            nu -= 1
        elif io >= ii:
            io -= 1
        else:
            ii -= 1
    return io, ii, max(nu, 1)


def _long_iters(rng: np.random.Generator, knobs: GenKnobs, max_uops: int) -> tuple[int, int, int]:
    """(iter_out, iter_in, micro-ops) of a long loop: one count, either loop's, from
    ``long_loop`` (often the field maximum), the other from ``iter_in`` and the micro-op
    range from ``uops``, both cut to what max_loop_work leaves.

    This is how a loop reaches the 14-bit maxima while its cycle count stays simulatable:
    16383 iterations of one micro-op take about as long as a few hundred ordinary GEMMs.
    """
    big = LOOP_MAX if chance(rng, knobs.long_loop_max_prob) else between(rng, knobs.long_loop)
    big = min(big, knobs.max_loop_work)
    small = min(between(rng, knobs.iter_in), max(1, knobs.max_loop_work // big))
    nu = min(between(rng, knobs.uops), max_uops, max(1, knobs.max_loop_work // (big * small)))
    return (big, small, nu) if chance(rng, 0.5) else (small, big, nu)


def _fit_unit_span(iters: tuple[int, int], size: int) -> tuple[int, int]:
    """Loop counts cut (the larger first) until factors of 1 span less than ``size`` entries,
    i.e. until iter_out + iter_in <= size + 1."""
    io, ii = iters
    excess = io + ii - (size + 1)
    if excess <= 0:
        return io, ii
    if abs(io - ii) >= excess:
        return (io - excess, ii) if io > ii else (io, ii - excess)
    return (size + 2) // 2, (size + 1) // 2


def _nonzero_factors(rng: np.random.Generator, iters: tuple[int, int], size: int) -> tuple[int, int]:
    """(factor_out, factor_in), both >= 1, whose loop span stays below ``size``.

    A factor of a loop that runs once moves nothing but is still a field the RTL decodes;
    it is drawn below ``size`` too (never above the window, so it fits its field).
    """
    io, ii = iters
    room = size - 1                                  # the span (io-1)*fo + (ii-1)*fi may reach this
    fo_top = (room - (ii - 1)) // (io - 1) if io > 1 else room
    fo = between(rng, (1, max(1, fo_top)))
    fi_top = (room - (io - 1) * fo) // (ii - 1) if ii > 1 else room
    return fo, between(rng, (1, max(1, fi_top)))


def loop(rng: np.random.Generator, knobs: GenKnobs, dst: Window, src: Window,
         wgt: Window | None, max_uops: int) -> Loop:
    """Loops and at most ``max_uops`` micro-ops whose every dst/src/wgt index stays in its window.

    ``wgt`` is None for an ALU, whose micro-ops leave wgt_idx at 0 and whose src indexes ACC.
    """
    long = bool(knobs.long_loop_prob) and chance(rng, knobs.long_loop_prob)
    io, ii, nu = _long_iters(rng, knobs, max_uops) if long else _iters(rng, knobs, max_uops)
    dims = [("dst", dst), ("src", src)] + ([("wgt", wgt)] if wgt is not None else [])
    nonzero = bool(knobs.nonzero_factors_prob) and chance(rng, knobs.nonzero_factors_prob)
    if nonzero:
        io, ii = _fit_unit_span((io, ii), min(size for _, (_, size) in dims))
    fields = {"iter_out": io, "iter_in": ii}
    spans: dict[str, tuple[int, int]] = {}
    for name, (lo, size) in dims:
        fo, fi = _nonzero_factors(rng, (io, ii), size) if nonzero else _factors(rng, knobs, (io, ii), size)
        fields[f"{name}_factor_out"], fields[f"{name}_factor_in"] = fo, fi
        spans[name] = (lo, size - ((io - 1) * fo + (ii - 1) * fi))
    uops = []
    for _ in range(nu):
        uop = {"dst_idx": 0, "src_idx": 0, "wgt_idx": 0}
        for name, (lo, room) in spans.items():
            uop[f"{name}_idx"] = lo + below(rng, room)
        uops.append(uop)
    return Loop(fields, uops)


def alu_imm(rng: np.random.Generator, knobs: GenKnobs, op: int, acc_width: int) -> int:
    """An immediate: the corner values often, else small or full-range values (for SHR with
    the knob ``shr_imm_only``, only shifts by less than the accumulator's width)."""
    if op == AluOp.SHR and knobs.shr_imm_only:
        edge = acc_width - 1
        if chance(rng, knobs.imm_special_prob):
            return [0, 1, -1, edge, -edge][below(rng, 5)]
        return int(rng.integers(-edge, edge + 1))
    if chance(rng, knobs.imm_special_prob):
        specials = [0, 1, -1, -32768, 32767]
        if op == AluOp.SHR:
            specials += [acc_width - 1, -(acc_width - 1), acc_width, -acc_width]
        return specials[below(rng, len(specials))]
    if op == AluOp.SHR or chance(rng, 0.5):
        return int(rng.integers(-acc_width, acc_width + 1))
    return int(rng.integers(-32768, 32768))
