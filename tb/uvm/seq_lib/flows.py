"""Special flows beyond one program: the register map, launch semantics, the status words
during a run, and a reset in mid-program.

All report through the verdict like every other checker: "register" failures for the
register map and the launch semantics, and ordinary program failures for the programs
they run. Which claims of rtl/README.md's register map and launch semantics each step checks
is said in its docstring; on a foreign DUT only those its profile states are checked
(tb/plan/claims.py), and the job's record lists the rest with the reason (``not_checked``).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.config import VtaConfig
from models.gen import generate
from models.isa import Insn, MemType, Opcode
from models.spec.configs import load_config
from models.spec.memory import module_of
from models.spec.tokens import MODULES, TOKEN_QUEUES
from models.timing import estimate_vector
from models.vector import Vector
from tb.plan.applicable import program_reasons
from tb.plan.claims import RegView, native_view, view
from tb.plan.dutmap import gen_limits, is_native
from tb.plan.jobs import Job, Plan
from tb.plan.negative_programs import tokens_left_vector
from tb.rules.counter_rules import timing_mismatches
from tb.rules.failure import shape
from tb.rules.regs import (
    AXI_STATUS,
    BY_NAME,
    BY_OFFSET,
    CTRL,
    CYCLES,
    DONE,
    ERROR,
    FETCH_STATUS,
    INSN_COUNT,
    INSN_IDX,
    INSNS_DONE,
    LAST_OFFSET,
    REGISTERS,
    RUNNING,
    START,
    STATUS,
    TOKENS,
)
from tb.sweep_programs import mixed, status_probe, tokens_held
from tb.uvm.agents.host import LaunchSeq, ProgramSeq, ReadRegsSeq, RegSeq, WriteRegsSeq
from tb.uvm.context import JobContext
from tb.uvm.env.env import Env
from tb.uvm.seq_lib.status_probe import BUSY, EXECUTING, StatusTally, status_problem
from tb.uvm.seq_lib.vseq import RunProgramVseq, reset_dut

#: Registers that store what is written (regs.py: access R/W, not a command register).
HELD = tuple(r for r in REGISTERS if r.holds_writes)


def sweep_offsets(held: Sequence[int]) -> tuple[int, ...]:
    """Word offsets the register-map flow sweeps: every one from 0x00 to 0x3FC (the map and
    what follows it), one per higher address bit (10..15) placed so that a decoder ignoring
    that bit would alias one of the ``held`` (R/W) offsets, and the last word of the port."""
    return (*range(0, 0x400, 4), *((1 << bit) | held[n % len(held)] for n, bit in enumerate(range(10, 16))),
            LAST_OFFSET)


#: rtl/'s sweep.
SWEEP = sweep_offsets([r.offset for r in HELD])
PATTERNS = (0xFFFFFFFF, 0xA5A5A5A5, 0x5A5A5A5A, 0x00000001, 0x80000000, 0x00000000)
#: Partial writes of the byte-strobe check: (first byte lane, bytes).
STROBES = ((0, 1), (1, 1), (2, 1), (3, 1), (2, 2))
#: Register-map mismatches reported before the sweep gives up (one broken decoder would
#: otherwise report every offset).
REPORT_LIMIT = 8
#: TOKENS reads the reset flow makes while tokens_held runs (each a few cycles; the window of
#: all four counters held lasts over a thousand cycles).
TOKEN_POLLS = 400
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


class _TooMany(Exception):
    """REPORT_LIMIT mismatches reported: stop the sweep."""


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


class RegMapSeq(RegSeq):
    """Every word offset of the sweep (:func:`sweep_offsets`) against the DUT's register view
    (tb/plan/claims.py: rtl/'s table, or what a foreign profile states).

    Claims checked (rtl/README.md, register map): after reset every offset reads its table
    value (0, HW_INFO the build's parameters; unmapped ones 0) [reset-values]; R/W registers
    read back every pattern, a distinct value each [read-write], and byte-strobed writes
    change only their lanes [byte-strobes]. A write to any other offset is not stored:
    read-only registers keep their value [read-only, cycles-read-only], a command register
    (CTRL) written without its command bits does nothing [ctrl-writes], unmapped offsets still
    read 0 [unmapped]; and no such write changes an R/W register [no-alias]. Every access
    must answer OKAY [okay]. Each problem is a "register" failure naming the offset, the
    register and the rule.
    """

    def __init__(self, name: str, regview: RegView, report: Callable[[str], None]) -> None:
        super().__init__(name)
        self.view = regview
        self.report = report
        self.reported = 0

    def problem(self, message: str) -> None:
        self.report(message)
        self.reported += 1
        if self.reported >= REPORT_LIMIT:
            self.report(f"register map: stopped after {REPORT_LIMIT} mismatches")
            raise _TooMany

    async def expect(self, addr: int, want: int | None, why: str) -> int:
        """Read ``addr``: OKAY, and ``want`` unless None; the value read."""
        item = await self.read(addr)
        if item.resp != 0:
            self.problem(f"read of {self.view.label(addr)} answered {item.resp} instead of OKAY ({why})")
        elif want is not None and item.data != want:
            self.problem(f"{self.view.label(addr)} reads {item.data:#010x}, expected {want:#010x} ({why})")
        return int(item.data)

    async def okay_write(self, addr: int, value: int, nbytes: int = 4) -> None:
        item = await self.write(addr, value, nbytes)
        if item.resp != 0:
            self.problem(f"write of {self.view.label(addr & ~3)} answered {item.resp} instead of OKAY")

    def ignored_write(self, addr: int) -> tuple[int, str] | None:
        """What to write to an offset that must not store it, and the rule that says so;
        None for a register the view states no write rule of (a foreign DUT's CTRL and
        extra registers: they are not written)."""
        if addr not in self.view.names:
            return 0xFFFFFFFF, "unmapped offsets read 0 and ignore writes"
        if any(offset == addr for _, offset in self.view.read_only):
            return 0xFFFFFFFF, f"{self.view.names[addr]} is read-only"
        reg = BY_OFFSET[addr] if self.view.native else None
        if reg is not None and reg.write_fields:
            command = sum(f.mask for f in reg.write_fields)
            return 0xFFFFFFFF & ~command, f"a write without the command bits {command:#x} does nothing"
        return None

    async def body(self) -> None:
        try:
            await self.sweep()
        except _TooMany:
            pass

    async def sweep(self) -> None:
        v = self.view
        offsets = sweep_offsets([offset for _, offset in v.held])
        for addr in offsets:
            info = v.native and addr in BY_OFFSET and BY_OFFSET[addr].kind == "info"
            await self.expect(addr, v.reset_value(addr) if addr in v.names else 0,
                              "after reset" + (", the build's parameters" if info else ""))
        for _, addr in v.held:
            for pattern in PATTERNS:
                await self.okay_write(addr, pattern)
                await self.expect(addr, pattern, f"read back {pattern:#x}")
        held = {addr: 0x11111111 * (n + 1) for n, (_, addr) in enumerate(v.held)}
        for addr, value in held.items():  # distinct values: no two registers alias
            await self.okay_write(addr, value)
        if v.checks("byte-strobes"):
            for addr in held:
                for lane, nbytes in STROBES:  # the complement of the lanes: a visible change
                    mask = (1 << 8 * nbytes) - 1
                    data = ~held[addr] >> 8 * lane & mask
                    await self.okay_write(addr + lane, data, nbytes)
                    held[addr] = held[addr] & ~(mask << 8 * lane) | data << 8 * lane
                    await self.expect(addr, held[addr], f"a {nbytes}-byte write at byte {lane} changes "
                                      f"only its byte lane(s)")
        for addr in offsets:
            write = None if addr in held else self.ignored_write(addr)
            if write is not None:
                before = await self.expect(addr, None, "before a write that must be ignored")
                await self.okay_write(addr, write[0])
                await self.expect(addr, before, write[1])
        for addr, value in held.items():
            await self.expect(addr, value, "unchanged by the writes to every other offset")


class ResetValuesSeq(RegMapSeq):
    """Every offset of SWEEP reads its reset value (a reset in mid-program must clear what
    the launch's own clearing would otherwise hide until the next START)."""

    async def sweep(self) -> None:
        for addr in SWEEP:
            await self.expect(addr, self.view.reset_value(addr), "right after a reset in mid-program")


class AfterRunSeq(RegMapSeq):
    """After a program ran and everything stood still (counters non-zero, DONE set): every
    unmapped offset of the sweep still reads 0, the RTL decodes no register the table does not
    have [unmapped]; every read-only register keeps its value under a write of its
    complement and of 0 (a register a write clears or sets shows only now, at reset it
    reads 0) [read-only, cycles-read-only]; and a CTRL write of every bit but START, or of
    DONE and ERROR alone, leaves CTRL as it was: DONE and ERROR are not write-1-to-clear and
    nothing launches [ctrl-writes]."""

    async def sweep(self) -> None:
        v = self.view
        for addr in sweep_offsets([offset for _, offset in v.held]):
            if addr not in v.names:
                await self.expect(addr, 0, "unmapped offsets read 0, also after a program ran")
        for name, addr in v.read_only:
            before = await self.expect(addr, None, "after a program ran")
            for value in (~before & 0xFFFFFFFF, 0):
                await self.okay_write(addr, value)
                await self.expect(addr, before, f"{name} is read-only, also when it is not 0: a "
                                  f"write of {value:#x} must not change it")
        if v.checks("ctrl-writes"):
            ctrl = await self.expect(CTRL, DONE, "after DONE")
            for value in (0xFFFFFFFF & ~START, DONE | ERROR):
                await self.okay_write(CTRL, value)
                await self.expect(CTRL, ctrl, f"a CTRL write of {value:#x} (no START) changes "
                                  f"nothing: DONE and ERROR are read-only")


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


def last_held(program: Sequence[Insn | None]) -> dict[str, int]:
    """Each module's last instruction of ``program`` (rtl/README.md's routing: LOAD of
    INP/WGT to load, STORE to store, everything else to compute), by program index."""
    return {module_of(insn): n for n, insn in enumerate(program) if insn is not None}


class StartClearsVseq(uvm_sequence):
    """What an accepted START clears, on rtl/ (the table's column "at START").

    Negative_programs' tokens_left program runs to DONE: each module's INSN_IDX must then
    be the index of its last instruction [insn-idx], and every token counter holds one
    token. Then a START with INSN_COUNT's ignored bits alone (as INSN_COUNT 0: nothing to
    run) must be accepted: nothing is fetched [insn-count-high, insn-count-zero]; every
    register the table clears at START reads 0 (counters, status words, INSN_IDX, TOKENS:
    the counters emptied, QUEUES, AXI_STATUS) and CTRL reads RUNNING [start-clears,
    running]; every other register keeps its value; CYCLES counts from the START; DONE never
    comes. A second START is then accepted, since everything is quiescent: CYCLES restarts
    [insn-count-zero]."""

    def __init__(self, name: str, env: Env, plan: Plan) -> None:
        super().__init__(name)
        self.env, self.plan = env, plan
        self.cfg = load_config(plan.config)
        self.vector = tokens_left_vector(self.cfg)
        self.run = RunProgramVseq("tokens-left", env, Job("tokens-left"), self.vector, plan)
        self.report: Callable[[str], None] = lambda msg: env.verdict.fail("register", msg, rule=shape(msg))

    async def body(self) -> None:
        env, run = self.env, self.run
        # the program leaves tokens on purpose (token-imbalance): the model's complaint is
        # the point, not a failure, and nothing it stores is compared
        ctx, _ = JobContext.build(run.job, self.vector, self.plan.config, self.plan.timeout)
        await run.start_job(ctx)
        launched = await run.program_and_launch()
        ctrl = await run.wait_done(ctx, launched)
        if ctrl is None or env.verdict.failures or env.end_checks():
            return
        await ClockCycles(env.dut.ap_clk, SETTLE)
        for module, index in last_held(ctx.program).items():
            got = await read_reg(env, INSN_IDX[module])
            if got != index:
                self.report(f"{module.upper()}_INSN_IDX reads {got} after the tokens_left program, "
                            f"expected {index}: the index of the last instruction the {module} "
                            f"module held (rtl/README.md)")
        tokens = await read_reg(env, TOKENS)
        fields = [BY_NAME["TOKENS"].field(q) for q in TOKEN_QUEUES]
        if any(f.get(tokens) != 1 for f in fields):
            self.report(f"the tokens_left program leaves one token in each counter, but TOKENS "
                        f"reads {tokens:#010x}")
        if env.verdict.failures:
            return
        await self.empty_launch()

    async def empty_launch(self) -> None:
        env, regs = self.env, self.run.regs
        programmed = {INSN_COUNT: IGNORED_COUNT, **{offset: word for name, value in
                      [("insn", self.vector.insn_addr),
                       *((b, self.vector.bases.get(b, 0)) for b in ("uop", "inp", "wgt", "acc", "out"))]
                      for offset, word in regs.pointer_writes(name, value)}}
        await write_reg(env, INSN_COUNT, IGNORED_COUNT)
        await LaunchSeq("empty").start(env.host.seqr)
        launched = env.cycle
        await ClockCycles(env.dut.ap_clk, SETTLE)
        fetch = {name: await read_reg(env, BY_NAME[name].offset)
                 for name in ("FETCH_STATUS", "FETCH_BUSY", "DISPATCHED", "RD_BYTES")}
        if any(fetch.values()):
            self.report(f"INSN_COUNT {IGNORED_COUNT:#x} must launch nothing, as INSN_COUNT 0 "
                        f"(bits 31:28 are ignored: rtl/README.md), but {SETTLE} cycles after its "
                        f"START " + ", ".join(f"{n} reads {v:#x}" for n, v in fetch.items()))
            return
        for reg in REGISTERS:
            got = await read_reg(env, reg.offset)
            elapsed = env.cycle - launched
            if reg.offset == CYCLES:
                ok, want = 0 < got <= elapsed, f"between 1 and the {elapsed} cycles since the START"
            elif reg.start_value is not None:
                ok, want = got == reg.start_value, f"{reg.start_value:#x}: an accepted START sets it so"
            elif reg.holds_writes:
                ok, want = got == programmed[reg.offset], f"{programmed[reg.offset]:#x}, as written"
            else:
                value = reg.reset_value(self.cfg)
                ok, want = got == value, f"{value:#x}, kept by a START"
            if not ok:
                self.report(f"{reg.name} reads {got:#x} {elapsed} cycles after a START of INSN_COUNT "
                            f"{IGNORED_COUNT:#x} that ran nothing, expected {want} (rtl/README.md, "
                            f"column 'at START')")
                return
        before = await read_reg(env, CYCLES)
        await LaunchSeq("again").start(env.host.seqr)
        after, ctrl = await read_reg(env, CYCLES), await read_reg(env, CTRL)
        if after >= before or ctrl != RUNNING:
            self.report(f"a START after a launch of INSN_COUNT {IGNORED_COUNT:#x} (nothing to run: "
                        f"quiescent) must be accepted: CYCLES read {before} before it and {after} "
                        f"after, CTRL {ctrl:#x}")


class ErrorStickyVseq(uvm_sequence):
    """CTRL.ERROR and AXI_STATUS's error bits are sticky until the next accepted START
    [error-sticky]: the launch program with a DECERR on its first STORE's write response
    (fault decerr-write) completes with CTRL 0x6 (DONE and ERROR; rtl/README.md, AXI error
    responses) and AXI_STATUS's write-error bit set; both still read so SETTLE cycles later
    and after a CTRL write of DONE and ERROR (not write-1-to-clear) [ctrl-writes]; a START
    written as one byte (WSTRB 0b0001: byte lane 0 is all a START needs) of INSN_COUNT 0 is
    accepted and clears them: CTRL reads RUNNING, AXI_STATUS 0 [start-clears]. The error
    responses stay in the bus checkers' record until the next reset, so this step comes last
    (and starts from a reset)."""

    def __init__(self, name: str, env: Env, plan: Plan) -> None:
        super().__init__(name)
        self.env = env
        self.vector = launch_program(load_config(plan.config), plan.dut)
        self.run = RunProgramVseq("bus-error", env, Job("bus-error", fault="decerr-write"),
                                  self.vector, plan)
        self.report: Callable[[str], None] = lambda msg: env.verdict.fail("register", msg, rule=shape(msg))

    async def body(self) -> None:
        env, run = self.env, self.run
        ctx = run.prepare()
        if env.verdict.failures:
            return
        # from reset, as a bus-error job runs: the response checker numbers the responses it
        # sees from reset, the memory the ones it injects from the program's start
        await reset_dut(env.dut)
        await run.start_job(ctx)
        launched = await run.program_and_launch()
        ctrl = await run.wait_done(ctx, launched)  # at ERROR, which comes before DONE
        while ctrl is not None and not ctrl & DONE and env.cycle < launched + ctx.limits.bound:
            ctrl = await read_reg(env, CTRL)
        if ctrl is None or env.verdict.failures:
            return
        flag = BY_NAME["AXI_STATUS"].field("write_error")
        status = await read_reg(env, AXI_STATUS)
        if ctrl != DONE | ERROR or not flag.get(status):
            self.report(f"the launch program with a DECERR on its first STORE's write response "
                        f"must complete with CTRL {DONE | ERROR:#x} and AXI_STATUS bit {flag.lsb} "
                        f"set (rtl/README.md, AXI error responses): CTRL {ctrl:#x}, AXI_STATUS {status:#x}")
            return
        await ClockCycles(env.dut.ap_clk, SETTLE)
        await write_reg(env, CTRL, DONE | ERROR)
        later = (await read_reg(env, CTRL), await read_reg(env, AXI_STATUS))
        if later != (ctrl, status):
            self.report(f"ERROR must stay set until the next accepted START: CTRL and AXI_STATUS "
                        f"read {ctrl:#x}, {status:#x} at DONE and {later[0]:#x}, {later[1]:#x} "
                        f"{SETTLE} cycles and a CTRL write of {DONE | ERROR:#x} later")
            return
        await write_reg(env, INSN_COUNT, 0)
        await write_reg(env, CTRL, START, nbytes=1)
        cleared = (await read_reg(env, CTRL), await read_reg(env, AXI_STATUS))
        if cleared != (RUNNING, 0):
            self.report(f"an accepted START (one byte, INSN_COUNT 0) must clear ERROR and "
                        f"AXI_STATUS: CTRL reads {cleared[0]:#x}, AXI_STATUS {cleared[1]:#x}, "
                        f"expected {RUNNING:#x} and 0")


#: The status probe writes its ignored START at this sighting of the instruction executing
#: (not the first: the padded LOAD's one data read is then over, the bus idle).
START_AFTER = 3


class StatusProbeVseq(uvm_sequence):
    """tb/sweep_programs.py's status_probe program, every status word probed over and over
    while it runs (tb/uvm/seq_lib/status_probe.py). Every long instruction must be seen held with
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
        self.report: Callable[[str], None] = lambda msg: env.verdict.fail("register", msg, rule=shape(msg))
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
    """The register map from reset (:class:`RegMapSeq`), the launch semantics
    (:class:`LaunchVseq`), the registers once more after the program (:class:`AfterRunSeq`);
    on rtl/ then the registers an accepted START clears (:class:`StartClearsVseq`), a relaunch with
    INSN_COUNT's ignored bits set, the status words while a program runs
    (:class:`StatusProbeVseq`) and ERROR's stickiness (:class:`ErrorStickyVseq`, last). On a
    foreign DUT the steps check what its profile states (tb/plan/claims.py); the record's
    ``not_checked`` names every other claim with the reason."""

    def __init__(self, name: str, env: Env, job: Job, vector: None, plan: Plan) -> None:
        super().__init__(name)
        self.env = env
        self.plan = plan
        self.view = view(plan.dut, load_config(plan.config))
        self.info: dict = {}

    async def body(self) -> None:
        env = self.env
        report = lambda msg: env.verdict.fail("register", msg, rule=shape(msg))  # noqa: E731
        unchecked = self.view.unchecked("regmap")
        self.info = {"not_checked": unchecked} if unchecked else {}
        await RegMapSeq("regmap", self.view, report).start(env.host.seqr)
        if env.verdict.failures:
            return
        launch = LaunchVseq("launch", env, self.plan)
        await launch.start()
        self.info.update(launch.info)
        if env.verdict.failures:
            return
        await ClockCycles(env.dut.ap_clk, SETTLE)
        await AfterRunSeq("after-run", self.view, report).start(env.host.seqr)
        if env.verdict.failures or not self.view.native:
            return
        await StartClearsVseq("start-clears", env, self.plan).start()
        if env.verdict.failures:
            return
        await launch.relaunch_ignored_bits()
        self.info.update(launch.info)
        if env.verdict.failures:
            return
        probe = StatusProbeVseq("status-probe", env, self.plan)
        await probe.start()
        self.info.update(status_probed=sorted(probe.seen), status_tally=probe.tally.seen,
                         ignored_start_at=probe.second_start,
                         ignored_starts_during=sorted(probe.started_during))
        if env.verdict.failures:
            return
        await ErrorStickyVseq("error-sticky", env, self.plan).start()
        self.info["error_sticky"] = not env.verdict.failures


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
        report = lambda msg: self.env.verdict.fail("register", msg, rule=shape(msg))  # noqa: E731
        await ResetValuesSeq("reset-values", native_view(load_config(self.plan.config)), report).start(
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
        never = (f"the tokens_held program never showed a token in all four counters in "
                 f"{TOKEN_POLLS} reads of TOKENS (last: {counts})")
        self.env.verdict.fail("register", never, rule=shape(never))
