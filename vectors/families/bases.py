"""Base registers and DRAM placement: the layer vector with its data at unusual addresses.

The four vectors run the same program (vectors.families.layers.layer_vector) and differ
only in where it lives, so they are one table: base registers, instruction address,
each kind's data offset from its base, and the sentence the description adds.
"""
from __future__ import annotations

from functools import partial
from typing import NamedTuple

from vectors.data import SMALL
from vectors.families.layers import OUT_ELEMENTS, layer_vector
from vectors.programs import MEMTYPE_OF, Builder


class Placement(NamedTuple):
    """Where a layer vector's program and data go in DRAM."""

    bases: dict[str, int]  #: base register per kind (uop, inp, wgt, acc, out)
    insn_addr: int  #: byte address of the instruction stream
    regions: dict[str, int]  #: where each kind's data starts, from its base register
    note: str  #: what the placement tests, for the description


#: With a base register per kind the data can start near each base (every kind of
#: memory at offset 0x100).
SEPARATE_BASES_REGIONS = dict.fromkeys(MEMTYPE_OF, 0x100)

PLACEMENTS: dict[str, Placement] = {
    "bases_nonzero": Placement(
        {"uop": 0x40000, "inp": 0x10000, "wgt": 0x14000, "acc": 0x18000, "out": 0x20000},
        0x30000, SEPARATE_BASES_REGIONS,
        "Non-zero base registers for every memory type (uop 0x40000, inp 0x10000, wgt "
        "0x14000, acc 0x18000, out 0x20000); instructions at 0x30000."),
    "bases_unaligned": Placement(
        {"uop": 0x40004, "inp": 0x1000C, "wgt": 0x14004, "acc": 0x18004, "out": 0x20004},
        0x30008, SEPARATE_BASES_REGIONS,
        "Base registers that are multiples of 4 but not of the 8-byte bus width (uop "
        "0x40004, inp 0x1000C, wgt 0x14004, acc 0x18004, out 0x20004) and the instruction "
        "stream at 0x30008, so every burst starts and ends in the middle of a bus word."),
    "bases_odd": Placement(
        {"uop": 0x40002, "inp": 0x10001, "wgt": 0x14003, "acc": 0x18005, "out": 0x20007},
        0x30004, SEPARATE_BASES_REGIONS,
        "Odd base registers (inp 0x10001, wgt 0x14003, acc 0x18005, out 0x20007) and a uop "
        "base at 2 mod 4 (0x40002): the spec allows any byte address, so micro-ops, "
        "accumulators and outputs straddle bus words at odd byte offsets."),
    "high_address": Placement(
        {"uop": 0xFFFF0000, "inp": 0xFFFF1000, "wgt": 0xFFFF2000, "acc": 0xFFFF3000, "out": 0},
        0xFFFE0000,
        {"uop": 0, "inp": 0, "wgt": 0, "acc": 0, "acc8": 0x800,
         "out": (1 << 32) - OUT_ELEMENTS * SMALL.out_bytes},
        "Addresses near the top of the 4 GiB space: base registers 0xFFFF0000..0xFFFF3000 "
        "for uop/inp/wgt/acc, instructions at 0xFFFE0000, and the output addressed with out "
        "base 0 and a large dram_base so that its last byte is 0xFFFFFFFF."),
}

VECTORS: list[tuple[str, Builder]] = [
    (name, partial(layer_vector, cfg=SMALL, bases=pl.bases, insn_addr=pl.insn_addr,
                   regions=pl.regions, extra=pl.note))
    for name, pl in PLACEMENTS.items()
]
