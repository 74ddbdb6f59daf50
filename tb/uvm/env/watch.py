"""Waiting for DONE under the job's limits, in either testbench mode.

The program sequence (tb/uvm/seq_lib/vseq.py) starts the environment's watcher (``env.watch_done``)
and awaits it: the full mode's :class:`FullWatch` polls CTRL through the host agent's
sequencer every POLL_GAP cycles; the fast mode's (tb/uvm/env/fast.py: FastWatch) lets the
Verilog host poll and wakes only on its answer, on a checker's alarm or on a coarse timer.
Both end with ``outcome`` "done" (``ctrl`` holds CTRL), "bound", "stalled", "timeout",
"alarm" (fast mode: a checker latched a finding) or "" (stopped), and ``last_change``,
the cycle after launch at which the progress counters last moved.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Protocol

from cocotb.triggers import ClockCycles

from tb.rules.regs import CTRL, DONE, ERROR, PROGRESS
from tb.uvm.agents.host import RegSeq
from tb.uvm.context import Limits

#: Cycles between CTRL polls, FullWatch's through the sequencer and the fast mode's Verilog host's
#: reads (tb/uvm/env/fast.py): DONE is seen at most this late.
POLL_GAP = 16
PROGRESS_GAP = 1024  # cycles between reads of the progress counters (stall window >= 4096)
REPORT_EVERY = 2.0  # seconds of wall time between progress records of a running job

#: ``report(cycles since launch, progress counters by name)``, at most every REPORT_EVERY s.
Report = Callable[[int, dict[str, int]], None]


class Watcher(Protocol):
    """What the program sequence needs of either mode's watcher."""

    @property
    def outcome(self) -> str: ...

    @property
    def ctrl(self) -> int | None: ...

    @property
    def last_change(self) -> int: ...

    async def run(self) -> None: ...

    def stop(self) -> None: ...


class Progress:
    """A running job's limits as a watcher polls, written once for both modes' watchers: the
    bound and the wall time on every poll, the stall window on every read of the progress
    counters, and when the next progress record is due."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.t0 = time.perf_counter()
        self.values: dict[str, int] = {}
        self.last_change = 0  # cycle (since launch) the progress counters last moved
        self.next_report = self.t0 + REPORT_EVERY

    def over(self, cycles: int) -> str:
        """"bound" or "timeout" once the job passed that limit, else ""."""
        if cycles > self.limits.bound:
            return "bound"
        if self.limits.wall is not None and time.perf_counter() - self.t0 > self.limits.wall:
            return "timeout"
        return ""

    def read(self, cycles: int, values: dict[str, int]) -> str:
        """The progress counters read ``cycles`` after launch: "stalled" once none has moved
        for the stall window, else ""."""
        if values != self.values:
            self.values, self.last_change = values, cycles
        elif cycles - self.last_change > self.limits.stall:
            return "stalled"
        return ""

    def report_due(self) -> bool:
        """Whether a progress record is due (at most every REPORT_EVERY s of wall time)."""
        if time.perf_counter() < self.next_report:
            return False
        self.next_report = time.perf_counter() + REPORT_EVERY
        return True


class WatchDoneSeq(RegSeq):
    """Poll CTRL every POLL_GAP cycles until DONE or ERROR, holding the DUT to its limits.

    Every PROGRESS_GAP cycles it also reads the progress counters (regs.PROGRESS): if none
    moved for ``limits.stall`` cycles the DUT has stopped. ``outcome`` says how it ended:
    "done" (``ctrl`` holds CTRL), "bound", "stalled" or "timeout"; "" if ``stop()`` ended it.
    ``report(cycles, values)`` (progress counters by name) is called at most every
    REPORT_EVERY seconds of wall time.
    """

    def __init__(self, name: str, clock: Any, now: Callable[[], int], limits: Limits,
                 stop: Callable[[], bool], report: Report) -> None:
        super().__init__(name)
        self.clock, self.now, self.limits, self.stop, self.report = clock, now, limits, stop, report
        self.ctrl: int | None = None
        self.outcome = ""
        self.progress = Progress(limits)

    @property
    def last_change(self) -> int:
        return self.progress.last_change

    async def body(self) -> None:
        launched, self.progress = self.now(), Progress(self.limits)
        next_check = PROGRESS_GAP
        while not self.stop():
            value = (await self.read(CTRL)).data
            if value & (DONE | ERROR):
                self.ctrl, self.outcome = value, "done"
                return
            cycles = self.now() - launched
            self.outcome = self.progress.over(cycles)
            if self.outcome:
                return
            if cycles >= next_check:
                values = {name: (await self.read(off)).data for name, off in PROGRESS.items()}
                self.outcome = self.progress.read(cycles, values)
                if self.outcome:
                    return
                next_check = cycles + PROGRESS_GAP
                if self.progress.report_due():
                    self.report(cycles, values)
            await ClockCycles(self.clock, POLL_GAP)



class FullWatch:
    """The full mode's watcher: :class:`WatchDoneSeq` on the host agent's sequencer."""

    def __init__(self, env: Any, limits: Limits, report: Report) -> None:
        self.env = env
        self.stopped = False
        self.seq = WatchDoneSeq("poll", env.dut.ap_clk, lambda: env.cycle, limits,
                                lambda: self.stopped, report)

    @property
    def outcome(self) -> str:
        return self.seq.outcome

    @property
    def ctrl(self) -> int | None:
        return self.seq.ctrl

    @property
    def last_change(self) -> int:
        return self.seq.last_change

    async def run(self) -> None:
        await self.seq.start(self.env.host.seqr)

    def stop(self) -> None:
        self.stopped = True
