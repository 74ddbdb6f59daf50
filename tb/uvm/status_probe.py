"""A module's status word read while a program runs, against the program itself.

The status words (rtl/README.md, register map: LOAD/COMPUTE/STORE_STATUS) say what each
module holds: its phase, the instruction's opcode in [6:4] and in [9:7] its memory type
(an ALU: its ALU opcode). The watchdog prints them when a run hangs, and a team debugging
a hang reads them, so they must be right; final data cannot show whether they are.

One probe reads the module's INSN_IDX, its status word and INSN_IDX again, back to back.
The module runs its instructions in program order, so while it holds one (busy) that one
is among the module's instructions with an index from the first read to the second; the
word's opcode and sub-field must be those of one of them. The sub-field is checked where
the register map defines it (LOAD and STORE: memory type; ALU: ALU opcode).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from models.isa import Opcode
from models.spec.memory import module_of
from tb.uvm.regs import BY_NAME

_FIELDS = BY_NAME["COMPUTE_STATUS"]
BUSY, OPCODE, SUB = _FIELDS.field("busy"), _FIELDS.field("opcode"), _FIELDS.field("memory_type")


def expected_fields(insn: dict[str, Any]) -> tuple[int, int | None]:
    """(opcode, sub-field) a status word shows for an instruction (sub None: not defined)."""
    op = int(insn["opcode"])
    if op in (Opcode.LOAD, Opcode.STORE):
        return op, int(insn["memory_type"])
    if op == Opcode.ALU:
        return op, int(insn["alu_opcode"])
    return op, None


def status_problem(module: str, word: int, first: int, last: int,
                   insns: Sequence[dict[str, Any] | None]) -> str:
    """What is wrong with ``module``'s status ``word`` read between INSN_IDX reads ``first``
    and ``last`` ("" if nothing, or if the module held nothing)."""
    if not BUSY.get(word):
        return ""
    if last < first:
        return f"{module.upper()}_INSN_IDX went back from {first} to {last}"
    held = [(i, expected_fields(insn)) for i in range(first, min(last, len(insns) - 1) + 1)
            if (insn := insns[i]) is not None and module_of(insn) == module]
    opcode, sub = OPCODE.get(word), SUB.get(word)
    if any(op == opcode and want in (None, sub) for _, (op, want) in held):
        return ""
    shown = ", ".join(f"#{i} opcode {op}" + ("" if want is None else f" sub-field {want}")
                      for i, (op, want) in held) or "none"
    return (f"{module.upper()}_STATUS reads {word:#x} (busy, opcode {opcode}, sub-field {sub}) "
            f"between {module.upper()}_INSN_IDX reads {first} and {last}, but the {module} "
            f"module's instructions there are: {shown}")
