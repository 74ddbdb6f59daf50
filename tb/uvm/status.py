"""Decode the RTL's status registers (rtl/README.md, offsets 0x24 on) for the watchdog.

The watchdog reads them through the host agent when DONE does not come, and turns them
into one line per module: the instruction it is on (program index and disassembly) and
what it waits for (a token, room in a token queue, its command queue, the bus). The
offsets (regs.py) and bit positions below are the RTL's documented contract, not internals.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import cocotb
from cocotb.triggers import ClockCycles, First

from models.asm import disasm_insn
from models.config import VtaConfig
from tb.uvm.host import ReadRegsSeq
from tb.uvm.regs import AXI_STATUS, DISPATCHED, FETCH_STATUS, INSN_IDX, INSNS_DONE, QUEUES, STATUS, TOKENS

if TYPE_CHECKING:
    from tb.uvm.env import VtaEnv

ALL = sorted({*INSNS_DONE.values(), FETCH_STATUS, DISPATCHED, *STATUS.values(),
              *INSN_IDX.values(), TOKENS, QUEUES, AXI_STATUS})

PHASES = {0: "idle", 1: "popping tokens", 2: "executing", 3: "pushing tokens"}
TOKEN_BYTE = {"L2C": 0, "C2L": 1, "C2S": 2, "S2C": 3}
QUEUE_BYTE = {"load": 0, "compute": 1, "store": 2}
#: status bit -> what the module waits for, per module (rtl/README.md).
WAITS = {
    "load": {11: "a C2L token", 13: "room in the L2C token queue", 14: "its LOAD to finish (bus)"},
    "compute": {10: "an L2C token", 11: "an S2C token", 12: "room in the C2L token queue",
                13: "room in the C2S token queue", 14: "its instruction to finish executing"},
    "store": {10: "a C2S token", 12: "room in the S2C token queue",
              14: "its STORE to finish (bus)", 15: "write responses (B channel)"},
}
GRACE = 2000  # cycles the status reads may take


def _module_line(module: str, regs: dict[int, int], cfg: VtaConfig, insns: list[dict],
                 tokens: dict[str, int], queued: int) -> str:
    st = regs[STATUS[module]]
    phase = PHASES.get(st >> 1 & 7, f"phase {st >> 1 & 7}")
    done = regs[INSNS_DONE[module]]
    head = f"  {module:8s}: {done} done, {queued} queued"
    if not st & 1:
        return f"{head}, idle (waiting for a command in its queue)"
    idx = regs[INSN_IDX[module]]
    text = disasm_insn(cfg, insns[idx]) if idx < len(insns) else "(index beyond the program)"
    waits = [why for bit, why in WAITS[module].items() if st >> bit & 1]
    if module == "store" and st >> 16 & 0xFF:
        waits.append(f"{st >> 16 & 0xFF} write burst(s) without a response")
    counts = ", ".join(f"{q}={n}" for q, n in tokens.items())
    return (f"{head}, on insn #{idx}: {text}; {phase}; waits for "
            f"{' and '.join(waits) if waits else 'nothing flagged'} (tokens {counts})")


def decode(regs: dict[int, int], cfg: VtaConfig, insns: list[dict]) -> str:
    """The per-module report from register values (offset -> value)."""
    tokens = {q: regs[TOKENS] >> (8 * b) & 0xFF for q, b in TOKEN_BYTE.items()}
    queued = {m: regs[QUEUES] >> (8 * b) & 0xFF for m, b in QUEUE_BYTE.items()}
    f = regs[FETCH_STATUS]
    fetch = (f"  fetch   : {regs[DISPATCHED]} of {len(insns)} dispatched; "
             + ("blocked by a full command queue" if f & 2 else
                "fetching" if f & 1 else "finished") + f", {f >> 16 & 0x1FF} beats in flight")
    axi = regs[AXI_STATUS]
    bus = (f"  bus     : {axi & 0xFF} read and {axi >> 8 & 0xFF} write bursts outstanding"
           + (", a read error was seen" if axi >> 31 & 1 else "")
           + (", a write error was seen" if axi >> 30 & 1 else ""))
    lines = [fetch] + [_module_line(m, regs, cfg, insns, tokens, queued[m])
                       for m in ("load", "compute", "store")] + [bus]
    return "\n".join(lines)


def _memory_line(env: "VtaEnv") -> str:
    slave = env.memory.slave
    return (f"  memory  : slave holds {slave.write_if.aw_channel.count()} AW, "
            f"{slave.write_if.w_channel.count()} W, {slave.read_if.ar_channel.count()} AR "
            f"requests not yet served")


async def diagnose(env: "VtaEnv", cfg: VtaConfig, insns: list[dict]) -> tuple[str, bool]:
    """Read the status registers (bounded wait) and decode them; True if the port hung."""
    seq = ReadRegsSeq("status", ALL)
    task = cocotb.start_soon(seq.start(env.host.seqr))
    await First(task.complete, ClockCycles(env.dut.ap_clk, GRACE))
    if not task.done():
        task.cancel()
        return ("  (status registers unreadable: the control port does not answer)\n"
                + _memory_line(env), True)
    regs = {off: value for off, (value, _) in seq.values.items()}
    return decode(regs, cfg, insns) + "\n" + _memory_line(env), False
