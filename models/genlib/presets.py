"""Named knob sets (``python -m models gen --preset NAME``) that reach forms the default draw
never does: long programs, loops at the 14-bit maxima, micro-op ranges in the thousands,
every LOAD UOP form, GEMMs with all six factors non-zero, token counters and command queues
driven to full, and long multi-row LOADs.

Each preset aims at one form and keeps everything else near the defaults, so a failure on
the RTL points at that form; each keeps the simulated cycles of a program in the tens of
thousands (Verilator's fast mode runs ~150k cycles/s), so a few programs of any preset run
in seconds. ``default`` is no preset: the knobs are drawn from the seed as without
``--preset``, so existing seeds give the same bytes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from models.genlib.knobs import GenKnobs
from models.widths import LOOP_MAX


@dataclass(frozen=True)
class Preset:
    """A named knob set (None: knobs drawn from the seed) and the form it is for; a tuple
    of knob sets is used in turn, program seed s taking set s mod its length."""

    name: str
    knobs: GenKnobs | tuple[GenKnobs, ...] | None
    reaches: str

    def for_seed(self, seed: int) -> GenKnobs | None:
        """The knobs of program ``seed`` (a pure function of it, so one seed reproduces)."""
        if isinstance(self.knobs, tuple):
            return self.knobs[seed % len(self.knobs)]
        return self.knobs


#: What every knob set of the queues preset shares: more slots than a token counter holds,
#: loads and stores placed as early and tokens pushed as early as is legal.
QUEUES: dict[str, Any] = {"tiles": (24, 48), "inp_slots": (8, 12), "acc_slots": (8, 12),
                          "slots_over_depth": 4, "order_eager": 1.0, "token_eager": 1.0}

#: The queues preset's load- and store-bound knob sets: one slow many-row LOAD or STORE per
#: stage (the command queue then holds a stage per entry, so the fast module can run up to
#: CMD_QUEUE_DEPTH tiles ahead), one fixed window per slot (written once, so compute never
#: waits on memory for a covering LOAD after the first round) and one or two short ops.
IO_BOUND: dict[str, Any] = {"compute_ops": (1, 2), "loads_per_stage": (1, 1),
                            "stores_per_stage": (1, 1), "window": (48, 48),
                            "window_at_slot_start_prob": 1.0, "y_size": (8, 32), "x_size": (1, 2),
                            "max_loop_work": 8}

PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("default", None, "the default draw: knobs drawn from each seed"),
    # ~11 instructions per tile (a 2-3 instruction load stage on GEMM tiles, a compute stage
    # with its LOAD UOPs, a store stage), so 110-210 tiles give about 1,000-2,500
    # instructions; the loops stay small so that length, not work, is what grows.
    Preset("long", GenKnobs(tiles=(110, 210), max_loop_work=48),
           "programs of 1,000+ instructions (tiles 110-210)"),
    # One GEMM/ALU in three is a long loop: 16383 (the field maximum) half the time, else
    # 1000..16383, on one micro-op and a short other loop (at most 2 x 16383 executions).
    Preset("loops", GenKnobs(tiles=(2, 5), compute_ops=(1, 4), long_loop_prob=0.35,
                             long_loop=(1000, LOOP_MAX), max_loop_work=2 * LOOP_MAX,
                             uops=(1, 2), iter_in=(1, 2)),
           "iter_out / iter_in up to 16383 with one or two micro-ops"),
    # Micro-op ranges of hundreds to thousands (clipped to the buffer: use a configuration
    # with a micro-op buffer of 1024+ entries, e.g. default), each run once or twice.
    Preset("uops", GenKnobs(tiles=(2, 5), compute_ops=(1, 4), uops=(100, 4000),
                            max_loop_work=6000, iter_one_prob=0.7, iter_out=(1, 2),
                            iter_in=(1, 2), uop_merge_prob=0.3),
           "micro-op ranges of 100-4000 per GEMM/ALU"),
    # Most LOAD UOPs shaped: one row per instruction of a merged stage, a single run split
    # into rows, pads of up to 15 zero micro-ops, rows apart in DRAM.
    Preset("uopload", GenKnobs(uop_shape_prob=0.9, uop_merge_prob=0.6, pad_prob=0.5,
                               stride_extra_prob=0.5, uops=(1, 12), max_loop_work=128),
           "LOAD UOP 2-D, strided and padded"),
    # Nine GEMM/ALUs in ten with every factor non-zero; windows large enough that loops of
    # several iterations still fit with factors above 1.
    Preset("gemm6", GenKnobs(nonzero_factors_prob=0.9, w_gemm=8.0, window=(16, 64),
                             iter_one_prob=0.15, iter_out=(1, 6), iter_in=(1, 6),
                             max_loop_work=160),
           "GEMMs with all six factors non-zero"),
    # More slots than a token counter holds (TOKEN_QUEUE_DEPTH + up to 4), eager stage order
    # and long runs of one module's instructions: producers wait on full token counters and
    # fetch on full command queues. A counter fills when its consumer is the slow module, so
    # the three knob sets make each module the bottleneck in turn: compute (L2C and S2C fill:
    # loads and stores run ahead), load (C2L fills: compute waits to hand slots back) and
    # store (C2S fills; ALU-only tiles, so no load holds compute back).
    Preset("queues", (
        GenKnobs(**QUEUES, compute_ops=(4, 12), loads_per_stage=(1, 2), stores_per_stage=(1, 2),
                 window=(2, 16), max_loop_work=96),
        GenKnobs(**QUEUES, **IO_BOUND),
        GenKnobs(**QUEUES, **IO_BOUND, w_gemm=0.0, w_load_acc=0.0, w_load_acc8=0.0)),
           "token counters and command queues driven to full"),
    # LOADs of 16-128 rows of 1-4 elements, rows often apart in DRAM: many row bursts in
    # flight, the case a slow memory (profile heavy or bursty) stresses.
    Preset("rows", GenKnobs(tiles=(2, 6), y_size=(16, 128), x_size=(1, 4), window=(64, 512),
                            inp_slots=(1, 2), acc_slots=(1, 2), loads_per_stage=(2, 4),
                            stride_extra_prob=0.5, x_stride_extra=(1, 16), w_load_acc=2.0,
                            max_loop_work=256, pad_prob=0.1),
           "long multi-row LOADs (16-128 rows)"),
)}


def preset_knobs(name: str, seed: int) -> GenKnobs | None:
    """The knobs of program ``seed`` of a preset (None for ``default``); an unknown name is a
    ValueError."""
    if name not in PRESETS:
        raise ValueError(f"--preset {name!r}: unknown preset (one of {', '.join(PRESETS)})")
    return PRESETS[name].for_seed(seed)
