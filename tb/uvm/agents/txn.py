"""Transactions the monitors publish on analysis ports.

Plain dataclasses rather than uvm_sequence_items: they are observations, never driven,
and subscribers (scoreboards, stray-write checker, coverage) only read their fields.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator


@dataclass
class AxiBurst:
    """One AXI4 transaction seen on the memory port (all beats, in order)."""

    kind: str  # "write" or "read"
    id: int
    addr: int
    beats: int  # AxLEN + 1
    size: int  # bytes per beat (2**AxSIZE)
    burst: int  # AxBURST
    bus_bytes: int
    data: list[int] = field(default_factory=list)
    strb: list[int] = field(default_factory=list)  # writes only
    resp: list[int] = field(default_factory=list)  # read beats' RRESP, or the write's BRESP
    start_cycle: int = 0
    end_cycle: int = 0

    def beat_addr(self, n: int) -> int:
        """Byte address of beat n (INCR bursts; the aligned start for later beats)."""
        if n == 0:
            return self.addr
        aligned = self.addr - self.addr % self.size
        return aligned + n * self.size

    def written_bytes(self) -> Iterator[tuple[int, int, int]]:
        """(byte address, value, beat) of every byte whose strobe bit is set."""
        for n, (data, strb) in enumerate(zip(self.data, self.strb, strict=True)):
            word = self.beat_addr(n) - self.beat_addr(n) % self.bus_bytes
            for lane in range(self.bus_bytes):
                if strb >> lane & 1:
                    yield word + lane, data >> (8 * lane) & 0xFF, n

    def describe(self) -> str:
        """One line for failure messages: everything needed to find the burst in a waveform."""
        strbs = ",".join(f"{s:#x}" for s in self.strb)
        extra = f" wstrb=[{strbs}]" if self.kind == "write" else ""
        return (f"AXI {self.kind} burst id={self.id} addr={self.addr:#010x} len={self.beats - 1} "
                f"({self.beats} beats) size={self.size}B burst={self.burst}{extra} "
                f"cycles {self.start_cycle}..{self.end_cycle}")


@dataclass
class AxiLiteAccess:
    """One AXI4-Lite register access seen on the control port."""

    kind: str  # "write" or "read"
    addr: int
    data: int
    strb: int = 0xF
    resp: int = 0
    cycle: int = 0


@dataclass
class InsnEvent:
    """An instruction the DUT executed (published after DONE, for coverage)."""

    index: int
    module: str
    insn: dict
    disasm: str
    config: str
