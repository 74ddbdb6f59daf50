"""The register-map job (job kind ``regmap``): the register map from reset, the launch
semantics, the registers after the program, and on rtl/ what START clears, the status words
while a program runs and ERROR's stickiness, one flow after another.

Reports through the verdict like every other checker: "register" failures for the register
map and the launch semantics, ordinary program failures for the programs the flows run. On a
foreign DUT only what its profile states is checked (tb/plan/claims.py), and the job's record
lists the rest with the reason (``not_checked``).
"""
from __future__ import annotations

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.spec.configs import load_config
from tb.plan.claims import view
from tb.plan.jobs import Job, Plan
from tb.rules.failure import shape
from tb.uvm.env.env import Env
from tb.uvm.seq_lib.error_sticky import ErrorStickyVseq
from tb.uvm.seq_lib.launch_flow import SETTLE, LaunchVseq
from tb.uvm.seq_lib.regmap import AfterRunSeq, RegMapSeq
from tb.uvm.seq_lib.start_clears import StartClearsVseq
from tb.uvm.seq_lib.status_flow import StatusProbeVseq


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
