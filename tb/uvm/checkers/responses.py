"""The response checker: every AXI response on R and B is the one the test injected.

:class:`ResponseChecker` watches R and B on the memory port and compares every response with
the one the memory agent gave for that beat or burst (tb/plan/bus_errors.py ``Answers``): an
error response the test did not inject (or an injected one that did not arrive) is a protocol
violation. The errors that did arrive are kept as ``BusErrorEvent``s for the program sequence's
``bus-error`` verdict.
"""
from __future__ import annotations

from collections import deque
from typing import Callable

from tb.plan.bus_errors import OKAY, RESP_NAMES, Answers, BusErrorEvent
from tb.rules.failure import Failure
from tb.uvm.agents.sampler import ChannelSample, Port


class ResponseChecker:
    """EdgeSampler listener on the memory port: every R and B response must be the one the
    test injected (``answers()`` gives the memory agent's R and B records for this job)."""

    def __init__(self, port: Port, answers: Callable[[], tuple[Answers, Answers]],
                 report: Callable[[Failure], None]) -> None:
        self.port = port
        self.answers = answers
        self.report = report
        self.on_reset()

    def on_reset(self) -> None:
        self.reads: deque[list[int]] = deque()  # [addr, beats, beats received]
        self.writes: deque[tuple[int, int]] = deque()  # (addr, beats) awaiting B
        self.r_seen = 0
        self.b_seen = 0
        self.events: list[BusErrorEvent] = []
        self.reported = False

    def on_sample(self, cycle: int, s: dict[str, ChannelSample]) -> None:
        if s["ar"].fire:
            self.reads.append([s["ar"].int("araddr"), s["ar"].int("arlen") + 1, 0])
        if s["aw"].fire:
            self.writes.append((s["aw"].int("awaddr"), s["aw"].int("awlen") + 1))
        if s["r"].fire:
            self._response("R", s["r"].int("rresp"), cycle)
        if s["b"].fire:
            self._response("B", s["b"].int("bresp"), cycle)

    def _response(self, channel: str, resp: int, cycle: int) -> None:
        r_answers, b_answers = self.answers()
        if channel == "R":
            n, self.r_seen = self.r_seen, self.r_seen + 1
            want = r_answers.get(n)
            addr, beats, beat = self.reads[0] if self.reads else [0, 0, 0]
            if self.reads:
                self.reads[0][2] += 1
                if self.reads[0][2] == beats:
                    self.reads.popleft()
            size = self.port.data_bytes
            at = addr if beat == 0 else addr - addr % size + beat * size
        else:
            n, self.b_seen = self.b_seen, self.b_seen + 1
            want = b_answers.get(n)
            addr, beats = self.writes.popleft() if self.writes else (0, 0)
            beat, at = 0, addr
        event = BusErrorEvent(channel, resp, addr, beats, beat, at, cycle)
        if resp != want and not self.reported:
            self.reported = True
            self.report(Failure("protocol", f"AXI protocol violation on {self.port.name} {channel} "
                                f"channel at cycle {cycle} [unexpected-response]: {channel}RESP = "
                                f"{RESP_NAMES[resp]} where the test injected {RESP_NAMES[want]} "
                                f"({event.describe()})",
                                rule="unexpected-response", module=self.port.name, channel=channel))
        elif resp != OKAY:
            self.events.append(event)

    @property
    def count(self) -> int:
        """Error responses that reached the DUT this job."""
        return len(self.events)
