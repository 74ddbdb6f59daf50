"""What the random program generator may vary, with defaults sized for RTL simulation.

Every range is inclusive. Defaults keep a program to tens of instructions and a few
hundred GEMM micro-op executions on the small configuration, because each vector runs
on Verilog RTL under an event-driven simulator; scale ``tiles``, ``compute_ops``,
``window`` and ``max_loop_work`` up for longer programs. The knobs of the section "wide
forms" are off by default and draw nothing from the seed while off, so a program of the
default knobs is byte for byte what it was before they existed; the named presets of
models/genlib/presets.py turn them on.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

import numpy as np

from models.genlib.rand import between, chance
from models.widths import LOOP_MAX


@dataclass(frozen=True)
class GenKnobs:
    """Distribution of generated programs (see the field comments)."""

    # --- program shape: a program is a sequence of tiles (load, compute, store stages)
    tiles: tuple[int, int] = (2, 10)
    compute_ops: tuple[int, int] = (1, 8)        # GEMM/ALU/LOAD ACC ops per compute stage
    loads_per_stage: tuple[int, int] = (1, 3)    # LOAD INP/WGT per load stage (0: no stage; the
                                                 # first tile on a slot always loads it)
    stores_per_stage: tuple[int, int] = (1, 3)
    store_stage_prob: float = 0.9                # a tile stores its results (the last always does)
    # --- instruction mix (relative weights; 0 removes the kind, except that a window read
    # before it is written is first covered: INP/WGT by a LOAD, ACC by a reset GEMM or a
    # LOAD ACC/ACC_8BIT as these weights allow, else by a LOAD ACC)
    w_gemm: float = 4.0
    w_alu: float = 3.0
    w_load_acc: float = 1.0
    w_load_acc8: float = 0.6
    w_load_inp: float = 1.0
    w_load_wgt: float = 1.0
    reset_prob: float = 0.2                      # a GEMM is a reset GEMM
    # --- SRAM: entries of each buffer a tile works on (clipped to its slot)
    window: tuple[int, int] = (4, 40)
    window_at_slot_start_prob: float = 0.6       # else anywhere in the slot; at the start, the
                                                 # tiles sharing a slot reuse the same entries
    # --- LOAD/STORE tile shapes
    x_size: tuple[int, int] = (1, 8)
    y_size: tuple[int, int] = (1, 4)
    x_stride_extra: tuple[int, int] = (1, 3)     # x_stride - x_size when not equal
    stride_extra_prob: float = 0.3
    pad_prob: float = 0.25                       # each LOAD pad field is non-zero
    pad15_prob: float = 0.3                      # a non-zero pad is the maximum, 15
    zero_size_prob: float = 0.03                 # a LOAD/STORE has x_size 0 (a no-op)
    # --- micro-op loops
    uops: tuple[int, int] = (1, 8)
    iter_out: tuple[int, int] = (1, 6)
    iter_in: tuple[int, int] = (1, 6)
    iter_one_prob: float = 0.35                  # iter_out (and, separately, iter_in) is 1
    # factor_weights: zero, dense, transposed, random
    factor_weights: tuple[float, float, float, float] = (1.0, 2.0, 1.0, 2.0)
    max_loop_work: int = 96                      # iter_out * iter_in * micro-ops per instruction
    uop_merge_prob: float = 0.4                  # one LOAD UOP for a whole compute stage
    uop_reuse_prob: float = 0.15                 # an op reuses the previous op's micro-ops and loops
    # --- ALU
    # alu_op_weights: MIN MAX ADD SHR MUL
    alu_op_weights: tuple[float, float, float, float, float] = (1.0, 1.0, 1.0, 1.0, 1.0)
    use_imm_prob: float = 0.5
    imm_special_prob: float = 0.5                # 0, +-1, -32768, 32767, +-(ACC_W-1) for SHR
    # --- data
    acc_extreme_prob: float = 0.1                # an ACC init lane is INT32_MIN/MAX, 0 or +-1
    # --- concurrency: slots of INP/WGT and of ACC that tiles rotate over (upstream's virtual
    # threads); more slots let load, compute and store work on different tiles at once
    inp_slots: tuple[int, int] = (1, 3)
    acc_slots: tuple[int, int] = (1, 3)
    order_eager: float = 0.5                     # next stage: any ready one, else the oldest tile
    token_eager: float = 0.5                     # pop as late / push as early as is legal
    # --- DRAM placement
    nonzero_bases_prob: float = 0.3
    unaligned_bases_prob: float = 0.2            # given non-zero bases, they are not 64-byte aligned
    high_addr_prob: float = 0.2                  # data sits high in the 4 GiB space
    # --- wide forms (off by default; see the module docstring)
    long_loop_prob: float = 0.0                  # a GEMM/ALU is a long loop: one of iter_out and
                                                 # iter_in from long_loop, the other loop and the
                                                 # micro-op range tiny (max_loop_work still bounds it)
    long_loop: tuple[int, int] = (1000, LOOP_MAX)
    long_loop_max_prob: float = 0.5              # a long loop's count is the field maximum, 16383
    nonzero_factors_prob: float = 0.0            # every factor of a GEMM/ALU is non-zero (its loop
                                                 # counts clipped so that the windows hold the span)
    uop_shape_prob: float = 0.0                  # a LOAD UOP is 2-D, strided and/or padded
    slots_over_depth: int = 0                    # slots may exceed TOKEN_QUEUE_DEPTH by this many,
                                                 # so a producer may wait on a full token counter
                                                 # (a program the checker finds deadlocking is
                                                 # rebuilt without the excess)
    uop_entries: int = 0                         # micro-op SRAM entries used from 0 (0: the whole
                                                 # buffer; a design with a smaller one, restrict.py)
    imm_in_place: bool = False                   # an ALU with an immediate reads what it writes
                                                 # (src = dst; restrict.py: isa.alu-imm-reads-src)
    refresh_out: bool = False                    # each compute stage ends with ALU ADD 0 over its
                                                 # ACC window (restrict.py: store.out-buffer)
    alu_no_raw: bool = False                     # no ALU iteration reads the entry the one before
                                                 # wrote (restrict.py: isa.alu-no-bypass)
    shr_imm_only: bool = False                   # an ALU SHR shifts by an immediate within
                                                 # [-(ACC_W-1), ACC_W-1] (restrict.py:
                                                 # isa.alu-shr-negative)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple) and f.name.endswith(("weights",)):
                if any(w < 0 for w in value) or sum(value) <= 0:
                    raise ValueError(f"knob {f.name}={value}: weights must be >= 0 with one positive")
            elif isinstance(value, tuple):
                lo, hi = value
                if not 0 <= lo <= hi:
                    raise ValueError(f"knob {f.name}={value}: need 0 <= low <= high")
            elif f.name.endswith("_prob") or f.name.endswith("_eager"):
                if not 0.0 <= value <= 1.0:
                    raise ValueError(f"knob {f.name}={value}: a probability must be in [0, 1]")
            elif f.name.startswith("w_") and value < 0:
                raise ValueError(f"knob {f.name}={value}: a weight must be >= 0")
        if self.w_gemm + self.w_alu + self.w_load_acc + self.w_load_acc8 <= 0:
            raise ValueError("knobs: at least one compute weight (w_gemm, w_alu, w_load_acc*) "
                             "must be positive")
        for name in ("tiles", "compute_ops", "uops", "iter_out", "iter_in", "window",
                     "x_size", "y_size", "inp_slots", "acc_slots"):
            if getattr(self, name)[0] < 1:
                raise ValueError(f"knob {name}={getattr(self, name)}: the low end must be >= 1")
        if self.max_loop_work < 1:
            raise ValueError(f"knob max_loop_work={self.max_loop_work}: must be >= 1")
        for name in ("iter_out", "iter_in", "long_loop"):
            lo, hi = getattr(self, name)
            if not 1 <= lo <= hi <= LOOP_MAX:
                raise ValueError(f"knob {name}={getattr(self, name)}: loop counts must be in "
                                 f"[1, {LOOP_MAX}] (a 14-bit field)")
        if self.slots_over_depth < 0:
            raise ValueError(f"knob slots_over_depth={self.slots_over_depth}: must be >= 0")
        if self.uop_entries < 0:
            raise ValueError(f"knob uop_entries={self.uop_entries}: must be >= 0")

    @classmethod
    def from_seed(cls, rng: np.random.Generator) -> "GenKnobs":
        """Knobs drawn around the defaults, so that a regression explores different shapes.

        Every kind of instruction keeps a positive weight, so coverage over many seeds
        does not depend on luck in the knobs themselves.
        """
        def weight() -> float:
            return float(rng.choice([0.5, 1.0, 2.0, 4.0]))

        def prob(lo: float, hi: float) -> float:
            return round(float(rng.uniform(lo, hi)), 3)

        return replace(
            cls(),
            tiles=(2, between(rng, (4, 12))),
            compute_ops=(1, between(rng, (3, 10))),
            loads_per_stage=(1, between(rng, (1, 4))),
            stores_per_stage=(1, between(rng, (1, 3))),
            w_gemm=weight(), w_alu=weight(), w_load_acc=weight() / 2, w_load_acc8=weight() / 2,
            w_load_inp=weight(), w_load_wgt=weight(),
            reset_prob=prob(0.05, 0.4),
            window=(between(rng, (1, 8)), between(rng, (16, 48))),
            window_at_slot_start_prob=prob(0.2, 1.0),
            x_size=(1, between(rng, (2, 12))),
            y_size=(1, between(rng, (1, 6))),
            stride_extra_prob=prob(0.0, 0.6),
            pad_prob=prob(0.1, 0.5),
            pad15_prob=prob(0.1, 0.5),
            uops=(1, between(rng, (2, 10))),
            iter_out=(1, between(rng, (2, 8))),
            iter_in=(1, between(rng, (2, 8))),
            max_loop_work=int(rng.choice([32, 64, 96, 128])),
            iter_one_prob=prob(0.1, 0.6),
            uop_merge_prob=prob(0.0, 1.0),
            uop_reuse_prob=prob(0.0, 0.4),
            alu_op_weights=(weight(), weight(), weight(), weight(), weight()),
            use_imm_prob=prob(0.2, 0.8),
            imm_special_prob=prob(0.2, 0.8),
            inp_slots=(1, between(rng, (1, 3))),
            acc_slots=(1, between(rng, (1, 3))),
            order_eager=prob(0.0, 1.0),
            token_eager=prob(0.0, 1.0),
            nonzero_bases_prob=prob(0.0, 0.6),
            high_addr_prob=prob(0.0, 0.4),
        ) if chance(rng, 0.75) else cls()

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form, for the vector description.

        A wide-form knob appears only when it differs from its default, so that the
        description (part of the manifest) of a program of the default knobs stays as it
        was before those knobs existed.
        """
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()
                if k not in WIDE_KNOBS or v != WIDE_DEFAULTS[k]}


#: The knobs of the section "wide forms", with their defaults (see GenKnobs.to_json).
WIDE_KNOBS = ("long_loop_prob", "long_loop", "long_loop_max_prob", "nonzero_factors_prob",
              "uop_shape_prob", "slots_over_depth", "uop_entries", "imm_in_place", "refresh_out",
              "alu_no_raw", "shr_imm_only")
WIDE_DEFAULTS = {f.name: f.default for f in fields(GenKnobs) if f.name in WIDE_KNOBS}
