"""The register map under every write timing of the host: the flow ``hostvar``.

AXI4-Lite lets a master present a write's address and data together or either one first,
hold BREADY, and start the next write before the last one's response; the slave must store
the same bytes whichever it gets. For each timing of :func:`variants` (drawn from the job's
seed), after a reset, this flow runs the register-map sweep of tb/uvm/flows.py (RegMapSeq:
every offset against tb/uvm/regs.py, patterns, contiguous byte strobes, ignored writes),
writes of every WSTRB pattern to the R/W registers, a batch of writes back to back (in the
back-to-back timing each one presented before the response of the one before), and a launch
of tb/sweep_programs.py's mixed program whose START comes with every other CTRL bit set
(after a START whose byte lane is not strobed, which must not launch), with every register
read while it runs and the result checked as any program's. Every problem is a "register"
failure naming the timing.

The RTL honours WSTRB on every R/W register (rtl/README.md, register map) -- upstream's
Chisel VCR writes the whole word whatever WSTRB says -- so a write of strobes S must change
exactly the bytes of S, and none for S = 0.
"""
from __future__ import annotations

import random
from typing import Any, Callable

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.config import VtaConfig, load_config
from tb.sweep_programs import mixed
from tb.uvm.claims import view
from tb.uvm.context import JobContext
from tb.uvm.env import Env
from tb.uvm.flows import HELD, LAUNCH_PROGRAM_SEED, RegMapSeq
from tb.uvm.host import DEFAULT_TIMING, MAX_WAIT, HostTiming, ProgramSeq, RegSeq, WordWrite
from tb.uvm.jobs import Job, Plan
from tb.uvm.regs import (
    BASE_REGS,
    BY_OFFSET,
    CTRL,
    CYCLES,
    DONE,
    ERROR,
    FIRST_UNMAPPED,
    INSN_ADDR,
    INSN_COUNT,
    REGISTERS,
    RUNNING,
    START,
)
from tb.uvm.vseq import RunProgramVseq, reset_dut

#: WSTRB patterns beyond one run of bytes (which RegMapSeq covers), and none at all.
STROBE_MASKS = (0b0000, 0b0101, 0b1010, 0b1001, 0b0110, 0b1011, 0b1101)
#: Cycles after a START that must be ignored during which CTRL and CYCLES must not move.
IGNORED_START_WAIT = 20


def variants(seed: int) -> dict[str, HostTiming]:
    """The host timings the flow runs, lags and BREADY and RREADY holds drawn from ``seed``."""
    rng = random.Random(seed)
    return {"together": DEFAULT_TIMING,
            "aw-first": HostTiming("aw-first", rng.randint(0, MAX_WAIT), rng.randint(0, MAX_WAIT)),
            "w-first": HostTiming("w-first", rng.randint(0, MAX_WAIT), rng.randint(0, MAX_WAIT)),
            "back-to-back": HostTiming(bwait=rng.randint(1, MAX_WAIT), pipelined=True)}


def merged(old: int, data: int, strb: int) -> int:
    """The word a write of ``data`` with byte strobes ``strb`` leaves in a register holding ``old``."""
    mask = sum(0xFF << 8 * lane for lane in range(4) if strb >> lane & 1)
    return old & ~mask | data & mask


def presented(watch: Any) -> dict[str, int]:
    """How the host's writes reached the control port since the last reset
    (tb/rtl/vta_tb_lite_watch.v's counts)."""
    return {name: int(getattr(watch, name).value)
            for name in ("together", "aw_first", "w_first", "overlapped", "b_held")}


def timing_problem(timing: HostTiming, seen: dict[str, int]) -> str:
    """Whether the port saw the writes in ``timing`` ("" if it did): every write in the
    timing's order, one begun before the last was answered only when pipelined, and every
    response held back when BREADY waits."""
    writes = seen["together"] + seen["aw_first"] + seen["w_first"]
    order = seen[timing.order.replace("-", "_")]
    if not writes or order != writes:
        return f"{order} of {writes} writes came {timing.order}"
    if timing.pipelined != bool(seen["overlapped"]):
        return (f"{seen['overlapped']} writes began while the one before awaited its response; "
                f"expected {'some' if timing.pipelined else 'none'}")
    if timing.bwait and seen["b_held"] < writes:
        return f"responses waited {seen['b_held']} cycles for BREADY in all, fewer than one per write"
    return ""


class StrobeSeq(RegSeq):
    """Every R/W register written under each WSTRB of STROBE_MASKS: only the strobed bytes
    change (none for WSTRB 0), and every response is OKAY."""

    def __init__(self, name: str, report: Callable[[str], None]) -> None:
        super().__init__(name)
        self.report = report

    async def body(self) -> None:
        for n, reg in enumerate(HELD):
            value = 0x0F1E2D3C ^ 0x01010101 * n
            await self.write(reg.offset, value)
            for strb in STROBE_MASKS:
                data = ~value & 0xFFFFFFFF  # every byte differs: a strobed lane shows
                item = await self.write_strobed(WordWrite(reg.offset, data, strb))
                value = merged(value, data, strb)
                got = await self.read(reg.offset)
                if item.resp or got.resp:
                    self.report(f"{reg.name}: a write with WSTRB {strb:#06b} or its read-back "
                                f"answered {item.resp}/{got.resp} instead of OKAY")
                elif got.data != value:
                    self.report(f"{reg.name} reads {got.data:#010x} after a write of {data:#010x} "
                                f"with WSTRB {strb:#06b}; only the strobed bytes may change: "
                                f"expected {value:#010x}")
                    return


class BatchSeq(RegSeq):
    """One batch of writes, back to back: a distinct word to every R/W register, one byte
    lane of each rewritten, and writes to every read-only register and an unmapped offset
    in between (ignored); then each register reads what the batch left."""

    def __init__(self, name: str, cfg: VtaConfig, report: Callable[[str], None]) -> None:
        super().__init__(name)
        self.cfg = cfg
        self.report = report

    async def body(self) -> None:
        want = {reg.offset: 0x13579BDF ^ 0x11111111 * n for n, reg in enumerate(HELD)}
        ignored = [r.offset for r in REGISTERS if r.access == "R"] + [FIRST_UNMAPPED]
        batch = [WordWrite(addr, value) for addr, value in want.items()]
        batch += [WordWrite(addr, 0xFFFFFFFF) for addr in ignored]
        for n, addr in enumerate(want):
            lane = n % 4
            batch.append(WordWrite(addr, 0xA5 << 8 * lane, 1 << lane))
            want[addr] = merged(want[addr], 0xA5 << 8 * lane, 1 << lane)
        item = await self.write_batch(tuple(batch))
        if any(item.resps) or len(item.resps) != len(batch):
            self.report(f"a batch of {len(batch)} writes was answered {item.resps}, expected "
                        f"{len(batch)} OKAY responses")
            return
        for addr in [*want, *ignored]:
            reg = BY_OFFSET.get(addr)
            expected = want.get(addr, reg.reset_value(self.cfg) if reg else 0)
            got = await self.read(addr)
            if got.data != expected:
                name = reg.name if reg else f"unmapped offset {addr:#06x}"
                self.report(f"{name} reads {got.data:#010x} after a batch of writes, expected "
                            f"{expected:#010x}")
                return


class TimingSeq(RegSeq):
    """Set the host's write timing, in order with the accesses before it."""

    def __init__(self, name: str, timing: HostTiming) -> None:
        super().__init__(name)
        self.timing = timing

    async def body(self) -> None:
        await self.set_timing(self.timing)


class LaunchSeq(RegSeq):
    """The mixed program launched by a CTRL write with every bit set (bits other than START
    are read-only or unused: a write ignores them), after a START whose byte lane is not
    strobed (it must not launch); every register read while the program runs; then DONE
    and the result checked as any program's (RunProgramVseq.check)."""

    def __init__(self, name: str, env: Env, plan: Plan, seed: int,
                 report: Callable[[str], None]) -> None:
        super().__init__(name)
        self.env = env
        self.cfg = load_config(plan.config)
        self.vector = mixed(self.cfg, LAUNCH_PROGRAM_SEED)
        self.run = RunProgramVseq("launch", env, Job("launch", seed=seed), self.vector, plan)
        self.report = report
        self.sweeps = 0  # sweeps of every register completed while the program ran

    async def body(self) -> None:
        env, run = self.env, self.run
        ctx = run.prepare()
        if env.verdict.failures:
            return
        await run.start_job(ctx)
        await ProgramSeq("program", self.vector).start(env.host.seqr)
        item = await self.write_strobed(WordWrite(CTRL, START, 0b1110))
        await ClockCycles(env.dut.ap_clk, IGNORED_START_WAIT)
        ctrl, cycles = (await self.read(CTRL)).data, (await self.read(CYCLES)).data
        if item.resp or ctrl != 0 or cycles != 0:
            self.report(f"a START whose byte lane 0 is not strobed (WSTRB 0b1110) launched or "
                        f"failed: response {item.resp}, then CTRL {ctrl:#x} and CYCLES {cycles}, "
                        f"expected OKAY, 0 and 0")
            return
        item = await self.write(CTRL, 0xFFFFFFFF)
        launched = env.cycle
        if item.resp:
            self.report(f"the launching CTRL write (0xffffffff) answered {item.resp} instead of OKAY")
            return
        await self.read_while_running(ctx)
        if env.verdict.failures:
            return
        done = await run.wait_done(ctx, launched)
        if done is None or env.verdict.failures or env.end_checks():
            return
        if done & ERROR:
            await run.bus_error(ctx, done)
        else:
            await run.check(ctx, done)

    async def read_while_running(self, ctx: JobContext) -> None:
        """Every register, over and over until CTRL shows DONE: CTRL reads RUNNING, the
        counters and CYCLES never go back, the programmed registers keep their values,
        HW_INFO its build's and unmapped offsets 0; every read answers OKAY."""
        programmed = {INSN_COUNT: self.vector.insn_count, INSN_ADDR: self.vector.insn_addr,
                      **{BASE_REGS[b]: self.vector.bases.get(b, 0) for b in BASE_REGS}}
        last: dict[int, int] = {}
        limit = self.env.cycle + ctx.limits.bound
        while self.env.cycle < limit:
            ctrl = await self.read(CTRL)
            if ctrl.data & (DONE | ERROR):
                return
            if ctrl.resp or ctrl.data != RUNNING:
                self.report(f"CTRL reads {ctrl.data:#x} (response {ctrl.resp}) while the program "
                            f"runs, expected {RUNNING:#x} (RUNNING)")
                return
            for reg in (*REGISTERS[1:], None):
                addr = reg.offset if reg else FIRST_UNMAPPED
                got = await self.read(addr)
                problem = self.judge(reg, got.data, got.resp, last.get(addr), programmed)
                if problem:
                    self.report(f"read while the program runs: {problem}")
                    return
                last[addr] = got.data
            self.sweeps += 1

    def judge(self, reg: Any, value: int, resp: int, before: int | None,
              programmed: dict[int, int]) -> str:
        """What is wrong with one read during the run ("" if nothing)."""
        name = reg.name if reg else f"unmapped offset {FIRST_UNMAPPED:#06x}"
        if resp:
            return f"{name} answered {resp} instead of OKAY"
        if reg is None and value:
            return f"{name} reads {value:#x}, expected 0"
        if reg is not None and reg.offset in programmed and value != programmed[reg.offset]:
            return f"{name} reads {value:#x}, programmed {programmed[reg.offset]:#x}"
        if reg is not None and reg.kind == "info" and value != reg.reset_value(self.cfg):
            return f"{name} reads {value:#x}, the build's parameters are {reg.reset_value(self.cfg):#x}"
        if reg is not None and reg.kind == "counter" and before is not None and value < before:
            return f"{name} went back from {before} to {value}"
        if reg is not None and reg.offset == CYCLES and before is not None and value < before:
            return f"CYCLES went back from {before} to {value}"
        return ""


class HostTimingVseq(uvm_sequence):
    """The flow ``hostvar`` (module docstring): each timing of :func:`variants` in turn,
    after a reset; the host's timing is the default again when it ends."""

    def __init__(self, name: str, env: Env, job: Job, vector: None, plan: Plan) -> None:
        super().__init__(name)
        self.env, self.job, self.plan = env, job, plan
        self.cfg = load_config(plan.config)
        self.info: dict[str, Any] = {}

    async def body(self) -> None:
        seqr = self.env.host.seqr
        self.info = {"timings": {}, "sweeps_while_running": {}, "presented": {}}
        try:
            for name, variant in variants(self.job.seed).items():
                await reset_dut(self.env.dut)
                await TimingSeq("timing", variant).start(seqr)
                self.info["timings"][name] = str(variant)
                report = self.reporter(name, variant)
                await RegMapSeq("regmap", view(self.plan.dut, self.cfg), report).start(seqr)
                for seq in (StrobeSeq("strobes", report), BatchSeq("batch", self.cfg, report)):
                    if not self.env.verdict.failures:
                        await seq.start(seqr)
                if self.env.verdict.failures:
                    return
                launch = LaunchSeq("launch", self.env, self.plan, self.job.seed, report)
                await launch.start(seqr)
                self.info["sweeps_while_running"][name] = launch.sweeps
                if self.env.verdict.failures:
                    return
                if not launch.sweeps:
                    report("the program finished before one sweep of the registers: no read "
                           "happened during a run")
                    return
                seen = presented(self.env.top.u_lite)
                self.info["presented"][name] = seen
                problem = timing_problem(variant, seen)
                if problem:
                    report(f"the writes did not reach the port in this timing: {problem} "
                           f"(tb/rtl/vta_tb_lite_watch.v: {seen})")
                    return
        finally:
            await TimingSeq("timing", DEFAULT_TIMING).start(seqr)

    def reporter(self, name: str, variant: HostTiming) -> Callable[[str], None]:
        return lambda msg: self.env.verdict.fail("register", f"host timing {name} ({variant}): {msg}")
