"""Special flows beyond one program: the register map and a reset in mid-program.

Both report through the verdict like every other checker: "register" failures for the
register map, and ordinary program failures for the clean rerun after a reset.
"""
from __future__ import annotations

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.config import VtaConfig
from models.vector import Vector
from tb.uvm.env import VtaEnv
from tb.uvm.host import BASE_REGS, CTRL, CYCLES, DONE, INSN_ADDR, INSN_COUNT, RegSeq
from tb.uvm.jobs import Job
from tb.uvm.vseq import RunProgramVseq, reset_dut

RW_REGS = [INSN_COUNT, INSN_ADDR, *BASE_REGS.values()]
PATTERNS = (0xFFFFFFFF, 0xA5A5A5A5, 0x5A5A5A5A, 0x00000001, 0x80000000, 0x00000000)
#: First offset past the RTL's counters and status words (rtl/README.md: 0x24..0xA0).
FIRST_UNMAPPED = 0xA4
UNMAPPED = (FIRST_UNMAPPED, 0xA8, 0xFC, 0x100, 0x400, 0x1000, 0x4008, 0x8000, 0xFFFC)
#: Read-only counters that hold 0 until a program runs (rtl/README.md).
COUNTERS = (0x24, 0x30, 0x54, 0x90, 0xA0)
HW_INFO = 0x8C


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
        for addr in COUNTERS:
            await self.okay_write(addr, 0xDEADBEEF)
            await self.expect(addr, 0, "counters are read-only and 0 before any launch")
        for addr in UNMAPPED:
            await self.okay_write(addr, 0xDEADBEEF)
            await self.expect(addr, 0, "unmapped offsets read 0 and ignore writes")
        for n, addr in enumerate(RW_REGS):
            want = 0x2222AB22 if addr == INSN_ADDR else 0x11111111 * (n + 1)
            await self.expect(addr, want, "unchanged by writes to unmapped offsets")



class RegMapVseq(uvm_sequence):
    def __init__(self, name: str, env: VtaEnv, cfg: VtaConfig) -> None:
        super().__init__(name)
        self.env = env
        self.cfg = cfg
        self.info: dict = {}

    async def body(self) -> None:
        report = lambda msg: self.env.verdict.fail("register", msg)  # noqa: E731
        await RegMapSeq("regmap", self.cfg, report).start(self.env.host.seqr)


class ResetMidVseq(uvm_sequence):
    """Run a program cleanly, rerun it and reset at half its run time, then rerun and check.

    The interrupted run leaves SRAM, queues and token counters in a random state; a
    correct reset clears all of it, so the final run must match the model exactly.
    """

    def __init__(self, name: str, env: VtaEnv, job: Job, vector: Vector, cfg_name: str) -> None:
        super().__init__(name)
        self.env, self.job, self.vector, self.cfg_name = env, job, vector, cfg_name
        self.info: dict = {}

    async def body(self) -> None:
        first = RunProgramVseq("clean", self.env, self.job, self.vector, self.cfg_name)
        await first.start()
        if self.env.verdict.failures:
            self.info = first.info
            return
        half = max(1, first.info["done_cycles"] // 2)
        await reset_dut(self.env.dut)
        interrupted = RunProgramVseq("interrupted", self.env, self.job, self.vector, self.cfg_name)
        p = interrupted.prepare()
        interrupted.load(p)
        await interrupted.program_and_launch()
        await ClockCycles(self.env.dut.ap_clk, half)
        await reset_dut(self.env.dut)
        rerun = RunProgramVseq("rerun", self.env, self.job, self.vector, self.cfg_name)
        await rerun.start()
        self.info = {**rerun.info, "reset_after": half}
