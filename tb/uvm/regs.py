"""The RTL's register map (rtl/README.md, spec section 5): every offset the testbench uses.

One module so that the host agent, the flows, the watchdog's status decoder and the
performance figures cannot drift apart when the map changes.
"""
from __future__ import annotations

# Host registers of spec section 5.
CTRL, CYCLES, INSN_COUNT, INSN_ADDR = 0x00, 0x04, 0x08, 0x0C
BASE_REGS = {"uop": 0x10, "inp": 0x14, "wgt": 0x18, "acc": 0x1C, "out": 0x20}
#: CTRL bits: write START; read RUNNING (START accepted, FINISH not yet done), DONE and
#: ERROR (an AXI response since the launch was not OKAY; rtl/README.md).
START, RUNNING, DONE, ERROR = 0x1, 0x1, 0x2, 0x4

# Read-only statistics and status words of this RTL (rtl/README.md, 0x24 on).
DISPATCHED = 0x54
INSNS_DONE = {"load": 0x58, "compute": 0x5C, "store": 0x60}
FETCH_STATUS = 0x64
STATUS = {"load": 0x68, "compute": 0x6C, "store": 0x70}
INSN_IDX = {"load": 0x74, "compute": 0x78, "store": 0x7C}
TOKENS, QUEUES, AXI_STATUS, HW_INFO = 0x80, 0x84, 0x88, 0x8C

#: Performance counters, cleared by an accepted START; read after DONE into each
#: passing program's result record (``result["counters"]``, by name).
COUNTERS = {
    "GEMM_UOPS": 0x24, "ALU_UOPS": 0x28, "RD_BYTES": 0x2C, "WR_BYTES": 0x30,
    "FETCH_BUSY": 0x34, "LOAD_BUSY": 0x38, "COMPUTE_BUSY": 0x3C, "STORE_BUSY": 0x40,
    "FETCH_STALL": 0x44, "LOAD_STALL": 0x48, "COMPUTE_STALL": 0x4C, "STORE_STALL": 0x50,
    "DISPATCHED": DISPATCHED, "LOAD_INSNS": INSNS_DONE["load"],
    "COMPUTE_INSNS": INSNS_DONE["compute"], "STORE_INSNS": INSNS_DONE["store"],
    "GEMM_EXEC": 0x90, "ALU_EXEC": 0x94, "CLOAD_EXEC": 0x98, "LOAD_EXEC": 0x9C,
    "STORE_EXEC": 0xA0, "HW_INFO": HW_INFO,
}
#: First offset past the counters and status words: everything from here on is unmapped.
FIRST_UNMAPPED = 0xA4
#: Counters that move whenever the DUT makes progress (the watchdog's stall window):
#: instructions dispatched and completed, micro-ops executed, bytes read and written.
PROGRESS = tuple(COUNTERS[n] for n in ("DISPATCHED", "LOAD_INSNS", "COMPUTE_INSNS", "STORE_INSNS",
                                      "GEMM_UOPS", "ALU_UOPS", "RD_BYTES", "WR_BYTES"))
