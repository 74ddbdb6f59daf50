"""The fast mode's components: the memory, host and checkers live in the simulation.

In the full mode Python samples every AXI signal on every clock (monitors, protocol
checker, cocotbext-axi's bus models). In the fast mode (top tb/rtl/vta_tb_fast.v) the DRAM
is a Verilog memory loaded from files (tb/uvm/agents/fastmem.py), register accesses go through a
Verilog AXI-Lite host driven by a mailbox, and the protocol, stray-write, error-response
and ordering checks are Verilog checkers that latch their first finding. Python wakes only
when an access completes, when a checker raises ``tb_alarm``, or on a coarse timer for the
watchdog. The components here give the program sequence the same interface as the full
mode's (tb/uvm/env/env.py), and their failures read like the full mode's, so every negative
test expects the same verdict kind and message in both modes.
"""
from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Callable

from cocotb.triggers import Event, FallingEdge, First, RisingEdge, Timer, ValueChange
from pyuvm import ConfigDB, uvm_component, uvm_env

from models.dram import Dram
from models.spec.configs import load_config
from tb.plan.backpressure import PROFILES
from tb.plan.bus_errors import RESP_NAMES, BusErrorEvent
from tb.plan.dutmap import BEATS, HostMap
from tb.plan.testbench import PERIOD_NS
from tb.rules.axi_codes import AXI_RULE_NAMES, CHANNELS, REPORTED_AS, SIGNALS
from tb.rules.failure import Failure, earliest
from tb.rules.liveness import contention, live_findings
from tb.rules.ordering import capacity, order_findings, push_pops
from tb.uvm.agents.fastmem import DUMP_FILE, MemoryImage, parse_dump
from tb.uvm.agents.host import (
    DEFAULT_TIMING,
    HOST_GRACE,
    ORDERS,
    HostAgent,
    HostHung,
    HostTiming,
    WordWrite,
    word_write,
)
from tb.uvm.checkers.dutlog import DutLog
from tb.uvm.checkers.protocol import attributes_text
from tb.uvm.checkers.scoreboard import Scoreboard
from tb.uvm.checkers.stray import STRAY_FIELDS, AllowedWrites
from tb.uvm.checkers.table import TableChecker, fast_findings
from tb.uvm.checkers.verdict import Verdict
from tb.uvm.env.watch import POLL_GAP, Progress, Report, Watcher

if TYPE_CHECKING:
    from tb.uvm.context import JobContext, Limits

LOG_PAGES = 9  # physical pages of the fast memory (vta_tb_fast.v's default)
ERR_RANGES = 4  # error-response ranges the memory holds (vta_tb_mem.v NERR)
#: vta_tb_host.v's operations.
OP_READ, OP_WRITE, OP_POLL, OP_POSTED, OP_SYNC = 0, 1, 2, 3, 4


def _int(handle: Any) -> int:
    return int(handle.value)


def _hex(handle: Any) -> str:
    """A latched value for a message: hex, or the raw bits if it holds X/Z."""
    v = handle.value
    return f"{int(v):#x}" if v.is_resolvable else str(v)


class Mailbox:
    """Register accesses through vta_tb_host: one Python wake per access."""

    def __init__(self, dut: Any) -> None:
        self.dut = dut
        self.go = 0
        self.timing = DEFAULT_TIMING

    def set_timing(self, timing: HostTiming) -> None:
        """The host's write timing inputs (it holds them between accesses)."""
        self.timing = timing
        self.dut.tb_host_order.value = ORDERS.index(timing.order)
        self.dut.tb_host_lag.value = timing.lag
        self.dut.tb_host_bwait.value = timing.bwait

    def _request(self, op: int, addr: int, data: int = 0, strb: int = 0xF, mask: int = 0) -> None:
        d = self.dut
        d.tb_host_op.value = op
        d.tb_host_addr.value = addr
        d.tb_host_wdata.value = data
        d.tb_host_wstrb.value = strb
        d.tb_host_mask.value = mask
        d.tb_host_gap.value = POLL_GAP
        self.go ^= 1
        d.tb_host_go.value = self.go

    @property
    def busy(self) -> bool:
        return _int(self.dut.tb_host_ack) != self.go

    async def complete(self, grace: int = HOST_GRACE) -> tuple[int, int]:
        """Wait for the access in flight; (data, response)."""
        while self.busy:
            await First(ValueChange(self.dut.tb_host_ack), Timer(grace * PERIOD_NS, "ns"))
            if self.busy:
                raise HostHung(f"the control port did not complete an access within {grace} cycles")
        return _int(self.dut.u_host.rdata), _int(self.dut.u_host.resp)

    async def read(self, addr: int) -> tuple[int, int]:
        self._request(OP_READ, addr)
        return await self.complete()

    async def write(self, addr: int, data: int, nbytes: int = 4) -> int:
        return await self.write_word(word_write(addr, data, nbytes))

    async def write_word(self, write: WordWrite) -> int:
        self._request(OP_WRITE, write.addr, write.data, write.strb)
        return (await self.complete())[1]

    async def write_batch(self, batch: tuple[WordWrite, ...]) -> list[int]:
        """The writes one after the other's response, or (pipelined timing) each posted as
        soon as the one before is accepted, then every response awaited: one entry per
        response that arrived (as many as writes unless the port lost or invented one),
        each the worst of them; a response that never comes hangs the port."""
        if not self.timing.pipelined:
            return [await self.write_word(w) for w in batch]
        for w in batch:
            self._request(OP_POSTED, w.addr, w.data, w.strb)
            await self.complete()
        self._request(OP_SYNC, 0)
        arrived, worst = await self.complete()
        return [worst] * arrived

    def start_poll(self, addr: int, mask: int) -> None:
        """Read addr every POLL_GAP cycles until a bit of mask is set (or :meth:`stop_poll`)."""
        self.dut.tb_host_stop.value = 0
        self._request(OP_POLL, addr, mask=mask)

    async def stop_poll(self) -> int:
        """End a poll; the value of the last read (it may just have seen its bit)."""
        self.dut.tb_host_stop.value = 1
        data, _ = await self.complete()
        self.dut.tb_host_stop.value = 0
        return data


async def pulse(dut: Any, signal: Any) -> None:
    """Raise ``signal`` for one rising clock edge; return once that edge's logic has run."""
    await FallingEdge(dut.ap_clk)
    signal.value = 1
    await RisingEdge(dut.ap_clk)
    await FallingEdge(dut.ap_clk)
    signal.value = 0


class MemStatus:
    """The memory's observations (vta_tb_mem's status outputs) as attributes, read from the
    top-level wires they drive (``mem_<name>``, tb/rtl/vta_tb_fast.v): Icarus's VPI takes
    about half a second of CPU to find a name inside u_mem, whose scope holds the DRAM
    arrays, on each of a simulator process's first reads, and none for a top-level name."""

    def __init__(self, dut: Any) -> None:
        self._dut = dut

    def __getattr__(self, name: str) -> Any:
        return getattr(self._dut, f"mem_{name}")


class FastMemory(uvm_component):
    """The Verilog memory: a job's image in, compared bytes out, faults as set-up inputs."""

    def build_phase(self) -> None:
        self.dut = ConfigDB().get(self, "", "DUT")
        self.mem = MemStatus(self.dut)
        self.image: MemoryImage | None = None
        self.readback = Dram()

    async def start_job(self, ctx: "JobContext") -> None:
        """Write the job's files, set profile and faults, load (one clock)."""
        cfg, v = ctx.cfg, ctx.vector
        self.image = MemoryImage(v.dram(), [(i.addr, len(i.data)) for i in v.init],
                                 [(a, n) for a, n, _ in ctx.store_ranges()],
                                 [(i.addr, len(i.data)) for i in ctx.expect], cfg.bus_bytes, LOG_PAGES)
        self.image.write_files(Path.cwd())
        faults = ctx.memory_faults()
        d = self.dut
        d.tb_mem_pages.value = len(self.image.pages)
        d.tb_mem_profile.value = PROFILES.index(ctx.job.profile)
        d.tb_mem_seed.value = ctx.job.seed & 0xFFFF_FFFF
        kinds = lows = lasts = resps = 0
        for n, r in enumerate(faults.errors.ranges[:ERR_RANGES]):
            kinds |= (1 if r.kind == "read" else 2) << 2 * n
            lows |= r.lo << 32 * n
            lasts |= min(r.hi - 1, 0xFFFF_FFFF) << 32 * n
            resps |= r.resp << 2 * n
        d.tb_mem_err_kind.value, d.tb_mem_err_lo.value = kinds, lows
        d.tb_mem_err_last.value, d.tb_mem_err_resp.value = lasts, resps
        d.tb_mem_err_rate.value = min(0xFFFF, round(faults.errors.rate * 65536))
        for name, ranges in (("corrupt", faults.corrupt), ("rogue", faults.fail_reads)):
            getattr(d, f"tb_mem_{name}_en").value = int(bool(ranges))
            lo, hi = ranges[0] if ranges else (0, 1)
            getattr(d, f"tb_mem_{name}_lo").value = lo
            getattr(d, f"tb_mem_{name}_last").value = hi - 1
        await pulse(d, d.tb_mem_load)
        self.readback = Dram()

    async def read_back(self, ctx: "JobContext") -> None:
        """Dump the words holding the compared bytes and keep them for :attr:`dram`."""
        assert self.image is not None, "read_back before start_job"
        d, nb = self.dut, ctx.cfg.bus_bytes
        for first, last, addr in self.image.dump_ranges():
            d.tb_mem_dump_lo.value, d.tb_mem_dump_hi.value = first, last
            await pulse(d, d.tb_mem_dump)
            self.readback.write(addr, parse_dump((Path.cwd() / DUMP_FILE).read_text(), first, last, nb))

    @property
    def dram(self) -> Dram:
        return self.readback

    @property
    def corrupted_at(self) -> int | None:
        return _int(self.mem.corrupted_at) if _int(self.mem.corrupted) else None

    def status_line(self) -> str:
        mem = self.dut.u_mem  # queue counts: read only when a job is stuck
        return (f"  memory  : {_int(mem.aw_n)} AW and {_int(mem.ar_n)} AR bursts queued, "
                f"{_int(mem.b_n)} B responses owed")


class FastResponses:
    """The error responses that reached the DUT, from the memory's latch (the first one, and
    how many): the same interface as the full mode's ResponseChecker."""

    def __init__(self, mem: Any) -> None:
        self.mem = mem

    @property
    def events(self) -> list[BusErrorEvent]:
        m = self.mem
        if not _int(m.err_seen):
            return []
        chan = "B" if _int(m.err_chan) else "R"
        return [BusErrorEvent(chan, _int(m.err_first_resp), _int(m.err_burst_addr),
                              _int(m.err_burst_len) + 1, _int(m.err_beat), _int(m.err_addr),
                              _int(m.err_cycle))]

    @property
    def count(self) -> int:
        return _int(self.mem.err_count)


class FastChecks:
    """Reads the Verilog checkers' latches and reports each finding the way the full mode's
    Python checkers word it (tb/uvm/checkers/protocol.py, stray.py, responses.py)."""

    def __init__(self, dut: Any, verdict: Verdict, probes: bool = True) -> None:
        self.dut = dut
        self.verdict = verdict
        self.probes = probes  # rtl/: the white-box ordering and liveness checkers are built in
        self.allowed: AllowedWrites | None = None

    def start_job(self, ctx: "JobContext") -> None:
        """The STORE footprints, to name the STORE nearest a stray write."""
        self.allowed = AllowedWrites(ctx.store_ranges(), ctx.describe)

    @property
    def alarm(self) -> bool:
        return bool(_int(self.dut.tb_alarm))

    def findings(self) -> list[Failure]:
        """Every latched finding as a failure record (rule and channel decoded by the tables
        of tb/rules/axi_codes.py, ordering.py, liveness.py; the checker table's fast-mode
        checkers decode their own twins' latches), earliest first."""
        out = []
        for port, chk in (("m_axi_gmem", self.dut.u_chk_mem), ("s_axi_control", self.dut.u_chk_lite)):
            if _int(chk.violation):
                out.append(protocol_failure(port, chk))
        mem = MemStatus(self.dut)
        if _int(mem.stray):
            addr = _int(mem.stray_addr)
            near = self.allowed.nearest(addr) if self.allowed else ""
            out.append(Failure("stray-write",
                               f"stray write: {_int(mem.stray_bytes)} byte(s) with strobe set outside "
                               f"every STORE footprint, first at {addr:#010x}; AXI write burst "
                               f"addr={_int(mem.stray_burst_addr):#010x} len={_int(mem.stray_burst_len)} "
                               f"at cycle {_int(mem.stray_cycle)}; {near}", _int(mem.stray_cycle),
                               **STRAY_FIELDS))
        out += fast_findings(self.dut)
        if not self.probes:
            return earliest(out)
        tb = self.dut.u_tb
        return earliest(out) + earliest(order_findings(tb.u_order) + live_findings(tb.u_live))

    def waived(self) -> dict[str, Any]:
        """The memory port's findings the DUT profile waives (vta_tb_axi_check.v WAIVE): how
        many cycles had one, and the first in the protocol checker's words ({} if none)."""
        chk = self.dut.u_chk_mem
        count = _int(chk.waived_n)
        if not count:
            return {}
        first = SimpleNamespace(rule=chk.waived_rule, chan=chk.waived_chan, sig=chk.waived_sig,
                                vcycle=chk.waived_cycle, value0=chk.waived_value0,
                                value1=chk.waived_value1)
        return {"count": count, "first": protocol_message("m_axi_gmem", first)}

    def report(self) -> bool:
        """Fail the job with the earliest finding; True if there was one."""
        found = self.findings()
        if found:
            self.verdict.report(found[0])
        return bool(found)


def protocol_failure(port: str, chk: Any) -> Failure:
    """A vta_tb_axi_check.v finding as the full mode's checker records it: rule (as
    reported), the port as module, the channel."""
    rule = AXI_RULE_NAMES[_int(chk.rule)]
    return Failure("protocol", protocol_message(port, chk), _int(chk.vcycle),
                   rule=REPORTED_AS.get(rule, rule), module=port, channel=CHANNELS[_int(chk.chan)])


def protocol_message(port: str, chk: Any) -> str:
    """The full mode's wording of a vta_tb_axi_check.v finding."""
    rule, chan, sig, cycle = _int(chk.rule), _int(chk.chan), _int(chk.sig), _int(chk.vcycle)
    x0, x1 = _hex(chk.value0), _hex(chk.value1)
    v0 = int(chk.value0.value) if chk.value0.value.is_resolvable else 0
    v1 = int(chk.value1.value) if chk.value1.value.is_resolvable else 0
    ch = CHANNELS[chan]
    name = SIGNALS[chan][sig] if sig < len(SIGNALS[chan]) else "?"
    lo = ch.lower()
    texts: dict[str, Callable[[], str]] = {
        "x-on-handshake": lambda: f"{lo}valid/{lo}ready hold X/Z",
        "x-on-payload": lambda: f"{name} holds X/Z while {lo}valid is high",
        "valid-dropped": lambda: f"{lo}valid fell before {lo}ready (payload was {x0})",
        "payload-unstable": lambda: f"payload changed while valid high and ready low: {name} {x0} -> {x1}",
        "burst-type": lambda: f"{lo}burst = {v0}, only INCR (1) is used",
        "burst-size": lambda: f"{lo}size gives {1 << v0} bytes per beat on a {v1}-byte bus",
        "4k-crossing": lambda: (f"burst {lo}addr={v0:#010x} len={v1 & 0xFF} size={1 << (v1 >> 8 & 7)}B "
                                f"crosses a 4 KiB boundary"),
        "wlast": lambda: (f"WLAST missing on the last beat ({v0} of {v1 & 0x1FF})" if v1 >> 32
                          else f"WLAST on beat {v0} of a {v1 & 0x1FF}-beat burst: beat count differs "
                               f"from AWLEN+1"),
        "rlast": lambda: f"RLAST not on the last beat (beat {v0} of a {v1}-beat read)",
        "unexpected-response": lambda: f"{ch}VALID with no outstanding request for it (id {v0})",
        "injected-response": lambda: (f"{ch}RESP = {RESP_NAMES[v0]} where the test injected "
                                      f"{RESP_NAMES[v1]}"),
        "attributes": lambda: attributes_text(lo, v0),
    }
    rule_name = AXI_RULE_NAMES[rule]
    text = (REPORTED_AS.get(rule_name, rule_name), texts[rule_name]())
    return f"AXI protocol violation on {port} {ch} channel at cycle {cycle} [{text[0]}]: {text[1]}"


class FastWatch:
    """Waits for DONE or ERROR with the host polling CTRL in the simulation; wakes on the
    poll's completion, on ``tb_alarm``, or every ``interval`` cycles to hold the DUT to its
    limits (the same as the full mode's WatchDoneSeq: bound, stall window, wall time)."""

    def __init__(self, env: "FastEnv", limits: "Limits", report: Report) -> None:
        self.env, self.limits, self.report = env, limits, report
        self.ctrl: int | None = None
        self.outcome = ""
        self.progress = Progress(limits)
        self.interval = max(4096, limits.stall // 2)
        self.stopped = Event()

    @property
    def last_change(self) -> int:
        return self.progress.last_change

    def stop(self) -> None:
        self.stopped.set()

    async def run(self) -> None:
        env, mailbox, dut, regs = self.env, self.env.mailbox, self.env.dut, self.env.hostmap
        launched, self.progress = env.cycle, Progress(self.limits)
        while not self.stopped.is_set():
            if env.checks.alarm:
                self.outcome = "alarm"
                return
            mailbox.start_poll(regs.done_offset, regs.done | regs.error)
            left = self.limits.bound - (env.cycle - launched) + 1
            await First(ValueChange(dut.tb_host_ack), RisingEdge(dut.tb_alarm), self.stopped.wait(),
                        Timer(max(1, min(self.interval, left)) * PERIOD_NS, "ns"))
            ctrl = await mailbox.stop_poll() if mailbox.busy else (await mailbox.complete())[0]
            if env.checks.alarm:  # the checker's finding came first (the host polls 16 cycles apart)
                self.outcome = "alarm"
                return
            if found := env.dut_log.finding():  # the design's own assertion (tb/uvm/checkers/dutlog.py)
                env.verdict.report(found)
                self.outcome = "alarm"
                return
            if ctrl & (regs.done | regs.error):
                self.ctrl, self.outcome = ctrl, "done"
                return
            cycles = env.cycle - launched
            self.outcome = self.progress.over(cycles)
            if self.outcome:
                return
            values = {name: (await mailbox.read(off))[0] for name, off in regs.progress.items()} \
                if regs.native else {BEATS: _int(dut.u_tb.tb_beats)}
            self.outcome = self.progress.read(cycles, values)
            if self.outcome:
                return
            if self.progress.report_due():
                self.report(cycles, values)


class FastEnv(uvm_env):
    """The fast mode's environment (top vta_tb_fast): the host agent on the mailbox, the
    Verilog memory, the checkers' latches and the scoreboard; the same interface as the
    full mode's VtaEnv (tb/uvm/env/env.py: Env)."""

    def build_phase(self) -> None:
        self.dut = ConfigDB().get(self, "", "DUT")
        self.verdict: Verdict = ConfigDB().get(self, "", "VERDICT")
        self.hostmap: HostMap = ConfigDB().get(self, "", "HOSTMAP")
        self.dut_log: DutLog = ConfigDB().get(self, "", "DUT_LOG")
        self.host = HostAgent("host", self)
        self.memory = FastMemory("memory", self)
        self.scoreboard = Scoreboard("scoreboard", self)
        self.checks = FastChecks(self.dut, self.verdict, self.hostmap.probes)
        self.stray = self.checks  # the stray-write latch is in the memory; this names the STOREs
        #: no Python bus checker runs here: the table's fast-mode ones are Verilog twins read by
        #: FastChecks (tb/rules/checks.py)
        self.checkers: list[TableChecker] = []
        self.responses = FastResponses(MemStatus(self.dut))
        self.coverage = None  # functional coverage of bus events needs the full mode's monitors
        self.started = time.perf_counter()

    @property
    def mailbox(self) -> Mailbox:
        port = self.host.driver.port
        assert isinstance(port, Mailbox)
        return port

    @property
    def cycle(self) -> int:
        """Clock cycles since the simulation began (tb/rtl/vta_tb_top.v's counter)."""
        return _int(self.dut.u_tb.tb_cycle)

    @property
    def bus_bytes(self) -> int:
        return load_config(ConfigDB().get(self, "", "PLAN").config).bus_bytes

    @property
    def top(self) -> Any:
        """tb/rtl/vta_tb_top.v's instance inside vta_tb_fast."""
        return self.dut.u_tb

    def watch_done(self, limits: "Limits", report: Report) -> Watcher:
        return FastWatch(self, limits, report)

    def end_checks(self) -> bool:
        """Every in-simulation checker's earliest finding fails the job (True if any)."""
        return self.checks.report()

    def capacity(self) -> dict[str, list[bool]]:
        return capacity(self.dut.u_tb.u_order) if self.hostmap.probes else {}

    def contention(self) -> dict[str, Any]:
        return contention(self.dut.u_tb.u_live) if self.hostmap.probes else {}

    def push_pops(self) -> dict[str, list[int]]:
        return push_pops(self.dut.u_tb.u_order) if self.hostmap.probes else {}

    def waived(self) -> dict[str, Any]:
        return self.checks.waived()


def init_inputs(dut: Any) -> None:
    """Every set-up and mailbox input of vta_tb_fast at 0 (a four-state simulator would
    otherwise start them at X)."""
    for name in ("tb_host_go", "tb_host_op", "tb_host_addr", "tb_host_wdata", "tb_host_wstrb",
                 "tb_host_order", "tb_host_lag", "tb_host_bwait", "tb_host_mask", "tb_host_gap",
                 "tb_host_stop", "tb_mem_load",
                 "tb_mem_pages", "tb_mem_profile", "tb_mem_seed", "tb_mem_err_kind", "tb_mem_err_lo",
                 "tb_mem_err_last", "tb_mem_err_resp", "tb_mem_err_rate", "tb_mem_rogue_en",
                 "tb_mem_rogue_lo", "tb_mem_rogue_last", "tb_mem_corrupt_en", "tb_mem_corrupt_lo",
                 "tb_mem_corrupt_last", "tb_mem_dump", "tb_mem_dump_lo", "tb_mem_dump_hi"):
        getattr(dut, name).value = 0
