"""The ways a DUT may differ from what the spec and the testbench assume, as a closed list.

A profile lists the differences of its DUT by these names, each with the reason (where in
the DUT's sources the fact comes from). Keeping the names closed means the testbench can act
on them (skip generating MUL for a DUT without it, keep bursts inside 4 KiB pages, never
back-pressure R) and a misspelt name is an error instead of a silently ignored line.
"""
from __future__ import annotations

#: name -> what the difference means for the testbench.
DIFFERENCES: dict[str, str] = {
    # ISA: instructions or fields of spec sections 2-3 the DUT does not execute as specified
    "isa.alu-mul": "ALU opcode MUL (4) is not executed as spec section 3 defines it",
    "isa.alu-shr-negative": "ALU SHR is as spec section 3 says only by an immediate of magnitude "
                            "below ACC_W: a register operand, negative or not, or a larger "
                            "immediate shifts by its low bits",
    "isa.load-acc8": "LOAD of memory type ACC_8BIT (5) is not executed",
    "isa.alu-imm-reads-src": "ALU with an immediate computes ACC[dst] = op(ACC[src], imm) instead "
                             "of op(ACC[dst], imm) (spec section 3)",
    "isa.alu-no-bypass": "an ALU micro-op iteration that reads the ACC entry the previous "
                         "iteration wrote gets its old value (spec section 3: strictly in order)",
    "store.out-buffer": "STORE reads a separate OUT buffer that only accumulating GEMMs and ALUs "
                        "write: after a LOAD ACC or a reset GEMM it stores stale bytes",
    "isa.insn-addr-alignment": "INSN_ADDR must be aligned to the bus width "
                               "(the spec allows any byte address)",
    # memory port (AXI4 master)
    "protocol.4k-boundary": "a burst may cross a 4 KiB boundary (AXI4 A3.4.1 forbids it)",
    "protocol.rready-fixed": "RREADY is always high: read data cannot be back-pressured",
    "protocol.ignores-resp": "RRESP and BRESP are not looked at: error responses go unnoticed",
    # control port (AXI4-Lite slave)
    "host.wstrb-ignored": "AXI-Lite write strobes are ignored: every write stores the whole word",
    "host.aw-before-w": "the write data is accepted only after the write address (W waits for AW)",
    "host.exact-decode": "a register answers only at its exact byte offset (no decoding of [15:2])",
    "host.cycles-writable": "CYCLES stores what the host writes to it (spec section 5: read-only); "
                            "the DUT's own count replaces it at the next FINISH",
    # state and sizes
    "state.buffers-not-reset": "on-chip buffers keep their contents across reset and launches "
                               "(unwritten entries read as X in a four-state simulator)",
    "config.uop-buffer-depth": "the micro-op buffer holds fewer micro-ops than the configuration's "
                               "LOG_UOP_BUFF_SIZE, which fixes the instruction layout",
    "tokens.full-push-dropped": "a push into a full token counter is lost instead of waiting for room",
    "config.cmd-queue-depth": "the command queues are deeper than the configuration's "
                              "CMD_QUEUE_DEPTH (beyond the range models/config.py accepts)",
}

#: Differences that state a number (``limit`` in the profile), and what the number is: the
#: testbench leaves out a program that goes beyond it (tb/plan/applicable.py).
LIMITS: dict[str, str] = {
    "config.uop-buffer-depth": "the micro-ops the buffer holds",
}
