"""Decode the RTL's status registers (rtl/README.md, offsets 0x24 on) for the watchdog.

The watchdog reads them through the host agent when DONE does not come, and turns them
into one line per module: the instruction it is on (program index and disassembly) and
what it waits for (a token, room in a token queue, its command queue, the bus). Offsets,
bit fields and what each wait bit means come from the register table (tb/rules/regs.py),
the RTL's documented contract, not internals.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import cocotb
from cocotb.triggers import ClockCycles, First

from models.asm import disasm_insn
from models.config import VtaConfig
from models.spec import MODULES, TOKEN_QUEUES
from tb.rules.failure import NONE, form_of
from tb.rules.regs import (
    AXI_STATUS,
    BY_OFFSET,
    DISPATCHED,
    FETCH_STATUS,
    INSN_IDX,
    INSNS_DONE,
    QUEUES,
    STATUS,
    STATUS_WORDS,
    TOKENS,
)
from tb.uvm.agents.host import ReadRegsSeq

if TYPE_CHECKING:
    from tb.uvm.context import JobContext
    from tb.uvm.env.env import Env

#: Everything the diagnosis reads: the status words and the instruction counters.
ALL = sorted({*STATUS_WORDS, DISPATCHED, *INSNS_DONE.values()})
GRACE = 2000  # cycles the status reads may take


def _get(offset: int, name: str, regs: dict[int, int]) -> int:
    """Field ``name`` of the register at ``offset`` (regs.py), from the values read."""
    return BY_OFFSET[offset].field(name).get(regs[offset])


def _module_line(module: str, regs: dict[int, int], cfg: VtaConfig, insns: list[dict],
                 tokens: dict[str, int], queued: int) -> str:
    status = BY_OFFSET[STATUS[module]]
    st = regs[status.offset]
    phase_field = status.field("phase")
    phase = phase_field.get(st)
    phase_name = phase_field.values[phase] if phase < len(phase_field.values) else f"phase {phase}"
    done = regs[INSNS_DONE[module]]
    head = f"  {module:8s}: {done} done, {queued} queued"
    if not status.field("busy").get(st):
        return f"{head}, idle (waiting for a command in its queue)"
    idx = regs[INSN_IDX[module]]
    text = disasm_insn(cfg, insns[idx]) if idx < len(insns) else "(index beyond the program)"
    waits = [f.waits_for for f in status.fields if f.waits_for and f.get(st)]
    bursts = next((f.get(st) for f in status.fields if f.name == "bursts"), 0)
    if bursts:
        waits.append(f"{bursts} write burst(s) without a response")
    counts = ", ".join(f"{q}={n}" for q, n in tokens.items())
    return (f"{head}, on insn #{idx}: {text}; {phase_name}; waits for "
            f"{' and '.join(waits) if waits else 'nothing flagged'} (tokens {counts})")


def suspect(regs: dict[int, int], cfg: VtaConfig, insns: list[dict]) -> tuple[str, str]:
    """The watchdog failure's module and instruction form: the first module busy on an
    instruction (its form), else fetch if it is blocked or still fetching, else none."""
    for module in MODULES:
        if BY_OFFSET[STATUS[module]].field("busy").get(regs[STATUS[module]]):
            idx = regs[INSN_IDX[module]]
            return module, form_of(disasm_insn(cfg, insns[idx])) if idx < len(insns) else NONE
    if _get(FETCH_STATUS, "blocked", regs) or _get(FETCH_STATUS, "fetching", regs):
        return "fetch", NONE
    return NONE, NONE


def decode(regs: dict[int, int], cfg: VtaConfig, insns: list[dict]) -> str:
    """The per-module report from register values (offset -> value)."""
    tokens = {q: _get(TOKENS, q, regs) for q in TOKEN_QUEUES}
    queued = {m: _get(QUEUES, m, regs) for m in MODULES}
    fetch = (f"  fetch   : {regs[DISPATCHED]} of {len(insns)} dispatched; "
             + ("blocked by a full command queue" if _get(FETCH_STATUS, "blocked", regs) else
                "fetching" if _get(FETCH_STATUS, "fetching", regs) else "finished")
             + f", {_get(FETCH_STATUS, 'in_flight', regs)} beats in flight")
    bus = (f"  bus     : {_get(AXI_STATUS, 'reads', regs)} read and {_get(AXI_STATUS, 'writes', regs)} "
           f"write bursts outstanding"
           + (", a read error was seen" if _get(AXI_STATUS, "read_error", regs) else "")
           + (", a write error was seen" if _get(AXI_STATUS, "write_error", regs) else ""))
    lines = [fetch] + [_module_line(m, regs, cfg, insns, tokens, queued[m]) for m in MODULES] + [bus]
    return "\n".join(lines)


@dataclass(frozen=True)
class State:
    """The watchdog's diagnosis: the per-module text, whether the control port hung while
    it was read, and the module and instruction form the failure record names."""

    text: str
    hung: bool
    module: str = NONE
    form: str = NONE


async def diagnose(env: "Env", ctx: "JobContext") -> State:
    """Read the status registers (bounded wait) and decode them against the job's program."""
    regs = await read_bounded(env, ALL)
    if regs is None:
        return State("  (status registers unreadable: the control port does not answer)\n"
                     + env.memory.status_line(), True)
    module, form = suspect(regs, ctx.cfg, ctx.insns)
    return State(decode(regs, ctx.cfg, ctx.insns) + "\n" + env.memory.status_line(), False,
                 module, form)


async def read_bounded(env: "Env", offsets: list[int]) -> dict[int, int] | None:
    """The registers at ``offsets``, or None if the control port does not answer within
    GRACE cycles (a hung DUT must not hang its own diagnosis)."""
    seq = ReadRegsSeq("status", offsets)
    task = cocotb.start_soon(seq.start(env.host.seqr))
    await First(task.complete, ClockCycles(env.dut.ap_clk, GRACE))
    if not task.done():
        task.cancel()
        return None
    return {off: value for off, (value, _) in seq.values.items()}


async def foreign_state(env: "Env") -> State:
    """A foreign DUT's registers (its profile's map: tb/plan/dutmap.py) and the memory's
    queues, for the watchdog: such a DUT has none of rtl/'s status words to decode; its own
    complaints (Chisel assertions) are in the simulator's log. True if the port hung."""
    regs = env.hostmap
    named = {"CTRL": regs.ctrl, "CYCLES": regs.cycles, "INSN_COUNT": regs.insn_count, **regs.counters}
    read = await read_bounded(env, list(named.values()))
    if read is None:
        return State("  (registers unreadable: the control port does not answer)\n"
                     + env.memory.status_line(), True)
    values = ", ".join(f"{name} = {read[off]:#x}" for name, off in named.items())
    return State(f"  registers: {values}\n{env.memory.status_line()}", False)
