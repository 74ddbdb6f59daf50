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
from tb.rules.regs import BY_NAME

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


#: The status bits that say a module waits for a token or for room (rtl/README.md: [10]..[13]).
WAITS = tuple(_FIELDS.field(name) for name in ("pop_prev", "pop_next", "push_prev", "push_next"))
EXECUTING = _FIELDS.field("executing")
FETCH_BLOCKED = BY_NAME["FETCH_STATUS"].field("blocked")
#: The counter an executing module's cycle goes to, by (module, opcode) (rtl/README.md).
EXEC_COUNTER: dict[tuple[str, int], str] = {
    ("load", Opcode.LOAD): "LOAD_EXEC", ("store", Opcode.STORE): "STORE_EXEC",
    ("compute", Opcode.GEMM): "GEMM_EXEC", ("compute", Opcode.ALU): "ALU_EXEC",
    ("compute", Opcode.LOAD): "CLOAD_EXEC"}


class StatusTally:
    """How many probes saw each counted state. Every probe reads a status word in its own
    cycle, so each count is a lower bound of the counter of that state after DONE: a
    counter that misses cycles (a stuck enable, a wrong condition) falls below it."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def _add(self, counter: str) -> None:
        self.seen[counter] = self.seen.get(counter, 0) + 1

    def module(self, module: str, word: int) -> None:
        if not BUSY.get(word):
            return
        self._add(f"{module.upper()}_BUSY")
        if any(bit.get(word) for bit in WAITS):
            self._add(f"{module.upper()}_STALL")
        counter = EXEC_COUNTER.get((module, OPCODE.get(word)))
        if EXECUTING.get(word) and counter:
            self._add(counter)

    def fetch(self, word: int) -> None:
        if FETCH_BLOCKED.get(word):
            self._add("FETCH_STALL")

    def shortfalls(self, counters: dict[str, int]) -> list[str]:
        """Each counter below the number of probes that saw its state."""
        return [f"{name} reads {counters[name]}, but {n} status probes saw that state"
                for name, n in sorted(self.seen.items()) if counters[name] < n]
