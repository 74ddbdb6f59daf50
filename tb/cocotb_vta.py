"""cocotb test: run VTA test vectors on vta_top and compare DRAM with the expectation.

Environment:
  VTA_VECTORS     vector directories separated by os.pathsep (VTA_VECTOR: a single one)
  VTA_RESULTS     JSON file receiving one result dict per vector (optional)
  VTA_MAX_CYCLES  clock cycles allowed from launch to DONE (default 2,000,000)
  VTA_STALL       optional "P[:SEED]": every AXI channel of the memory (AW W B AR R)
                  and of the AXI-Lite master pauses each cycle with probability P

Per vector: reset the DUT, clear and fill DRAM (AxiRam over a sparse 4 GiB memory),
program INSN_COUNT, INSN_ADDR and the five bases over AXI-Lite, write CTRL=1, poll CTRL
until DONE, compare the expect images (or the golden model's, models.executor) with DRAM.
"""
from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam

from models.vector import Image, Vector, load_vector

# register map (rtl/README.md)
CTRL, CYCLES, INSN_COUNT, INSN_ADDR = 0x00, 0x04, 0x08, 0x0C
BASE_REGS = {"uop": 0x10, "inp": 0x14, "wgt": 0x18, "acc": 0x1C, "out": 0x20}
STATUS_REGS = {
    "FETCH_STATUS": 0x64, "LOAD_STATUS": 0x68, "COMPUTE_STATUS": 0x6C, "STORE_STATUS": 0x70,
    "LOAD_INSN_IDX": 0x74, "COMPUTE_INSN_IDX": 0x78, "STORE_INSN_IDX": 0x7C,
    "TOKENS": 0x80, "QUEUES": 0x84, "AXI_STATUS": 0x88, "DISPATCHED": 0x54,
}
#: performance counters read after DONE into result["counters"] (rtl/README.md)
COUNTERS = {
    "GEMM_UOPS": 0x24, "ALU_UOPS": 0x28, "RD_BYTES": 0x2C, "WR_BYTES": 0x30,
    "FETCH_BUSY": 0x34, "LOAD_BUSY": 0x38, "COMPUTE_BUSY": 0x3C, "STORE_BUSY": 0x40,
    "FETCH_STALL": 0x44, "LOAD_STALL": 0x48, "COMPUTE_STALL": 0x4C, "STORE_STALL": 0x50,
    "DISPATCHED": 0x54, "LOAD_INSNS": 0x58, "COMPUTE_INSNS": 0x5C, "STORE_INSNS": 0x60,
    "GEMM_EXEC": 0x90, "ALU_EXEC": 0x94, "CLOAD_EXEC": 0x98, "LOAD_EXEC": 0x9C,
    "STORE_EXEC": 0xA0, "HW_INFO": 0x8C,
}
POLL_INTERVAL = 64
MAX_REPORTED_MISMATCHES = 8


def vector_paths() -> list[Path]:
    raw = os.environ.get("VTA_VECTORS") or os.environ.get("VTA_VECTOR")
    if not raw:
        raise RuntimeError("set VTA_VECTORS (or VTA_VECTOR) to the vector directories to run")
    return [Path(p) for p in raw.split(os.pathsep) if p]


def expected_images(vector: Vector) -> list[Image]:
    if vector.expect is not None:
        return vector.expect
    from models.executor import expected_images as model_expected
    return model_expected(vector)


def compare(ram: AxiRam, images: list[Image]) -> tuple[int, list[str]]:
    """Bytes compared and a description of the first mismatches."""
    compared, problems = 0, []
    for img in images:
        actual = ram.read(img.addr, len(img.data))
        compared += len(img.data)
        if actual == img.data:
            continue
        for off, (e, a) in enumerate(zip(img.data, actual)):
            if e != a:
                if len(problems) < MAX_REPORTED_MISMATCHES:
                    problems.append(f"addr {img.addr + off:#010x} ({img.file or 'expect'}+{off}): "
                                    f"expected {e:#04x}, got {a:#04x}")
                else:
                    break
        n_bad = sum(1 for e, a in zip(img.data, actual) if e != a)
        problems.append(f"{img.file or 'expect'} at {img.addr:#x}: {n_bad} of {len(img.data)} bytes differ")
    return compared, problems


class Harness:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi_gmem"), dut.ap_clk, dut.ap_rst_n,
                          reset_active_level=False, size=2 ** 32)
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi_control"), dut.ap_clk,
                                  dut.ap_rst_n, reset_active_level=False)

    def set_stalls(self, spec: str) -> None:
        """Random backpressure/valid gaps on every channel: spec is 'P[:SEED]'."""
        prob, _, seed = spec.partition(":")
        p = float(prob)
        rng = random.Random(int(seed) if seed else 1)

        def gen():
            while True:
                yield rng.random() < p

        chans = [self.ram.write_if.aw_channel, self.ram.write_if.w_channel,
                 self.ram.write_if.b_channel, self.ram.read_if.ar_channel,
                 self.ram.read_if.r_channel]
        for ch in chans:
            ch.set_pause_generator(gen())

    async def reset(self) -> None:
        self.dut.ap_rst_n.value = 0
        await ClockCycles(self.dut.ap_clk, 8)
        self.dut.ap_rst_n.value = 1
        await ClockCycles(self.dut.ap_clk, 4)

    async def status(self) -> str:
        parts = []
        for name, addr in STATUS_REGS.items():
            parts.append(f"{name}={await self.axil.read_dword(addr):#010x}")
        return " ".join(parts)

    async def run(self, vector: Vector, max_cycles: int) -> dict:
        started = time.perf_counter()
        result = {"vector": vector.name, "path": str(vector.path), "passed": False,
                  "cycles": None, "message": ""}
        await self.reset()
        self.ram.mem.clear()
        for img in vector.init:
            self.ram.write(img.addr, img.data)
        await self.axil.write_dword(INSN_COUNT, vector.insn_count)
        await self.axil.write_dword(INSN_ADDR, vector.insn_addr)
        for name, addr in BASE_REGS.items():
            await self.axil.write_dword(addr, vector.bases.get(name, 0))
        await self.axil.write_dword(CTRL, 1)
        waited = 0
        done = False
        while waited < max_cycles:
            await ClockCycles(self.dut.ap_clk, POLL_INTERVAL)
            waited += POLL_INTERVAL
            if (await self.axil.read_dword(CTRL)) & 0x2:
                done = True
                break
        cycles = await self.axil.read_dword(CYCLES)
        result["cycles"] = cycles
        if done:
            result["counters"] = {name: await self.axil.read_dword(addr)
                                  for name, addr in COUNTERS.items()}
        if not done:
            result["message"] = (f"timeout: DONE not set after {waited} cycles; "
                                 f"status: {await self.status()}")
        else:
            try:
                images = expected_images(vector)
            except Exception as exc:  # the model rejected the vector
                images = []
                result["message"] = f"no expectation: {type(exc).__name__}: {exc}"
            compared, problems = compare(self.ram, images)
            if compared == 0:
                result["message"] = result["message"] or "nothing to compare (zero expected bytes)"
            elif problems:
                result["message"] = "; ".join(problems)
            else:
                result["passed"] = True
                result["message"] = f"{compared} bytes match"
        result["wall"] = time.perf_counter() - started
        return result


@cocotb.test()
async def run_vectors(dut):
    """Run every vector of VTA_VECTORS; fails if any vector fails."""
    max_cycles = int(os.environ.get("VTA_MAX_CYCLES", "2000000"))
    Clock(dut.ap_clk, 10, unit="ns").start()
    dut.ap_rst_n.value = 0
    harness = Harness(dut)
    if os.environ.get("VTA_STALL"):
        harness.set_stalls(os.environ["VTA_STALL"])
    results = []
    out = os.environ.get("VTA_RESULTS")
    for path in vector_paths():
        try:
            vector = load_vector(path)
        except Exception as exc:
            results.append({"vector": path.name, "path": str(path), "passed": False, "cycles": None,
                            "wall": 0.0, "message": f"cannot load vector: {exc}"})
            continue
        res = await harness.run(vector, max_cycles)
        results.append(res)
        dut._log.info("%s: %s (%s cycles) %s", res["vector"], "PASS" if res["passed"] else "FAIL",
                      res["cycles"], res["message"])
        if out:
            Path(out).write_text(json.dumps(results, indent=1))
    if out:
        Path(out).write_text(json.dumps(results, indent=1))
    failed = [r for r in results if not r["passed"]]
    assert not failed, f"{len(failed)} of {len(results)} vector(s) failed: " + \
        ", ".join(r["vector"] for r in failed)
