"""Special flows beyond one program: the register map, launch semantics, the status words
during a run, and a reset in mid-program.

All report through the verdict like every other checker: "register" failures for the
register map and the launch semantics, and ordinary program failures for the programs
they run.
"""
from __future__ import annotations

from typing import Any, Callable

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.config import VtaConfig, load_config
from models.isa import Insn, MemType, Opcode
from models.timing import estimate_vector
from models.vector import Vector
from tb.sweep_programs import mixed, status_probe, tokens_held
from tb.uvm.context import JobContext
from tb.uvm.counter_rules import timing_mismatches
from tb.uvm.env import Env
from tb.uvm.host import LaunchSeq, ReadRegsSeq, RegSeq
from tb.uvm.jobs import Job, Plan
from tb.uvm.regs import (
    BY_OFFSET,
    CTRL,
    CYCLES,
    FETCH_STATUS,
    INSN_IDX,
    INSNS_DONE,
    LAST_OFFSET,
    MODULES,
    REGISTERS,
    RUNNING,
    STATUS,
    TOKEN_QUEUES,
    TOKENS,
    Register,
)
from tb.uvm.status_probe import BUSY, EXECUTING, StatusTally, status_problem
from tb.uvm.vseq import RunProgramVseq, reset_dut

#: Registers that store what is written (regs.py: access R/W, not a command register).
HELD = tuple(r for r in REGISTERS if r.holds_writes)
#: Word offsets the register-map flow sweeps: every one from 0x00 to 0x3FC (the map and what
#: follows it), one per higher address bit (10..15) placed so that a decoder ignoring that
#: bit would alias an R/W register, and the last word of the port.
SWEEP = (*range(0, 0x400, 4), *((1 << bit) | HELD[n % len(HELD)].offset
                                for n, bit in enumerate(range(10, 16))), LAST_OFFSET)
PATTERNS = (0xFFFFFFFF, 0xA5A5A5A5, 0x5A5A5A5A, 0x00000001, 0x80000000, 0x00000000)
#: Partial writes of the byte-strobe check: (first byte lane, bytes).
STROBES = ((0, 1), (1, 1), (2, 1), (3, 1), (2, 2))
#: Register-map mismatches reported before the sweep gives up (one broken decoder would
#: otherwise report every offset).
REPORT_LIMIT = 8
#: TOKENS reads the reset flow makes while tokens_held runs (each a few cycles; the window of
#: all four counters held lasts over a thousand cycles).
TOKEN_POLLS = 400
#: Seed of tb/sweep_programs.py's mixed program that the launch flow runs.
LAUNCH_PROGRAM_SEED = 2
#: Cycles between the launch and the START that must be ignored: long enough that a
#: restart would show as CYCLES smaller than the time since the launch.
SECOND_START_DELAY = 32
#: Cycles after DONE during which CYCLES must not move.
SETTLE = 50


class _TooMany(Exception):
    """REPORT_LIMIT mismatches reported: stop the sweep."""


class RegMapSeq(RegSeq):
    """Every word offset of :data:`SWEEP` against the register table (tb/uvm/regs.py).

    After reset every offset reads its table value (0, HW_INFO the build's parameters;
    unmapped ones 0). R/W registers read back every pattern, a distinct value each, and
    byte-strobed writes change only their lanes. A write to any other offset is not stored:
    read-only registers keep their value, a command register (CTRL) written without its
    command bits does nothing, unmapped offsets still read 0; and no such write changes an
    R/W register (aliasing). Every access must answer OKAY. Each problem is a "register"
    failure naming the offset, the register and the rule.
    """

    def __init__(self, name: str, cfg: VtaConfig, report: Callable[[str], None]) -> None:
        super().__init__(name)
        self.cfg = cfg
        self.report = report
        self.reported = 0

    def problem(self, message: str) -> None:
        self.report(message)
        self.reported += 1
        if self.reported >= REPORT_LIMIT:
            self.report(f"register map: stopped after {REPORT_LIMIT} mismatches")
            raise _TooMany

    @staticmethod
    def label(addr: int) -> str:
        reg = BY_OFFSET.get(addr)
        return f"{reg.name} ({addr:#06x})" if reg else f"unmapped offset {addr:#06x}"

    def reset_value(self, addr: int) -> int:
        reg = BY_OFFSET.get(addr)
        return reg.reset_value(self.cfg) if reg else 0

    async def expect(self, addr: int, want: int, why: str) -> None:
        item = await self.read(addr)
        if item.resp != 0:
            self.problem(f"read of {self.label(addr)} answered {item.resp} instead of OKAY ({why})")
        elif item.data != want:
            self.problem(f"{self.label(addr)} reads {item.data:#010x}, expected {want:#010x} ({why})")

    async def okay_write(self, addr: int, value: int, nbytes: int = 4) -> None:
        item = await self.write(addr, value, nbytes)
        if item.resp != 0:
            self.problem(f"write of {self.label(addr & ~3)} answered {item.resp} instead of OKAY")

    @staticmethod
    def ignored_write(reg: Register | None) -> tuple[int, str]:
        """What to write to an offset that must not store it, and the rule that says so."""
        if reg is None:
            return 0xFFFFFFFF, "unmapped offsets read 0 and ignore writes"
        if reg.write_fields:
            command = sum(f.mask for f in reg.write_fields)
            return 0xFFFFFFFF & ~command, f"a write without the command bits {command:#x} does nothing"
        return 0xFFFFFFFF, f"{reg.name} is read-only"

    async def body(self) -> None:
        try:
            await self.sweep()
        except _TooMany:
            pass

    async def sweep(self) -> None:
        for addr in SWEEP:
            reg = BY_OFFSET.get(addr)
            why = "after reset" + (", the build's parameters" if reg and reg.kind == "info" else "")
            await self.expect(addr, self.reset_value(addr), why)
        for reg in HELD:
            for pattern in PATTERNS:
                await self.okay_write(reg.offset, pattern)
                await self.expect(reg.offset, pattern, f"read back {pattern:#x}")
        held = {reg.offset: 0x11111111 * (n + 1) for n, reg in enumerate(HELD)}
        for addr, value in held.items():  # distinct values: no two registers alias
            await self.okay_write(addr, value)
        for addr in held:
            for lane, nbytes in STROBES:  # the complement of the lanes: a visible change
                mask = (1 << 8 * nbytes) - 1
                data = ~held[addr] >> 8 * lane & mask
                await self.okay_write(addr + lane, data, nbytes)
                held[addr] = held[addr] & ~(mask << 8 * lane) | data << 8 * lane
                await self.expect(addr, held[addr], f"a {nbytes}-byte write at byte {lane} changes "
                                  f"only its byte lane(s)")
        for addr in SWEEP:
            reg = BY_OFFSET.get(addr)
            if reg is not None and reg.holds_writes:
                continue
            value, why = self.ignored_write(reg)
            await self.okay_write(addr, value)
            await self.expect(addr, self.reset_value(addr), why)
        for addr, value in held.items():
            await self.expect(addr, value, "unchanged by the writes to every other offset")


class ResetValuesSeq(RegMapSeq):
    """Every offset of SWEEP reads its reset value (a reset in mid-program must clear what
    the launch's own clearing would otherwise hide until the next START)."""

    async def sweep(self) -> None:
        for addr in SWEEP:
            await self.expect(addr, self.reset_value(addr), "right after a reset in mid-program")


class UnmappedAfterRunSeq(RegMapSeq):
    """After a program ran (counters non-zero), every unmapped offset of SWEEP still reads 0:
    the RTL decodes no register the table does not have."""

    async def sweep(self) -> None:
        for addr in SWEEP:
            if addr not in BY_OFFSET:
                await self.expect(addr, 0, "unmapped offsets read 0, also after a program ran")


async def read_reg(env: Env, offset: int) -> int:
    """One register read through the host agent."""
    seq = ReadRegsSeq("read", [offset])
    await seq.start(env.host.seqr)
    return seq.values[offset][0]


def check_timing(env: Env, vector: Vector, info: dict[str, Any]) -> None:
    """CYCLES and the cycle counters of a launch flow's program (memory profile none: the
    jobs are built so) against models/timing.py, which is exact for these programs."""
    wrong = timing_mismatches(estimate_vector(vector), info["counters"], info["cycles"])
    if wrong:
        env.verdict.fail("counter", "the RTL's cycle counts differ from models/timing.py (exact "
                         "for this program on memory profile none): " + "; ".join(wrong))


class LaunchVseq(uvm_sequence):
    """Launch semantics of rtl/README.md on tb/sweep_programs.py's mixed program (profile none).

    CTRL reads RUNNING after START; a second START while the program runs is ignored (no
    restart: CYCLES keeps counting from the first); after DONE CYCLES stops, every
    instruction was dispatched and completed, in exactly the cycles models/timing.py gives
    (CYCLES and every BUSY, STALL and EXEC counter); a relaunch without reset clears DONE and
    every counter and, on fresh DRAM, writes the same results with the same counts.
    """

    def __init__(self, name: str, env: Env, plan: Plan) -> None:
        super().__init__(name)
        self.env = env
        self.vector: Vector = mixed(load_config(plan.config), LAUNCH_PROGRAM_SEED)
        self.run = RunProgramVseq("launch", env, Job("launch", seed=LAUNCH_PROGRAM_SEED),
                                  self.vector, plan)
        self.report: Callable[[str], None] = lambda msg: env.verdict.fail("register", msg)
        self.info: dict[str, Any] = {}

    async def started(self, ctx: JobContext, second_start: bool) -> int | None:
        """Launch (programming the registers first if ``second_start``); the CTRL value at DONE."""
        run, env = self.run, self.env
        await run.start_job(ctx)  # fresh DRAM: a relaunch must write its results again
        if second_start:
            launched = await run.program_and_launch()
        else:
            await LaunchSeq("relaunch").start(env.host.seqr)
            launched = env.cycle
        ctrl = await read_reg(env, CTRL)
        if ctrl != RUNNING:
            self.report(f"CTRL reads {ctrl:#x} right after an accepted START, expected "
                        f"{RUNNING:#x} (RUNNING, DONE cleared)")
            return None
        if second_start:
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

    async def launch(self, ctx: JobContext, second_start: bool) -> dict[str, Any] | None:
        """One launch checked end to end; its info (cycles, counters), or None on failure."""
        ctrl = await self.started(ctx, second_start)
        if ctrl is None or self.env.verdict.failures:
            return None
        await self.run.check(ctx, ctrl)
        return None if self.env.verdict.failures else dict(self.run.info)

    async def body(self) -> None:
        ctx = self.run.prepare()
        if self.env.verdict.failures:
            return
        first = await self.launch(ctx, second_start=True)
        if first is None:
            return
        check_timing(self.env, self.vector, first)
        await ClockCycles(self.env.dut.ap_clk, SETTLE)
        later = await read_reg(self.env, CYCLES)
        if later != first["cycles"]:
            self.report(f"CYCLES must stop at DONE: it read {first['cycles']} at DONE and "
                        f"{later} {SETTLE} cycles later")
        count = self.vector.insn_count
        counters = first["counters"]
        if counters["DISPATCHED"] != count:
            self.report(f"DISPATCHED = {counters['DISPATCHED']} after DONE; the program has "
                        f"{count} instructions")
        completed = {m: counters[f"{m.upper()}_INSNS"] for m in INSNS_DONE}
        if sum(completed.values()) != count:
            self.report(f"the modules completed {completed} instructions after DONE, "
                        f"{sum(completed.values())} in all; the program has {count}")
        second = await self.launch(ctx, second_start=False)
        if second is None:
            return
        differ = {n: (counters[n], second["counters"][n]) for n in counters
                  if counters[n] != second["counters"][n]}
        if first["cycles"] != second["cycles"]:
            differ["CYCLES"] = (first["cycles"], second["cycles"])
        if differ:
            self.report("a relaunch without reset must clear every counter and count the same "
                        "program again (first run, relaunch): "
                        + ", ".join(f"{n} {a} vs {b}" for n, (a, b) in differ.items()))
        self.info = {"launch_cycles": first["cycles"], "launch_counters": counters}


#: The status probe writes its ignored START at this sighting of the instruction executing
#: (not the first: the padded LOAD's one data read is then over, the bus idle).
START_AFTER = 3


class StatusProbeVseq(uvm_sequence):
    """tb/sweep_programs.py's status_probe program, every status word probed over and over
    while it runs (tb/uvm/status_probe.py). Every long instruction must be seen held with
    the right opcode and sub-field; each cycle counter must be at least the number of probes
    that saw its state, and CYCLES and every cycle counter what models/timing.py gives; and
    a START written while compute executes the GEMM, and while load executes the padded
    LOAD that ends the program (the bus idle both times, every queue empty the second),
    must be ignored: CYCLES after DONE still counts from the launch."""

    def __init__(self, name: str, env: Env, plan: Plan) -> None:
        super().__init__(name)
        self.env = env
        self.vector: Vector = status_probe(load_config(plan.config))
        self.run = RunProgramVseq("status-probe", env, Job("status-probe", seed=1), self.vector, plan)
        self.report: Callable[[str], None] = lambda msg: env.verdict.fail("register", msg)
        self.seen: set[int] = set()
        self.tally = StatusTally()
        self.second_start: int | None = None  # cycles after the launch of the first START
        self.sightings: dict[int, int] = {}  # probes that saw each start_during one executing

    @property
    def started_during(self) -> set[int]:
        """The instructions a START was written during."""
        return {i for i, n in self.sightings.items() if n >= START_AFTER}

    async def probe(self, ctx: JobContext, launched: int) -> bool:
        """One round over the modules and fetch; False after reporting a problem."""
        env = self.env
        for module in MODULES:
            first = await read_reg(env, INSN_IDX[module])
            word = await read_reg(env, STATUS[module])
            last = await read_reg(env, INSN_IDX[module])
            problem = status_problem(module, word, first, last, ctx.program)
            if problem:
                self.report(f"status word read while the program runs: {problem}")
                return False
            self.tally.module(module, word)
            if BUSY.get(word) and first == last:
                self.seen.add(first)
                held = ctx.program[first]
                if EXECUTING.get(word) and held is not None and start_during(held):
                    self.sightings[first] = self.sightings.get(first, 0) + 1
                    if self.sightings[first] == START_AFTER:
                        if self.second_start is None:
                            self.second_start = env.cycle - launched
                        await LaunchSeq("ignored-start").start(env.host.seqr)
        self.tally.fetch(await read_reg(env, FETCH_STATUS))
        return True

    async def body(self) -> None:
        run, env = self.run, self.env
        ctx = run.prepare()
        if env.verdict.failures:
            return
        await run.start_job(ctx)
        launched = await run.program_and_launch()
        while env.cycle < launched + ctx.limits.bound and not await read_reg(env, CTRL) & ~RUNNING:
            if not await self.probe(ctx, launched):
                return
        done = await run.wait_done(ctx, launched)
        if done is None or env.verdict.failures or env.end_checks():
            return
        await run.check(ctx, done)
        if env.verdict.failures:
            return
        self.judge(ctx, run.info)

    def judge(self, ctx: JobContext, info: dict[str, Any]) -> None:
        long_ones = {i for i, insn in enumerate(ctx.program) if insn is not None and long_running(insn)}
        if long_ones - self.seen:
            self.report(f"the status probes never saw instruction(s) {sorted(long_ones - self.seen)} "
                        f"held (seen: {sorted(self.seen)}): each runs a hundred cycles or more")
        for problem in self.tally.shortfalls(info["counters"]):
            self.report(f"after DONE: {problem}")
        check_timing(self.env, self.vector, info)
        tried = {i for i, insn in enumerate(ctx.program) if insn is not None and start_during(insn)}
        if self.second_start is None or self.started_during != tried:
            self.report(f"a START was to be written while each of instructions {sorted(tried)} "
                        f"executed, but only during {sorted(self.started_during)}")
        elif info["cycles"] <= info["done_cycles"] - self.second_start // 2:
            self.report(f"a START while the program ran (compute executing its GEMM, "
                        f"{self.second_start} cycles after the launch) restarted it: CYCLES reads "
                        f"{info['cycles']} at DONE, seen {info['done_cycles']} cycles after the launch")


def start_during(insn: Insn) -> bool:
    """The status-probe instructions a START is written during: the long GEMM and the padded
    LOAD that ends the program."""
    return long_running(insn) and (insn["opcode"] == Opcode.GEMM or bool(insn.get("y_pad_0")))


def long_running(insn: Insn) -> bool:
    """An instruction of the status-probe program that runs long enough to be probed: a
    GEMM or ALU of 64 micro-ops or more, a LOAD of data or a STORE of 64 elements or more
    (a LOAD's pads included)."""
    if insn["opcode"] in (Opcode.GEMM, Opcode.ALU):
        return insn["iter_out"] * insn["iter_in"] * (insn["uop_end"] - insn["uop_bgn"]) >= 64
    if insn["opcode"] == Opcode.STORE:
        return insn["y_size"] * insn["x_size"] >= 64
    if insn["opcode"] == Opcode.LOAD and insn["memory_type"] != MemType.UOP:
        rows = insn["y_pad_0"] + insn["y_size"] + insn["y_pad_1"]
        return rows * (insn["x_pad_0"] + insn["x_size"] + insn["x_pad_1"]) >= 64
    return False


class RegMapVseq(uvm_sequence):
    """The register map from reset, the launch semantics (:class:`LaunchVseq`), the
    unmapped offsets once more with the counters non-zero, then the status words while a
    program runs (:class:`StatusProbeVseq`)."""

    def __init__(self, name: str, env: Env, job: Job, vector: None, plan: Plan) -> None:
        super().__init__(name)
        self.env = env
        self.plan = plan
        self.cfg = load_config(plan.config)
        self.info: dict = {}

    async def body(self) -> None:
        report = lambda msg: self.env.verdict.fail("register", msg)  # noqa: E731
        await RegMapSeq("regmap", self.cfg, report).start(self.env.host.seqr)
        if self.env.verdict.failures:
            return
        launch = LaunchVseq("launch", self.env, self.plan)
        await launch.start()
        self.info = launch.info
        if self.env.verdict.failures:
            return
        await UnmappedAfterRunSeq("unmapped", self.cfg, report).start(self.env.host.seqr)
        if self.env.verdict.failures:
            return
        probe = StatusProbeVseq("status-probe", self.env, self.plan)
        await probe.start()
        self.info.update(status_probed=sorted(probe.seen), status_tally=probe.tally.seen,
                         ignored_start_at=probe.second_start,
                         ignored_starts_during=sorted(probe.started_during))


class ResetMidVseq(uvm_sequence):
    """Run a program cleanly, rerun it and reset at half its run time, reset once more while
    tokens_held holds a token in every counter, then rerun and check.

    The interrupted runs leave SRAM, queues and token counters in a random state; a
    correct reset clears all of it: right after each every register reads its reset value
    (counters, tokens, queues, status words), and the final run must match the model.
    """

    def __init__(self, name: str, env: Env, job: Job, vector: Vector, plan: Plan) -> None:
        super().__init__(name)
        self.env, self.job, self.vector, self.plan = env, job, vector, plan
        self.info: dict = {}

    async def body(self) -> None:
        first = RunProgramVseq("clean", self.env, self.job, self.vector, self.plan)
        await first.start()
        if self.env.verdict.failures:
            self.info = first.info
            return
        half = max(1, first.info["done_cycles"] // 2)
        await reset_dut(self.env.dut)
        interrupted = RunProgramVseq("interrupted", self.env, self.job, self.vector, self.plan)
        await interrupted.start_job(interrupted.prepare())
        await interrupted.program_and_launch()
        await ClockCycles(self.env.dut.ap_clk, half)
        await self.reset_and_check()
        if self.env.verdict.failures:
            return
        await self.reset_holding_tokens()
        if self.env.verdict.failures:
            return
        rerun = RunProgramVseq("rerun", self.env, self.job, self.vector, self.plan)
        await rerun.start()
        self.info = {**rerun.info, "reset_after": half}

    async def reset_and_check(self) -> None:
        """Reset, then every register must read its reset value."""
        await reset_dut(self.env.dut)
        report = lambda msg: self.env.verdict.fail("register", msg)  # noqa: E731
        await ResetValuesSeq("reset-values", load_config(self.plan.config), report).start(
            self.env.host.seqr)

    async def reset_holding_tokens(self) -> None:
        """tb/sweep_programs.py's tokens_held program, reset once TOKENS shows a token in all
        four counters (a random program rarely holds them all at the moment of its reset)."""
        vector = tokens_held(load_config(self.plan.config))
        held = RunProgramVseq("tokens-held", self.env, Job("tokens-held", seed=1, profile=self.job.profile),
                              vector, self.plan)
        await held.start_job(held.prepare())
        await held.program_and_launch()
        fields = [BY_OFFSET[TOKENS].field(q) for q in TOKEN_QUEUES]
        seen = 0
        for _ in range(TOKEN_POLLS):
            seen = await read_reg(self.env, TOKENS)
            if all(f.get(seen) for f in fields):
                await self.reset_and_check()
                return
        counts = ", ".join(f"{f.name} {f.get(seen)}" for f in fields)
        self.env.verdict.fail("register", f"the tokens_held program never showed a token in all four "
                              f"counters in {TOKEN_POLLS} reads of TOKENS (last: {counts})")
