"""cocotb test of the host interface (rtl/README.md register map, spec section 5).

Environment: VTA_VECTOR, a vector directory used as the program that is launched.
Checks: reset values, read/write registers with byte strobes, unmapped offsets,
HW_INFO, launch semantics (CTRL reads 1 while running and 0x2 after DONE, START while
busy is ignored, a relaunch clears counters and DONE), CYCLES, per-module counters.
"""
from __future__ import annotations

import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles

from models.vector import load_vector
from tb.cocotb_vta import BASE_REGS, CTRL, CYCLES, INSN_ADDR, INSN_COUNT, Harness, compare, \
    expected_images

HW_INFO, DISPATCHED, GEMM_UOPS = 0x8C, 0x54, 0x24
INSNS_DONE = (0x58, 0x5C, 0x60)


async def wait_done(h: Harness, limit: int = 200000) -> int:
    for n in range(0, limit, 16):
        if (await h.axil.read_dword(CTRL)) & 2:
            return n
        await ClockCycles(h.dut.ap_clk, 16)
    raise AssertionError("DONE not reached")


@cocotb.test()
async def host_interface(dut):
    vector = load_vector(os.environ["VTA_VECTOR"])
    cfg = vector.config
    Clock(dut.ap_clk, 10, unit="ns").start()
    h = Harness(dut)
    await h.reset()

    # reset values and read/write registers
    assert await h.axil.read_dword(CTRL) == 0
    assert await h.axil.read_dword(CYCLES) == 0
    for off in (INSN_COUNT, INSN_ADDR, *BASE_REGS.values()):
        assert await h.axil.read_dword(off) == 0, f"register {off:#x} not 0 after reset"
        await h.axil.write_dword(off, 0x12345678 ^ off)
        assert await h.axil.read_dword(off) == 0x12345678 ^ off
    # byte strobes: write one byte lane only
    await h.axil.write(INSN_ADDR + 2, b"\xAB")
    assert await h.axil.read_dword(INSN_ADDR) == ((0x12345678 ^ INSN_ADDR) & 0xFF00FFFF) | 0x00AB0000
    # unmapped offsets read 0, writes are ignored, responses OKAY (the master raises otherwise)
    for off in (0x200, 0x1000, 0xFFFC):
        await h.axil.write_dword(off, 0xFFFFFFFF)
        assert await h.axil.read_dword(off) == 0
    # DONE is read only
    await h.axil.write_dword(CTRL, 2)
    assert await h.axil.read_dword(CTRL) == 0
    # HW_INFO: version 1 and the configuration
    info = await h.axil.read_dword(HW_INFO)
    v = cfg.values
    assert info & 0xF == 1
    assert (info >> 4 & 0xF, info >> 8 & 0xF, info >> 12 & 0xF) == \
        (v["LOG_BATCH"], v["LOG_BLOCK"], v["LOG_BUS_WIDTH"])
    assert (info >> 16 & 0xFF, info >> 24 & 0xFF) == (v["CMD_QUEUE_DEPTH"], v["TOKEN_QUEUE_DEPTH"])

    # launch the program; START again while it runs is ignored
    for img in vector.init:
        h.ram.write(img.addr, img.data)
    await h.axil.write_dword(INSN_COUNT, vector.insn_count)
    await h.axil.write_dword(INSN_ADDR, vector.insn_addr)
    for name, off in BASE_REGS.items():
        await h.axil.write_dword(off, vector.bases[name])
    await h.axil.write_dword(CTRL, 1)
    assert await h.axil.read_dword(CTRL) == 1, "CTRL must read 1 (running) after START"
    await h.axil.write_dword(CTRL, 1)
    await wait_done(h)
    assert await h.axil.read_dword(CTRL) == 2
    cycles = await h.axil.read_dword(CYCLES)
    assert 0 < cycles
    await ClockCycles(dut.ap_clk, 50)
    assert await h.axil.read_dword(CYCLES) == cycles, "CYCLES must stop at DONE"
    assert await h.axil.read_dword(DISPATCHED) == vector.insn_count, "second START was not ignored"
    done = [await h.axil.read_dword(off) for off in INSNS_DONE]
    assert sum(done) == vector.insn_count
    gemm = await h.axil.read_dword(GEMM_UOPS)
    compared, problems = compare(h.ram, expected_images(vector))
    assert compared and not problems, problems

    # relaunch without reset: DONE cleared, counters restart, same result again
    await h.axil.write_dword(CTRL, 1)
    assert await h.axil.read_dword(CTRL) == 1
    await wait_done(h)
    assert await h.axil.read_dword(CTRL) == 2
    assert await h.axil.read_dword(DISPATCHED) == vector.insn_count
    assert [await h.axil.read_dword(off) for off in INSNS_DONE] == done
    assert await h.axil.read_dword(GEMM_UOPS) == gemm
    assert await h.axil.read_dword(CYCLES) == cycles
    compared, problems = compare(h.ram, expected_images(vector))
    assert compared and not problems, problems
