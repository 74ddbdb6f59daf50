"""Instructions of each stage, with token flags where the plan says and where it is legal.

A stage only touches the SRAM windows of its tile (see plan.py for why that is race-free).
SRAM is undefined until written (reset does not clear it), so every window is written in
full before anything reads it: a load stage starts with a LOAD whose padded footprint is
exactly the INP (WGT) window when that window is not yet initialised, and a compute stage
starts with a reset GEMM or a LOAD ACC/ACC_8BIT covering its ACC window likewise. A GEMM
tile without a load stage reuses the windows its slot's previous tile loaded.
Within a stage the pop of a token that guards a slot goes on or before the first
instruction that needs the slot, and the push that releases a slot on or after the last
instruction that uses it; ``token_eager`` decides between the latest pop / earliest push
and a random legal position, which varies how long modules overlap.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.config import VtaConfig
from models.genlib.knobs import GenKnobs
from models.genlib.plan import Tile
from models.genlib.pools import OutPool, ReadPool, UopPool
from models.genlib.rand import below, between, chance, pick
from models.genlib.shapes import Loop, Window, alu_imm, cover_shape, loop, mem_shape, reset_cover
from models.genlib.uopload import plain_layout, shaped_layout
from models.isa import AluOp, MemType, Opcode

Insn = dict[str, int]
#: Draws of an ALU's loops before one without a read-after-write (knob alu_no_raw) gives up.
RAW_TRIES = 8
GEMM, ALU, LOAD_ACC, LOAD_ACC8 = range(4)


@dataclass
class TileWindows:
    """The SRAM windows a tile works on (inp and wgt are None without GEMMs)."""

    acc: Window
    inp: Window | None
    wgt: Window | None

    def gemm_windows(self) -> tuple[Window, Window]:
        """(inp, wgt): only a tile with GEMMs has them, and only such a tile loads INP/WGT."""
        if self.inp is None or self.wgt is None:
            raise ValueError("a tile without GEMMs has no INP/WGT windows")
        return self.inp, self.wgt


@dataclass
class Pools:
    """Every DRAM pool of one program, by memory type of the instruction that uses it."""

    inp: ReadPool
    wgt: ReadPool
    acc: ReadPool
    acc8: ReadPool
    uop: UopPool
    out: OutPool

    @classmethod
    def empty(cls) -> "Pools":
        return cls(ReadPool(), ReadPool(), ReadPool(), ReadPool(), UopPool(), OutPool())


def _slot(depth: int, slots: int, n: int) -> Window:
    lo, hi = n * depth // slots, (n + 1) * depth // slots
    return lo, hi - lo


def _raw(body: Loop) -> bool:
    """Whether an ALU iteration reads, as dst or src, the entry the iteration before it wrote
    (a design without forwarding reads the old value, restrict.py: isa.alu-no-bypass)."""
    f = body.fields
    last = -1
    for o in range(f["iter_out"]):
        for i in range(f["iter_in"]):
            for u in body.uops:
                d = u["dst_idx"] + o * f.get("dst_factor_out", 0) + i * f.get("dst_factor_in", 0)
                s = u["src_idx"] + o * f.get("src_factor_out", 0) + i * f.get("src_factor_in", 0)
                if last in (d, s):
                    return True
                last = d
    return False


def _in_place(body: Loop) -> Loop:
    """``body`` with its ALU source indices made its destination indices (src = dst)."""
    fields = dict(body.fields, src_factor_out=body.fields.get("dst_factor_out", 0),
                  src_factor_in=body.fields.get("dst_factor_in", 0))
    return Loop(fields, [dict(u, src_idx=u["dst_idx"]) for u in body.uops])


def _set_pop(rng: np.random.Generator, knobs: GenKnobs, insns: list[Insn], flag: str, latest: int) -> None:
    at = latest if chance(rng, knobs.token_eager) else below(rng, latest + 1)
    insns[at][flag] = 1


def _set_push(rng: np.random.Generator, knobs: GenKnobs, insns: list[Insn], flag: str, earliest: int) -> None:
    at = earliest if chance(rng, knobs.token_eager) else earliest + below(rng, len(insns) - earliest)
    insns[at][flag] = 1


class StageBuilder:
    """Builds the stages of one program; owns the DRAM pools and the micro-op SRAM cursor."""

    def __init__(self, rng: np.random.Generator, cfg: VtaConfig, knobs: GenKnobs,
                 inp_slots: int, acc_slots: int) -> None:
        self.rng, self.cfg, self.knobs = rng, cfg, knobs
        self.inp_slots, self.acc_slots = inp_slots, acc_slots
        self.pools = Pools.empty()
        self.uop_depth = knobs.uop_entries or cfg.uop_depth  # the micro-op entries it may use
        self.uop_cursor = below(rng, self.uop_depth)
        self.initialised = {MemType.INP: np.zeros(cfg.inp_depth, dtype=bool),
                            MemType.WGT: np.zeros(cfg.wgt_depth, dtype=bool),
                            MemType.ACC: np.zeros(cfg.acc_depth, dtype=bool)}
        self.slot_windows: dict[int, tuple[Window, Window]] = {}   # input slot -> last inp, wgt

    # --- windows --------------------------------------------------------------------
    def _window(self, slot: Window) -> Window:
        lo, size = slot
        width = min(between(self.rng, self.knobs.window), size)
        if chance(self.rng, self.knobs.window_at_slot_start_prob):
            return lo, width
        return lo + below(self.rng, size - width + 1), width

    def windows(self, tile: Tile) -> TileWindows:
        """Windows inside the tile's slots: often at the slot start, so that successive tiles
        reuse entries (the hazards tokens must order), else anywhere (high SRAM indices)."""
        acc = self._window(_slot(self.cfg.acc_depth, self.acc_slots, tile.acc))
        if not tile.gemm:
            return TileWindows(acc, None, None)
        if tile.load:
            self.slot_windows[tile.inp] = (self._window(_slot(self.cfg.inp_depth, self.inp_slots, tile.inp)),
                                           self._window(_slot(self.cfg.wgt_depth, self.inp_slots, tile.inp)))
        return TileWindows(acc, *self.slot_windows[tile.inp])

    def _needs_cover(self, mem_type: MemType, window: Window) -> bool:
        """True (and the window counted as written) unless every entry is initialised."""
        lo, size = window
        entries = self.initialised[mem_type][lo:lo + size]
        if entries.all():
            return False
        entries[:] = True
        return True

    # --- single instructions ------------------------------------------------------------
    def _load(self, mem_type: MemType, window: Window, pool: ReadPool, cover: bool = False) -> Insn:
        """A LOAD inside the window; with ``cover``, one whose footprint is the whole window."""
        shape = cover_shape(self.rng, self.knobs, window) if cover \
            else mem_shape(self.rng, self.knobs, window, padded=True)
        dram = pool.place(self.rng, shape.y_size, shape.x_size, shape.x_stride)
        return {"opcode": Opcode.LOAD, "memory_type": mem_type, "dram_base": dram, **shape.fields()}

    def _load_uops(self, runs: list[list[dict[str, int]]]) -> tuple[Insn, list[int]]:
        """A LOAD UOP of a fresh DRAM block holding ``runs`` (the micro-ops of one instruction
        each); returns it and the SRAM index of each run's first micro-op.

        Plain, the runs follow each other in one row; with ``uop_shape_prob`` the LOAD is
        2-D, strided and/or padded where the runs fit that way (models/genlib/uopload.py).
        """
        depth = self.uop_depth
        layout = None
        if self.knobs.uop_shape_prob and chance(self.rng, self.knobs.uop_shape_prob):
            layout = shaped_layout(self.rng, self.knobs, runs, depth)
        if layout is None:
            layout = plain_layout(runs)
        n = layout.footprint
        start = self.uop_cursor if self.uop_cursor + n <= depth else 0
        self.uop_cursor = start + n + below(self.rng, 3)
        dram = self.pools.uop.append(layout.dram)
        return ({"opcode": Opcode.LOAD, "memory_type": MemType.UOP, "sram_base": start,
                 "dram_base": dram, **layout.fields}, [start + o for o in layout.offsets])

    def _gemm(self, win: TileWindows) -> tuple[Insn, Loop]:
        inp, wgt = win.gemm_windows()
        body = loop(self.rng, self.knobs, win.acc, inp, wgt, self.uop_depth)
        return {"opcode": Opcode.GEMM, "reset_reg": int(chance(self.rng, self.knobs.reset_prob)),
                **body.fields}, body

    def _alu(self, win: TileWindows) -> tuple[Insn, Loop]:
        body = loop(self.rng, self.knobs, win.acc, win.acc, None, self.uop_depth)
        tries = RAW_TRIES if self.knobs.alu_no_raw else 0
        while tries and _raw(body):
            body = loop(self.rng, self.knobs, win.acc, win.acc, None, self.uop_depth)
            tries -= 1
        if self.knobs.alu_no_raw and _raw(body):  # one iteration of one micro-op: nothing before it
            body = Loop({"iter_out": 1, "iter_in": 1, "dst_factor_out": 0, "dst_factor_in": 0,
                         "src_factor_out": 0, "src_factor_in": 0}, body.uops[:1])
        op = self._alu_op()
        if op["use_imm"] and self.knobs.imm_in_place:
            body = _in_place(body)
        return {"opcode": Opcode.ALU, **op, **body.fields}, body

    def _refresh(self, window: Window) -> tuple[Insn, Loop]:
        """ALU ADD 0, in place, over every entry of an ACC window (knob ``refresh_out``): it
        changes no value, but makes an ALU the last writer of each entry."""
        body = _in_place(reset_cover(self.rng, window))
        return {"opcode": Opcode.ALU, "alu_opcode": AluOp.ADD, "use_imm": 1, "imm": 0, **body.fields}, body

    def _alu_op(self) -> dict[str, int]:
        op = pick(self.rng, self.knobs.alu_op_weights)
        use_imm = chance(self.rng, self.knobs.use_imm_prob) or (op == AluOp.SHR and self.knobs.shr_imm_only)
        imm = alu_imm(self.rng, self.knobs, op, self.cfg.acc_width) if use_imm else 0
        return {"alu_opcode": AluOp(op), "use_imm": int(use_imm), "imm": imm}

    # --- stages -----------------------------------------------------------------------
    def load_stage(self, tile: Tile, win: TileWindows) -> list[Insn]:
        """Covering LOADs for uninitialised windows, then LOAD INP/WGT drawn from the mix,
        ``tile.loads`` in all (or the covers alone); pops C2L first, pushes L2C last."""
        inp, wgt = win.gemm_windows()
        targets = {MemType.INP: (inp, self.pools.inp), MemType.WGT: (wgt, self.pools.wgt)}
        insns = [self._load(mem, window, pool, cover=True) for mem, (window, pool) in targets.items()
                 if self._needs_cover(mem, window)]
        weights = (self.knobs.w_load_inp, self.knobs.w_load_wgt)
        for _ in range(tile.loads - len(insns) if sum(weights) > 0 else 0):
            mem = MemType.INP if pick(self.rng, weights) == 0 else MemType.WGT
            insns.append(self._load(mem, *targets[mem]))
        if not insns:
            insns.append(self._load(MemType.INP, *targets[MemType.INP], cover=True))
        if tile.load_pops_from >= 0:
            insns[0]["pop_next_dep"] = 1
        insns[-1]["push_next_dep"] = 1
        return insns

    def _compute_kinds(self, tile: Tile) -> list[int]:
        k = self.knobs
        weights = (k.w_gemm if tile.gemm else 0.0, k.w_alu, k.w_load_acc, k.w_load_acc8)
        kinds = [pick(self.rng, weights) for _ in range(between(self.rng, k.compute_ops))]
        if tile.gemm and GEMM not in kinds:
            kinds[below(self.rng, len(kinds))] = GEMM
        return kinds

    def compute_stage(self, tile: Tile, win: TileWindows) -> list[Insn]:
        """ACC loads, GEMMs and ALUs on the tile's windows, with their LOAD UOPs."""
        ops: list[tuple[Insn, Loop | None]] = []     # None: no new micro-ops (reuse or LOAD ACC)
        if self._needs_cover(MemType.ACC, win.acc):
            ops.append(self._acc_cover(win.acc))
        reusable: Insn | None = None                  # the previous op, if a drawn GEMM/ALU
        in_place = False                              # ... and its micro-ops have src = dst
        for kind in self._compute_kinds(tile):
            if kind in (LOAD_ACC, LOAD_ACC8):
                mem, pool = ((MemType.ACC, self.pools.acc) if kind == LOAD_ACC
                             else (MemType.ACC_8BIT, self.pools.acc8))
                ops.append((self._load(mem, win.acc, pool), None))
            elif reusable is not None \
                    and reusable["opcode"] == (Opcode.GEMM if kind == GEMM else Opcode.ALU) \
                    and chance(self.rng, self.knobs.uop_reuse_prob):
                again = dict(reusable)
                if kind == GEMM:
                    again["reset_reg"] = int(chance(self.rng, self.knobs.reset_prob))
                else:
                    again.update(self._alu_op())
                    if again["use_imm"] and self.knobs.imm_in_place and not in_place:
                        again.update(use_imm=0, imm=0)
                        if again["alu_opcode"] == AluOp.SHR and self.knobs.shr_imm_only:
                            again["alu_opcode"] = AluOp.ADD  # no SHR by a register operand
                ops.append((again, None))
            else:
                ops.append(self._gemm(win) if kind == GEMM else self._alu(win))
                body = ops[-1][1]
                in_place = body is not None and _in_place(body) == body
            reusable = ops[-1][0] if kind in (GEMM, ALU) else None
        if self.knobs.refresh_out:
            ops.append(self._refresh(win.acc))
        insns = self._with_uop_loads(ops)
        self._compute_flags(tile, insns)
        return insns

    def _acc_cover(self, window: Window) -> tuple[Insn, Loop | None]:
        """A reset GEMM or LOAD ACC/ACC_8BIT writing the whole ACC window, as the mix allows."""
        k = self.knobs
        weights = (k.w_gemm * k.reset_prob, k.w_load_acc, k.w_load_acc8)
        kind = pick(self.rng, weights) if sum(weights) > 0 else 1
        if kind == 0:
            body = reset_cover(self.rng, window)
            return {"opcode": Opcode.GEMM, "reset_reg": 1, **body.fields}, body
        if kind == 1:
            return self._load(MemType.ACC, window, self.pools.acc, cover=True), None
        return self._load(MemType.ACC_8BIT, window, self.pools.acc8, cover=True), None

    def _with_uop_loads(self, ops: list[tuple[Insn, Loop | None]]) -> list[Insn]:
        """Insert LOAD UOPs: one for the whole stage, or one before each op with new micro-ops.

        A reused op repeats the previous op's uop_bgn/uop_end, which no LOAD UOP has
        overwritten since (only the directly preceding op is ever reused).
        """
        total = sum(len(body.uops) for _, body in ops if body is not None)
        merged = 0 < total <= self.uop_depth and chance(self.rng, self.knobs.uop_merge_prob)
        insns: list[Insn] = []
        starts: list[int] = []
        if merged:
            load, starts = self._load_uops([body.uops for _, body in ops if body is not None])
            insns.append(load)
        last_range: tuple[int, int] = (0, 0)
        for insn, body in ops:
            if body is not None:
                if not merged:
                    load, starts = self._load_uops([body.uops])
                    insns.append(load)
                start = starts.pop(0)
                last_range = (start, start + len(body.uops))
            if insn["opcode"] in (Opcode.GEMM, Opcode.ALU):
                insn["uop_bgn"], insn["uop_end"] = last_range
            insns.append(insn)
        return insns

    def _compute_flags(self, tile: Tile, insns: list[Insn]) -> None:
        writers = [n for n, i in enumerate(insns)       # all but LOAD UOP write ACC
                   if not (i["opcode"] == Opcode.LOAD and i["memory_type"] == MemType.UOP)]
        gemms = [n for n, i in enumerate(insns) if i["opcode"] == Opcode.GEMM]
        if tile.load:
            _set_pop(self.rng, self.knobs, insns, "pop_prev_dep", gemms[0])
        if tile.compute_pops_from >= 0:
            _set_pop(self.rng, self.knobs, insns, "pop_next_dep", writers[0])
        if tile.compute_pushes_c2l:
            _set_push(self.rng, self.knobs, insns, "push_prev_dep", gemms[-1])
        if tile.store:
            _set_push(self.rng, self.knobs, insns, "push_next_dep", writers[-1])

    def store_stage(self, tile: Tile, win: TileWindows) -> list[Insn]:
        """STOREs of the tile's ACC window to fresh output blocks; pops C2S, may push S2C."""
        insns = []
        for _ in range(tile.stores):
            shape = mem_shape(self.rng, self.knobs, win.acc, padded=False)
            dram = self.pools.out.place(self.rng, shape.y_size, shape.x_size, shape.x_stride)
            insns.append({"opcode": Opcode.STORE, "memory_type": MemType.OUT, "dram_base": dram,
                          **shape.fields()})
        insns[0]["pop_prev_dep"] = 1
        if tile.store_pushes_s2c:
            insns[-1]["push_prev_dep"] = 1
        return insns
