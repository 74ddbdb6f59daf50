"""AXI error responses as a first-class fault: the plan of what to inject, and what arrived.

The memory agent (tb/uvm/agents/memory.py) answers SLVERR or DECERR where a
:class:`BusErrorPlan` says so: on read beats or write responses whose bytes touch one of its
address ranges, or at a seeded random rate. An errored read beat returns zeros and an errored
write is not performed, as a slave that failed would. The response checker
(tb/uvm/checkers/responses.py) compares every response on the bus with the :class:`Answers`
the memory agent gave; the errors that did arrive are kept as :class:`BusErrorEvent`s
(channel, burst, beat, cycle), which the program sequence reports as a ``bus-error`` verdict
naming the instruction that issued the burst (rtl/README.md, "AXI error responses", says how
the RTL reacts). The job context (tb/uvm/context.py) builds the plan from the job's fault;
none of this needs the simulator, so it lives with what to run.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

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
