"""The status-probe flow: the status words read over and over while a program runs, against
the program (the rules in status_probe.py), and STARTs written while it runs ignored; on rtl/
only, run by the register-map job (regmap_flow.py).
"""
from __future__ import annotations

from typing import Any, Callable

from pyuvm import uvm_sequence

from models.isa import Insn, MemType, Opcode
from models.spec.configs import load_config
from models.spec.tokens import MODULES
from models.vector import Vector
from tb.plan.jobs import Job, Plan
from tb.rules.failure import shape
from tb.rules.regs import CTRL, FETCH_STATUS, INSN_IDX, RUNNING, STATUS
from tb.sweep_programs import status_probe
from tb.uvm.agents.host import LaunchSeq
from tb.uvm.context import JobContext
from tb.uvm.env.env import Env
from tb.uvm.seq_lib.launch_flow import check_timing, read_reg
from tb.uvm.seq_lib.status_probe import BUSY, EXECUTING, StatusTally, status_problem
from tb.uvm.seq_lib.vseq import RunProgramVseq

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
