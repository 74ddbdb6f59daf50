"""Host agent: register accesses on the AXI4-Lite control port (spec section 5).

Sequence items go through a sequencer to a driver, so register traffic is produced the UVM
way (sequences on a sequencer) without a hand-written bus model. The driver writes the
read data and response back into the item, which the sequence reads after finish_item
returns. The driver's port depends on the testbench mode (``MODE`` in the ConfigDB): in
the full mode cocotbext-axi's AxiLiteMaster drives the DUT's control port from Python; in
the fast mode the Verilog host of tb/rtl/vta_tb_host.v does, through its mailbox
(tb/uvm/env/fast.py: Mailbox), so Python wakes once per access.

Both ports present writes with a :class:`HostTiming` (set by a "timing" item, held until
the next): address and data together or either first (with a lag), BREADY held back once
BVALID is up, and a batch of writes issued back to back, each before the response of the
one before. The full mode does all of it through the AxiLiteMaster's own channel endpoints
(their ``pause`` switches and transactions): AxiLiteMaster.write derives WSTRB from address
and length, so a write of any WSTRB (0b0101, or none) goes through those endpoints too.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, SimTimeoutError, with_timeout
from cocotbext.axi import AxiLiteBus, AxiLiteMaster
from cocotbext.axi.axil_channels import AxiLiteARTransaction, AxiLiteAWTransaction, AxiLiteWTransaction
from pyuvm import ConfigDB, uvm_agent, uvm_driver, uvm_sequence, uvm_sequence_item, uvm_sequencer

from models.vector import BASE_NAMES, Vector
from tb.plan.dutmap import NATIVE_MAP, HostMap
from tb.plan.testbench import PERIOD_NS

#: Orders of a write's address and data: together, address first, data first (vta_tb_host.v's codes).
ORDERS = ("together", "aw-first", "w-first")
#: The largest lag and BREADY (RREADY) hold (the fast host's 2-bit counters).
MAX_WAIT = 3


@dataclass(frozen=True)
class HostTiming:
    """How the host presents writes on the AXI4-Lite port: AXI lets address and data come
    in either order or together, and the master hold BREADY (and RREADY) or start the next
    write before the last response; a slave must take every one of them the same way."""

    order: str = "together"  # one of ORDERS
    lag: int = 0  # cycles the second of address and data waits after the first is accepted
    bwait: int = 0  # cycles BREADY (RREADY) stays low once BVALID (RVALID) is up
    pipelined: bool = False  # a batch's writes go out without waiting for each response

    def __post_init__(self) -> None:
        if self.order not in ORDERS or not (0 <= self.lag <= MAX_WAIT and 0 <= self.bwait <= MAX_WAIT):
            raise ValueError(f"host timing {self}: order one of {ORDERS}, lag and bwait 0..{MAX_WAIT}")

    def __str__(self) -> str:
        lag = f" lag {self.lag}" if self.order != "together" else ""
        return f"{self.order}{lag}, B/RREADY after {self.bwait}{', pipelined' if self.pipelined else ''}"


#: How both ports write unless told otherwise.
DEFAULT_TIMING = HostTiming()


@dataclass(frozen=True)
class WordWrite:
    """A write of a whole word with any byte strobes (bit n: byte lane n)."""

    addr: int  # word aligned
    data: int
    strb: int = 0xF


def word_write(addr: int, data: int, nbytes: int) -> WordWrite:
    """The aligned word write of ``nbytes`` bytes of ``data`` at a byte address."""
    lane = addr % 4
    return WordWrite(addr - lane, data << 8 * lane, ((1 << nbytes) - 1) << lane)


#: Cycles a register access may take before the control port counts as hung.
HOST_GRACE = 4000


class HostHung(RuntimeError):
    """The control port stopped answering: the simulation cannot go on with this DUT state
    (the job ends with the checkers' findings, the plan after it)."""


class RegItem(uvm_sequence_item):
    """One register access: "read" (``data``/``resp`` filled in by the driver), "write"
    (``nbytes`` at ``addr``, which may then be unaligned: the master sets WSTRB; or a whole
    word with the byte strobes ``strb``), "batch" (the writes of ``batch`` back to back,
    ``resps`` filled in) or "timing" (the host's write timing from now on)."""

    def __init__(self, name: str, kind: str, addr: int = 0, data: int = 0, nbytes: int = 4,
                 strb: int | None = None, batch: tuple[WordWrite, ...] = (),
                 timing: HostTiming = DEFAULT_TIMING) -> None:
        super().__init__(name)
        self.kind = kind
        self.addr = addr
        self.data = data
        self.nbytes = nbytes
        self.strb = strb
        self.batch = batch
        self.timing = timing
        self.resp = 0
        self.resps: list[int] = []
        self.hung = ""  # the driver's HostHung message: the access never completed

    def __str__(self) -> str:
        return f"{self.kind} {self.addr:#06x} = {self.data:#010x} resp={self.resp}"


class ControlPort(Protocol):
    """What the driver needs of a control-port master (both modes provide it)."""

    def set_timing(self, timing: HostTiming) -> None: ...

    async def read(self, addr: int) -> tuple[int, int]: ...

    async def write(self, addr: int, data: int, nbytes: int = 4) -> int: ...

    async def write_word(self, write: WordWrite) -> int: ...

    async def write_batch(self, batch: tuple[WordWrite, ...]) -> list[int]: ...


class LiteMasterPort:
    """cocotbext-axi's AxiLiteMaster on the DUT's control port (the full mode).

    With the default timing a write is AxiLiteMaster.write; any other timing, or WSTRB
    that is not one run of bytes, goes through the master's AW/W sources and B sink:
    a paused source holds its channel back, a paused sink holds BREADY low.
    """

    def __init__(self, dut: Any) -> None:
        self.dut = dut
        bus = AxiLiteBus.from_prefix(dut, "s_axi_control")
        self.master = AxiLiteMaster(bus, dut.ap_clk, dut.ap_rst_n, reset_active_level=False)
        self.master.write_if.log.setLevel("WARNING")
        self.master.read_if.log.setLevel("WARNING")
        self.timing = DEFAULT_TIMING

    def set_timing(self, timing: HostTiming) -> None:
        self.timing = timing

    async def read(self, addr: int) -> tuple[int, int]:
        """AxiLiteMaster.read, or with RREADY held low ``bwait`` cycles after RVALID: the
        master's AR source and R sink directly (as writes use AW, W and B)."""
        bwait = self.timing.bwait
        if not bwait:
            rsp = await self.master.read(addr, 4)
            return int.from_bytes(rsp.data, "little"), int(rsp.resp)
        ri = self.master.read_if
        ri.r_channel.pause = True
        try:
            await ri.ar_channel.send(AxiLiteARTransaction(araddr=addr))
            while not int(self.dut.s_axi_control_rvalid.value):
                await RisingEdge(self.dut.ap_clk)
            await ClockCycles(self.dut.ap_clk, bwait)
            ri.r_channel.pause = False
            r = await ri.r_channel.recv()
            return int(r.rdata), int(r.rresp)
        finally:
            ri.r_channel.pause = False

    async def write(self, addr: int, data: int, nbytes: int = 4) -> int:
        if self.timing == DEFAULT_TIMING:
            return int((await self.master.write(addr, data.to_bytes(nbytes, "little"))).resp)
        return await self.write_word(word_write(addr, data, nbytes))

    async def write_word(self, write: WordWrite) -> int:
        return (await self._writes((write,), pipelined=False))[0]

    async def write_batch(self, batch: tuple[WordWrite, ...]) -> list[int]:
        return await self._writes(batch, self.timing.pipelined)

    async def _handshake(self, channel: str) -> None:
        """Until the rising edge at which ``channel`` (aw, w or b) completes a transfer."""
        valid = getattr(self.dut, f"s_axi_control_{channel}valid")
        ready = getattr(self.dut, f"s_axi_control_{channel}ready")
        while True:
            await RisingEdge(self.dut.ap_clk)
            if int(valid.value) and int(ready.value):
                return

    async def _send(self, write: WordWrite) -> None:
        """Present one write's address and data in the timing's order."""
        wi, t = self.master.write_if, self.timing
        aw = AxiLiteAWTransaction(awaddr=write.addr)
        w = AxiLiteWTransaction(wdata=write.data, wstrb=write.strb)
        if t.order == "together":
            await wi.aw_channel.send(aw)
            await wi.w_channel.send(w)
            return
        steps = [(wi.aw_channel, aw, "aw"), (wi.w_channel, w, "w")]
        if t.order == "w-first":
            steps.reverse()
        (source, txn, name), (later, later_txn, _) = steps
        await source.send(txn)
        await self._handshake(name)
        await ClockCycles(self.dut.ap_clk, t.lag)
        await later.send(later_txn)

    async def _responses(self, count: int) -> list[int]:
        """Take ``count`` write responses, each BREADY held back ``bwait`` cycles."""
        sink, bwait = self.master.write_if.b_channel, self.timing.bwait
        out = []
        for _ in range(count):
            if bwait:
                while not int(self.dut.s_axi_control_bvalid.value):
                    await RisingEdge(self.dut.ap_clk)
                await ClockCycles(self.dut.ap_clk, bwait)
                sink.pause = False
            out.append(int((await sink.recv()).bresp))
            sink.pause = bwait > 0
        return out

    async def _writes(self, batch: tuple[WordWrite, ...], pipelined: bool) -> list[int]:
        """The writes of ``batch``: one after the other's response, or all sent while the
        responses are taken."""
        sink = self.master.write_if.b_channel
        sink.pause = self.timing.bwait > 0
        try:
            if not pipelined:
                resps = []
                for write in batch:
                    await self._send(write)
                    resps += await self._responses(1)
                return resps
            taker = cocotb.start_soon(self._responses(len(batch)))
            for write in batch:
                await self._send(write)
            return await taker
        finally:
            sink.pause = False


class HostDriver(uvm_driver):
    """Executes RegItems on the ``DUT``'s control port (ConfigDB), through the port the
    testbench mode provides: ConfigDB's ``CONTROL_PORT`` makes it from the DUT (the cocotb
    test sets it: LiteMasterPort in the full mode, the fast mode's Mailbox), so this agent
    never imports a mode's shell."""

    def build_phase(self) -> None:
        dut = ConfigDB().get(self, "", "DUT")
        self.port: ControlPort = ConfigDB().get(self, "", "CONTROL_PORT")(dut)

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            try:
                await self.execute(item)
            except HostHung as exc:
                item.hung = str(exc)
            self.seq_item_port.item_done()

    async def execute(self, item: RegItem) -> None:
        """One access on the port, bounded by HOST_GRACE cycles."""
        try:
            await with_timeout(self.perform(item), HOST_GRACE * PERIOD_NS, "ns")
        except SimTimeoutError:
            raise HostHung(f"the control port did not complete a {item.kind} of {item.addr:#06x} "
                           f"within {HOST_GRACE} cycles") from None

    async def perform(self, item: RegItem) -> None:
        if item.kind == "write" and item.strb is not None:
            item.resp = await self.port.write_word(WordWrite(item.addr, item.data, item.strb))
        elif item.kind == "write":
            item.resp = await self.port.write(item.addr, item.data, item.nbytes)
        elif item.kind == "batch":
            item.resps = await self.port.write_batch(item.batch)
        elif item.kind == "timing":
            self.port.set_timing(item.timing)
        else:
            item.data, item.resp = await self.port.read(item.addr)


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
        if item.hung:
            raise HostHung(item.hung)
        return item

    async def read(self, addr: int) -> RegItem:
        item = RegItem("rd", "read", addr)
        await self.start_item(item)
        await self.finish_item(item)
        if item.hung:
            raise HostHung(item.hung)
        return item

    async def write_strobed(self, write: WordWrite) -> RegItem:
        """A whole-word write with the byte strobes ``write.strb``."""
        item = RegItem("wr", "write", write.addr, write.data, strb=write.strb)
        await self.start_item(item)
        await self.finish_item(item)
        if item.hung:
            raise HostHung(item.hung)
        return item

    async def write_batch(self, batch: tuple[WordWrite, ...]) -> RegItem:
        """The writes of ``batch`` back to back (``resps`` holds their responses)."""
        item = RegItem("batch", "batch", batch=batch)
        await self.start_item(item)
        await self.finish_item(item)
        if item.hung:
            raise HostHung(item.hung)
        return item

    async def set_timing(self, timing: HostTiming) -> None:
        """Every write from now on in ``timing`` (in order with the accesses before it)."""
        item = RegItem("timing", "timing", timing=timing)
        await self.start_item(item)
        await self.finish_item(item)


class ProgramSeq(RegSeq):
    """Write INSN_COUNT, INSN_ADDR and the five bases of a vector, where ``regs`` (the DUT's
    map, tb/plan/dutmap.py) has them: a 64-bit pointer as its low word, then its high word."""

    def __init__(self, name: str, vector: Vector, regs: HostMap = NATIVE_MAP) -> None:
        super().__init__(name)
        self.vector = vector
        self.regs = regs

    async def body(self) -> None:
        await self.write(self.regs.insn_count, self.vector.insn_count)
        values = {"insn": self.vector.insn_addr, **{b: self.vector.bases.get(b, 0) for b in BASE_NAMES}}
        for name, value in values.items():
            for offset, word in self.regs.pointer_writes(name, value):
                await self.write(offset, word)


class LaunchSeq(RegSeq):
    """Write CTRL = START (at the DUT's control register and START bit)."""

    def __init__(self, name: str, regs: HostMap = NATIVE_MAP) -> None:
        super().__init__(name)
        self.regs = regs

    async def body(self) -> None:
        await self.write(self.regs.ctrl, self.regs.start)


class WriteRegsSeq(RegSeq):
    """Write a list of (offset, value, bytes) in order (a write of fewer than 4 bytes at a
    word offset strobes its low lanes); ``resps`` holds the responses."""

    def __init__(self, name: str, writes: list[tuple[int, int, int]]) -> None:
        super().__init__(name)
        self.writes = writes
        self.resps: list[int] = []

    async def body(self) -> None:
        for addr, value, nbytes in self.writes:
            self.resps.append((await self.write(addr, value, nbytes)).resp)


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
