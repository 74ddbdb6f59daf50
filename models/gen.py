"""Random well-formed VTA programs as test vectors (spec sections 4 and 6).

A program is a pipeline of tiles in the style of upstream's virtual threads (see
models/genlib/plan.py): load, compute and store stages on rotating SRAM slots that change
hands only through dependency tokens, so every program is well-formed by construction:
legal flags per module, each push popped once, FINISH last after every STORE, indices in
range, no deadlock for the configuration's queue depths, no data race. The checker then
confirms it; a program it rejects is regenerated from a derived seed (a generator bug, so
``max_retries=0`` turns it into an error, which the tests use). The one knob that gives up
deadlock-freedom by construction, ``slots_over_depth`` (more slots than a token counter
holds, so that producers wait on full counters), is settled before any data is drawn: a
program the checker's token model finds stuck on the configuration's queues is rebuilt
from the same seed without the excess. Named knob sets for the forms the default draw
never reaches are in models/genlib/presets.py.

Determinism: program ``seed`` draws everything from ``numpy.random.default_rng(seed)``
(attempt a > 0 from ``default_rng([seed, a])``), never from hash order, time or global
state, so one seed gives byte-identical vectors. :func:`generate_many` gives program k
the seed ``seed + k``: ``gen --seed S+k --count 1`` regenerates it alone, byte for byte.
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from models.checker import check_vector
from models.checker.tokens import FLAG_BITS, build_ops, simulate
from models.config import VtaConfig
from models.executor import expected_images
from models.genlib.knobs import GenKnobs
from models.genlib.layout import element_bytes, place, relocate
from models.genlib.plan import plan_tiles, stage_order
from models.genlib.pools import acc_data, int8_data
from models.genlib.rand import between
from models.genlib.restrict import NO_LIMITS, Limits, restrict
from models.genlib.stages import StageBuilder
from models.isa import Opcode, insns_to_bytes, uops_to_bytes
from models.spec import module_of
from models.vector import Image, Vector, save_vector
from models.widths import INSN_BYTES

__all__ = ["GenKnobs", "GenError", "generate", "generate_many", "build"]


class GenError(RuntimeError):
    """The checker rejected every attempt: a generator bug, reported with the findings."""


def _config_name(cfg: VtaConfig) -> str:
    """The shipped name or file stem (never an absolute path, which would vary by checkout)."""
    return Path(cfg.source).stem if cfg.source.endswith(".json") else cfg.source


def build(seed: int, cfg: VtaConfig, knobs: GenKnobs | None = None, attempt: int = 0,
          limits: Limits = NO_LIMITS) -> Vector:
    """One program, unchecked and without ``expect``; knobs None draws them from the seed.
    ``limits`` names what a design lacks (models/genlib/restrict.py)."""
    rng = np.random.default_rng(seed if attempt == 0 else [seed, attempt])
    knobs = knobs if knobs is not None else GenKnobs.from_seed(rng)
    if limits:
        knobs = restrict(knobs, limits)
    most = cfg.token_queue_depth + knobs.slots_over_depth
    inp_slots = min(between(rng, knobs.inp_slots), most, cfg.inp_depth, cfg.wgt_depth)
    acc_slots = min(between(rng, knobs.acc_slots), most, cfg.acc_depth)
    tiles = plan_tiles(rng, knobs, inp_slots, acc_slots)
    order = stage_order(rng, knobs, tiles)
    builder = StageBuilder(rng, cfg, knobs, inp_slots, acc_slots)
    stages: dict[tuple[str, int], list[dict[str, int]]] = {}
    for tile in tiles:
        win = builder.windows(tile)
        if tile.load:
            stages["load", tile.index] = builder.load_stage(tile, win)
        stages["compute", tile.index] = builder.compute_stage(tile, win)
        if tile.store:
            stages["store", tile.index] = builder.store_stage(tile, win)
    insns = [insn for key in order for insn in stages[key]]
    insns.append({"opcode": Opcode.FINISH, "pop_next_dep": 1})
    if max(inp_slots, acc_slots) > cfg.token_queue_depth and _deadlocks(insns, cfg):
        # More slots than a token counter holds may stall fetch for good; the same seed
        # without the excess is well-formed by construction (models/genlib/plan.py).
        return build(seed, cfg, replace(knobs, slots_over_depth=0), attempt, limits)

    pools = builder.pools
    elem = element_bytes(cfg)
    data = {
        "uop": uops_to_bytes(cfg, pools.uop.uops),
        "inp": int8_data(rng, pools.inp.extent * elem["inp"]),
        "wgt": int8_data(rng, pools.wgt.extent * elem["wgt"]),
        "acc": acc_data(rng, pools.acc.extent * elem["acc"] // 4, knobs.acc_extreme_prob),
        "acc8": int8_data(rng, pools.acc8.extent * elem["acc8"]),
    }
    sizes = {name: len(blob) for name, blob in data.items()}
    sizes.update(insn=len(insns) * INSN_BYTES, out=pools.out.extent * elem["out"])
    placement = place(rng, knobs, cfg, sizes)
    relocate(insns, placement)
    data["insn"] = insns_to_bytes(cfg, insns)
    init = [Image(placement.starts[name], data[name], f"{name}.bin")
            for name in ("insn", "uop", "inp", "wgt", "acc", "acc8") if data[name]]
    description = "random program " + json.dumps(
        {"seed": seed, "attempt": attempt, "config": _config_name(cfg),
         "config_overrides": cfg.overrides(), "knobs": knobs.to_json()}, sort_keys=True)
    return Vector(cfg, placement.starts["insn"], len(insns), init, None, placement.bases, description)


def _deadlocks(insns: list[dict[str, int]], cfg: VtaConfig) -> bool:
    """Whether the program's token flags stall the finite hardware of ``cfg`` (the checker's
    deadlock rule, run on the instruction dicts before any data is drawn)."""
    words = [sum(int(insn.get(flag, 0)) << bit for flag, bit in FLAG_BITS.items()) for insn in insns]
    ops = build_ops(words, [module_of(insn) for insn in insns])
    return not simulate(ops, cfg.cmd_queue_depth, cfg.token_queue_depth).complete(len(ops))


def generate(seed: int, cfg: VtaConfig, knobs: GenKnobs | None = None, max_retries: int = 3,
             limits: Limits = NO_LIMITS) -> Vector:
    """A checked, well-formed program with ``expect`` filled in by the executor; ``limits``
    names what a design lacks (a DUT profile's differences, models/genlib/restrict.py)."""
    findings = ""
    for attempt in range(max_retries + 1):
        vector = build(seed, cfg, knobs, attempt, limits)
        report = check_vector(vector)
        if report.ok:
            vector.expect = expected_images(vector)
            return vector
        findings += f"\nattempt {attempt}: {report.format()}"
    raise GenError(f"seed {seed}: the checker rejected {max_retries + 1} attempt(s):{findings}")


def generate_many(seed: int, cfg: VtaConfig, count: int, out_dir: Path,
                  knobs: GenKnobs | None = None) -> list[Path]:
    """Write programs k = 0..count-1 (seed ``seed + k``) to ``out_dir/seed_<seed>_<k>``."""
    return [save_vector(generate(seed + k, cfg, knobs), Path(out_dir) / dir_name(seed, k))
            for k in range(count)]


def dir_name(seed: int, k: int) -> str:
    """The directory of program k of a run from ``seed`` (see :func:`generate_many`)."""
    return f"seed_{seed}_{k}"
