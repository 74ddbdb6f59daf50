"""A small assembler for hand-written VTA test programs (spec sections 2-4 and 6).

The directed vectors (vectors/families/) describe each vector as a short program, and so
do the testbench's own programs (tb/sweep_programs.py); this module turns that
description into DRAM images (instruction stream, micro-op table, data) and a
:class:`models.vector.Vector`. It deliberately knows nothing about what the program
computes: expected bytes are supplied by the caller from independent reference
arithmetic. What it does check is the part that is easy to get wrong by hand and that
would make a vector meaningless: illegal token flags, unbalanced or out-of-order
token pushes/pops, a missing FINISH, overlapping DRAM images and out-of-range fields.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from models.config import VtaConfig
from models.isa import DEP_FLAGS, AluOp, MemType, Opcode, insns_to_bytes, uops_to_bytes
from models.spec import BASE_OF, FLAG_QUEUE, MEMORY, MEMTYPE_OF, QUEUES, module_of
from models.vector import Image, Vector

#: Where each kind's data starts, relative to its base register, when the vector
#: does not say otherwise. Distinct offsets keep regions apart when all bases are 0.
DEFAULT_REGION = {"uop": 0x0000, "inp": 0x4000, "wgt": 0x8000, "acc": 0xC000, "acc8": 0xE000,
                  "out": 0x10000}

Uop = tuple[int, int, int]  # (dst_idx, src_idx, wgt_idx)


class ProgramBuildError(ValueError):
    """A hand-written program that breaks a rule the builder checks (not to be confused with
    :class:`models.executor.ProgramError`, an error found while executing a program)."""


@dataclass(frozen=True)
class UopRange:
    """An explicit [bgn, end) range of micro-op buffer entries loaded by the program itself."""

    bgn: int
    end: int


def as_bytes(array: np.ndarray, dtype: type) -> bytes:
    """Little-endian bytes of ``array`` converted (with range check) to ``dtype``."""
    arr = np.asarray(array)
    info = np.iinfo(dtype)
    if arr.size and (arr.min() < info.min or arr.max() > info.max):
        raise ProgramBuildError(f"values out of range for {np.dtype(dtype).name}")
    return arr.astype(np.dtype(dtype).newbyteorder("<")).tobytes()


class Program:
    """Collects instructions, micro-ops and DRAM images of one vector.

    Micro-ops given inline to :meth:`gemm`/:meth:`alu` go into one table that
    :meth:`build` loads with a single LOAD UOP (no token flags) placed first in the
    program, so uop_bgn/uop_end are offsets in that table. Vectors that exercise
    LOAD UOP itself pass :class:`UopRange` instead and load micro-ops explicitly.
    """

    def __init__(self, cfg: VtaConfig, bases: dict[str, int] | None = None,
                 insn_addr: int = 0x2000, regions: dict[str, int] | None = None) -> None:
        self.cfg = cfg
        self.bases = {b: 0 for b in ("uop", "inp", "wgt", "acc", "out")}
        self.bases.update(bases or {})
        self.insn_addr = insn_addr
        self.insns: list[dict[str, int]] = []
        self.auto_uops: list[Uop] = []
        self.inits: list[Image] = []
        self.expects: list[Image] = []
        self._cursor = dict(DEFAULT_REGION)
        self._cursor.update(regions or {})
        self._out_inits: set[str] = set()

    # --- DRAM layout ------------------------------------------------------------------
    def elem_bytes(self, kind: str) -> int:
        """Bytes of one DRAM element of a kind (spec section 1 and 3)."""
        return MEMORY[MEMTYPE_OF[kind]].elem_bytes(self.cfg)

    def addr(self, kind: str, dram_base: int) -> int:
        """Byte address of element ``dram_base`` of ``kind``: base + index * element bytes."""
        return self.bases[BASE_OF[kind]] + dram_base * self.elem_bytes(kind)

    def alloc(self, kind: str, count: int, data: bytes | None = None, name: str = "") -> int:
        """Reserve ``count`` elements of ``kind`` after the previous ones; returns dram_base.

        When ``data`` is given it becomes an init image at that address (padded with
        nothing: its length must be exactly count elements).
        """
        size = self.elem_bytes(kind)
        index = -(-self._cursor[kind] // size)
        self._cursor[kind] = (index + count) * size
        if data is not None:
            self.put(kind, index, data, name)
        return index

    def put(self, kind: str, dram_base: int, data: bytes, name: str = "", *,
            partial: bool = False) -> None:
        """Place init bytes at element ``dram_base`` of ``kind``.

        ``partial`` lets the image end inside an element, as a compiler that leaves trailing
        zeros out of its image writes it: the element's other bytes read as 0 (spec section 6).
        Otherwise a length that is not whole elements is taken for a mistake.
        """
        if len(data) % self.elem_bytes(kind) and not partial:
            raise ProgramBuildError(f"{name or kind}: {len(data)} bytes is not a whole number of "
                               f"{self.elem_bytes(kind)}-byte elements")
        image = Image(self.addr(kind, dram_base), bytes(data),
                      f"{name or kind + str(len(self.inits))}.bin")
        self.inits.append(image)
        if kind == "out":
            self._out_inits.add(image.file)

    def expect(self, kind: str, dram_base: int, data: bytes, name: str = "") -> None:
        """Bytes that DRAM must hold after DONE, starting at element ``dram_base``."""
        self.expects.append(Image(self.addr(kind, dram_base), bytes(data),
                                  f"{name or 'expect' + str(len(self.expects))}.bin"))

    # --- instructions -----------------------------------------------------------------
    @staticmethod
    def _flags(pop_prev: bool, pop_next: bool, push_prev: bool, push_next: bool) -> dict[str, int]:
        return {"pop_prev_dep": int(pop_prev), "pop_next_dep": int(pop_next),
                "push_prev_dep": int(push_prev), "push_next_dep": int(push_next)}

    def load(self, kind: str, sram: int, dram: int, y: int, x: int, stride: int | None = None,
             pads: tuple[int, int, int, int] = (0, 0, 0, 0), *, pop_prev: bool = False,
             pop_next: bool = False, push_prev: bool = False, push_next: bool = False) -> None:
        """LOAD; pads are (y_pad_0, y_pad_1, x_pad_0, x_pad_1); stride defaults to x."""
        self.insns.append({"opcode": Opcode.LOAD, "memory_type": MEMTYPE_OF[kind],
                           "sram_base": sram, "dram_base": dram, "y_size": y, "x_size": x,
                           "x_stride": x if stride is None else stride,
                           "y_pad_0": pads[0], "y_pad_1": pads[1], "x_pad_0": pads[2],
                           "x_pad_1": pads[3],
                           **self._flags(pop_prev, pop_next, push_prev, push_next)})

    def store(self, sram: int, dram: int, y: int, x: int, stride: int | None = None, *,
              pop_prev: bool = False, pop_next: bool = False, push_prev: bool = False,
              push_next: bool = False) -> None:
        """STORE of ACC elements (low 8 bits per lane) to the OUT region."""
        self.insns.append({"opcode": Opcode.STORE, "memory_type": MemType.OUT,
                           "sram_base": sram, "dram_base": dram, "y_size": y, "x_size": x,
                           "x_stride": x if stride is None else stride,
                           **self._flags(pop_prev, pop_next, push_prev, push_next)})

    def _uop_range(self, uops: Sequence[Uop] | UopRange) -> tuple[int, int]:
        """Table range of inline micro-ops, reusing an identical run already in the table."""
        if isinstance(uops, UopRange):
            return uops.bgn, uops.end
        run: list[Uop] = [(d, s, w) for d, s, w in uops]
        table = self.auto_uops
        for start in range(len(table) - len(run) + 1):
            if table[start:start + len(run)] == run:
                return start, start + len(run)
        table.extend(run)
        return len(table) - len(run), len(table)

    def _loop(self, opcode: int, uops: Sequence[Uop] | UopRange, iters: tuple[int, int],
              flags: dict[str, int]) -> dict[str, int]:
        bgn, end = self._uop_range(uops)
        return {"opcode": opcode, "uop_bgn": bgn, "uop_end": end, "iter_out": iters[0],
                "iter_in": iters[1], **flags}

    def gemm(self, uops: Sequence[Uop] | UopRange, iters: tuple[int, int] = (1, 1),
             dst: tuple[int, int] = (0, 0), src: tuple[int, int] = (0, 0),
             wgt: tuple[int, int] = (0, 0), reset: bool = False, *, pop_prev: bool = False,
             pop_next: bool = False, push_prev: bool = False, push_next: bool = False) -> None:
        """GEMM; iters = (iter_out, iter_in), each factor pair = (factor_out, factor_in)."""
        insn = self._loop(Opcode.GEMM, uops, iters,
                          self._flags(pop_prev, pop_next, push_prev, push_next))
        insn.update(reset_reg=int(reset), dst_factor_out=dst[0], dst_factor_in=dst[1],
                    src_factor_out=src[0], src_factor_in=src[1],
                    wgt_factor_out=wgt[0], wgt_factor_in=wgt[1])
        self.insns.append(insn)

    def alu(self, op: AluOp, uops: Sequence[Uop] | UopRange, iters: tuple[int, int] = (1, 1),
            dst: tuple[int, int] = (0, 0), src: tuple[int, int] = (0, 0),
            imm: int | None = None, *, pop_prev: bool = False, pop_next: bool = False,
            push_prev: bool = False, push_next: bool = False) -> None:
        """ALU; ``imm=None`` means the register form (use_imm = 0)."""
        insn = self._loop(Opcode.ALU, uops, iters,
                          self._flags(pop_prev, pop_next, push_prev, push_next))
        insn.update(dst_factor_out=dst[0], dst_factor_in=dst[1], src_factor_out=src[0],
                    src_factor_in=src[1], alu_opcode=int(op), use_imm=int(imm is not None),
                    imm=0 if imm is None else imm)
        self.insns.append(insn)

    def finish(self, *, pop_prev: bool = False, pop_next: bool = False) -> None:
        """FINISH; compute may pop L2C (pop_prev) and S2C (pop_next) on it."""
        self.insns.append({"opcode": Opcode.FINISH,
                           **self._flags(pop_prev, pop_next, False, False)})

    # --- well-formedness ---------------------------------------------------------------
    def _check_tokens(self, insns: list[dict[str, int]], queues_may_fill: bool,
                      leftover: bool = False) -> None:
        """Legal flags, each pop preceded in program order by its push, balance at the end.

        Requiring every pop's push to come earlier in program order, and no more tokens
        outstanding than a counter holds, is what makes the program deadlock-free under
        in-order fetch with finite queues. ``queues_may_fill`` lifts the second rule for
        programs that fill a counter on purpose (its producer then waits); whether such a
        program can deadlock is the checker's to decide (models/checker, rule deadlock).
        ``leftover`` lifts the balance at the end, for a program that leaves tokens in the
        counters on purpose (the checker's rule token-imbalance) to see what the next
        launch does with them.
        """
        depth = self.cfg.token_queue_depth
        count = dict.fromkeys(QUEUES, 0)
        last_store_pushes = None
        for n, insn in enumerate(insns):
            module = module_of(insn)
            if insn["opcode"] == Opcode.FINISH and n != len(insns) - 1:
                raise ProgramBuildError(f"instruction {n}: FINISH before the end")
            for order in ("pop", "push"):
                for flag in DEP_FLAGS:
                    if not insn.get(flag) or not flag.startswith(order):
                        continue
                    if (module, flag) not in FLAG_QUEUE:
                        raise ProgramBuildError(f"instruction {n}: {flag} is illegal on {module}")
                    queue = FLAG_QUEUE[(module, flag)]
                    count[queue] += 1 if order == "push" else -1
                    if count[queue] < 0:
                        raise ProgramBuildError(f"instruction {n}: pops {queue} with no earlier push")
                    if count[queue] > depth and not queues_may_fill:
                        raise ProgramBuildError(f"instruction {n}: {queue} holds more than {depth}")
            if insn["opcode"] == Opcode.STORE:
                last_store_pushes = bool(insn["push_prev_dep"])
        if insns[-1]["opcode"] != Opcode.FINISH:
            raise ProgramBuildError("the last instruction is not FINISH")
        if any(count.values()) and not leftover:
            raise ProgramBuildError(f"tokens left unpopped at the end: {count}")
        if last_store_pushes is False:
            raise ProgramBuildError("the last STORE does not push S2C, so it may not happen-before FINISH")

    @staticmethod
    def _check_overlap(images: list[Image], what: str) -> None:
        spans = sorted((img.addr, img.addr + len(img.data), img.file) for img in images)
        for (a0, a1, f0), (b0, _, f1) in zip(spans, spans[1:], strict=False):
            if b0 < a1:
                raise ProgramBuildError(f"{what}: {f0} [{a0:#x}, {a1:#x}) overlaps {f1} at {b0:#x}")

    # --- output -----------------------------------------------------------------------
    def build(self, description: str, queues_may_fill: bool = False, leftover: bool = False) -> Vector:
        """Assemble the program and return the vector (init + expect images)."""
        insns = list(self.insns)
        inits = list(self.inits)
        if len(self.auto_uops) > self.cfg.uop_depth:
            raise ProgramBuildError(f"{len(self.auto_uops)} micro-ops exceed the buffer")
        if self.auto_uops:
            uop_dicts = [{"dst_idx": d, "src_idx": s, "wgt_idx": w} for d, s, w in self.auto_uops]
            base = self.alloc("uop", len(uop_dicts))
            inits.append(Image(self.addr("uop", base), uops_to_bytes(self.cfg, uop_dicts),
                               "uops.bin"))
            insns.insert(0, {"opcode": Opcode.LOAD, "memory_type": MemType.UOP, "sram_base": 0,
                             "dram_base": base, "y_size": 1, "x_size": len(uop_dicts),
                             "x_stride": len(uop_dicts)})
        self._check_tokens(insns, queues_may_fill, leftover)
        inits.append(Image(self.insn_addr, insns_to_bytes(self.cfg, insns), "insns.bin"))
        self._check_overlap(inits, "init")
        self._check_overlap(self.expects, "expect")
        for exp in self.expects:
            for img in inits:
                if img.file in self._out_inits:
                    continue
                if img.addr < exp.addr + len(exp.data) and exp.addr < img.addr + len(img.data):
                    raise ProgramBuildError(f"expect {exp.file} overlaps input image {img.file}")
        names = [img.file for img in inits + self.expects]
        if len(set(names)) != len(names):
            raise ProgramBuildError(f"duplicate image file names: {names}")
        return Vector(self.cfg, self.insn_addr, len(insns), inits, self.expects,
                      dict(self.bases), " ".join(description.split()))
