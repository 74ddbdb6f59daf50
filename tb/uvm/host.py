"""Host agent: register accesses on the AXI4-Lite control port (spec section 5).

Sequence items go through a sequencer to a driver, so register traffic is produced the UVM
way (sequences on a sequencer) without a hand-written bus model. The driver writes the
read data and response back into the item, which the sequence reads after finish_item
returns. The driver's port depends on the testbench mode (``MODE`` in the ConfigDB): in
the full mode cocotbext-axi's AxiLiteMaster drives the DUT's control port from Python; in
the fast mode the Verilog host of tb/rtl/vta_tb_host.v does, through its mailbox
(tb/uvm/fast.py: Mailbox), so Python wakes once per access.
"""
from __future__ import annotations

from typing import Any, Protocol

from cocotbext.axi import AxiLiteBus, AxiLiteMaster
from pyuvm import ConfigDB, uvm_agent, uvm_driver, uvm_sequence, uvm_sequence_item, uvm_sequencer

from models.vector import BASE_NAMES, Vector
from tb.uvm.regs import BASE_REGS, CTRL, INSN_ADDR, INSN_COUNT, START


class RegItem(uvm_sequence_item):
    """One register read or write; ``data``/``resp`` are filled in by the driver for reads."""

    def __init__(self, name: str, kind: str, addr: int, data: int = 0, nbytes: int = 4) -> None:
        super().__init__(name)
        self.kind = kind
        self.addr = addr  # a write of nbytes < 4 may be unaligned: the master sets WSTRB
        self.data = data
        self.nbytes = nbytes
        self.resp = 0

    def __str__(self) -> str:
        return f"{self.kind} {self.addr:#06x} = {self.data:#010x} resp={self.resp}"


class ControlPort(Protocol):
    """What the driver needs of a control-port master (both modes provide it)."""

    async def read(self, addr: int) -> tuple[int, int]: ...

    async def write(self, addr: int, data: int, nbytes: int = 4) -> int: ...


class LiteMasterPort:
    """cocotbext-axi's AxiLiteMaster on the DUT's control port (the full mode)."""

    def __init__(self, dut: Any) -> None:
        bus = AxiLiteBus.from_prefix(dut, "s_axi_control")
        self.master = AxiLiteMaster(bus, dut.ap_clk, dut.ap_rst_n, reset_active_level=False)
        self.master.write_if.log.setLevel("WARNING")
        self.master.read_if.log.setLevel("WARNING")

    async def read(self, addr: int) -> tuple[int, int]:
        rsp = await self.master.read(addr, 4)
        return int.from_bytes(rsp.data, "little"), int(rsp.resp)

    async def write(self, addr: int, data: int, nbytes: int = 4) -> int:
        return int((await self.master.write(addr, data.to_bytes(nbytes, "little"))).resp)


class HostDriver(uvm_driver):
    """Executes RegItems on the ``DUT``'s control port (ConfigDB), through the mode's port."""

    def build_phase(self) -> None:
        dut = ConfigDB().get(self, "", "DUT")
        if ConfigDB().get(self, "", "MODE") == "fast":
            from tb.uvm.fast import Mailbox
            self.port: ControlPort = Mailbox(dut)
        else:
            self.port = LiteMasterPort(dut)

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            if item.kind == "write":
                item.resp = await self.port.write(item.addr, item.data, item.nbytes)
            else:
                item.data, item.resp = await self.port.read(item.addr)
            self.seq_item_port.item_done()


class HostAgent(uvm_agent):
    """Sequencer plus driver for the control port."""

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = HostDriver("driver", self)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)


class RegSeq(uvm_sequence):
    """Base of register sequences: helpers that run one access and return the item."""

    async def write(self, addr: int, data: int, nbytes: int = 4) -> RegItem:
        item = RegItem("wr", "write", addr, data & ((1 << 8 * nbytes) - 1), nbytes)
        await self.start_item(item)
        await self.finish_item(item)
        return item

    async def read(self, addr: int) -> RegItem:
        item = RegItem("rd", "read", addr)
        await self.start_item(item)
        await self.finish_item(item)
        return item


class ProgramSeq(RegSeq):
    """Write INSN_COUNT, INSN_ADDR and the five bases of a vector."""

    def __init__(self, name: str, vector: Vector) -> None:
        super().__init__(name)
        self.vector = vector

    async def body(self) -> None:
        await self.write(INSN_COUNT, self.vector.insn_count)
        await self.write(INSN_ADDR, self.vector.insn_addr)
        for base in BASE_NAMES:
            await self.write(BASE_REGS[base], self.vector.bases.get(base, 0))


class LaunchSeq(RegSeq):
    """Write CTRL = START."""

    async def body(self) -> None:
        await self.write(CTRL, START)


class ReadRegsSeq(RegSeq):
    """Read a list of registers; ``values`` maps offset -> (data, resp)."""

    def __init__(self, name: str, offsets: list[int]) -> None:
        super().__init__(name)
        self.offsets = offsets
        self.values: dict[int, tuple[int, int]] = {}

    async def body(self) -> None:
        for off in self.offsets:
            item = await self.read(off)
            self.values[off] = (item.data, item.resp)
