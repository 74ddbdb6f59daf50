"""The reset flow (job kind ``reset-mid``): a reset in mid-program and while tokens are held,
the registers' reset values after each, then a clean rerun against the model.
"""
from __future__ import annotations

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.spec.configs import load_config
from models.spec.tokens import TOKEN_QUEUES
from models.vector import Vector
from tb.plan.claims import native_view
from tb.plan.jobs import Job, Plan
from tb.rules.failure import shape
from tb.rules.regs import BY_OFFSET, TOKENS
from tb.sweep_programs import tokens_held
from tb.uvm.env.env import Env
from tb.uvm.seq_lib.launch_flow import read_reg
from tb.uvm.seq_lib.regmap import ResetValuesSeq
from tb.uvm.seq_lib.vseq import RunProgramVseq, reset_dut

#: TOKENS reads the reset flow makes while tokens_held runs (each a few cycles; the window of
#: all four counters held lasts over a thousand cycles).
TOKEN_POLLS = 400


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
