"""Hook-up to the pyuvm testbench: a collector under the environment, on when VTA_COVERAGE is set.

The environment (tb/uvm/env/env.py) builds it in its build phase::

    self.coverage = attach(self)          # from tb.uvm.cov.hook import attach

With ``VTA_COVERAGE=DIR`` in the environment this creates a :class:`CoverageCollector`
that subscribes to ``env.coverage_ap`` (bursts, register accesses), is handed every
program that reached DONE (:meth:`CoverageCollector.program_done`, with the job's
context: its executed instructions) and listens to the environment's per-edge sampler
for handshake stalls and module activity, then writes ``DIR/<test>.json`` in the report
phase. Without the variable it does nothing, so normal runs pay nothing. Verilator's own
``coverage.dat`` lands in the simulator's working directory, which the JSON records for
the driver.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyuvm import ConfigDB, uvm_subscriber

from models.asm import disasm_insn
from models.spec import module_of
from tb.plan.coverage_switch import coverage_dir
from tb.rules import regs
from tb.uvm.agents.txn import AxiBurst, AxiLiteAccess, InsnEvent
from tb.uvm.cov import data
from tb.uvm.cov.model import CovModel
from tb.uvm.cov.points import CHANNELS, CycleSample

if TYPE_CHECKING:
    from tb.uvm.context import JobContext

MODULE_SIGNALS = (("l_busy", "l_status"), ("c_busy", "c_status"), ("s_busy", "s_status"))
#: Status-word bit: in the execute phase with work in flight (the same in all three modules).
EXECUTING_BIT = regs.BY_NAME["COMPUTE_STATUS"].field("executing").lsb
DELAY_CYCLES = 4  # a response owed this many cycles without valid counts as held back


def attach(env: Any) -> "CoverageCollector | None":
    """Add a collector under ``env`` when coverage is on (call in the test's build_phase)."""
    return CoverageCollector("coverage", env) if coverage_dir() else None


def _high(handle: Any) -> bool:
    return str(handle.value) == "1"


def _bit(handle: Any, n: int) -> bool:
    v = handle.value
    return v.is_resolvable and int(v) >> n & 1 == 1


class CycleListener:
    """EdgeSampler listener: turns each edge into a CycleSample, sampled when it changes.

    Sampling only on change keeps the cost per cycle to a few signal reads; a bin's hit
    count is then the number of episodes (e.g. separate stretches with three modules busy).
    Module activity comes from vta_top internals (``dut.u_vta.l_busy`` and friends, the
    nets behind the documented BUSY counters and STATUS registers 0x68..0x70).
    """

    def __init__(self, dut: Any, model: CovModel) -> None:
        top = dut.u_vta
        self.modules = [(getattr(top, busy), getattr(top, status)) for busy, status in MODULE_SIGNALS]
        self.model = model
        self.on_reset()

    def on_reset(self) -> None:
        self.reads = 0  # AR accepted, last R beat not yet
        self.writes = 0  # last W beat accepted, B not yet
        self.owed = {"b": 0, "r": 0}  # consecutive cycles a response was owed and not offered
        self.last: CycleSample | None = None

    def on_sample(self, cycle: int, s: dict) -> None:
        stalls = {f"{ch}_stall" for ch in CHANNELS if s[ch].valid == "1" and s[ch].ready != "1"}
        self.reads += s["ar"].fire - (s["r"].fire and s["r"].int("rlast") == 1)
        self.writes += (s["w"].fire and s["w"].int("wlast") == 1) - s["b"].fire
        for ch, owed in (("r", self.reads), ("b", self.writes)):
            self.owed[ch] = self.owed[ch] + 1 if owed > 0 and s[ch].valid != "1" else 0
            if self.owed[ch] >= DELAY_CYCLES:
                stalls.add(f"{ch}_delay")
        busy = [status for b, status in self.modules if _high(b)]
        executing = sum(_bit(st, EXECUTING_BIT) for st in busy) if len(busy) >= 2 else 0
        sample = CycleSample(frozenset(stalls), len(busy), executing)
        if sample != self.last:
            self.model.sample("cycle", sample)
            self.last = sample


class CoverageCollector(uvm_subscriber):
    """Functional coverage of one simulator process, written to VTA_COVERAGE.

    The file is rewritten after every program that reached DONE and in the report phase:
    a simulator process that dies in a later job (a negative test can make cocotbext-axi
    abort) keeps the coverage of the programs it completed.
    """

    def build_phase(self) -> None:
        self.model = CovModel()

    def connect_phase(self) -> None:
        self.parent.coverage_ap.connect(self.analysis_export)

    def end_of_elaboration_phase(self) -> None:
        env = self.parent
        env.sampler.attach(env.axi_port, CycleListener(env.dut, self.model))

    def program_done(self, ctx: "JobContext") -> None:
        """A program reached DONE: sample every instruction it executed, then save."""
        for n, insn in enumerate(ctx.insns):
            event = InsnEvent(n, module_of(insn), insn, disasm_insn(ctx.cfg, insn), ctx.config_name)
            self.model.sample("insn", event, ctx.cfg)
        self.save()

    def write(self, txn: Any) -> None:
        if isinstance(txn, AxiBurst):
            self.model.sample("axi", txn)
        elif isinstance(txn, AxiLiteAccess):
            self.model.sample("lite", txn)

    def report_phase(self) -> None:
        self.save()

    def save(self) -> None:
        cwd = Path.cwd()
        try:
            jobs = [j.name for j in ConfigDB().get(self, "", "PLAN").jobs]
        except Exception:  # pyuvm raises its own lookup error when no plan was set
            jobs = []
        test = f"{cwd.parent.name}.{cwd.name}.p{os.getpid()}"  # run dirs are reused by later runs
        out_dir = coverage_dir()
        if out_dir is None:  # attach() only adds a collector when it is set
            raise RuntimeError("coverage collector: VTA_COVERAGE is no longer set, nowhere to write")
        data.write(out_dir / f"{test}.json", test, jobs, self.model.counts(), str(cwd))
