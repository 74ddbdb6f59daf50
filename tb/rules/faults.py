"""Injectable faults for negative tests, and which checker must catch each one.

HDL faults are selected through the ``tb_fault`` input of the test-only wrapper
(tb/rtl/vta_axi_fault.v); memory faults are applied by the memory agent. A fault
"expects" the failure kind of the checker that must fire first.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fault:
    code: int  # value driven on tb_fault (0 = no HDL fault)
    expect: str  # Verdict failure kind that must fire
    needs_backpressure: bool = False  # only observable while the slave stalls
    four_state: bool = False  # needs X/Z, so a 4-state simulator (Icarus)
    vector: str = "layer_small"  # directed vector the negative test runs (multi-beat stores)
    #: memory-agent error responses: (where, response). where is "read" (the first data
    #: LOAD's bytes), "write" (the first STORE's bytes), "fetch" (the first instruction),
    #: "random" (every read beat and written byte run, at BUS_ERROR_RATE, seeded by the job),
    #: or "unrequested" (the memory model fails on the first data LOAD's bytes, so
    #: cocotbext-axi answers SLVERR by itself: an error response the test did not inject)
    bus_error: tuple[str, str] | None = None
    #: hangs the simulator itself: only meaningful with --timeout, whose backstop ends it,
    #: so it is not among the negative jobs and the runner refuses it without --timeout
    needs_timeout: bool = False
    #: the full mode's memory (cocotbext-axi, whose AR queue of 2 keeps at most ~5 reads in
    #: flight, below the design's 8) accepts every read address at once for this job, as the
    #: fast mode's memory does: the fault shows only when the port may hold more than 8
    deep_memory: bool = False


#: Error probability per read beat / written byte run of the "random" bus-error fault.
BUS_ERROR_RATE = 0.1


FAULTS: dict[str, Fault] = {
    "none": Fault(0, ""),
    "aw-flip": Fault(1, "stray-write"),
    "drop-wlast": Fault(2, "protocol"),
    "wdata-unstable": Fault(3, "protocol", needs_backpressure=True),
    "lite-spurious-b": Fault(4, "protocol"),
    "aw-4k": Fault(5, "protocol"),
    "aw-x": Fault(6, "protocol", four_state=True),
    # every program deadlocks on its first read: the stall window, not the bound, must end it
    "ar-stuck": Fault(7, "watchdog"),
    # the runner kills the process (SIGALRM) and records the job as an "error"
    "sim-hang": Fault(8, "error", needs_timeout=True),
    # GEMM_UOPS reads one too many: the counters are checked against the model
    "counter-skew": Fault(9, "counter", vector="gemm_basic"),
    # the DUT's writes are answered at once, the memory's answers come later: DONE too early
    "early-b": Fault(10, "ordering"),
    # every read burst issued twice on the port (the copy's data dropped): up to 16 in flight
    "rd-overissue": Fault(11, "liveness", deep_memory=True),
    # not a fault: write responses withheld until the design's bound of bursts awaiting B
    # (rtl/README.md) is reached; a design within its bound passes (the b-bound flow)
    "b-hold": Fault(12, ""),
    # gemm_basic: every input byte reaches the output (no shift or clip that could mask it)
    "corrupt-read": Fault(0, "scoreboard", vector="gemm_basic"),
    "unrequested-slverr": Fault(0, "protocol", bus_error=("unrequested", "SLVERR")),
    "slverr-read": Fault(0, "bus-error", bus_error=("read", "SLVERR")),
    "decerr-write": Fault(0, "bus-error", bus_error=("write", "DECERR")),
    "slverr-fetch": Fault(0, "bus-error", bus_error=("fetch", "SLVERR")),
    "bus-error-random": Fault(0, "bus-error", bus_error=("random", "")),
}


def fault(name: str) -> Fault:
    if name not in FAULTS:
        raise ValueError(f"unknown fault {name!r} (one of {', '.join(FAULTS)})")
    return FAULTS[name]
