"""The launch semantics flow: START, a second START ignored, DONE, CYCLES and the counters
against models/timing.py, a relaunch, and INSN_COUNT's ignored bits (rtl/README.md, "Launch
semantics").

Also the pieces the other launch flows share (start_clears.py, error_sticky.py,
status_flow.py): the launch program, single register accesses, the settle time and the exact
timing check. Reports through the verdict as "register" failures (and "counter" for timing);
on a foreign DUT only the claims its profile states are checked (tb/plan/claims.py).
"""
from __future__ import annotations

from typing import Any, Callable

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.config import VtaConfig
from models.gen import generate
from models.spec.configs import load_config
from models.timing import estimate_vector
from models.vector import Vector
from tb.plan.applicable import program_reasons
from tb.plan.claims import view
from tb.plan.dutmap import gen_limits, is_native
from tb.plan.jobs import Job, Plan
from tb.rules.counter_rules import timing_mismatches
from tb.rules.failure import shape
from tb.rules.regs import BY_NAME, CTRL, CYCLES, FETCH_STATUS, INSNS_DONE, RUNNING
from tb.sweep_programs import mixed
from tb.uvm.agents.host import LaunchSeq, ProgramSeq, ReadRegsSeq, WriteRegsSeq
from tb.uvm.context import JobContext
from tb.uvm.env.env import Env
from tb.uvm.seq_lib.vseq import RunProgramVseq

#: Seed of tb/sweep_programs.py's mixed program that the launch flow runs (and of the first
#: random program tried on a foreign DUT that cannot run it).
LAUNCH_PROGRAM_SEED = 2
#: Random programs tried for a foreign DUT's launch flow before giving up.
LAUNCH_PROGRAM_TRIES = 16
#: Cycles between the launch and the START that must be ignored: long enough that a
#: restart would show as CYCLES smaller than the time since the launch.
SECOND_START_DELAY = 32
#: Cycles after DONE during which CYCLES must not move, and after which everything the
#: program started has finished (the registers stand still).
SETTLE = 50
#: INSN_COUNT's bits the design ignores (rtl/README.md): a count with them set runs its low bits.
IGNORED_COUNT = sum(f.mask for f in BY_NAME["INSN_COUNT"].ignored)


def launch_program(cfg: VtaConfig, spec: str) -> Vector:
    """The launch flows' program: tb/sweep_programs.py's mixed (every instruction form) where
    the DUT runs it, else the first random program from LAUNCH_PROGRAM_SEED on that DUT
    ``spec``'s profile allows (tb/plan/applicable.py)."""
    vector = mixed(cfg, LAUNCH_PROGRAM_SEED)
    if is_native(spec) or not program_reasons(vector, spec):
        return vector
    for seed in range(LAUNCH_PROGRAM_SEED, LAUNCH_PROGRAM_SEED + LAUNCH_PROGRAM_TRIES):
        vector = generate(seed, cfg, limits=gen_limits(spec))
        if not program_reasons(vector, spec):
            return vector
    raise ValueError(f"no launch program for {spec}: mixed and random programs of seeds "
                     f"{LAUNCH_PROGRAM_SEED}..{seed} all use a difference of its profile")


async def read_reg(env: Env, offset: int) -> int:
    """One register read through the host agent."""
    seq = ReadRegsSeq("read", [offset])
    await seq.start(env.host.seqr)
    return seq.values[offset][0]


async def write_reg(env: Env, offset: int, value: int, nbytes: int = 4) -> int:
    """One register write through the host agent (``nbytes`` < 4: its low byte lanes only);
    the response."""
    seq = WriteRegsSeq("write", [(offset, value, nbytes)])
    await seq.start(env.host.seqr)
    return seq.resps[0]


def check_timing(env: Env, vector: Vector, info: dict[str, Any]) -> None:
    """CYCLES and the cycle counters of a launch flow's program (memory profile none: the
    jobs are built so) against models/timing.py, which is exact for these programs."""
    wrong = timing_mismatches(estimate_vector(vector), info["counters"], info["cycles"])
    if wrong:
        env.verdict.fail("counter", "the RTL's cycle counts differ from models/timing.py (exact "
                         "for this program on memory profile none): " + "; ".join(wrong), rule="timing")


class LaunchVseq(uvm_sequence):
    """Launch semantics of rtl/README.md on :func:`launch_program` (profile none).

    Claims checked: CTRL reads RUNNING after START [running] (a foreign DUT: its DONE bit
    reads clear [done]); a second START while the program runs is ignored (no restart:
    CYCLES keeps counting from the first) [start-when-quiescent]; DONE comes and CTRL reads
    0x2 (RunProgramVseq.check) [done]; CYCLES stops at DONE [cycles]; every instruction was
    dispatched and completed, in exactly the cycles models/timing.py gives (CYCLES and every
    BUSY, STALL and EXEC counter) [counters]; a relaunch without reset clears DONE and, on
    fresh DRAM, writes the same results [done, cycles] with the same counts [counters,
    start-clears]. :meth:`relaunch_ignored_bits` then relaunches with INSN_COUNT's ignored
    bits set: the same program, the same counts [insn-count-high].
    """

    def __init__(self, name: str, env: Env, plan: Plan) -> None:
        super().__init__(name)
        self.env = env
        self.view = view(plan.dut, load_config(plan.config))
        self.vector: Vector = launch_program(load_config(plan.config), plan.dut)
        self.run = RunProgramVseq("launch", env, Job("launch", seed=LAUNCH_PROGRAM_SEED),
                                  self.vector, plan)
        self.report: Callable[[str], None] = lambda msg: env.verdict.fail("register", msg, rule=shape(msg))
        self.info: dict[str, Any] = {}
        self.first: dict[str, Any] = {}

    async def just_launched(self, what: str) -> bool:
        """Right after a START: CTRL reads RUNNING (rtl/), or the DONE bit reads clear."""
        regs = self.run.regs
        value = await read_reg(self.env, regs.done_offset)
        if self.view.checks("running"):
            if value != RUNNING:
                self.report(f"CTRL reads {value:#x} right after {what}, expected {RUNNING:#x} "
                            f"(RUNNING, DONE cleared)")
                return False
        elif value & regs.done:
            self.report(f"the DONE bit ({regs.done:#x} of offset {regs.done_offset:#06x}) reads set "
                        f"right after {what}: spec section 5's host polls it after START until FINISH "
                        f"completes")
            return False
        return True

    async def started(self, ctx: JobContext, second_start: bool, insn_count: int | None) -> int | None:
        """Launch (programming the registers first if ``second_start`` or ``insn_count``,
        INSN_COUNT then written ``insn_count``); the CTRL value at DONE."""
        run, env = self.run, self.env
        await run.start_job(ctx)  # fresh DRAM: a relaunch must write its results again
        if second_start:
            launched = await run.program_and_launch()
        else:
            if insn_count is not None:  # the registers anew (another program ran), then the count
                await ProgramSeq("program", self.vector, run.regs).start(env.host.seqr)
                await write_reg(env, run.regs.insn_count, insn_count)
            await LaunchSeq("relaunch", run.regs).start(env.host.seqr)
            launched = env.cycle
        if not await self.just_launched("an accepted START"):
            return None
        if second_start and self.view.checks("start-when-quiescent"):
            await ClockCycles(env.dut.ap_clk, SECOND_START_DELAY)
            elapsed = env.cycle - launched
            await LaunchSeq("ignored").start(env.host.seqr)
            cycles = await read_reg(env, CYCLES)
            if cycles < elapsed:
                self.report(f"a START while running restarted the program: CYCLES reads "
                            f"{cycles}, but {elapsed} cycles had passed since the launch")
            ctrl = await read_reg(env, CTRL)
            if ctrl != RUNNING:
                self.report(f"CTRL reads {ctrl:#x} after a START while running, expected "
                            f"{RUNNING:#x} (the program must still be running here)")
        if env.verdict.failures:
            return None
        return await run.wait_done(ctx, launched)

    async def launch(self, ctx: JobContext, second_start: bool,
                     insn_count: int | None = None) -> dict[str, Any] | None:
        """One launch checked end to end; its info (cycles, counters), or None on failure."""
        ctrl = await self.started(ctx, second_start, insn_count)
        if ctrl is None or self.env.verdict.failures:
            return None
        await self.run.check(ctx, ctrl)
        return None if self.env.verdict.failures else dict(self.run.info)

    def differ(self, other: dict[str, Any]) -> str:
        """Every counter (and CYCLES) of ``other`` that differs from the first launch's."""
        counters, again = self.first["counters"], other["counters"]
        pairs = {n: (counters[n], again[n]) for n in counters if counters[n] != again[n]}
        if self.first["cycles"] != other["cycles"]:
            pairs["CYCLES"] = (self.first["cycles"], other["cycles"])
        return ", ".join(f"{n} {a} vs {b}" for n, (a, b) in pairs.items())

    async def body(self) -> None:
        self.ctx = ctx = self.run.prepare()
        if self.env.verdict.failures:
            return
        first = await self.launch(ctx, second_start=True)
        if first is None:
            return
        self.first = first
        native = self.view.checks("counters")
        if native:
            check_timing(self.env, self.vector, first)
        await ClockCycles(self.env.dut.ap_clk, SETTLE)
        later = await read_reg(self.env, self.run.regs.cycles)
        if later != first["cycles"]:
            self.report(f"CYCLES must stop at DONE: it read {first['cycles']} at DONE and "
                        f"{later} {SETTLE} cycles later")
        count = self.vector.insn_count
        counters = first["counters"]
        if native and counters["DISPATCHED"] != count:
            self.report(f"DISPATCHED = {counters['DISPATCHED']} after DONE; the program has "
                        f"{count} instructions")
        completed = {m: counters[f"{m.upper()}_INSNS"] for m in INSNS_DONE} if native else {}
        if native and sum(completed.values()) != count:
            self.report(f"the modules completed {completed} instructions after DONE, "
                        f"{sum(completed.values())} in all; the program has {count}")
        second = await self.launch(ctx, second_start=False)
        if second is None:
            return
        if native and (differ := self.differ(second)):
            self.report(f"a relaunch without reset must clear every counter and count the same "
                        f"program again (first run, relaunch): {differ}")
        self.info = {"launch_cycles": first["cycles"], "launch_counters": counters,
                     "launch_program": self.vector.description}

    async def relaunch_ignored_bits(self) -> None:
        """The program once more with INSN_COUNT's ignored bits (31:28) all set: at DONE fetch
        must have nothing left to dispatch (FINISH, the last instruction, is done), and the
        run must be exactly the first one's (every counter and CYCLES)."""
        count = self.vector.insn_count
        high = count | IGNORED_COUNT
        claim = (f"INSN_COUNT {high:#x} must run the program as INSN_COUNT {count} did (bits 31:28 "
                 f"are ignored: rtl/README.md)")
        ctrl = await self.started(self.ctx, second_start=False, insn_count=high)
        if ctrl is None or self.env.verdict.failures:
            return
        status = await read_reg(self.env, FETCH_STATUS)
        if BY_NAME["FETCH_STATUS"].field("fetching").get(status):
            self.report(f"{claim}: at DONE fetch still has instructions to dispatch (FETCH_STATUS "
                        f"{status:#x}), so the accelerator never becomes quiescent")
            return
        await self.run.check(self.ctx, ctrl)
        if self.env.verdict.failures:
            return
        if differ := self.differ(self.run.info):
            self.report(f"{claim}; first run vs this one: {differ}")
        self.info["ignored_bits_count"] = high
