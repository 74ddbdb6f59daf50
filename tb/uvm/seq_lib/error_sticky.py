"""The flow checking that ERROR stays set until the next accepted START (rtl/README.md, "AXI
error responses"), on rtl/ only; the register-map job's last step (regmap_flow.py).
"""
from __future__ import annotations

from typing import Callable

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.spec.configs import load_config
from tb.plan.jobs import Job, Plan
from tb.rules.failure import shape
from tb.rules.regs import AXI_STATUS, BY_NAME, CTRL, DONE, ERROR, INSN_COUNT, RUNNING, START
from tb.uvm.env.env import Env
from tb.uvm.seq_lib.launch_flow import SETTLE, launch_program, read_reg, write_reg
from tb.uvm.seq_lib.vseq import RunProgramVseq, reset_dut


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
