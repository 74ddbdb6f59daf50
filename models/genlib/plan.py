"""The skeleton of a program: tiles, who hands which SRAM slot to whom, and stage order.

A tile is up to three stages in the style of upstream's virtual threads: a load stage
(LOAD INP/WGT into input slot ``inp``), a compute stage (works on ACC slot ``acc``, and
for a GEMM tile reads input slot ``inp``) and a store stage (STOREs from ACC slot
``acc``). A slot changes hands only through a token, which is what makes the program
race-free by construction:

* load -> compute of the same tile: L2C;
* the latest compute that read input slot s -> the next load into s: C2L;
* compute -> store of the same tile: C2S;
* the latest store that read ACC slot a -> the next compute on a: S2C; the very last
  store -> FINISH: S2C (stores run in order, so every STORE happens-before FINISH).

A token is pushed only when its pop is planned, so every push is popped exactly once.
Stages are then merged into one program order in which every push precedes its pop; with
k slots no more than k tokens of a queue are ever outstanding in that order, and the
generator keeps k at most the token queue depth. Those two facts rule out deadlock for any
command queue depth: the earliest unfinished instruction has all its tokens pushed
already and never pushes into a full counter. The knob ``slots_over_depth`` lifts the
second fact on purpose (producers then wait on full counters); models/gen.py checks each
such program against the configuration's queues and falls back to k <= depth.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.genlib.knobs import GenKnobs
from models.genlib.rand import below, between, chance
from models.spec import MODULES


@dataclass
class Tile:
    """One tile's stages and the tokens they exchange (tile indices name the partner)."""

    index: int
    gemm: bool                      # the compute stage runs GEMMs on input slot ``inp``
    inp: int                        # input slot (-1 for a tile without GEMMs)
    acc: int                        # ACC slot
    loads: int                      # LOAD INP/WGT in the load stage (0: no load stage, the
                                    # compute reuses what earlier tiles loaded into the slot)
    stores: int                     # STOREs in the store stage (0: no store stage)
    load_pops_from: int = -1        # load stage pops C2L pushed by this tile's compute
    compute_pops_from: int = -1     # compute stage pops S2C pushed by this tile's store
    compute_pushes_c2l: bool = False
    store_pushes_s2c: bool = False

    @property
    def load(self) -> bool:
        return self.loads > 0

    @property
    def store(self) -> bool:
        return self.stores > 0


def plan_tiles(rng: np.random.Generator, knobs: GenKnobs, inp_slots: int, acc_slots: int) -> list[Tile]:
    """Draw tiles and wire their tokens so that slots change hands only through tokens."""
    count = between(rng, knobs.tiles)
    gemm_share = knobs.w_gemm / (knobs.w_gemm + knobs.w_alu) if knobs.w_gemm + knobs.w_alu > 0 else 0.0
    next_inp, next_acc = below(rng, inp_slots), below(rng, acc_slots)
    loaded: set[int] = set()
    tiles: list[Tile] = []
    for n in range(count):
        gemm = chance(rng, gemm_share)
        inp = next_inp if gemm else -1
        loads = 0
        if gemm:
            next_inp = (next_inp + 1) % inp_slots
            # The first tile on a slot must load it: SRAM is undefined until written.
            loads = max(between(rng, knobs.loads_per_stage), int(inp not in loaded))
            loaded.add(inp)
        store = n == count - 1 or chance(rng, knobs.store_stage_prob)
        stores = max(1, between(rng, knobs.stores_per_stage)) if store else 0
        tiles.append(Tile(index=n, gemm=gemm, inp=inp, acc=next_acc, loads=loads, stores=stores))
        next_acc = (next_acc + 1) % acc_slots
    _wire(tiles)
    return tiles


def _wire(tiles: list[Tile]) -> None:
    """Set the C2L and S2C hand-overs from slot ownership (tile order = module order)."""
    last_reader: dict[int, int] = {}    # input slot -> latest tile whose compute read it
    last_store: dict[int, int] = {}     # ACC slot -> latest tile whose store read it
    for tile in tiles:
        if tile.load and tile.inp in last_reader:
            giver = tiles[last_reader.pop(tile.inp)]
            giver.compute_pushes_c2l = True
            tile.load_pops_from = giver.index
        if tile.gemm:
            last_reader[tile.inp] = tile.index
        if tile.acc in last_store:
            giver = tiles[last_store.pop(tile.acc)]
            giver.store_pushes_s2c = True
            tile.compute_pops_from = giver.index
        if tile.store:
            last_store[tile.acc] = tile.index
    tiles[-1].store_pushes_s2c = True   # popped by FINISH


def stage_order(rng: np.random.Generator, knobs: GenKnobs, tiles: list[Tile]) -> list[tuple[str, int]]:
    """Merge the three modules' stage sequences into one program order.

    A stage is ready once the stages whose tokens it pops are placed. Each step places,
    with probability ``order_eager``, any ready stage (loads run ahead, stores lag), and
    otherwise the ready stage of the oldest tile (a sequential-looking program).
    """
    queues = {"load": [t for t in tiles if t.load], "compute": list(tiles),
              "store": [t for t in tiles if t.store]}
    placed: set[tuple[str, int]] = set()

    def ready(module: str) -> bool:
        if not queues[module]:
            return False
        tile = queues[module][0]
        needs = {"load": [("compute", tile.load_pops_from)],
                 "compute": [("load", tile.index if tile.load else -1), ("store", tile.compute_pops_from)],
                 "store": [("compute", tile.index)]}[module]
        return all(idx < 0 or (mod, idx) in placed for mod, idx in needs)

    order: list[tuple[str, int]] = []
    while any(queues.values()):
        candidates = [m for m in MODULES if ready(m)]
        assert candidates, "stage order: no ready stage (token plan is cyclic)"
        if chance(rng, knobs.order_eager):
            module = candidates[below(rng, len(candidates))]
        else:
            module = min(candidates, key=lambda m: (queues[m][0].index, MODULES.index(m)))
        tile = queues[module].pop(0)
        placed.add((module, tile.index))
        order.append((module, tile.index))
    return order
