"""A cocotb smoke test of a DUT through its wrapper, driven only by its profile.

Before a foreign design can run the testbench's programs, three things must hold: its reset
(through the wrapper's polarity conversion) brings it to a known state, its registers sit
where the profile says, and a launch reaches DONE. This test checks exactly that with
cocotbext-axi's AXI-Lite master and an AXI RAM on the wrapper's ports: CTRL reads 0 after
reset, INSN_COUNT and a pointer (both words if 64-bit) read back what was written, and a
program of one FINISH at INSN_ADDR sets the profile's DONE bit with CYCLES above zero.

Run by tb/tests/test_duts.py (cocotb's runner, Icarus); the profile comes from the
environment variable VTA_DUT_PROFILE.
"""
from __future__ import annotations

import os
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam

from models.isa import Opcode, encode_insn
from models.widths import INSN_BYTES
from tb.duts.profile import load

PROFILE_VAR = "VTA_DUT_PROFILE"
INSN_ADDR = 0x1000
#: FINISH completes within a few hundred cycles on both designs; the bound only stops a hang.
DONE_WITHIN = 5000


async def read(host: AxiLiteMaster, offset: int) -> int:
    return int.from_bytes((await host.read(offset, 4)).data, "little")


async def write(host: AxiLiteMaster, offset: int, value: int) -> None:
    await host.write(offset, value.to_bytes(4, "little"))


@cocotb.test()
async def reset_registers_and_finish(dut: Any) -> None:
    profile = load(os.environ[PROFILE_VAR])
    regs = profile.registers
    clk, rst_n = dut.ap_clk, dut.ap_rst_n
    Clock(clk, 10, unit="ns").start()  # cocotb 2 starts the clock itself
    host = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi_control"), clk, rst_n,
                         reset_active_level=False)
    ram = AxiRam(AxiBus.from_prefix(dut, "m_axi_gmem"), clk, rst_n, reset_active_level=False,
                 size=1 << 16)
    rst_n.value = 0
    await ClockCycles(clk, 8)
    rst_n.value = 1
    await ClockCycles(clk, 2)
    assert await read(host, regs.control) == 0, "CTRL after reset"
    await write(host, regs.insn_count, 1)
    assert await read(host, regs.insn_count) == 1, "INSN_COUNT reads back"
    words = regs.pointer_width // 32
    for n, value in enumerate((INSN_ADDR, 0)[:words]):
        await write(host, regs.pointers["insn"] + 4 * n, value)
    for n, value in enumerate((INSN_ADDR, 0)[:words]):
        assert await read(host, regs.pointers["insn"] + 4 * n) == value, f"INSN_ADDR word {n}"
    finish = encode_insn(profile.config, {"opcode": Opcode.FINISH})
    ram.write(INSN_ADDR, finish.to_bytes(INSN_BYTES, "little"))
    await write(host, regs.control, 1 << regs.start_bit)
    done_at = regs.offset_of(regs.done_register)
    for _ in range(DONE_WITHIN // 20):
        if await read(host, done_at) >> regs.done_bit & 1:
            break
        await ClockCycles(clk, 10)
    else:
        raise AssertionError(f"DONE (bit {regs.done_bit} at {done_at:#x}) not set within "
                             f"{DONE_WITHIN} cycles of a launch of one FINISH")
    await RisingEdge(clk)
    assert await read(host, regs.cycles) > 0, "CYCLES after DONE"
