"""Memory types (spec sections 1-4): buffer, base register, element size and module.

One row per legal memory type. ``kind`` is the short name the program builder and the
generator use for a DRAM region of that type (``acc8`` for ACC_8BIT, which shares the ACC
buffer and base register but has its own element size). The OUT buffer has the ACC
buffer's depth and holds the low bits of each ACC element (spec section 3, STORE), so
models that keep only ACC read ACC where a STORE reads OUT.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from models.isa import MemType, Opcode

if TYPE_CHECKING:
    from models.config import VtaConfig


@dataclass(frozen=True)
class MemInfo:
    """What one memory type means: its names, where its data lives and who loads it."""

    kind: str          # short name of its DRAM region ('acc8' for ACC_8BIT)
    buffer: str        # SRAM buffer: 'uop', 'wgt', 'inp', 'acc' or 'out'
    base: str          # base register its DRAM addresses start from (spec section 5)
    elem_attr: str     # VtaConfig attribute giving the bytes of one DRAM element
    load_module: str   # module a LOAD of this type is dispatched to (spec section 4)

    def elem_bytes(self, cfg: "VtaConfig") -> int:
        """Bytes of one DRAM element of this type under a configuration."""
        return int(getattr(cfg, self.elem_attr))


#: The table of spec sections 1-4. A LOAD of OUT is illegal; fetch still dispatches it,
#: like every instruction that is not a LOAD of INP/WGT or a STORE, to compute.
MEMORY: dict[MemType, MemInfo] = {
    MemType.UOP: MemInfo("uop", "uop", "uop", "uop_bytes", "compute"),
    MemType.WGT: MemInfo("wgt", "wgt", "wgt", "wgt_bytes", "load"),
    MemType.INP: MemInfo("inp", "inp", "inp", "inp_bytes", "load"),
    MemType.ACC: MemInfo("acc", "acc", "acc", "acc_bytes", "compute"),
    MemType.OUT: MemInfo("out", "out", "out", "out_bytes", "compute"),
    MemType.ACC_8BIT: MemInfo("acc8", "acc", "acc", "acc8_bytes", "compute"),
}
#: Memory type of each region kind.
MEMTYPE_OF: dict[str, MemType] = {info.kind: mt for mt, info in MEMORY.items()}
#: Base register of each region kind.
BASE_OF: dict[str, str] = {info.kind: info.base for info in MEMORY.values()}


def elem_bytes(cfg: "VtaConfig", memory_type: int) -> int:
    """Bytes of one DRAM element of a (legal) memory type."""
    return MEMORY[MemType(memory_type)].elem_bytes(cfg)


def module_of(insn: Mapping[str, int]) -> str:
    """Which of the three modules executes an instruction (spec section 4).

    STOREs go to store, LOADs to the module of their memory type, everything else (GEMM,
    ALU, FINISH, a LOAD of an illegal memory type) to compute, as fetch dispatches them.
    """
    op = insn["opcode"]
    if op == Opcode.STORE:
        return "store"
    if op == Opcode.LOAD and insn.get("memory_type") in MEMORY:
        return MEMORY[MemType(insn["memory_type"])].load_module
    return "compute"


def loads_nothing(insn: Mapping[str, int]) -> bool:
    """A LOAD that moves no data: x_size 0 (spec section 3), or a memory type with nothing
    to load, an illegal one or OUT, which compute executes as a no-op (rtl/README.md)."""
    mt = insn["memory_type"]
    return insn["x_size"] == 0 or mt not in MEMORY or mt == MemType.OUT
