"""Compare expected DRAM images with actual DRAM, and explain every difference.

Shared by ``python -m models run`` and the RTL testbench's scoreboard, so it does not
care how the actual DRAM is read: the caller passes ``read(addr, n) -> bytes``. Each
mismatching byte is located as an OUT element and lane, and traced back through the
model's ExecResult to the STORE that wrote it, because "byte 0x2013 differs" is useless
when debugging an accelerator and "lane 3 of element 1, written by STORE #7" is not.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

from models.config import VtaConfig
from models.dram import Dram
from models.executor import ExecResult, ProgramError, describe_insn, run_vector, written_images
from models.vector import Image, Vector

#: Mismatches kept in full; beyond this only the count grows (a broken RTL can
#: mismatch every byte of a large vector).
MISMATCH_CAP = 1000


@dataclass
class Mismatch:
    """One differing byte, located as an OUT element/lane and traced to its STORE."""

    addr: int
    expected: int
    actual: int
    element: int | None
    lane: int | None
    store_index: int | None
    store_disasm: str | None

    def format(self) -> str:
        where = (f"element {self.element} lane {self.lane}" if self.element is not None
                 else "below the OUT base")
        origin = (f"written by STORE #{self.store_index}: {self.store_disasm}"
                  if self.store_index is not None else "not written by any STORE in the model")
        return (f"{self.addr:#010x} {where}: expected {_signed(self.expected)} "
                f"({self.expected:#04x}), actual {_signed(self.actual)} ({self.actual:#04x}); "
                f"{origin}")


def _signed(byte: int) -> int:
    return byte - 256 if byte >= 128 else byte


@dataclass
class CompareReport:
    """Outcome of a comparison; comparing zero bytes is not a pass."""

    compared_bytes: int
    mismatches: list[Mismatch] = field(default_factory=list)
    total_mismatches: int = 0

    @property
    def ok(self) -> bool:
        return self.compared_bytes > 0 and self.total_mismatches == 0

    def format(self, limit: int = 10) -> str:
        if self.compared_bytes == 0:
            return "FAIL: nothing was compared (no expected bytes)"
        if self.ok:
            return f"OK: {self.compared_bytes} bytes match"
        lines = [f"FAIL: {self.total_mismatches} of {self.compared_bytes} bytes differ"]
        lines += [f"  {m.format()}" for m in self.mismatches[:limit]]
        if self.total_mismatches > limit:
            lines.append(f"  ... and {self.total_mismatches - min(limit, len(self.mismatches))} more")
        return "\n".join(lines)


def _locate(cfg: VtaConfig, addrs: np.ndarray, out_base: int) -> tuple[np.ndarray, np.ndarray]:
    """OUT element and lane of byte addresses (-1 below the OUT base)."""
    rel = addrs - out_base
    element = np.where(rel >= 0, rel // cfg.out_bytes, -1)
    lane = np.where(rel >= 0, (rel % cfg.out_bytes) * 8 // cfg.out_width, -1)
    return element, lane


def compare_images(cfg: VtaConfig, expect: list[Image], read: Callable[[int, int], bytes],
                   result: ExecResult | None, bases: Mapping[str, int]) -> CompareReport:
    """Compare each expected image with read(addr, len); result attributes mismatches."""
    report = CompareReport(0)
    for image in expect:
        want = np.frombuffer(image.data, dtype=np.uint8)
        got_raw = read(image.addr, len(want))
        if len(got_raw) != len(want):
            raise ValueError(f"reading {len(want)} bytes at {image.addr:#x} returned "
                             f"{len(got_raw)} bytes")
        got = np.frombuffer(bytes(got_raw), dtype=np.uint8)
        bad = np.flatnonzero(want != got)
        report.compared_bytes += len(want)
        report.total_mismatches += len(bad)
        room = MISMATCH_CAP - len(report.mismatches)
        if room > 0 and len(bad):
            report.mismatches += _explain(cfg, image.addr, bad[:room], want, got, result, bases)
    return report


def _explain(cfg: VtaConfig, addr: int, offsets: np.ndarray, want: np.ndarray, got: np.ndarray,
             result: ExecResult | None, bases: Mapping[str, int]) -> list[Mismatch]:
    addrs = addr + offsets.astype(np.int64)
    element, lane = _locate(cfg, addrs, int(bases.get("out", 0)))
    writers = result.writers_of(addrs) if result is not None else np.full(len(addrs), -1)
    out = []
    for n, off in enumerate(offsets.tolist()):
        store = int(writers[n])
        out.append(Mismatch(
            addr=int(addrs[n]), expected=int(want[off]), actual=int(got[off]),
            element=int(element[n]) if element[n] >= 0 else None,
            lane=int(lane[n]) if lane[n] >= 0 else None,
            store_index=store if store >= 0 else None,
            store_disasm=(describe_insn(cfg, result.insns[store])
                          if result is not None and store >= 0 else None)))
    return out


def compare_vector(vector: Vector, actual: Dram) -> CompareReport:
    """Compare actual DRAM with the vector's expect, or with the model's output if absent.

    When the vector carries its own expect and the model cannot run the program, the
    comparison still happens, just without STORE attribution.
    """
    if vector.expect is None:
        result = run_vector(vector)
        expect = written_images(result)
    else:
        expect = vector.expect
        try:
            result = run_vector(vector)
        except ProgramError:
            result = None
    return compare_images(vector.config, expect, actual.read_bytes, result, vector.bases)
