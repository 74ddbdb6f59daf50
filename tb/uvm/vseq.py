"""Virtual sequences: one job from start to verdict.

:class:`RunProgramVseq` is the basic flow (load the vector into the memory agent,
program the registers, launch, wait for DONE under the watchdog, check); the register
map and mid-program reset flows reuse its steps. The sequences run register sequences
on the host agent's sequencer and read everything else from the environment.
"""
from __future__ import annotations

import re
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
from tb.uvm.env import VtaEnv
from tb.uvm.faults import fault as fault_of
from tb.uvm.host import LaunchSeq, ProgramSeq, ReadRegsSeq, RegSeq
from tb.uvm.jobs import Job
from tb.uvm.profiles import SLOWDOWN
from tb.uvm.regs import COUNTERS, CTRL, CYCLES, DONE
from tb.uvm.status import diagnose
from tb.uvm.stray import AllowedWrites
from tb.uvm.txn import InsnEvent
from tb.uvm.watchdog import cycle_bound

DATA_TYPES = (MemType.INP, MemType.WGT, MemType.ACC, MemType.ACC_8BIT)
POLL_GAP = 16  # cycles between CTRL polls: DONE is seen at most this late
HOST_GRACE = 4000  # cycles a register access may take before the control port counts as hung


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
    bound: int
    info: dict = field(default_factory=dict)


class PollDoneSeq(RegSeq):
    """Poll CTRL every POLL_GAP cycles until DONE or until ``stop()`` says to give up."""

    def __init__(self, name: str, clock: Any, stop: Callable[[], bool]) -> None:
        super().__init__(name)
        self.clock = clock
        self.stop = stop
        self.ctrl: int | None = None

    async def body(self) -> None:
        while not self.stop():
            value = (await self.read(CTRL)).data
            if value & DONE:
                self.ctrl = value
                return
            await ClockCycles(self.clock, POLL_GAP)


class RunProgramVseq(uvm_sequence):
    """Load, program, launch, wait for DONE (watchdog), check: one program job."""

    def __init__(self, name: str, env: VtaEnv, job: Job, vector: Vector, cfg_name: str) -> None:
        super().__init__(name)
        self.env = env
        self.job = job
        self.vector = vector
        self.cfg_name = cfg_name
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
        bound = cycle_bound(cfg, insns, SLOWDOWN[self.job.profile])
        return Prepared(v, insns, expect, result, check, bound)

    def load(self, p: Prepared) -> None:
        """Fresh DRAM, STORE footprints for the stray-write checker, profile and faults."""
        mem = self.env.memory
        mem.load(p.vector.dram())
        mem.set_profile(self.job.profile, self.job.seed)
        if self.job.fault == "corrupt-read":  # data loads only: a corrupt insn could hang
            mem.target.corrupt = [(a, a + n) for i, fp in enumerate(p.check.footprints)
                                  if (insn := p.check.insns[i]) and insn["opcode"] == Opcode.LOAD
                                  and insn["memory_type"] in DATA_TYPES
                                  for a, n in fp.dram_reads]
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
        """CTRL value once DONE is seen, or None after a failure (watchdog included)."""
        stop = {"now": False}
        poll = PollDoneSeq("poll", self.dut.ap_clk, lambda: stop["now"])
        task = cocotb.start_soon(poll.start(self.env.host.seqr))
        failed = self.verdict.failed
        await First(task.complete, failed.wait(), ClockCycles(self.dut.ap_clk, p.bound))
        if task.done() and poll.ctrl is not None and not failed.is_set():
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
            await self.watchdog_fired(p, launched)
        return None

    async def watchdog_fired(self, p: Prepared, launched: int) -> None:
        text, hung = await diagnose(self.env, p.vector.config, p.insns)
        self.verdict.fail("watchdog", f"no DONE within {p.bound} cycles of launch (bound from "
                          f"{len(p.insns)} instructions, profile {self.job.profile}); "
                          f"state at cycle {self.env.sampler.cycle}:\n{text}")
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

    # --- the flow -----------------------------------------------------------------------
    async def body(self) -> None:
        p = self.prepare()
        if self.verdict.failures:
            return
        self.info["insns"] = len(p.insns)
        self.info["bound"] = p.bound
        self.load(p)
        launched = await self.program_and_launch()
        ctrl = await self.wait_done(p, launched)
        if ctrl is not None and not self.verdict.failures:
            await self.check(p, ctrl)


def safe_name(text: str) -> str:
    """A job name usable as a directory name."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")[:120]


def failure_dir(root: Path, sim: str, job: Job) -> Path:
    return root / safe_name(f"{sim}-{job.name}")
