"""Steering: knobs for the next random program, chosen from the bins still unhit.

Each rule names the bins it can reach and the GenKnobs (and memory profile) that make
them likely. :func:`pick` draws up to ``MAX_TARGETS`` unhit bins that some rule covers
and merges their knobs over the defaults, so every program aims at a few holes at once
while the generator keeps the program well-formed. The wide forms (1,000-instruction
programs, loops at the 14-bit maximum, micro-op ranges of 1,000+) take a generator preset
(models/genlib/presets.py) that other targets' knobs would undo or make slow to simulate
(16,383 iterations in each of 200 tiles): their rules are ``alone``, a program aimed at one
of them aims at nothing else; a rule may also need a configuration (``config``: ranges of
1,000+ micro-ops need a micro-op buffer of 1,024+). Bins no rule reaches (whole-buffer
sizes, register accesses) are left to the directed closure programs and flows.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace
from typing import Any, Callable

from models.gen import GenKnobs
from models.genlib.presets import PRESETS

MAX_TARGETS = 3
ALU_OPS = ("MIN", "MAX", "ADD", "SHR", "MUL")
Bin = tuple[str, str]


@dataclass(frozen=True)
class Steer:
    """Knob overrides (and a profile, or None) for the bins ``matches`` accepts."""

    matches: Callable[[Bin], bool]
    knobs: Callable[[Bin, random.Random], dict[str, Any]]
    profile: str | None = None
    config: str | None = None   # the configuration the bin needs (None: the drawn one)
    alone: bool = False         # the program aims at this bin only


def _one_hot_alu(op: str) -> tuple[float, ...]:
    return tuple(1.0 if name == op else 0.0 for name in ALU_OPS)


def _alu(b: Bin, rng: random.Random) -> dict[str, Any]:
    op, how = b[1].split("/")
    return {"w_alu": 8.0, "alu_op_weights": _one_hot_alu(op), "use_imm_prob": 1.0 if how == "imm" else 0.0}


def _imm(b: Bin, rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {"w_alu": 8.0, "use_imm_prob": 1.0, "imm_special_prob": 1.0}
    if b[1].startswith("SHR"):
        out["alu_op_weights"] = _one_hot_alu("SHR")
    return out


def _tokens(b: Bin, rng: random.Random) -> dict[str, Any]:
    return {"token_eager": rng.choice([0.0, 1.0]), "order_eager": rng.random(),
            "inp_slots": (1, 3), "acc_slots": (1, 3), "tiles": (4, 12)}


def _loops(b: Bin, rng: random.Random) -> dict[str, Any]:
    op, what, value = b[1].split("/")
    out: dict[str, Any] = {"w_gemm" if op == "gemm" else "w_alu": 8.0}
    if what == "uops":
        out["uops"] = (1, 1) if value == "1" else (2, 8)
    else:
        out["iter_one_prob"] = 1.0 if value == "1" else 0.0
    return out


def _preset(name: str) -> dict[str, Any]:
    """The knobs a generator preset changes from the defaults (its first knob set)."""
    knobs, default = PRESETS[name].for_seed(0) or GenKnobs(), GenKnobs()
    return {f.name: getattr(knobs, f.name) for f in fields(GenKnobs)
            if getattr(knobs, f.name) != getattr(default, f.name)}


def _uop_range(b: Bin, rng: random.Random) -> dict[str, Any]:
    """Micro-op ranges in the bin's span ('2-15', '1000+'), run once so the work stays small."""
    op, label = b[1].split("/")
    lo = int(label.rstrip("+").split("-")[0])
    hi = int(label.split("-")[1]) if "-" in label else 2 * lo
    return {"w_gemm" if op == "gemm" else "w_alu": 8.0, "uops": (lo, hi), "max_loop_work": hi,
            "iter_one_prob": 1.0, "tiles": (2, 4), "compute_ops": (1, 3)}


def _iter_max(b: Bin, rng: random.Random) -> dict[str, Any]:
    """The loops preset on two or three tiles, mostly GEMMs or mostly ALUs: a few long loops
    (each up to 16,383 cycles, slow in the coverage builds), most at the maximum (which is
    also 1000+), on either loop, so one program aims at all four bins of its opcode."""
    op = b[1].split("/")[0]
    return {**_preset("loops"), "w_gemm" if op == "gemm" else "w_alu": 8.0, "long_loop_prob": 0.6,
            "long_loop_max_prob": 0.8, "tiles": (2, 3), "compute_ops": (1, 3)}


def _memtype(b: Bin, rng: random.Random) -> dict[str, Any]:
    knob = {"load/ACC": "w_load_acc", "load/ACC_8BIT": "w_load_acc8", "load/INP": "w_load_inp",
            "load/WGT": "w_load_wgt"}.get(b[1])
    return {knob: 8.0} if knob else {}


STEERS: tuple[Steer, ...] = (
    Steer(lambda b: b[0].startswith("load.") and b[0].endswith(("pad_0", "pad_1")) and b[1] != "0",
          lambda b, r: {"pad_prob": 1.0, "pad15_prob": 1.0 if b[1] == "15" else 0.3}),
    Steer(lambda b: b[0] == "mem.x_stride" and b[1].endswith("greater"),
          lambda b, r: {"stride_extra_prob": 1.0}),
    Steer(lambda b: b[0] == "mem.size" and b[1].endswith("/1"),
          lambda b, r: {"x_size": (1, 1)} if "x_size" in b[1] else {"y_size": (1, 1)}),
    Steer(lambda b: b[0] == "insn.tokens", _tokens),
    Steer(lambda b: b[0] == "gemm.reset",
          lambda b, r: {"w_gemm": 8.0, "reset_prob": 1.0 if b[1] == "reset" else 0.0}),
    Steer(lambda b: b[0] == "uop.loops", _loops),
    Steer(lambda b: b[0] == "alu.op_x_imm", _alu),
    Steer(lambda b: b[0] == "alu.imm", _imm),
    Steer(lambda b: b[0] == "insn.memory_type", _memtype),
    Steer(lambda b: b[0] == "load.acc8",
          lambda b, r: {"w_load_acc8": 8.0, "pad_prob": 1.0 if b[1] == "padded" else 0.0}),
    Steer(lambda b: b[0] == "sram.index" and b[1].endswith("/0"),
          lambda b, r: {"window_at_slot_start_prob": 1.0, "inp_slots": (1, 1), "acc_slots": (1, 1)}),
    Steer(lambda b: b[0] == "axi.burst_len",
          lambda b, r: ({"x_size": (1, 1)} if b[1].endswith("/1")
                        else {"x_size": (8, 16), "window": (32, 48)})),
    Steer(lambda b: b[0] == "axi.4k_boundary",
          lambda b, r: {"nonzero_bases_prob": 1.0, "unaligned_bases_prob": 0.0, "x_size": (4, 16)}),
    Steer(lambda b: b[0] == "axi.backpressure", lambda b, r: {}, profile="heavy"),
    Steer(lambda b: b[0] == "modules.concurrent",
          lambda b, r: {"inp_slots": (3, 3), "acc_slots": (3, 3), "order_eager": 1.0,
                        "token_eager": 1.0, "tiles": (8, 12)}, profile="none"),
    # ~11 instructions per tile: just past the bin's length (simulation time grows with it)
    Steer(lambda b: b == ("program.length", "1000+"),
          lambda b, r: {**_preset("long"), "tiles": (95, 100)}, alone=True),
    Steer(lambda b: b[0] == "program.length",
          lambda b, r: {"tiles": (8, 12)} if b[1] == "50+" else {"tiles": (20, 25)}),
    Steer(lambda b: b[0] == "uop.range" and b[1].endswith("1000+"), _uop_range, config="default",
          alone=True),
    Steer(lambda b: b[0] == "uop.range", _uop_range),
    Steer(lambda b: b[0] == "uop.iter_max", _iter_max, alone=True),
    Steer(lambda b: b[0] == "load.uop_form", lambda b, r: _preset("uopload")),
    Steer(lambda b: b[0] == "gemm.factors",
          lambda b, r: {"w_gemm": 8.0, "nonzero_factors_prob": 1.0 if b[1] == "all_nonzero" else 0.0}),
    Steer(lambda b: b[0] == "mem.rows", lambda b, r: _preset("rows")),
)


def rule_for(b: Bin) -> Steer | None:
    """The first rule that reaches bin ``b``, or None."""
    return next((r for r in STEERS if r.matches(b)), None)


def pick(unhit: list[Bin], rng: random.Random) -> tuple[GenKnobs | None, str | None, list[Bin]]:
    """Knobs, profile and the targeted bins for one program; (None, None, []) if nothing to aim at."""
    reachable = [b for b in unhit if rule_for(b)]
    if not reachable:
        return None, None, []
    targets = rng.sample(reachable, min(MAX_TARGETS, len(reachable)))
    lone = [b for b in targets if _rule(b).alone]
    targets = lone[:1] or targets
    overrides: dict[str, Any] = {}
    profile = None
    for b in targets:
        rule = _rule(b)
        overrides.update(rule.knobs(b, rng))
        profile = rule.profile or profile
    return replace(GenKnobs(), **overrides), profile, targets


def alone(targets: list[Bin]) -> bool:
    """Whether pick() aimed at a bin of an ``alone`` rule (a costly program)."""
    return len(targets) == 1 and _rule(targets[0]).alone


def aimed_alike(target: Bin, unhit: list[Bin]) -> list[Bin]:
    """The bins of ``unhit`` a program aimed at ``target`` aims at too: same rule, same knobs
    (e.g. all four loop-count bins of one opcode), so one costly program stands for them."""
    rule, probe = _rule(target), random.Random(0)
    knobs = rule.knobs(target, probe)
    return [b for b in unhit if rule_for(b) is rule and rule.knobs(b, probe) == knobs]


def config_for(targets: list[Bin]) -> str | None:
    """The configuration some target's rule needs, or None (the program's drawn one)."""
    return next((c for c in (_rule(b).config for b in targets) if c), None)


def _rule(b: Bin) -> Steer:
    """The rule of a bin that pick() drew from the reachable ones."""
    rule = rule_for(b)
    assert rule is not None, f"no steering rule reaches {b}"
    return rule
