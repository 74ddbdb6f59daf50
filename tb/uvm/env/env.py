"""The environment: agents, monitors, checkers and the coverage hook, wired together.

::

    host agent --(AxiLiteMaster)--> s_axi_control   m_axi_gmem --(AxiSlave)--> memory agent
                                        |                |
                               EdgeSampler (one coroutine, every rising edge)
                      AxiLiteMonitor, protocol checker   AxiMonitor, protocol checker
                                        |                |ap
                                        |         +------+--------------+
                                        v         v                     v
                                   coverage_ap <--+  StrayWriteChecker  (Scoreboard after DONE)

The sampler feeds every checker of the checker table (tb/rules/checks.py, made by
tb/uvm/checkers/table.py; the protocol checker on both ports) on the ports its entry names, so
a new bus checker is its module and one entry there, not a line here; and
:class:`~tb.uvm.checkers.responses.ResponseChecker` on the memory port (every R and B response
is the one the test injected). Every checker reports to the
shared :class:`~tb.uvm.checkers.verdict.Verdict`.
``coverage_ap`` publishes every AXI burst and every register access; a coverage subscriber
only needs ``env.coverage_ap.connect(subscriber.analysis_export)``. ``coverage`` is the
coverage collector (tb/uvm/cov/hook.py) when VTA_COVERAGE is set, else None; the program
sequence hands it each program that reached DONE (``program_done(ctx)``).
"""
from __future__ import annotations

import time
from typing import Any, Protocol

from pyuvm import ConfigDB, uvm_analysis_port, uvm_env, uvm_subscriber

from tb.plan.dutmap import HostMap
from tb.rules.failure import earliest
from tb.rules.liveness import contention, live_findings
from tb.rules.ordering import capacity, order_findings, push_pops
from tb.uvm.agents.host import HostAgent
from tb.uvm.agents.memory import MemoryAgent
from tb.uvm.agents.monitors import AxiLiteMonitor, AxiMonitor
from tb.uvm.agents.sampler import EdgeSampler, Port
from tb.uvm.checkers.responses import ResponseChecker
from tb.uvm.checkers.scoreboard import Scoreboard
from tb.uvm.checkers.stray import StrayWriteChecker
from tb.uvm.checkers.table import TableChecker, make_checkers
from tb.uvm.checkers.verdict import Verdict
from tb.uvm.context import Limits
from tb.uvm.cov.hook import CoverageCollector, attach
from tb.uvm.env.watch import FullWatch, Report, Watcher


class Env(Protocol):
    """What the sequences need of an environment, in either mode (VtaEnv: full, FastEnv in
    tb/uvm/env/fast.py: fast): the DUT, the verdict, the host agent, the memory, the checkers
    the sequences talk to, and the simulation's cycle count."""

    dut: Any
    verdict: Verdict
    host: HostAgent
    memory: Any
    stray: Any
    #: the checker table's checkers (tb/rules/checks.py): each gets every job's context
    checkers: list[TableChecker]
    scoreboard: Scoreboard
    responses: Any
    coverage: CoverageCollector | None
    started: float
    hostmap: HostMap

    @property
    def cycle(self) -> int: ...

    @property
    def bus_bytes(self) -> int: ...

    @property
    def top(self) -> Any: ...

    def watch_done(self, limits: Limits, report: Report) -> Watcher: ...

    def end_checks(self) -> bool: ...

    def capacity(self) -> dict[str, list[bool]]: ...

    def contention(self) -> dict[str, Any]: ...

    def push_pops(self) -> dict[str, list[int]]: ...

    def waived(self) -> dict[str, Any]: ...


class CoverageTap(uvm_subscriber):
    """Forwards whatever a monitor publishes onto the environment's coverage port (``OUT``
    in the ConfigDB)."""

    def build_phase(self) -> None:
        self.out: uvm_analysis_port = ConfigDB().get(self, "", "OUT")

    def write(self, txn: Any) -> None:
        self.out.write(txn)


class VtaEnv(uvm_env):
    """Reads ``DUT`` and ``VERDICT`` from the ConfigDB (as do its components); gives each
    monitor its ``PORT`` and each tap its ``OUT`` there."""

    def build_phase(self) -> None:
        self.hostmap: HostMap = ConfigDB().get(self, "", "HOSTMAP")
        self.dut = ConfigDB().get(self, "", "DUT")
        self.verdict: Verdict = ConfigDB().get(self, "", "VERDICT")
        self.coverage_ap = uvm_analysis_port("coverage_ap", self)
        self.axi_port = Port(self.dut, "m_axi_gmem", lite=False)
        self.lite_port = Port(self.dut, "s_axi_control", lite=True)
        ConfigDB().set(self, "axi_monitor", "PORT", self.axi_port)
        ConfigDB().set(self, "lite_monitor", "PORT", self.lite_port)
        ConfigDB().set(self, "*_tap", "OUT", self.coverage_ap)
        self.host = HostAgent("host", self)
        self.memory = MemoryAgent("memory", self)
        self.axi_monitor = AxiMonitor("axi_monitor", self)
        self.lite_monitor = AxiLiteMonitor("lite_monitor", self)
        self.stray = StrayWriteChecker("stray", self)
        self.scoreboard = Scoreboard("scoreboard", self)
        self.axi_tap = CoverageTap("axi_tap", self)
        self.lite_tap = CoverageTap("lite_tap", self)
        self.coverage: CoverageCollector | None = attach(self)  # None unless VTA_COVERAGE is set

    def connect_phase(self) -> None:
        self.axi_monitor.ap.connect(self.stray.analysis_export)
        for tap, monitor in ((self.axi_tap, self.axi_monitor), (self.lite_tap, self.lite_monitor)):
            monitor.ap.connect(tap.analysis_export)
        report = self.verdict.report
        self.sampler = EdgeSampler(self.dut.ap_clk, self.dut.ap_rst_n)
        # the table's checkers (the protocol checker on both ports) see a sample before the
        # monitors and the response checker do
        made = make_checkers({p.name: p for p in (self.axi_port, self.lite_port)}, report)
        for port, checker in made:
            self.sampler.attach(port, checker)
        self.checkers = [checker for _, checker in made]
        for port, monitor in ((self.axi_port, self.axi_monitor), (self.lite_port, self.lite_monitor)):
            self.sampler.attach(port, monitor)
        self.responses = ResponseChecker(self.axi_port, self.memory.answers, report)
        self.sampler.attach(self.axi_port, self.responses)

    def start_of_simulation_phase(self) -> None:
        self.sampler.start()
        self.started = time.perf_counter()

    @property
    def cycle(self) -> int:
        """Clock cycles since the simulation began (tb/rtl/vta_tb_top.v's counter)."""
        return int(self.dut.tb_cycle.value)

    @property
    def bus_bytes(self) -> int:
        return self.axi_port.data_bytes

    @property
    def top(self) -> Any:
        """tb/rtl/vta_tb_top.v's instance: the DUT behind the fault injector, with the
        in-simulation checkers and observers (the toplevel itself in this mode)."""
        return self.dut

    def watch_done(self, limits: Limits, report: Report) -> Watcher:
        """Poll CTRL through the host agent until DONE, under the job's limits."""
        return FullWatch(self, limits, report)

    def end_checks(self) -> bool:
        """The in-simulation ordering and liveness checkers' earliest finding, if any, fails
        the job (True)."""
        found = earliest(order_findings(self.dut.u_order) + live_findings(self.dut.u_live))
        if found:
            self.verdict.report(found[0])
        return bool(found)

    def capacity(self) -> dict[str, list[bool]]:
        """Token counters and command queues driven to full during the job."""
        return capacity(self.dut.u_order)

    def contention(self) -> dict[str, Any]:
        """The read arbiter's longest waits and the memory port's most bursts in flight."""
        return contention(self.dut.u_live)

    def push_pops(self) -> dict[str, list[int]]:
        """Per token counter, the counts at which a pop met a push in the same cycle."""
        return push_pops(self.dut.u_order)

    def waived(self) -> dict[str, Any]:
        """Protocol findings a DUT profile waives: none here (the full mode drives rtl/ only)."""
        return {}
