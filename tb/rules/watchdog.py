"""Watchdog: the limits a running program is held to, derived from the program.

* The **cycle bound** is a generous over-estimate of the work the program asks for
  (instructions fetched, micro-op loop iterations, bytes moved over the bus, per-row burst
  overheads) times the backpressure profile's worst-case slowdown, times a margin: a DUT
  that is slow but moving still fails once it is exceeded.
* The **stall window** catches a DUT that stopped: no instruction dispatched or completed,
  no micro-op executed and no byte read or written for that many cycles. It is a few
  thousand cycles, widened only by the longest stretch a legal instruction of this program
  can run without moving any of those counters (pad rows of a LOAD, loops over an empty
  micro-op range), times the profile's slowdown. A deadlocked DUT therefore fails within
  seconds of wall time, however long the program's bound. A foreign DUT shows only its bus
  beats, so for it the window also covers the longest run of compute work between two
  instructions that move bytes.

Neither needs tuning per test. When one fires, the failure message says, per module, which
instruction it is on (disassembled) and what it waits for, from the RTL's status registers
(rtl/README.md) decoded by :mod:`tb.uvm.env.status`.
"""
from __future__ import annotations

import os
from typing import Mapping, Sequence

from models.config import VtaConfig
from models.isa import Opcode
from models.spec import MEMORY, loads_nothing

MARGIN = 4
FIXED = 2000  # launch, fetch start-up, final write responses, DONE polling
STALL_BASE = 4096  # cycles without progress that no correct DUT needs (profile "none")
#: Seconds past --timeout after which a simulator that never returns to Python (stuck inside
#: the simulator) is killed by SIGALRM; VTA_BACKSTOP_GRACE overrides it (for its own test).
BACKSTOP_GRACE = 60.0


def _mem_cost(cfg: VtaConfig, insn: Mapping[str, int]) -> int:
    elem_bytes: dict[int, int] = {mt: info.elem_bytes(cfg) for mt, info in MEMORY.items()}
    elem = elem_bytes.get(insn["memory_type"], cfg.acc_bytes)
    rows = insn["y_size"] + insn.get("y_pad_0", 0) + insn.get("y_pad_1", 0)
    cols = insn["x_size"] + insn.get("x_pad_0", 0) + insn.get("x_pad_1", 0)
    if insn["opcode"] == Opcode.LOAD and loads_nothing(insn) or insn["x_size"] == 0:
        return 8
    moved = rows * cols * elem
    # one SRAM write per element, one burst (plus 4 KiB splits) per row, bus beats
    return rows * cols + rows * 32 + moved // cfg.bus_bytes + moved // 4096 * 32 + 16


def _loop_cost(insn: Mapping[str, int]) -> int:
    uops = max(0, insn["uop_end"] - insn["uop_bgn"])
    return insn["iter_out"] * insn["iter_in"] * uops * 2 + 16


def work_estimate(cfg: VtaConfig, insns: Sequence[Mapping[str, int]]) -> int:
    """Cycles the program's work takes with no backpressure, modules run one after another:
    an over-estimate, the base of the bound (and of the time-left estimate of progress lines)."""
    work = 0
    for insn in insns:
        work += 16 // cfg.bus_bytes + 8  # fetch
        op = insn["opcode"]
        if op in (Opcode.LOAD, Opcode.STORE):
            work += _mem_cost(cfg, insn)
        elif op in (Opcode.GEMM, Opcode.ALU):
            work += _loop_cost(insn)
        else:
            work += 8
    return FIXED + work


def cycle_bound(cfg: VtaConfig, insns: Sequence[Mapping[str, int]], slowdown: int) -> int:
    """Cycles within which a correct DUT must raise DONE for this program and profile."""
    return work_estimate(cfg, insns) * MARGIN * slowdown


def _quiet_cost(insn: Mapping[str, int]) -> int:
    """Cycles one instruction may legally run without moving a progress counter."""
    op = insn["opcode"]
    if op == Opcode.LOAD and not loads_nothing(insn):  # zero-padding rows need no bus traffic
        cols = insn["x_pad_0"] + insn["x_size"] + insn["x_pad_1"]
        return (insn["y_pad_0"] + insn["y_pad_1"]) * cols + insn["x_pad_0"] + insn["x_pad_1"]
    if op in (Opcode.GEMM, Opcode.ALU) and insn["uop_end"] <= insn["uop_bgn"]:
        return insn["iter_out"] * insn["iter_in"]  # loops that execute no micro-op
    return 0


def _moves_bytes(insn: Mapping[str, int]) -> bool:
    """A LOAD or STORE with data to move (the bus beats of a DUT seen from outside)."""
    if insn["opcode"] == Opcode.LOAD and loads_nothing(insn):
        return False
    return insn["opcode"] in (Opcode.LOAD, Opcode.STORE) and insn["x_size"] > 0 and insn["y_size"] > 0


def _quiet_run(insns: Sequence[Mapping[str, int]]) -> int:
    """The longest stretch a DUT can legally run without a bus beat: the work of a run of
    instructions, consecutive in program order, none of which moves bytes.

    While compute executes such a run, every LOAD and STORE before it in program order has
    its tokens (each pop's push comes earlier in program order, and compute is in order), and
    every one after it can wait for the run; once the run ends, the instruction that ended it
    moves bytes. So a run's loops, and a LOAD's pad rows, bound the quiet time.
    """
    longest = run = 0
    for insn in insns:
        if _moves_bytes(insn):
            longest, run = max(longest, run, _quiet_cost(insn)), 0
        elif insn["opcode"] in (Opcode.GEMM, Opcode.ALU):
            run += _loop_cost(insn)
        else:
            run += 8
    return max(longest, run)


def stall_window(insns: Sequence[Mapping[str, int]], slowdown: int, bus_only: bool = False) -> int:
    """Cycles without any progress after which a DUT running this program has stopped.

    ``bus_only``: the DUT's only progress figure is its bus beats (a foreign DUT without
    rtl/'s micro-op and instruction counters), so a run of compute work counts as quiet.
    """
    quiet = _quiet_run(insns) if bus_only else max((_quiet_cost(i) for i in insns), default=0)
    return (STALL_BASE + 2 * quiet) * slowdown


def backstop(timeout: float | None) -> float:
    """Seconds a job may keep its simulator from returning to Python before it is killed."""
    return (timeout or 0) + float(os.environ.get("VTA_BACKSTOP_GRACE", BACKSTOP_GRACE))
