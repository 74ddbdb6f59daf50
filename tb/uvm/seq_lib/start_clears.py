"""The flow checking what an accepted START clears (rtl/README.md's register table, column
"at START"), on rtl/ only; run by the register-map job (regmap_flow.py).
"""
from __future__ import annotations

from typing import Callable, Sequence

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.isa import Insn
from models.spec.configs import load_config
from models.spec.memory import module_of
from models.spec.tokens import TOKEN_QUEUES
from tb.plan.jobs import Job, Plan
from tb.plan.negative_programs import tokens_left_vector
from tb.rules.failure import shape
from tb.rules.regs import BY_NAME, CTRL, CYCLES, INSN_COUNT, INSN_IDX, REGISTERS, RUNNING, TOKENS
from tb.uvm.agents.host import LaunchSeq
from tb.uvm.context import JobContext
from tb.uvm.env.env import Env
from tb.uvm.seq_lib.launch_flow import IGNORED_COUNT, SETTLE, read_reg, write_reg
from tb.uvm.seq_lib.vseq import RunProgramVseq


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
