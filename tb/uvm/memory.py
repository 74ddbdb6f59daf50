"""Memory agent: the AXI4 slave (cocotbext-axi AxiSlave) over the sparse model DRAM.

The slave's ``target`` is :class:`DramTarget`, so the DUT reads and writes the same
:class:`models.dram.Dram` the scoreboard compares afterwards; the full 4 GiB space is
available without allocating it. The agent applies a backpressure profile per job and
can inject one memory-side fault (corrupted read data) for negative tests.
"""
from __future__ import annotations

from typing import Any

from cocotbext.axi import AxiBus, AxiSlave
from pyuvm import uvm_component

from models.dram import Dram
from tb.uvm.profiles import pause_generators


class DramTarget:
    """cocotbext-axi memory target backed by a models.dram.Dram.

    ``corrupt`` holds [lo, hi) byte ranges: the first read beat that touches one of them
    comes back with one bit flipped (then the fault disarms), which a correct scoreboard
    must notice because the DUT computes with the corrupted value.
    """

    def __init__(self) -> None:
        self.dram = Dram()
        self.corrupt: list[tuple[int, int]] = []
        self.corrupted_at: int | None = None

    async def read(self, address: int, length: int) -> bytes:
        data = bytearray(self.dram.read_bytes(address, length))
        for lo, hi in self.corrupt:
            if address < hi and lo < address + length:
                offset = max(lo, address) - address
                data[offset] ^= 0x10
                self.corrupted_at = address + offset
                self.corrupt = []
                break
        return bytes(data)

    async def write(self, address: int, data: bytes) -> None:
        self.dram.write(address, data)


class MemoryAgent(uvm_component):
    """Owns the AXI slave and the DRAM image; profile and faults are set per job."""

    dut: Any

    def build_phase(self) -> None:
        self.target = DramTarget()
        bus = AxiBus.from_prefix(self.dut, "m_axi_gmem")
        self.slave = AxiSlave(bus, self.dut.ap_clk, self.dut.ap_rst_n,
                              target=self.target, reset_active_level=False)
        for channel in (self.slave.write_if.aw_channel, self.slave.write_if.w_channel,
                        self.slave.write_if.b_channel, self.slave.read_if.ar_channel,
                        self.slave.read_if.r_channel):
            channel.log.setLevel("WARNING")
        self.slave.write_if.log.setLevel("WARNING")
        self.slave.read_if.log.setLevel("WARNING")

    def load(self, dram: Dram) -> None:
        """Start a job from a fresh DRAM image (the vector's init images)."""
        self.target.dram = dram
        self.target.corrupt = []
        self.target.corrupted_at = None

    @property
    def dram(self) -> Dram:
        return self.target.dram

    def set_profile(self, profile: str, seed: int) -> None:
        gens = pause_generators(profile, seed)
        channels = {"aw": self.slave.write_if.aw_channel, "w": self.slave.write_if.w_channel,
                    "b": self.slave.write_if.b_channel, "ar": self.slave.read_if.ar_channel,
                    "r": self.slave.read_if.r_channel}
        for name, channel in channels.items():
            channel.set_pause_generator(gens[name])
            if gens[name] is None:
                channel.pause = False  # a killed generator may have left the channel paused
