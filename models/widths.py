"""Fixed field widths of upstream's hw_spec.h, the ones that do not depend on the configuration.

The encoder (models/isa.py) lays out instructions with them and the configuration
(models/config.py) checks buffer depths against them; they sit below both, so that the
configuration can ask the encoder whether its layout fits without either importing the other
back.
"""
from __future__ import annotations

MEMOP_SRAM_ADDR_BITS = 16
MEMOP_DRAM_ADDR_BITS = 32
MEMOP_SIZE_BITS = 16
MEMOP_STRIDE_BITS = 16
MEMOP_PAD_BITS = 4
LOOP_ITER_BITS = 14
LOOP_MAX = (1 << LOOP_ITER_BITS) - 1   # the largest iter_out / iter_in
ALU_IMM_BITS = 16
INSN_BITS = 128
UOP_BITS = 32
INSN_BYTES = INSN_BITS // 8
UOP_BYTES = UOP_BITS // 8
