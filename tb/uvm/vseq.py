"""Virtual sequences: one job from start to verdict.

:class:`RunProgramVseq` is the basic flow (load the vector into the memory agent,
program the registers, launch, wait for DONE under the watchdog, check); the register
map and mid-program reset flows reuse its steps. The sequences run register sequences
on the host agent's sequencer and read everything else from the environment.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import cocotb
from cocotb.triggers import ClockCycles, First
from pyuvm import uvm_sequence

from models.asm import disasm_insn
from models.checker import CheckReport, check_vector
from models.executor import ExecResult, ProgramError, fetch_program, run_vector, written_images
from models.isa import MemType, Opcode, module_of
from models.vector import Image, Vector
from tb.uvm.buserr import ERROR_RESPS, BusErrorEvent, BusErrorPlan, ErrorRange
from tb.uvm.env import VtaEnv
from tb.uvm.faults import BUS_ERROR_RATE
from tb.uvm.faults import fault as fault_of
from tb.uvm.host import LaunchSeq, ProgramSeq, ReadRegsSeq, RegSeq
from tb.uvm.jobs import Job
from tb.uvm.profiles import SLOWDOWN
from tb.uvm.regs import (
    AXI_STATUS,
    BY_OFFSET,
    COUNTERS,
    CTRL,
    CYCLES,
    DONE,
    ERROR,
    MODULES,
    PROGRESS,
    RUNNING,
)
from tb.uvm.status import diagnose
from tb.uvm.stray import AllowedWrites
from tb.uvm.txn import InsnEvent
from tb.uvm.watchdog import cycle_bound, stall_window, work_estimate

DATA_TYPES = (MemType.INP, MemType.WGT, MemType.ACC, MemType.ACC_8BIT)
POLL_GAP = 16  # cycles between CTRL polls: DONE is seen at most this late
PROGRESS_GAP = 1024  # cycles between reads of the progress counters (stall window >= 4096)
REPORT_EVERY = 2.0  # seconds of wall time between progress records of a running job
HOST_GRACE = 4000  # cycles a register access may take before the control port counts as hung
#: Simulated cycles per second assumed for the "this will take days" note until the process
#: has measured its own speed (README figures of this testbench).
ASSUMED_SPEED = {"icarus": 2000, "verilator": 5000}
LONG_RUN = 3600.0  # seconds: a job expected to run longer than this says so before it starts


class HostHung(RuntimeError):
    """The control port stopped answering: the simulation cannot continue with this DUT state."""


async def reset_dut(dut: Any, cycles: int = 8) -> None:
    """Hold ap_rst_n low for some cycles (agents and checkers clear their state meanwhile)."""
    dut.ap_rst_n.value = 0
    await ClockCycles(dut.ap_clk, cycles)
    dut.ap_rst_n.value = 1
    await ClockCycles(dut.ap_clk, 2)


@dataclass
class Prepared:
    """What the model says about a program before it runs."""

    vector: Vector
    insns: list[dict]
    expect: list[Image]
    result: ExecResult | None
    check: CheckReport
    bound: int  # cycles from launch to DONE (tb/uvm/watchdog.py)
    stall: int  # cycles without progress after which the DUT has stopped
    expected: int  # cycles the work takes without backpressure (an over-estimate)
    info: dict = field(default_factory=dict)


@dataclass
class Limits:
    """What a running program is held to (tb/uvm/watchdog.py): cycles since launch, cycles
    without progress, and wall-clock seconds (``--timeout``; None: no wall limit)."""

    bound: int
    stall: int
    wall: float | None = None


class WatchDoneSeq(RegSeq):
    """Poll CTRL every POLL_GAP cycles until DONE or ERROR, holding the DUT to its limits.

    Every PROGRESS_GAP cycles it also reads the progress counters (regs.PROGRESS): if none
    moved for ``limits.stall`` cycles the DUT has stopped. ``outcome`` says how it ended:
    "done" (``ctrl`` holds CTRL), "bound", "stalled" or "timeout"; "" if ``stop()`` ended it.
    ``report(cycles, values)`` (progress counters by name) is called at most every
    REPORT_EVERY seconds of wall time.
    """

    def __init__(self, name: str, clock: Any, now: Callable[[], int], limits: Limits,
                 stop: Callable[[], bool], report: Callable[[int, dict[str, int]], None]) -> None:
        super().__init__(name)
        self.clock, self.now, self.limits, self.stop, self.report = clock, now, limits, stop, report
        self.ctrl: int | None = None
        self.outcome = ""
        self.last_change = 0  # cycle (since launch) the progress counters last moved

    async def body(self) -> None:
        launched, t0 = self.now(), time.perf_counter()
        values: dict[str, int] = {}
        next_check, next_report = PROGRESS_GAP, t0 + REPORT_EVERY
        while not self.stop():
            value = (await self.read(CTRL)).data
            if value & (DONE | ERROR):
                self.ctrl, self.outcome = value, "done"
                return
            cycles = self.now() - launched
            if cycles > self.limits.bound:
                self.outcome = "bound"
                return
            if self.limits.wall is not None and time.perf_counter() - t0 > self.limits.wall:
                self.outcome = "timeout"
                return
            if cycles >= next_check:
                now_values = {name: (await self.read(off)).data for name, off in PROGRESS.items()}
                if now_values != values:
                    values, self.last_change = now_values, cycles
                elif cycles - self.last_change > self.limits.stall:
                    self.outcome = "stalled"
                    return
                next_check = cycles + PROGRESS_GAP
                if time.perf_counter() >= next_report:
                    self.report(cycles, values)
                    next_report = time.perf_counter() + REPORT_EVERY
            await ClockCycles(self.clock, POLL_GAP)


class RunProgramVseq(uvm_sequence):
    """Load, program, launch, wait for DONE (watchdog), check: one program job."""

    def __init__(self, name: str, env: VtaEnv, job: Job, vector: Vector, cfg_name: str,
                 sim: str = "", timeout: float | None = None) -> None:
        super().__init__(name)
        self.env = env
        self.job = job
        self.vector = vector
        self.cfg_name = cfg_name
        self.sim = sim
        self.timeout = timeout  # wall seconds the job may take (None: no limit)
        self.verdict = env.verdict
        self.dut = env.dut
        self.info: dict[str, Any] = {}

    # --- steps ------------------------------------------------------------------------
    def prepare(self) -> Prepared:
        """Ask the model for the expected images, STORE footprints and the cycle bound."""
        v, cfg = self.vector, self.vector.config
        check = check_vector(v, cmd_queue_depth=cfg.cmd_queue_depth,
                             token_queue_depth=cfg.token_queue_depth)
        if not check.ok and not self.job.deadlock:
            self.verdict.fail("model", f"the program is not well-formed, so it has no single "
                              f"defined result:\n    {check.format()}")
        try:
            result = run_vector(v)
        except ProgramError as exc:
            result = None
            if v.expect is None and not self.job.deadlock:
                self.verdict.fail("model", f"the golden model cannot run the program: {exc}")
        expect = v.expect if v.expect is not None else (written_images(result) if result else [])
        try:
            insns = fetch_program(cfg, v.dram(), v.insn_addr, v.insn_count)
        except ProgramError:
            insns = [i for i in check.insns if i is not None]
        slowdown = SLOWDOWN[self.job.profile]
        bound = cycle_bound(cfg, insns, slowdown)
        self.note_long_run(bound)
        return Prepared(v, insns, expect, result, check, bound, stall_window(insns, slowdown),
                        work_estimate(cfg, insns))

    def note_long_run(self, bound: int) -> None:
        """Say before it starts if the program may take longer than LONG_RUN to simulate."""
        elapsed = time.perf_counter() - self.env.sampler.started
        measured = self.env.sampler.cycle / elapsed if self.env.sampler.cycle > 100_000 else 0
        speed = measured or ASSUMED_SPEED.get(self.sim, 2000)
        estimate = bound / speed
        if estimate > LONG_RUN:
            when = f"{estimate / 86400:.1f} days" if estimate > 86400 else f"{estimate / 3600:.1f} hours"
            cap = (f"--timeout {self.timeout:g} s caps it" if self.timeout
                   else "set TIMEOUT= (seconds) to cap it")
            self.verdict.note(f"{self.job.name}: the program's bound is {bound:,} cycles, up to "
                              f"{when} at ~{speed:,.0f} cycles/s; {cap}")

    def data_reads(self, p: Prepared) -> list[tuple[int, int]]:
        """[lo, hi) of every byte a LOAD of INP/WGT/ACC/ACC_8BIT reads (no instructions or uops,
        whose corruption could hang the program instead of changing its data)."""
        return [(a, a + n) for i, fp in enumerate(p.check.footprints)
                if (insn := p.check.insns[i]) and insn["opcode"] == Opcode.LOAD
                and insn["memory_type"] in DATA_TYPES for a, n in fp.dram_reads]

    def bus_errors(self, p: Prepared) -> BusErrorPlan:
        """The error responses the job's fault asks the memory to give (tb/uvm/faults.py)."""
        spec = fault_of(self.job.fault).bus_error
        if spec is None or spec[0] == "unrequested":
            return BusErrorPlan()
        where, resp = spec
        if where == "random":
            return BusErrorPlan(rate=BUS_ERROR_RATE, seed=self.job.seed)
        if where == "fetch":
            lo, hi = p.vector.insn_addr, p.vector.insn_addr + 16
        elif where == "read":
            lo, hi = self.data_reads(p)[0]
        else:
            lo, n, _ = p.check.dram_write_ranges()[0]
            hi = lo + n
        kind = "write" if where == "write" else "read"
        return BusErrorPlan([ErrorRange(kind, lo, hi, ERROR_RESPS[resp])], seed=self.job.seed)

    def load(self, p: Prepared) -> None:
        """Fresh DRAM, STORE footprints for the stray-write checker, profile and faults."""
        mem = self.env.memory
        mem.load(p.vector.dram(), self.bus_errors(p))
        mem.set_profile(self.job.profile, self.job.seed)
        if self.job.fault == "corrupt-read":
            mem.target.corrupt = self.data_reads(p)
        if self.job.fault == "unrequested-slverr":
            mem.target.fail_reads = self.data_reads(p)[:1]
        cfg = p.vector.config

        def describe(i: int) -> str:
            insn = p.check.insns[i]
            return disasm_insn(cfg, insn) if insn else "?"

        self.env.stray.allowed = AllowedWrites(p.check.dram_write_ranges(), describe)
        self.env.stray.report = lambda msg: self.verdict.fail("stray-write", msg)
        self.dut.tb_fault.value = fault_of(self.job.fault).code

    async def program_and_launch(self) -> int:
        await ProgramSeq("program", self.vector).start(self.env.host.seqr)
        await LaunchSeq("launch").start(self.env.host.seqr)
        return self.env.sampler.cycle

    async def wait_done(self, p: Prepared, launched: int) -> int | None:
        """CTRL value once DONE or ERROR is seen, or None after a failure (watchdog included).

        The guard of bound + HOST_GRACE cycles only matters if the control port itself
        stops answering; every other limit is the poll sequence's (WatchDoneSeq).
        """
        stop = {"now": False}
        limits = Limits(p.bound, p.stall, self.timeout)
        total = len(p.insns)

        def report(cycles: int, values: dict[str, int]) -> None:
            wall = time.perf_counter() - t0
            rate = cycles / wall if wall else 0
            left = p.expected * SLOWDOWN[self.job.profile] - cycles  # an over-estimate
            completed = sum(values[f"{m.upper()}_INSNS"] for m in MODULES)
            self.verdict.progress(cycles=cycles, dispatched=values["DISPATCHED"], completed=completed,
                                  insns=total, wall=round(wall, 1), rate=round(rate),
                                  eta=round(left / rate) if rate and left > 0 else None)

        t0 = time.perf_counter()
        poll = WatchDoneSeq("poll", self.dut.ap_clk, lambda: self.env.sampler.cycle, limits,
                            lambda: stop["now"], report)
        task = cocotb.start_soon(poll.start(self.env.host.seqr))
        failed = self.verdict.failed
        await First(task.complete, failed.wait(),
                    ClockCycles(self.dut.ap_clk, p.bound + HOST_GRACE))
        if task.done() and poll.outcome == "done" and not failed.is_set():
            self.info["done_cycles"] = self.env.sampler.cycle - launched
            return poll.ctrl
        stop["now"] = True
        await First(task.complete, ClockCycles(self.dut.ap_clk, HOST_GRACE))
        if not task.done():
            task.cancel()
            self.verdict.fail("watchdog", f"the control port stopped answering: a CTRL read got "
                              f"no response within {HOST_GRACE} cycles")
            raise HostHung("control port hung")
        if not failed.is_set():
            await self.watchdog_fired(p, launched, poll)
        return None

    async def watchdog_fired(self, p: Prepared, launched: int, poll: WatchDoneSeq) -> None:
        """The per-module diagnosis, headed by which limit the DUT broke."""
        text, hung = await diagnose(self.env, p.vector.config, p.insns)
        events = self.env.responses.events
        if events:
            text += (f"\n  errors  : {len(events)} error response(s) reached the DUT, first "
                     f"{events[0].describe()}, issued by {self.issuer(p, events[0])}")
        cycles = self.env.sampler.cycle - launched
        if poll.outcome == "timeout":
            why = (f"no DONE within the wall-time limit of {self.timeout:g} s (--timeout): "
                   f"{cycles} cycles simulated, bound {p.bound}")
        elif poll.outcome == "stalled":
            why = (f"no DONE and no progress for {p.stall} cycles: nothing dispatched or "
                   f"completed, no micro-op, no byte read or written since cycle "
                   f"{poll.last_change} after launch (stall window from the program, "
                   f"profile {self.job.profile})")
        else:
            why = (f"no DONE within {p.bound} cycles of launch (bound from {len(p.insns)} "
                   f"instructions, profile {self.job.profile})")
        self.verdict.fail("watchdog", f"{why}; state at cycle {self.env.sampler.cycle}:\n{text}")
        if hung:
            raise HostHung("control port hung while reading status registers")

    async def check(self, p: Prepared, ctrl: int) -> None:
        """Registers after DONE, then the scoreboard; publish executed instructions.

        The performance counters go into the job's result record (``counters``), so
        tests and tb/bench_rtl.py get the RTL's own figures for every passing program.
        """
        regs = ReadRegsSeq("after", [CYCLES, *COUNTERS.values()])
        await regs.start(self.env.host.seqr)
        cycles = regs.values[CYCLES][0]
        self.info["cycles"] = cycles
        self.info["counters"] = {name: regs.values[off][0] for name, off in COUNTERS.items()}
        if self.env.responses.events:
            self.verdict.fail("register", f"CTRL reads {ctrl:#x} after DONE without ERROR (bit 2), "
                              f"but the memory answered "
                              f"{self.env.responses.events[0].describe()} (rtl/README.md: "
                              f"any error response sets CTRL.ERROR until the next launch)")
            return
        if ctrl != DONE:
            self.verdict.fail("register", f"CTRL reads {ctrl:#x} after DONE, spec section 5 says 0x2")
        if not 0 < cycles <= self.info["done_cycles"]:
            self.verdict.fail("register", f"CYCLES = {cycles} but DONE was seen "
                              f"{self.info['done_cycles']} cycles after the launch write")
        if self.job.fault == "corrupt-read" and self.env.memory.target.corrupted_at is None:
            self.verdict.fail("error", "the corrupt-read fault never fired: no data LOAD read")
            return
        cmp = self.env.scoreboard.check(p.vector, p.expect, p.result, self.env.memory.dram,
                                        self.verdict.fail)
        self.info["compared_bytes"] = cmp.compared_bytes
        if self.env.coverage_ap.subscribers:
            cfg = p.vector.config
            for n, insn in enumerate(p.insns):
                self.env.coverage_ap.write(InsnEvent(n, module_of(insn), insn,
                                                     disasm_insn(cfg, insn), self.cfg_name))

    def issuer(self, p: Prepared, event: BusErrorEvent) -> str:
        """The instruction(s) whose bus access got the error response, from the footprints."""
        v, cfg = p.vector, p.vector.config
        lo = event.addr
        hi = lo + (event.beats * self.env.axi_port.data_bytes if event.channel == "B"
                   else self.env.axi_port.data_bytes - lo % self.env.axi_port.data_bytes)
        if event.channel == "R" and lo < v.insn_addr + 16 * v.insn_count and v.insn_addr < hi:
            first = max(0, (lo - v.insn_addr) // 16)
            last = min(v.insn_count - 1, (hi - 1 - v.insn_addr) // 16)
            return f"the instruction fetch of insns #{first}..#{last}"
        names = []
        for i, fp in enumerate(p.check.footprints):
            ranges = fp.dram_writes if event.channel == "B" else fp.dram_reads
            insn = p.check.insns[i]
            if insn and any(a < hi and lo < a + n for a, n in ranges):
                names.append(f"#{i} {disasm_insn(cfg, insn)}")
        if not names:
            return "no instruction of the program (the access lies outside every footprint)"
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        return "insn " + "; ".join(names[:3]) + more

    async def bus_error(self, p: Prepared, ctrl: int) -> None:
        """CTRL.ERROR is set: report the first error response, its burst and instruction."""
        regs = ReadRegsSeq("axi_status", [AXI_STATUS])
        await regs.start(self.env.host.seqr)
        status = regs.values[AXI_STATUS][0]
        events = self.env.responses.events
        if not events:
            self.verdict.fail("register", f"CTRL reads {ctrl:#x}: ERROR is set, but no error response "
                              f"was seen on the memory port (AXI_STATUS = {status:#010x})")
            return
        first = events[0]
        flag = BY_OFFSET[AXI_STATUS].field("read_error" if first.channel == "R" else "write_error")
        flag_bit = flag.lsb
        if not flag.get(status):
            self.verdict.fail("register", f"CTRL.ERROR is set after {first.describe()}, but "
                              f"AXI_STATUS = {status:#010x} lacks bit {flag_bit} (rtl/README.md)")
            return
        outcome = "it had completed (DONE)" if ctrl & DONE else "it had not completed"
        bits = "|".join(n for n, b in (("RUNNING", RUNNING), ("DONE", DONE), ("ERROR", ERROR))
                        if ctrl & b)
        self.verdict.fail("bus-error", f"{first.describe()}, issued by {self.issuer(p, first)}; "
                          f"{len(events)} error response(s) in all. The DUT flagged it: CTRL = "
                          f"{ctrl:#x} ({bits}), AXI_STATUS = {status:#010x} (bit {flag_bit}); "
                          f"{outcome} when the host saw ERROR. Results are not compared after a "
                          f"bus error.")

    # --- the flow -----------------------------------------------------------------------
    async def body(self) -> None:
        p = self.prepare()
        if self.verdict.failures:
            return
        self.info["insns"] = len(p.insns)
        self.info["bound"] = p.bound
        self.info["stall"] = p.stall
        self.load(p)
        launched = await self.program_and_launch()
        ctrl = await self.wait_done(p, launched)
        if ctrl is None or self.verdict.failures:
            return
        if ctrl & ERROR:
            await self.bus_error(p, ctrl)
        else:
            await self.check(p, ctrl)


def safe_name(text: str) -> str:
    """A job name usable as a directory name."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")[:120]


def failure_dir(root: Path, sim: str, job: Job) -> Path:
    return root / safe_name(f"{sim}-{job.name}")
