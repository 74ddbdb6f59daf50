"""Stray-write checker: every AXI write, when it happens, against the STORE footprints.

The model's checker gives the DRAM byte ranges each STORE writes; the union of them is
the only memory a correct VTA may write. A burst that sets a strobe on any other byte
fails the job at once with the burst's details (the monitor publishes a write burst at
its last data beat, before the slave answers), so the failure points at the cycle where
the RTL went wrong rather than at a puzzling final-DRAM mismatch.
"""
from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Callable

from pyuvm import ConfigDB, uvm_subscriber

from models.spec import merge_spans
from tb.uvm.agents.txn import AxiBurst
from tb.uvm.checkers.verdict import Verdict

#: The failure fields of every stray write (both modes): the rule, the STORE module whose
#: footprints it lies outside, and the opcode (which STORE is nearest is only a hint).
STRAY_FIELDS = {"rule": "outside-footprints", "module": "store", "form": "STORE"}

if TYPE_CHECKING:
    from tb.uvm.context import JobContext


class AllowedWrites:
    """Union of STORE write ranges, with the STORE responsible for each part."""

    def __init__(self, ranges: list[tuple[int, int, int]], describe: Callable[[int], str]) -> None:
        spans = sorted((a, a + n, i) for a, n, i in ranges if n > 0)
        merged = merge_spans((lo, hi) for lo, hi, _ in spans)
        self.starts = [lo for lo, _ in merged]
        self.ends = [hi for _, hi in merged]
        self.stores = spans
        self.describe = describe

    def allows(self, addr: int) -> bool:
        k = bisect.bisect_right(self.starts, addr) - 1
        return k >= 0 and addr < self.ends[k]

    def nearest(self, addr: int) -> str:
        """The STORE whose footprint is closest to addr, to hint at an off-by-something bug."""
        if not self.stores:
            return "the program has no STORE that writes DRAM"
        lo, hi, i = min(self.stores, key=lambda s: 0 if s[0] <= addr < s[1]
                        else min(abs(addr - s[0]), abs(addr - (s[1] - 1))))
        return f"nearest STORE footprint: #{i} [{lo:#x}, {hi:#x}) {self.describe(i)}"


class StrayWriteChecker(uvm_subscriber):
    """Subscribes to the memory monitor; :meth:`start_job` gives it each job's footprints."""

    def build_phase(self) -> None:
        self.verdict: Verdict = ConfigDB().get(self, "", "VERDICT")
        self.allowed: AllowedWrites | None = None  # no job yet: nothing to check against

    def start_job(self, ctx: "JobContext") -> None:
        """The union of the program's STORE footprints is all it may write from now on."""
        self.allowed = AllowedWrites(ctx.store_ranges(), ctx.describe)

    def write(self, burst: AxiBurst) -> None:
        if burst.kind != "write" or self.allowed is None:
            return
        stray = [(addr, beat) for addr, _, beat in burst.written_bytes()
                 if not self.allowed.allows(addr)]
        if not stray:
            return
        first, beat = stray[0]
        self.verdict.fail("stray-write", f"stray write: {len(stray)} byte(s) with strobe set outside "
                          f"every STORE footprint, first at {first:#010x} (beat {beat}); "
                          f"{burst.describe()}; {self.allowed.nearest(first)}", **STRAY_FIELDS)
