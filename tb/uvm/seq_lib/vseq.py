"""Virtual sequences: one job from start to verdict.

:class:`RunProgramVseq` is the basic flow (load the vector into the memory agent,
program the registers, launch, wait for DONE under the watchdog, check); the register
map and mid-program reset flows reuse its steps. The sequences run register sequences
on the host agent's sequencer and read everything else from the environment.
"""
from __future__ import annotations

import time
from typing import Any

import cocotb
from cocotb.triggers import ClockCycles, First, Timer
from pyuvm import uvm_sequence

from models.spec import MODULES
from models.vector import Vector
from tb.plan.backpressure import SLOWDOWN
from tb.plan.bus_errors import RESP_NAMES, BusErrorEvent
from tb.plan.dutmap import HostMap
from tb.plan.jobs import Job, Plan
from tb.plan.testbench import PERIOD_NS
from tb.rules.failure import shape
from tb.rules.regs import AXI_STATUS, BY_OFFSET, DONE, ERROR, RUNNING
from tb.uvm.agents.host import HOST_GRACE, HostHung, LaunchSeq, ProgramSeq, ReadRegsSeq
from tb.uvm.context import JobContext
from tb.uvm.env.env import Env
from tb.uvm.env.status import diagnose, foreign_state
from tb.uvm.env.watch import Watcher

#: Simulated cycles per second assumed for the "this will take days" note until the process
#: has measured its own speed, by simulator and testbench mode (README "Testbench modes").
ASSUMED_SPEED = {("icarus", "full"): 1000, ("icarus", "fast"): 1000,
                 ("verilator", "full"): 5000, ("verilator", "fast"): 150_000}
LONG_RUN = 3600.0  # seconds: a job expected to run longer than this says so before it starts


async def reset_dut(dut: Any, cycles: int = 8) -> None:
    """Hold ap_rst_n low for some cycles (agents and checkers clear their state meanwhile)."""
    dut.ap_rst_n.value = 0
    await ClockCycles(dut.ap_clk, cycles)
    dut.ap_rst_n.value = 1
    await ClockCycles(dut.ap_clk, 2)


class RunProgramVseq(uvm_sequence):
    """Load, program, launch, wait for DONE (watchdog), check: one program job.

    Its :class:`~tb.uvm.context.JobContext` is built once (:meth:`prepare`) and handed to
    the components through :meth:`start_job`, the scoreboard, the watchdog's diagnosis and
    the coverage collector.
    """

    def __init__(self, name: str, env: Env, job: Job, vector: Vector, plan: Plan) -> None:
        super().__init__(name)
        self.env = env
        self.job = job
        self.vector = vector
        self.cfg_name = plan.config
        self.sim = plan.sim
        self.mode = plan.mode
        self.timeout = plan.timeout  # wall seconds the job may take (None: no limit)
        self.verdict = env.verdict
        self.dut = env.dut
        self.regs: HostMap = env.hostmap
        self.info: dict[str, Any] = {}

    # --- steps ------------------------------------------------------------------------
    def prepare(self) -> JobContext:
        """The job's context: the model's expected images, STORE footprints and limits.
        A program the model cannot predict is a "model" failure."""
        ctx, problems = JobContext.build(self.job, self.vector, self.cfg_name, self.timeout,
                                         bus_only=not self.regs.native)
        for problem in problems[:1]:
            self.verdict.report(problem)
        self.note_long_run(ctx.limits.bound)
        return ctx

    def note_long_run(self, bound: int) -> None:
        """Say before it starts if the program may take longer than LONG_RUN to simulate."""
        elapsed = time.perf_counter() - self.env.started
        measured = self.env.cycle / elapsed if self.env.cycle > 100_000 else 0
        speed = measured or ASSUMED_SPEED.get((self.sim, self.mode), 1000)
        estimate = bound / speed
        if estimate > LONG_RUN:
            when = f"{estimate / 86400:.1f} days" if estimate > 86400 else f"{estimate / 3600:.1f} hours"
            cap = (f"--timeout {self.timeout:g} s caps it" if self.timeout
                   else "set TIMEOUT= (seconds) to cap it")
            self.verdict.note(f"{self.job.name}: the program's bound is {bound:,} cycles, up to "
                              f"{when} at ~{speed:,.0f} cycles/s; {cap}")

    async def start_job(self, ctx: JobContext) -> None:
        """Hand the context to the memory agent, the stray-write checker and the checker
        table's checkers; set the HDL fault."""
        await self.env.memory.start_job(ctx)
        self.env.stray.start_job(ctx)
        for checker in self.env.checkers:
            checker.start_job(ctx)
        self.dut.tb_fault.value = ctx.fault.code

    async def program_and_launch(self) -> int:
        await ProgramSeq("program", self.vector, self.regs).start(self.env.host.seqr)
        await LaunchSeq("launch", self.regs).start(self.env.host.seqr)
        return self.env.cycle

    async def wait_done(self, ctx: JobContext, launched: int) -> int | None:
        """CTRL value once DONE or ERROR is seen, or None after a failure (watchdog included).

        The environment's watcher (tb/uvm/env/watch.py) holds the DUT to the job's limits; the
        guard of bound + HOST_GRACE cycles only matters if the control port itself stops
        answering.
        """
        total = len(ctx.insns)
        t0 = time.perf_counter()

        def report(cycles: int, values: dict[str, int]) -> None:
            wall = time.perf_counter() - t0
            rate = cycles / wall if wall else 0
            left = ctx.expected_cycles * SLOWDOWN[self.job.profile] - cycles  # an over-estimate
            completed = sum(values.get(f"{m.upper()}_INSNS", 0) for m in MODULES)
            self.verdict.progress(cycles=cycles, dispatched=values.get("DISPATCHED", 0), completed=completed,
                                  insns=total, wall=round(wall, 1), rate=round(rate),
                                  eta=round(left / rate) if rate and left > 0 else None)

        watcher = self.env.watch_done(ctx.limits, report)
        task = cocotb.start_soon(watcher.run())
        failed = self.verdict.failed
        await First(task.complete, failed.wait(),
                    Timer((ctx.limits.bound + HOST_GRACE) * PERIOD_NS, "ns"))
        if task.done() and watcher.outcome == "done" and not failed.is_set():
            self.info["done_cycles"] = self.env.cycle - launched
            return watcher.ctrl
        watcher.stop()
        await First(task.complete, Timer(HOST_GRACE * PERIOD_NS, "ns"))
        if not task.done():
            task.cancel()
            self.verdict.fail("watchdog", f"the control port stopped answering: a CTRL read got "
                              f"no response within {HOST_GRACE} cycles", rule="port-hung")
            raise HostHung("control port hung")
        if watcher.outcome == "alarm":
            self.env.end_checks()
        elif not failed.is_set():
            await self.watchdog_fired(ctx, launched, watcher)
        return None

    async def watchdog_fired(self, ctx: JobContext, launched: int, watcher: Watcher) -> None:
        """The per-module diagnosis, headed by which limit the DUT broke."""
        state = await (diagnose(self.env, ctx) if self.regs.native else foreign_state(self.env))
        text = state.text
        events = self.env.responses.events
        if events:
            text += (f"\n  errors  : {self.env.responses.count} error response(s) reached the DUT, "
                     f"first {events[0].describe()}, issued by {self.issuer(ctx, events[0])}")
        cycles = self.env.cycle - launched
        limits = ctx.limits
        if watcher.outcome == "timeout":
            rule = "wall-time"
            why = (f"no DONE within the wall-time limit of {limits.wall:g} s (--timeout): "
                   f"{cycles} cycles simulated, bound {limits.bound}")
        elif watcher.outcome == "stalled":
            rule = "stalled"
            why = (f"no DONE and no progress for {limits.stall} cycles: nothing dispatched or "
                   f"completed, no micro-op, no byte read or written since cycle "
                   f"{watcher.last_change} after launch (stall window from the program, "
                   f"profile {self.job.profile})")
        else:
            rule = "bound"
            why = (f"no DONE within {limits.bound} cycles of launch (bound from {len(ctx.insns)} "
                   f"instructions, profile {self.job.profile})")
        self.verdict.fail("watchdog", f"{why}; state at cycle {self.env.cycle}:\n{text}", rule=rule,
                          module=state.module, form=state.form)
        if state.hung:
            raise HostHung("control port hung while reading status registers")

    def fail_register(self, message: str) -> None:
        """A register value against the spec: the rule is the finding's wording (shape)."""
        self.verdict.fail("register", message, rule=shape(message))

    async def check(self, ctx: JobContext, ctrl: int) -> None:
        """Registers after DONE, then the scoreboard; the executed program to coverage.

        The performance counters go into the job's result record (``counters``), so
        tests and tb/bench_rtl.py get the RTL's own figures for every passing program.
        """
        counters = self.regs.counters
        regs = ReadRegsSeq("after", [self.regs.cycles, *counters.values()])
        await regs.start(self.env.host.seqr)
        cycles = regs.values[self.regs.cycles][0]
        self.info["cycles"] = cycles
        self.info["counters"] = {name: regs.values[off][0] for name, off in counters.items()}
        if self.env.responses.events:
            self.fail_register(f"CTRL reads {ctrl:#x} after DONE without ERROR (bit 2), "
                              f"but the memory answered "
                              f"{self.env.responses.events[0].describe()} (rtl/README.md: "
                              f"any error response sets CTRL.ERROR until the next launch)")
            return
        if ctrl != self.regs.done:
            self.fail_register(f"CTRL reads {ctrl:#x} after DONE, spec section 5 says "
                              f"{self.regs.done:#x}")
        if not 0 < cycles <= self.info["done_cycles"]:
            self.fail_register(f"CYCLES = {cycles} but DONE was seen "
                              f"{self.info['done_cycles']} cycles after the launch write")
        if self.job.fault == "corrupt-read" and self.env.memory.corrupted_at is None:
            never = "the corrupt-read fault never fired: no data LOAD read"
            self.verdict.fail("error", never, rule=shape(never))
            return
        await self.env.memory.read_back(ctx)
        cmp = self.env.scoreboard.check(ctx, self.env.memory.dram)
        self.info["compared_bytes"] = cmp.compared_bytes
        if not self.verdict.failures and self.regs.native:  # rtl/'s own work counters
            self.env.scoreboard.check_counters(ctx, self.info["counters"], cycles)
        elif not self.verdict.failures:  # those a foreign DUT's profile documents
            self.env.scoreboard.check_counts(ctx, self.regs.counts, self.info["counters"])
        if self.env.coverage is not None:
            self.env.coverage.program_done(ctx)

    def issuer(self, ctx: JobContext, event: BusErrorEvent) -> str:
        """The instruction(s) whose bus access got the error response, from the footprints."""
        return ctx.issuer(event, self.env.bus_bytes)

    async def bus_error(self, ctx: JobContext, ctrl: int) -> None:
        """CTRL.ERROR is set: report the first error response, its burst and instruction."""
        regs = ReadRegsSeq("axi_status", [AXI_STATUS])
        await regs.start(self.env.host.seqr)
        status = regs.values[AXI_STATUS][0]
        events = self.env.responses.events
        if not events:
            self.fail_register(f"CTRL reads {ctrl:#x}: ERROR is set, but no error response "
                              f"was seen on the memory port (AXI_STATUS = {status:#010x})")
            return
        first = events[0]
        flag = BY_OFFSET[AXI_STATUS].field("read_error" if first.channel == "R" else "write_error")
        flag_bit = flag.lsb
        if not flag.get(status):
            self.fail_register(f"CTRL.ERROR is set after {first.describe()}, but "
                              f"AXI_STATUS = {status:#010x} lacks bit {flag_bit} (rtl/README.md)")
            return
        outcome = "it had completed (DONE)" if ctrl & DONE else "it had not completed"
        bits = "|".join(n for n, b in (("RUNNING", RUNNING), ("DONE", DONE), ("ERROR", ERROR))
                        if ctrl & b)
        self.verdict.fail("bus-error", f"{first.describe()}, issued by {self.issuer(ctx, first)}; "
                          f"{self.env.responses.count} error response(s) in all. The DUT flagged "
                          f"it: CTRL = "
                          f"{ctrl:#x} ({bits}), AXI_STATUS = {status:#010x} (bit {flag_bit}); "
                          f"{outcome} when the host saw ERROR. Results are not compared after a "
                          f"bus error.", rule=RESP_NAMES[first.resp],
                          **ctx.issuer_fields(first, self.env.bus_bytes))

    # --- the flow -----------------------------------------------------------------------
    async def body(self) -> None:
        ctx = self.prepare()
        if self.verdict.failures:
            return
        self.info["insns"] = len(ctx.insns)
        self.info["bound"] = ctx.limits.bound
        self.info["stall"] = ctx.limits.stall
        await self.start_job(ctx)
        launched = await self.program_and_launch()
        ctrl = await self.wait_done(ctx, launched)
        if ctrl is None or self.verdict.failures or self.env.end_checks():
            return
        if ctrl & self.regs.error:
            await self.bus_error(ctx, ctrl)
        else:
            await self.check(ctx, ctrl)
