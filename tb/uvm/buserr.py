"""AXI error responses as a first-class fault: injected, checked on the bus, attributed.

The memory agent answers SLVERR or DECERR where a :class:`BusErrorPlan` says so: on read
beats or write responses whose bytes touch one of its address ranges, or at a seeded random
rate. An errored read beat returns zeros and an errored write is not performed, as a slave
that failed would. :class:`ResponseChecker` watches R and B on the bus and compares every
response with the one the memory agent gave for that beat or burst: an error response the
test did not inject (or an injected one that did not arrive) is a protocol violation. The
errors that did arrive are kept as :class:`BusErrorEvent`s (channel, burst, beat, cycle), which
the program sequence reports as a ``bus-error`` verdict naming the instruction that issued the
burst (rtl/README.md, "AXI error responses", says how the RTL reacts).
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from tb.uvm.failure import Failure
from tb.uvm.sampler import ChannelSample, Port

OKAY, SLVERR, DECERR = 0, 2, 3
RESP_NAMES = {0: "OKAY", 1: "EXOKAY", 2: "SLVERR", 3: "DECERR"}
ERROR_RESPS = {"SLVERR": SLVERR, "DECERR": DECERR}


@dataclass(frozen=True)
class ErrorRange:
    """Answer ``resp`` for every ``kind`` ("read" or "write") access touching [lo, hi)."""

    kind: str
    lo: int
    hi: int
    resp: int

    def hits(self, kind: str, lo: int, hi: int) -> bool:
        return kind == self.kind and lo < self.hi and self.lo < hi


@dataclass
class BusErrorPlan:
    """Where and how often the memory answers with an error; seeded, so runs replay exactly."""

    ranges: list[ErrorRange] = field(default_factory=list)
    rate: float = 0.0  # probability per read beat / per written byte run, SLVERR or DECERR
    seed: int = 0

    def __post_init__(self) -> None:
        self._rng = random.Random(f"vta-bus-error-{self.seed}")

    def resp(self, kind: str, lo: int, hi: int) -> int:
        """The response for an access of ``kind`` to bytes [lo, hi)."""
        for r in self.ranges:
            if r.hits(kind, lo, hi):
                return r.resp
        if self.rate and self._rng.random() < self.rate:
            return self._rng.choice((SLVERR, DECERR))
        return OKAY

    @property
    def active(self) -> bool:
        return bool(self.ranges) or self.rate > 0


@dataclass
class Answers:
    """Responses the test injected on one response channel, by beat (R) or burst (B) number.

    Only the non-OKAY ones are stored; ``count`` numbers them in bus order.
    """

    count: int = 0
    errors: dict[int, int] = field(default_factory=dict)

    def add(self, resp: int) -> None:
        if resp != OKAY:
            self.errors[self.count] = resp
        self.count += 1

    def get(self, n: int) -> int:
        return self.errors.get(n, OKAY)


@dataclass
class BusErrorEvent:
    """An error response that reached the DUT."""

    channel: str  # "R" or "B"
    resp: int
    burst_addr: int
    beats: int
    beat: int  # index of the beat within its burst (R); 0 for B
    addr: int  # byte address of that beat (R) or of the burst (B)
    cycle: int

    def describe(self) -> str:
        what = (f"read beat {self.beat} at {self.addr:#010x} of the read burst" if self.channel == "R"
                else "the write response of the write burst")
        return (f"{RESP_NAMES[self.resp]} on {self.channel} at cycle {self.cycle}: {what} "
                f"addr={self.burst_addr:#010x} len={self.beats - 1} ({self.beats} beats)")


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
