"""DRAM placement: base registers, where each pool and the program sit, and relocation.

Pools are placed one after another (in random order, with small gaps) from a window that
is sometimes high in the 4 GiB space, so upper address bits get exercised. A pool of
memory type T must start at ``base[T] + k * element_bytes(T)`` for some k >= 0, because
instructions address DRAM in elements from the base; k is the pool's element offset,
which :func:`relocate` adds to every LOAD/STORE dram_base.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from models.config import VtaConfig
from models.dram import ADDR_LIMIT
from models.genlib.knobs import GenKnobs
from models.genlib.rand import below, chance
from models.isa import MemType, Opcode
from models.spec import BASE_OF, MEMORY, MEMTYPE_OF
from models.vector import BASE_NAMES
from models.widths import INSN_BYTES

#: The pools: the program, then one per memory type, named by its kind (models.spec.MEMORY).
#: The order is part of the generator's random stream: pools are placed in a permutation of it.
POOLS = ("insn", "uop", "inp", "wgt", "acc", "acc8", "out")
WINDOW_TOP = ADDR_LIMIT - (1 << 24)    # leaves 16 MiB above any window for the pools


def element_bytes(cfg: VtaConfig) -> dict[str, int]:
    """Bytes per DRAM element of each pool."""
    return {"insn": INSN_BYTES, **{kind: MEMORY[MEMTYPE_OF[kind]].elem_bytes(cfg) for kind in POOLS[1:]}}


@dataclass
class Placement:
    """Base registers, and the byte address and element offset of every pool."""

    bases: dict[str, int]
    starts: dict[str, int]
    offsets: dict[str, int]


def _bases(rng: np.random.Generator, knobs: GenKnobs, window: int) -> dict[str, int]:
    if not chance(rng, knobs.nonzero_bases_prob):
        return {name: 0 for name in BASE_NAMES}
    mask = -1 if chance(rng, knobs.unaligned_bases_prob) else ~63
    return {name: (window + (below(rng, 1 << 12) & mask)) if chance(rng, 0.8) else 0
            for name in BASE_NAMES}


def place(rng: np.random.Generator, knobs: GenKnobs, cfg: VtaConfig,
          sizes: Mapping[str, int]) -> Placement:
    """Place pools of ``sizes`` bytes (keys: POOLS) without overlap."""
    window = (below(rng, WINDOW_TOP >> 12) << 12) if chance(rng, knobs.high_addr_prob) \
        else below(rng, 64) << 12
    bases = _bases(rng, knobs, window)
    elem = element_bytes(cfg)
    names = list(POOLS)
    cursor = window + (1 << 12) + below(rng, 64) * 16
    starts, offsets = {}, {}
    for n in rng.permutation(len(names)):
        name = names[int(n)]
        base = bases[BASE_OF[name]] if name in BASE_OF else 0
        lowest = max(cursor + below(rng, 4) * 64, base)
        start = lowest + (base - lowest) % elem[name]
        starts[name], offsets[name] = start, (start - base) // elem[name]
        cursor = start + sizes[name]
    if cursor > ADDR_LIMIT:
        raise AssertionError(f"layout: pools end at {cursor:#x}, beyond 4 GiB")
    return Placement(bases, starts, offsets)


def relocate(insns: list[dict[str, int]], placement: Placement) -> None:
    """Turn pool-relative dram_base of every LOAD/STORE into the element address from its base."""
    for insn in insns:
        if insn["opcode"] in (Opcode.LOAD, Opcode.STORE):
            insn["dram_base"] += placement.offsets[MEMORY[MemType(insn["memory_type"])].kind]
