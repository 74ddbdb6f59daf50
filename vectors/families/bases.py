"""Base registers and DRAM placement: the layer vector with its data at unusual addresses."""
from __future__ import annotations

from models.vector import Vector
from vectors.data import SMALL
from vectors.families.layers import layer_vector
from vectors.programs import MEMTYPE_OF, Builder

#: With a base register per kind the data can start near each base (every kind of
#: progbuild.MEMTYPE_OF at offset 0x100).
SEPARATE_BASES_REGIONS = dict.fromkeys(MEMTYPE_OF, 0x100)


def v_bases_nonzero(name: str) -> Vector:
    return layer_vector(name, SMALL, {"uop": 0x40000, "inp": 0x10000, "wgt": 0x14000,
                                      "acc": 0x18000, "out": 0x20000}, insn_addr=0x30000,
                        regions=SEPARATE_BASES_REGIONS,
                        extra="Non-zero base registers for every memory type (uop 0x40000, "
                              "inp 0x10000, wgt 0x14000, acc 0x18000, out 0x20000); "
                              "instructions at 0x30000.")


def v_bases_unaligned(name: str) -> Vector:
    return layer_vector(name, SMALL, {"uop": 0x40004, "inp": 0x1000C, "wgt": 0x14004,
                                      "acc": 0x18004, "out": 0x20004}, insn_addr=0x30008,
                        regions=SEPARATE_BASES_REGIONS,
                        extra="Base registers that are multiples of 4 but not of the 8-byte bus "
                              "width (uop 0x40004, inp 0x1000C, wgt 0x14004, acc 0x18004, out "
                              "0x20004) and the instruction stream at 0x30008, so every burst "
                              "starts and ends in the middle of a bus word.")


def v_bases_odd(name: str) -> Vector:
    return layer_vector(name, SMALL, {"uop": 0x40002, "inp": 0x10001, "wgt": 0x14003,
                                      "acc": 0x18005, "out": 0x20007}, insn_addr=0x30004,
                        regions=SEPARATE_BASES_REGIONS,
                        extra="Odd base registers (inp 0x10001, wgt 0x14003, acc 0x18005, out "
                              "0x20007) and a uop base at 2 mod 4 (0x40002): the spec allows any "
                              "byte address, so micro-ops, accumulators and outputs straddle "
                              "bus words at odd byte offsets.")


def v_high_address(name: str) -> Vector:
    cfg = SMALL
    out_bytes = 2 * (3 + 2) * cfg.out_bytes
    return layer_vector(name, cfg, {"uop": 0xFFFF0000, "inp": 0xFFFF1000, "wgt": 0xFFFF2000,
                                    "acc": 0xFFFF3000, "out": 0}, insn_addr=0xFFFE0000,
                        regions={"uop": 0, "inp": 0, "wgt": 0, "acc": 0, "acc8": 0x800,
                                 "out": (1 << 32) - out_bytes},
                        extra="Addresses near the top of the 4 GiB space: base registers "
                              "0xFFFF0000..0xFFFF3000 for uop/inp/wgt/acc, instructions at "
                              "0xFFFE0000, and the output addressed with out base 0 and a large "
                              "dram_base so that its last byte is 0xFFFFFFFF.")


VECTORS: list[tuple[str, Builder]] = [
    ("bases_nonzero", v_bases_nonzero),
    ("bases_unaligned", v_bases_unaligned),
    ("bases_odd", v_bases_odd),
    ("high_address", v_high_address),
]
