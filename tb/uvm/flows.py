"""Special flows beyond one program: the register map, launch semantics, and a reset in
mid-program.

All report through the verdict like every other checker: "register" failures for the
register map and the launch semantics, and ordinary program failures for the programs
they run.
"""
from __future__ import annotations

from typing import Any, Callable

from cocotb.triggers import ClockCycles
from pyuvm import ConfigDB, uvm_sequence

from models.config import VtaConfig
from models.vector import Vector
from tb.sweep_programs import mixed
from tb.uvm.env import VtaEnv
from tb.uvm.host import LaunchSeq, ReadRegsSeq, RegSeq
from tb.uvm.jobs import Job
from tb.uvm.regs import (
    BASE_REGS,
    COUNTERS,
    CTRL,
    CYCLES,
    DONE,
    FIRST_UNMAPPED,
    HW_INFO,
    INSN_ADDR,
    INSN_COUNT,
    INSNS_DONE,
    RUNNING,
)
from tb.uvm.vseq import Prepared, RunProgramVseq, reset_dut

RW_REGS = [INSN_COUNT, INSN_ADDR, *BASE_REGS.values()]
PATTERNS = (0xFFFFFFFF, 0xA5A5A5A5, 0x5A5A5A5A, 0x00000001, 0x80000000, 0x00000000)
UNMAPPED = (FIRST_UNMAPPED, 0xA8, 0xFC, 0x100, 0x400, 0x1000, 0x4008, 0x8000, 0xFFFC)
#: Read-only counters that hold 0 until a program runs (rtl/README.md).
ZERO_BEFORE_LAUNCH = tuple(COUNTERS[n] for n in ("GEMM_UOPS", "WR_BYTES", "DISPATCHED",
                                                  "GEMM_EXEC", "STORE_EXEC"))
#: Seed of tb/sweep_programs.py's mixed program that the launch flow runs.
LAUNCH_PROGRAM_SEED = 2
#: Cycles between the launch and the START that must be ignored: long enough that a
#: restart would show as CYCLES smaller than the time since the launch.
SECOND_START_DELAY = 32
#: Cycles after DONE during which CYCLES must not move.
SETTLE = 50


def hw_info(cfg: VtaConfig) -> int:
    """Expected HW_INFO word (rtl/README.md): queue depths, bus width, block, batch, version 1."""
    return (cfg.token_queue_depth << 24 | cfg.cmd_queue_depth << 16
            | cfg.values["LOG_BUS_WIDTH"] << 12 | cfg.values["LOG_BLOCK"] << 8
            | cfg.values["LOG_BATCH"] << 4 | 1)


class RegMapSeq(RegSeq):
    """Reset values, read/write of every R/W register, byte strobes, read-only and unmapped
    offsets (reads 0, writes ignored, OKAY), aliasing; each problem is a "register" failure."""

    def __init__(self, name: str, cfg: VtaConfig, report) -> None:
        super().__init__(name)
        self.cfg = cfg
        self.report = report

    async def expect(self, addr: int, want: int, why: str) -> None:
        item = await self.read(addr)
        if item.resp != 0:
            self.report(f"read of {addr:#06x} answered {item.resp} instead of OKAY ({why})")
        elif item.data != want:
            self.report(f"register {addr:#06x} reads {item.data:#010x}, expected {want:#010x} ({why})")

    async def okay_write(self, addr: int, value: int, nbytes: int = 4) -> None:
        item = await self.write(addr, value, nbytes)
        if item.resp != 0:
            self.report(f"write of {addr:#06x} answered {item.resp} instead of OKAY")

    async def body(self) -> None:
        for addr in [CTRL, CYCLES, *RW_REGS]:
            await self.expect(addr, 0, "reset value")
        await self.expect(HW_INFO, hw_info(self.cfg), "HW_INFO reflects the build parameters")
        for addr in RW_REGS:
            for pattern in PATTERNS:
                await self.okay_write(addr, pattern)
                await self.expect(addr, pattern, f"read back {pattern:#x}")
        for n, addr in enumerate(RW_REGS):  # distinct values: no two registers alias
            await self.okay_write(addr, 0x11111111 * (n + 1))
        for n, addr in enumerate(RW_REGS):
            await self.expect(addr, 0x11111111 * (n + 1), "distinct value per register")
        await self.okay_write(INSN_ADDR + 1, 0xAB, nbytes=1)  # WSTRB = 0b0010
        await self.expect(INSN_ADDR, 0x2222AB22, "a one-byte write changes only its lane")
        await self.okay_write(CYCLES, 0x12345678)
        await self.expect(CYCLES, 0, "CYCLES is read-only")
        await self.okay_write(CTRL, DONE)
        await self.expect(CTRL, 0, "writing DONE does not set it, and does not start")
        for addr in ZERO_BEFORE_LAUNCH:
            await self.okay_write(addr, 0xDEADBEEF)
            await self.expect(addr, 0, "counters are read-only and 0 before any launch")
        for addr in UNMAPPED:
            await self.okay_write(addr, 0xDEADBEEF)
            await self.expect(addr, 0, "unmapped offsets read 0 and ignore writes")
        for n, addr in enumerate(RW_REGS):
            want = 0x2222AB22 if addr == INSN_ADDR else 0x11111111 * (n + 1)
            await self.expect(addr, want, "unchanged by writes to unmapped offsets")



async def read_reg(env: VtaEnv, offset: int) -> int:
    """One register read through the host agent."""
    seq = ReadRegsSeq("read", [offset])
    await seq.start(env.host.seqr)
    return seq.values[offset][0]


class LaunchVseq(uvm_sequence):
    """Launch semantics of rtl/README.md on tb/sweep_programs.py's mixed program (profile none).

    CTRL reads RUNNING after START; a second START while the program runs is ignored (no
    restart: CYCLES keeps counting from the first); after DONE CYCLES stops, every
    instruction was dispatched and completed; a relaunch without reset clears DONE and
    every counter and, on fresh DRAM, writes the same results with the same counts.
    """

    def __init__(self, name: str, env: VtaEnv, cfg: VtaConfig, cfg_name: str) -> None:
        super().__init__(name)
        self.env = env
        self.vector: Vector = mixed(cfg, LAUNCH_PROGRAM_SEED)
        self.run = RunProgramVseq("launch", env, Job("launch", seed=LAUNCH_PROGRAM_SEED),
                                  self.vector, cfg_name)
        self.report: Callable[[str], None] = lambda msg: env.verdict.fail("register", msg)
        self.info: dict[str, Any] = {}

    async def started(self, p: Prepared, second_start: bool) -> int | None:
        """Launch (programming the registers first if ``second_start``); the CTRL value at DONE."""
        run, env = self.run, self.env
        run.load(p)  # fresh DRAM: a relaunch must write its results again
        if second_start:
            launched = await run.program_and_launch()
        else:
            await LaunchSeq("relaunch").start(env.host.seqr)
            launched = env.sampler.cycle
        ctrl = await read_reg(env, CTRL)
        if ctrl != RUNNING:
            self.report(f"CTRL reads {ctrl:#x} right after an accepted START, expected "
                        f"{RUNNING:#x} (RUNNING, DONE cleared)")
            return None
        if second_start:
            await ClockCycles(env.dut.ap_clk, SECOND_START_DELAY)
            elapsed = env.sampler.cycle - launched
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
        return await run.wait_done(p, launched)

    async def launch(self, p: Prepared, second_start: bool) -> dict[str, Any] | None:
        """One launch checked end to end; its info (cycles, counters), or None on failure."""
        ctrl = await self.started(p, second_start)
        if ctrl is None or self.env.verdict.failures:
            return None
        await self.run.check(p, ctrl)
        return None if self.env.verdict.failures else dict(self.run.info)

    async def body(self) -> None:
        p = self.run.prepare()
        if self.env.verdict.failures:
            return
        first = await self.launch(p, second_start=True)
        if first is None:
            return
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
        second = await self.launch(p, second_start=False)
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


class RegMapVseq(uvm_sequence):
    """The register map from reset, then the launch semantics (:class:`LaunchVseq`)."""

    def __init__(self, name: str, env: VtaEnv, cfg: VtaConfig) -> None:
        super().__init__(name)
        self.env = env
        self.cfg = cfg
        self.info: dict = {}

    async def body(self) -> None:
        report = lambda msg: self.env.verdict.fail("register", msg)  # noqa: E731
        await RegMapSeq("regmap", self.cfg, report).start(self.env.host.seqr)
        if self.env.verdict.failures:
            return
        launch = LaunchVseq("launch", self.env, self.cfg, ConfigDB().get(None, "", "PLAN").config)
        await launch.start()
        self.info = launch.info


class ResetMidVseq(uvm_sequence):
    """Run a program cleanly, rerun it and reset at half its run time, then rerun and check.

    The interrupted run leaves SRAM, queues and token counters in a random state; a
    correct reset clears all of it, so the final run must match the model exactly.
    """

    def __init__(self, name: str, env: VtaEnv, job: Job, vector: Vector, cfg_name: str,
                 sim: str = "", timeout: float | None = None) -> None:
        super().__init__(name)
        self.env, self.job, self.vector, self.cfg_name = env, job, vector, cfg_name
        self.run_args: dict[str, Any] = {"sim": sim, "timeout": timeout}
        self.info: dict = {}

    async def body(self) -> None:
        first = RunProgramVseq("clean", self.env, self.job, self.vector, self.cfg_name,
                                       **self.run_args)
        await first.start()
        if self.env.verdict.failures:
            self.info = first.info
            return
        half = max(1, first.info["done_cycles"] // 2)
        await reset_dut(self.env.dut)
        interrupted = RunProgramVseq("interrupted", self.env, self.job, self.vector, self.cfg_name,
                                       **self.run_args)
        p = interrupted.prepare()
        interrupted.load(p)
        await interrupted.program_and_launch()
        await ClockCycles(self.env.dut.ap_clk, half)
        await reset_dut(self.env.dut)
        rerun = RunProgramVseq("rerun", self.env, self.job, self.vector, self.cfg_name,
                                       **self.run_args)
        await rerun.start()
        self.info = {**rerun.info, "reset_after": half}
