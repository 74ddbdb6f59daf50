"""What the checker returns: findings (a broken rule at an instruction) and the report."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.checker.footprints import Footprint
from models.checker.tokens import Op
from models.isa import Opcode

if TYPE_CHECKING:
    from models.config import VtaConfig

#: Module named by findings about the whole program (index None).
PROGRAM = "program"


@dataclass
class Finding:
    """One broken rule at one instruction (index None: the program as a whole)."""

    index: int | None
    module: str
    disasm: str
    rule: str
    message: str

    def __str__(self) -> str:
        where = "program" if self.index is None else f"insn {self.index} [{self.module}] {self.disasm}"
        return f"{where}: {self.rule}: {self.message}"


@dataclass
class CheckReport:
    """Decoded program, per-instruction footprints, the token view and every finding."""

    insns: list[dict[str, int] | None]
    modules: list[str]
    findings: list[Finding]
    footprints: list[Footprint]
    ops: list[Op]                   # every instruction as the token model sees it

    @property
    def ok(self) -> bool:
        return not self.findings

    def rules(self) -> set[str]:
        """The rule ids broken, for quick assertions."""
        return {f.rule for f in self.findings}

    def format(self) -> str:
        if self.ok:
            return f"well-formed: {len(self.insns)} instructions, no findings"
        lines = [f"{len(self.findings)} finding(s) in {len(self.insns)} instructions:"]
        return "\n".join(lines + [f"  {f}" for f in self.findings])

    def dram_write_ranges(self) -> list[tuple[int, int, int]]:
        """(address, length, instruction index) of every STORE write, by instruction."""
        return [(a, n, i) for i, fp in enumerate(self.footprints) for a, n in fp.dram_writes]


def disasm(cfg: "VtaConfig", insn: dict[str, int] | None, word: int) -> str:
    """One-line disassembly; falls back to field dumps so formatting never raises.

    models.asm is imported lazily: it is optional for the checker, and its disassembler
    may reject the very malformed instructions the checker is reporting.
    """
    if insn is None:
        return f".word {word:#034x}"
    try:
        from models.asm import disasm_insn
        return disasm_insn(cfg, insn)
    except Exception:  # noqa: BLE001 - any failure here must not hide the finding
        name = Opcode(insn["opcode"]).name
        fields = " ".join(f"{k}={v}" for k, v in insn.items() if k != "opcode" and v)
        return f"{name} {fields}".rstrip()
