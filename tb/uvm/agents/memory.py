"""Memory agent: the AXI4 slave (cocotbext-axi AxiSlave) over the sparse model DRAM.

The slave's ``target`` is :class:`DramTarget`, so the DUT reads and writes the same
:class:`models.dram.Dram` the scoreboard compares afterwards; the full 4 GiB space is
available without allocating it. The agent applies a backpressure profile per job and
can inject memory-side faults for negative tests: corrupted read data, and SLVERR/DECERR
responses (tb/plan/bus_errors.py). cocotbext-axi answers OKAY, or SLVERR when the target raises;
to give any response the agent sets it on each R beat and B response as it is queued, and
records what the test injected so that the response checker can hold the bus to it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from cocotbext.axi import AxiBus, AxiSlave
from pyuvm import ConfigDB, uvm_component

from models.dram import Dram
from tb.plan.backpressure import pause_generators
from tb.plan.bus_errors import OKAY, Answers, BusErrorPlan

if TYPE_CHECKING:
    from tb.uvm.context import JobContext, MemoryFaults


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
        self.errors = BusErrorPlan()
        self.read_resp = OKAY  # of the beat just read, set on it as it is queued
        self.write_resp = OKAY  # worst of the burst being written, set on its B response
        self.fail_reads: list[tuple[int, int]] = []  # [lo, hi): the model itself fails, once

    def start(self, dram: Dram, faults: "MemoryFaults") -> None:
        """Serve a new job: its DRAM image and its memory-side faults, nothing left over."""
        self.dram = dram
        self.corrupt = list(faults.corrupt)
        self.corrupted_at = None
        self.errors = faults.errors
        self.read_resp = self.write_resp = OKAY
        self.fail_reads = list(faults.fail_reads)

    async def read(self, address: int, length: int) -> bytes:
        for lo, hi in self.fail_reads:
            if address < hi and lo < address + length:
                self.fail_reads = []
                raise RuntimeError(f"memory model failure at {address:#x} (unrequested-slverr fault)")
        self.read_resp = self.errors.resp("read", address, address + length)
        if self.read_resp != OKAY:
            return bytes(length)
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
        resp = self.errors.resp("write", address, address + len(data))
        if resp != OKAY:
            self.write_resp = max(self.write_resp, resp)
            return
        self.dram.write(address, data)


class MemoryAgent(uvm_component):
    """Owns the AXI slave (on the ``DUT``'s memory port, ConfigDB) and the DRAM image;
    :meth:`start_job` sets profile and faults per job."""

    def build_phase(self) -> None:
        self.dut = ConfigDB().get(self, "", "DUT")
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
        self.ar_queue = self.slave.read_if.ar_channel.queue_occupancy_limit  # cocotbext's own
        self.r_answers, self.b_answers = Answers(), Answers()
        self._answer(self.slave.read_if.r_channel, "rresp", self._take_read_resp, lambda: self.r_answers)
        self._answer(self.slave.write_if.b_channel, "bresp", self._take_write_resp, lambda: self.b_answers)

    @staticmethod
    def _answer(channel: Any, name: str, take: Callable[[], int], log: Callable[[], Answers]) -> None:
        """Set the response of every beat the slave queues on ``channel`` and log it."""
        send = channel.send

        async def send_with_response(txn: Any) -> None:
            resp = take()
            if resp != OKAY:
                setattr(txn, name, resp)
            log().add(resp)  # what the test injected (cocotbext may still say SLVERR itself)
            await send(txn)

        channel.send = send_with_response

    def _take_read_resp(self) -> int:
        resp, self.target.read_resp = self.target.read_resp, OKAY
        return resp

    def _take_write_resp(self) -> int:
        resp, self.target.write_resp = self.target.write_resp, OKAY
        return resp

    async def start_job(self, ctx: "JobContext") -> None:
        """A fresh DRAM image (the vector's init images), the job's backpressure profile and
        its memory-side faults: corrupted read data, error responses, a failing model."""
        self.target.start(ctx.vector.dram(), ctx.memory_faults())
        self.r_answers, self.b_answers = Answers(), Answers()
        self.set_profile(ctx.job.profile, ctx.job.seed)
        # a fault that must show more reads in flight than the design keeps needs a memory
        # that takes them (faults.Fault.deep_memory); every other job keeps cocotbext's queue
        self.slave.read_if.ar_channel.queue_occupancy_limit = -1 if ctx.fault.deep_memory \
            else self.ar_queue

    def answers(self) -> tuple[Answers, Answers]:
        """The responses the test injected this job on R (per beat) and B (per burst)."""
        return self.r_answers, self.b_answers

    async def read_back(self, ctx: "JobContext") -> None:
        """Nothing to do: the DUT wrote into the model's DRAM (:attr:`dram`) directly."""

    @property
    def dram(self) -> Dram:
        return self.target.dram

    def status_line(self) -> str:
        """What the slave still holds, for the watchdog's diagnosis."""
        slave = self.slave
        return (f"  memory  : slave holds {slave.write_if.aw_channel.count()} AW, "
                f"{slave.write_if.w_channel.count()} W, {slave.read_if.ar_channel.count()} AR "
                f"requests not yet served")

    @property
    def corrupted_at(self) -> int | None:
        """Address of the byte the corrupt-read fault flipped (None: it has not fired)."""
        return self.target.corrupted_at

    def set_profile(self, profile: str, seed: int) -> None:
        gens = pause_generators(profile, seed)
        channels = {"aw": self.slave.write_if.aw_channel, "w": self.slave.write_if.w_channel,
                    "b": self.slave.write_if.b_channel, "ar": self.slave.read_if.ar_channel,
                    "r": self.slave.read_if.r_channel}
        for name, channel in channels.items():
            channel.set_pause_generator(gens[name])
            if gens[name] is None:
                channel.pause = False  # a killed generator may have left the channel paused
