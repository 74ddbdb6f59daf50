"""The register map under every write timing of the host: the flow ``hostvar``.

AXI4-Lite lets a master present a write's address and data together or either one first,
hold BREADY, and start the next write before the last one's response; the slave must store
the same bytes whichever it gets. For each timing of :func:`variants` (drawn from the job's
seed), after a reset, this flow runs the register-map sweep of tb/uvm/seq_lib/regmap.py (RegMapSeq:
every offset against tb/rules/regs.py, patterns, contiguous byte strobes, ignored writes),
writes of every WSTRB pattern to the R/W registers, a batch of writes back to back (in the
back-to-back timing each one presented before the response of the one before), and a launch
of tb/sweep_programs.py's mixed program whose START comes with every other CTRL bit set
(after a START whose byte lane is not strobed, which must not launch), with every register
read while it runs and the result checked as any program's. Every problem is a "register"
failure naming the timing.

The RTL honours WSTRB on every R/W register (rtl/README.md, register map) -- upstream's
Chisel VCR writes the whole word whatever WSTRB says -- so a write of strobes S must change
exactly the bytes of S, and none for S = 0.

On a foreign DUT the flow checks what its profile states (tb/plan/claims.py): its R/W
registers, its CYCLES and unmapped offsets under each timing, the strobes unless it states
``host.wstrb-ignored``, the data-first timing unless it states ``host.aw-before-w``; how its
port took the writes is recorded, not judged (rtl/'s claim), and the launch is a plain
START. The record's ``not_checked`` names every claim left out with the reason.
"""
from __future__ import annotations

import random
from typing import Any, Callable

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.spec.configs import load_config
from models.vector import BASE_NAMES as BASES
from tb.plan.claims import RegView, view
from tb.plan.jobs import Job, Plan
from tb.rules.failure import shape
from tb.rules.regs import (
    BY_OFFSET,
    CTRL,
    CYCLES,
    RUNNING,
    START,
)
from tb.uvm.agents.host import DEFAULT_TIMING, MAX_WAIT, HostTiming, ProgramSeq, RegSeq, WordWrite
from tb.uvm.context import JobContext
from tb.uvm.env.env import Env
from tb.uvm.seq_lib.launch_flow import launch_program
from tb.uvm.seq_lib.regmap import RegMapSeq
from tb.uvm.seq_lib.vseq import RunProgramVseq, reset_dut

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

    def __init__(self, name: str, regview: RegView, report: Callable[[str], None]) -> None:
        super().__init__(name)
        self.view = regview
        self.report = report

    async def body(self) -> None:
        for n, (name, addr) in enumerate(self.view.held):
            value = 0x0F1E2D3C ^ 0x01010101 * n
            await self.write(addr, value)
            for strb in STROBE_MASKS:
                data = ~value & 0xFFFFFFFF  # every byte differs: a strobed lane shows
                item = await self.write_strobed(WordWrite(addr, data, strb))
                value = merged(value, data, strb)
                got = await self.read(addr)
                if item.resp or got.resp:
                    self.report(f"{name}: a write with WSTRB {strb:#06b} or its read-back "
                                f"answered {item.resp}/{got.resp} instead of OKAY")
                elif got.data != value:
                    self.report(f"{name} reads {got.data:#010x} after a write of {data:#010x} "
                                f"with WSTRB {strb:#06b}; only the strobed bytes may change: "
                                f"expected {value:#010x}")
                    return


class BatchSeq(RegSeq):
    """One batch of writes, back to back: a distinct word to every R/W register, one byte
    lane of each rewritten (where strobes are checked), and writes to every read-only register
    and an unmapped offset in between (ignored); then each register reads what the batch left."""

    def __init__(self, name: str, regview: RegView, report: Callable[[str], None]) -> None:
        super().__init__(name)
        self.view = regview
        self.report = report

    async def body(self) -> None:
        v = self.view
        want = {addr: 0x13579BDF ^ 0x11111111 * n for n, (_, addr) in enumerate(v.held)}
        ignored = [addr for _, addr in v.read_only] + [v.spare]
        before = {addr: (await self.read(addr)).data for addr in ignored}
        batch = [WordWrite(addr, value) for addr, value in want.items()]
        batch += [WordWrite(addr, 0xFFFFFFFF) for addr in ignored]
        if v.checks("byte-strobes"):
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
            expected = want.get(addr, before.get(addr, 0))
            got = await self.read(addr)
            if got.data != expected:
                self.report(f"{v.label(addr)} reads {got.data:#010x} after a batch of writes, expected "
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
    """The launch flows' program (tb/uvm/seq_lib/launch_flow.py: launch_program) launched by a CTRL write
    with every bit set (bits other than START are read-only or unused: a write ignores them)
    after a START whose byte lane is not strobed (it must not launch); on a foreign DUT by a
    plain START. Every register is read while the program runs; then DONE and the result
    are checked as any program's (RunProgramVseq.check)."""

    def __init__(self, name: str, env: Env, plan: Plan, seed: int, regview: RegView,
                 report: Callable[[str], None]) -> None:
        super().__init__(name)
        self.env = env
        self.view = regview
        self.cfg = load_config(plan.config)
        self.vector = launch_program(self.cfg, plan.dut)
        self.run = RunProgramVseq("launch", env, Job("launch", seed=seed), self.vector, plan)
        self.report = report
        self.sweeps = 0  # sweeps of every register completed while the program ran

    async def body(self) -> None:
        env, run, regs = self.env, self.run, self.run.regs
        ctx = run.prepare()
        if env.verdict.failures:
            return
        await run.start_job(ctx)
        await ProgramSeq("program", self.vector, regs).start(env.host.seqr)
        if self.view.checks("ctrl-writes"):
            item = await self.write_strobed(WordWrite(CTRL, START, 0b1110))
            await ClockCycles(env.dut.ap_clk, IGNORED_START_WAIT)
            ctrl, cycles = (await self.read(CTRL)).data, (await self.read(CYCLES)).data
            if item.resp or ctrl != 0 or cycles != 0:
                self.report(f"a START whose byte lane 0 is not strobed (WSTRB 0b1110) launched or "
                            f"failed: response {item.resp}, then CTRL {ctrl:#x} and CYCLES {cycles}, "
                            f"expected OKAY, 0 and 0")
                return
            item = await self.write(CTRL, 0xFFFFFFFF)
        else:
            item = await self.write(regs.ctrl, regs.start)
        launched = env.cycle
        if item.resp:
            self.report(f"the launching CTRL write answered {item.resp} instead of OKAY")
            return
        await self.read_while_running(ctx)
        if env.verdict.failures:
            return
        done = await run.wait_done(ctx, launched)
        if done is None or env.verdict.failures or env.end_checks():
            return
        if done & regs.error:
            await run.bus_error(ctx, done)
        else:
            await run.check(ctx, done)

    async def read_while_running(self, ctx: JobContext) -> None:
        """Every register, over and over until DONE shows: CTRL reads RUNNING (rtl/), the
        counters and CYCLES never go back (rtl/), the programmed registers keep their values,
        HW_INFO its build's (rtl/) and unmapped offsets 0; every read answers OKAY."""
        regs = self.run.regs
        programmed = {regs.insn_count: self.vector.insn_count,
                      **{offset: word for name, value in
                         [("insn", self.vector.insn_addr), *((b, self.vector.bases.get(b, 0)) for b in BASES)]
                         for offset, word in regs.pointer_writes(name, value)}}
        offsets = [o for o in sorted(self.view.names) if o != regs.done_offset] + [self.view.spare]
        last: dict[int, int] = {}
        limit = self.env.cycle + ctx.limits.bound
        while self.env.cycle < limit:
            ctrl = await self.read(regs.done_offset)
            if ctrl.data & (regs.done | regs.error):
                return
            if ctrl.resp or (self.view.checks("running") and ctrl.data != RUNNING):
                self.report(f"CTRL reads {ctrl.data:#x} (response {ctrl.resp}) while the program "
                            f"runs, expected {RUNNING:#x} (RUNNING)")
                return
            for addr in offsets:
                got = await self.read(addr)
                problem = self.judge(addr, got.data, got.resp, last.get(addr), programmed)
                if problem:
                    self.report(f"read while the program runs: {problem}")
                    return
                last[addr] = got.data
            self.sweeps += 1

    def judge(self, addr: int, value: int, resp: int, before: int | None,
              programmed: dict[int, int]) -> str:
        """What is wrong with one read during the run ("" if nothing)."""
        name = self.view.label(addr)
        if resp:
            return f"{name} answered {resp} instead of OKAY"
        if addr not in self.view.names and value:
            return f"{name} reads {value:#x}, expected 0"
        if addr in programmed and value != programmed[addr]:
            return f"{name} reads {value:#x}, programmed {programmed[addr]:#x}"
        reg = BY_OFFSET.get(addr) if self.view.native else None
        if reg is not None and reg.kind == "info" and value != reg.reset_value(self.cfg):
            return f"{name} reads {value:#x}, the build's parameters are {reg.reset_value(self.cfg):#x}"
        if reg is not None and (reg.kind == "counter" or addr == CYCLES) and before is not None \
                and value < before:
            return f"{name} went back from {before} to {value}"
        return ""


class HostTimingVseq(uvm_sequence):
    """The flow ``hostvar`` (module docstring): each timing of :func:`variants` the DUT takes
    in turn, after a reset; the host's timing is the default again when it ends."""

    def __init__(self, name: str, env: Env, job: Job, vector: None, plan: Plan) -> None:
        super().__init__(name)
        self.env, self.job, self.plan = env, job, plan
        self.cfg = load_config(plan.config)
        self.view = view(plan.dut, self.cfg)
        self.info: dict[str, Any] = {}

    async def body(self) -> None:
        seqr, v = self.env.host.seqr, self.view
        self.info = {"timings": {}, "sweeps_while_running": {}, "presented": {}}
        if unchecked := v.unchecked("hostvar"):
            self.info["not_checked"] = unchecked
        timings = {name: t for name, t in variants(self.job.seed).items()
                   if t.order != "w-first" or v.checks("w-first")}
        try:
            for name, variant in timings.items():
                await reset_dut(self.env.dut)
                await TimingSeq("timing", variant).start(seqr)
                self.info["timings"][name] = str(variant)
                report = self.reporter(name, variant)
                await RegMapSeq("regmap", v, report).start(seqr)
                steps = (StrobeSeq("strobes", v, report),) if v.checks("byte-strobes") else ()
                for seq in (*steps, BatchSeq("batch", v, report)):
                    if not self.env.verdict.failures:
                        await seq.start(seqr)
                if self.env.verdict.failures:
                    return
                launch = LaunchSeq("launch", self.env, self.plan, self.job.seed, v, report)
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
                problem = timing_problem(variant, seen) if v.checks("write-timing") else ""
                if problem:
                    report(f"the writes did not reach the port in this timing: {problem} "
                           f"(tb/rtl/vta_tb_lite_watch.v: {seen})")
                    return
        finally:
            await TimingSeq("timing", DEFAULT_TIMING).start(seqr)

    def reporter(self, name: str, variant: HostTiming) -> Callable[[str], None]:
        return lambda msg: self.env.verdict.fail("register", f"host timing {name} ({variant}): {msg}",
                                                 rule=shape(f"host timing {name} ({variant}): {msg}"))
