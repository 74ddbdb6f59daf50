"""Footprints: which SRAM entries and DRAM bytes each instruction touches.

The checker never executes arithmetic, but the data-race and uninitialized-read rules need
to know, per instruction, every SRAM entry and DRAM byte it reads or writes. A LOAD/STORE
touches a padded 2-D tile; a GEMM/ALU touches its micro-ops' indices dilated by the two
loop strides, which needs the micro-op buffer's contents, so LOAD UOPs are replayed from
DRAM in program order (:class:`UopBuffer`).

Decisions where the spec leaves room:

* LOADs with an illegal memory type touch nothing; a STORE's footprint is computed as OUT
  whatever its memory_type says (the store module has only one buffer), and OUT entries
  are ACC entries (the OUT buffer holds their low bits), so a STORE reads ACC.
* Indices beyond a buffer are reported; the footprint keeps only the in-range ones.
* Micro-ops loaded from DRAM that a STORE writes have run-dependent contents: GEMM/ALU
  footprints use only the other entries, and ``uop-from-store`` says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from models.dram import ADDR_LIMIT, Dram
from models.isa import MemType, Opcode, layout
from models.spec import MEMORY, Range, merge_ranges

if TYPE_CHECKING:
    from models.config import VtaConfig

EMPTY = np.zeros(0, dtype=np.int64)
#: Reports a finding: (instruction index or None, rule, message).
AddFinding = Callable[[int | None, str, str], None]


@dataclass
class Footprint:
    """What one instruction touches: SRAM entries per buffer and DRAM byte ranges.

    SRAM keys are 'uop', 'inp', 'wgt', 'acc' (present only when touched) with sorted
    unique indices; DRAM ranges are merged (address, length) pairs in address order.
    """

    sram_reads: dict[str, np.ndarray] = field(default_factory=dict)
    sram_writes: dict[str, np.ndarray] = field(default_factory=dict)
    dram_reads: list[Range] = field(default_factory=list)
    dram_writes: list[Range] = field(default_factory=list)

    def sram(self, buf: str) -> np.ndarray:
        """Every entry of one buffer read or written."""
        return np.union1d(self.sram_reads.get(buf, EMPTY), self.sram_writes.get(buf, EMPTY))


def minkowski_sum(a: np.ndarray, b: np.ndarray, depth: int) -> np.ndarray:
    """Sorted unique {x + y : x in a, y in b, x + y < depth} for non-negative a, b.

    A bitmap over the buffer bounds the work by depth * min(|a|, |b|) however many
    loop iterations a GEMM has, so a malformed iteration count cannot stall the checker.
    """
    a, b = np.unique(a[a < depth]), np.unique(b[b < depth])
    if a.size == 0 or b.size == 0:
        return EMPTY
    if a.size > b.size:
        a, b = b, a
    hit = np.zeros(depth, dtype=bool)
    for x in a.tolist():
        hit[x + b[:np.searchsorted(b, depth - x)]] = True
    return np.flatnonzero(hit).astype(np.int64)


def format_indices(idx: np.ndarray, limit: int = 4) -> str:
    """'3..7, 12' for sorted unique indices, eliding after `limit` runs."""
    if idx.size == 0:
        return ""
    breaks = np.flatnonzero(np.diff(idx) != 1) + 1
    runs = [(int(r[0]), int(r[-1])) for r in np.split(idx, breaks)]
    text = ", ".join(f"{lo}" if lo == hi else f"{lo}..{hi}" for lo, hi in runs[:limit])
    return text + (f", ... ({len(runs) - limit} more runs)" if len(runs) > limit else "")


def format_ranges(ranges: Sequence[Range]) -> str:
    """'DRAM 0x2000..0x200f' (inclusive), noting further pieces."""
    a, n = ranges[0]
    more = f" (+{len(ranges) - 1} more ranges)" if len(ranges) > 1 else ""
    return f"DRAM {a:#x}..{a + n - 1:#x}{more}"


class StoreWrites:
    """The DRAM byte ranges every STORE writes, asked which STOREs a LOAD UOP's reads overlap.

    One vectorised comparison per read range keeps this linear in the number of STOREs per
    LOAD UOP; a pairwise range intersection made a program of thousands of instructions
    spend most of its check here.
    """

    def __init__(self, writes: Sequence[tuple[int, int, int]]) -> None:
        kept = [(a, ln, n) for a, ln, n in writes if ln > 0]
        self.lo = np.array([a for a, _, _ in kept], dtype=np.int64)
        self.hi = self.lo + np.array([ln for _, ln, _ in kept], dtype=np.int64)
        self.insn = np.array([n for _, _, n in kept], dtype=np.int64)

    def overlapping(self, reads: Sequence[Range]) -> list[int]:
        """Indices (sorted, unique) of the STOREs that write a byte of ``reads``."""
        hit = np.zeros(self.lo.size, dtype=bool)
        for a, ln in reads:
            if ln > 0:
                hit |= (self.lo < a + ln) & (self.hi > a)
        return sorted({int(n) for n in self.insn[hit]})


class Footprints:
    """Computes the footprint of every instruction of one program, reporting overflows."""

    def __init__(self, cfg: "VtaConfig", dram: Dram, bases: dict[str, int],
                 insns: Sequence[dict[str, int] | None], add: AddFinding) -> None:
        self.cfg, self.dram, self.bases, self.insns, self.add = cfg, dram, bases, insns, add

    def compute(self) -> list[Footprint]:
        """Footprints in program order: STOREs first, since LOAD UOP must know what they write."""
        footprints = [Footprint() for _ in self.insns]
        for n, insn in enumerate(self.insns):
            if insn is not None and insn["opcode"] == Opcode.STORE:
                footprints[n] = self._store_footprint(n, insn)
        store_writes = StoreWrites([(a, ln, n) for n, fp in enumerate(footprints)
                                    for a, ln in fp.dram_writes])
        uops = UopBuffer(self.cfg)
        for n, insn in enumerate(self.insns):
            if insn is None:
                continue
            if insn["opcode"] == Opcode.LOAD:
                footprints[n] = self._load_footprint(n, insn, uops, store_writes)
            elif insn["opcode"] in (Opcode.GEMM, Opcode.ALU):
                footprints[n] = self._loop_footprint(n, insn, uops)
        return footprints

    def _rows(self, n: int, base: int, insn: dict[str, int], elem: int) -> tuple[np.ndarray, int]:
        """Byte address of each DRAM row a LOAD/STORE touches, and the row length."""
        y = np.arange(insn["y_size"], dtype=np.int64)
        starts = base + (insn["dram_base"] + y * insn["x_stride"]) * elem
        length = insn["x_size"] * elem
        if starts.size and int(starts.max()) + length > ADDR_LIMIT:
            self.add(n, "index-overflow", f"DRAM access reaches {int(starts.max()) + length:#x}, "
                                          f"beyond 4 GiB")
        return starts, length

    def _sram_span(self, n: int, buf: str, first: int, count: int, depth: int) -> np.ndarray:
        """Contiguous SRAM entries [first, first + count), reporting and clipping overflow."""
        if first + count > depth:
            self.add(n, "index-overflow", f"{buf.upper()} entries {first}..{first + count - 1} "
                                          f"exceed the buffer depth {depth}")
        return np.arange(min(first, depth), min(first + count, depth), dtype=np.int64)

    def _store_footprint(self, n: int, insn: dict[str, int]) -> Footprint:
        if insn["x_size"] == 0:
            return Footprint()
        count = insn["y_size"] * insn["x_size"]
        acc = self._sram_span(n, "acc", insn["sram_base"], count, self.cfg.acc_depth)
        out = MEMORY[MemType.OUT]
        starts, length = self._rows(n, self.bases[out.base], insn, out.elem_bytes(self.cfg))
        writes = merge_ranges(starts, np.full(starts.size, length))
        return Footprint(sram_reads={"acc": acc} if acc.size else {}, dram_writes=writes)

    def _load_footprint(self, n: int, insn: dict[str, int], uops: "UopBuffer",
                        store_writes: "StoreWrites") -> Footprint:
        mt = insn["memory_type"]
        if mt not in MEMORY or mt == MemType.OUT or insn["x_size"] == 0:
            return Footprint()
        info = MEMORY[MemType(mt)]
        buf = info.buffer
        width = insn["x_pad_0"] + insn["x_size"] + insn["x_pad_1"]
        height = insn["y_pad_0"] + insn["y_size"] + insn["y_pad_1"]
        depth = getattr(self.cfg, f"{buf}_depth")
        sram = self._sram_span(n, buf, insn["sram_base"], width * height, depth)
        starts, length = self._rows(n, self.bases[info.base], insn, info.elem_bytes(self.cfg))
        reads = merge_ranges(starts, np.full(starts.size, length))
        if buf == "uop":
            stores = store_writes.overlapping(reads)
            if stores:
                self.add(n, "uop-from-store", f"micro-ops loaded from DRAM written by STORE "
                                              f"#{stores[0]}: footprint cannot be checked statically")
            uops.load(self.dram, insn, starts, sram, from_store=bool(stores))
        return Footprint(sram_writes={buf: sram} if sram.size else {}, dram_reads=reads)

    def _loop_footprint(self, n: int, insn: dict[str, int], uops: "UopBuffer") -> Footprint:
        """GEMM/ALU: the uop range, then each index role dilated by the two loop strides."""
        cfg = self.cfg
        name = Opcode(insn["opcode"]).name
        if insn["uop_end"] > cfg.uop_depth:
            self.add(n, "index-overflow", f"uop_end {insn['uop_end']} exceeds the micro-op "
                                          f"buffer depth {cfg.uop_depth}")
        if insn["iter_out"] == 0 or insn["iter_in"] == 0 or insn["uop_bgn"] >= insn["uop_end"]:
            return Footprint()
        ks = np.arange(insn["uop_bgn"], min(insn["uop_end"], cfg.uop_depth), dtype=np.int64)
        fp = Footprint(sram_reads={"uop": ks} if ks.size else {})
        known = ks[~uops.unknown[ks]]
        for role, buf, read, write in self._roles(insn):
            values = getattr(uops, role)[known]
            idx = self._role_indices(n, name, insn, role, buf, values)
            for table, on in ((fp.sram_reads, read), (fp.sram_writes, write)):
                if on and idx.size:
                    table[buf] = np.union1d(table.get(buf, EMPTY), idx)
        return fp

    @staticmethod
    def _roles(insn: dict[str, int]) -> list[tuple[str, str, bool, bool]]:
        """(uop field role, buffer, read?, written?) of a GEMM or ALU."""
        if insn["opcode"] == Opcode.GEMM:
            if insn["reset_reg"]:
                return [("dst", "acc", False, True)]
            return [("dst", "acc", True, True), ("src", "inp", True, False), ("wgt", "wgt", True, False)]
        roles = [("dst", "acc", True, True)]
        return roles if insn["use_imm"] else roles + [("src", "acc", True, False)]

    def _role_indices(self, n: int, name: str, insn: dict[str, int], role: str, buf: str,
                      values: np.ndarray) -> np.ndarray:
        if values.size == 0:
            return EMPTY
        depth = getattr(self.cfg, f"{buf}_depth")
        f_out, f_in = insn[f"{role}_factor_out"], insn[f"{role}_factor_in"]
        top = int(values.max()) + (insn["iter_out"] - 1) * f_out + (insn["iter_in"] - 1) * f_in
        if top >= depth:
            self.add(n, "index-overflow", f"{name} {role} ({buf.upper()}) index reaches {top}, "
                                          f"beyond the buffer depth {depth}")
        outer = np.arange(insn["iter_out"], dtype=np.int64) * f_out
        inner = np.arange(insn["iter_in"], dtype=np.int64) * f_in
        return minkowski_sum(minkowski_sum(values, outer, depth), inner, depth)


class UopBuffer:
    """Micro-op buffer contents in compute program order, as decoded index fields.

    `unknown` marks entries loaded from DRAM that a STORE writes: their contents depend on
    the run, so GEMM/ALU footprints use only the other entries (uop-from-store says so).
    """

    def __init__(self, cfg: "VtaConfig") -> None:
        self.cfg = cfg
        depth = cfg.uop_depth
        self.dst = np.zeros(depth, dtype=np.int64)
        self.src = np.zeros(depth, dtype=np.int64)
        self.wgt = np.zeros(depth, dtype=np.int64)
        self.unknown = np.zeros(depth, dtype=bool)

    def load(self, dram: Dram, insn: dict[str, int], starts: np.ndarray, sram: np.ndarray,
             from_store: bool) -> None:
        """Apply a LOAD UOP: pads are zero micro-ops, rows come from DRAM."""
        width = insn["x_pad_0"] + insn["x_size"] + insn["x_pad_1"]
        words = np.zeros(sram.size, dtype=np.int64)
        for y, start in enumerate(starts.tolist()):
            at = (insn["y_pad_0"] + y) * width + insn["x_pad_0"]
            if at >= sram.size:
                break
            words[at:at + insn["x_size"]] = self._read_row(dram, start, insn["x_size"])[:sram.size - at]
        for f in layout(self.cfg, "uop"):
            getattr(self, f.name.removesuffix("_idx"))[sram] = (words >> f.lsb) & ((1 << f.width) - 1)
        self.unknown[sram] = from_store

    @staticmethod
    def _read_row(dram: Dram, start: int, count: int) -> np.ndarray:
        """count little-endian words from start; bytes beyond 4 GiB read as zero."""
        size = max(0, min(4 * count, ADDR_LIMIT - start))
        data = np.zeros(4 * count, dtype=np.uint8)
        if size > 0:
            data[:size] = dram.read(start, size)
        return data.view("<u4").astype(np.int64)

