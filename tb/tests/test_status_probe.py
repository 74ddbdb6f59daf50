"""tb/uvm/seq_lib/status_probe.py on status words written by hand from rtl/README.md's register map:
[0] busy, [3:1] phase, [6:4] opcode, [9:7] memory type (ALU: ALU opcode)."""
from __future__ import annotations

from typing import Any

from models.isa import AluOp, MemType, Opcode
from tb.uvm.seq_lib.status_probe import status_problem

#: 0 LOAD INP (load), 1 GEMM, 2 ALU MAX, 3 ALU SHR (compute), 4 STORE OUT (store), 5 FINISH.
PROGRAM: list[dict[str, Any] | None] = [
    {"opcode": Opcode.LOAD, "memory_type": MemType.INP},
    {"opcode": Opcode.GEMM},
    {"opcode": Opcode.ALU, "alu_opcode": AluOp.MAX},
    {"opcode": Opcode.ALU, "alu_opcode": AluOp.SHR},
    {"opcode": Opcode.STORE, "memory_type": MemType.OUT},
    {"opcode": Opcode.FINISH},
]
EXECUTING = 0b010 << 1 | 1  # busy, phase 2


def word(opcode: int, sub: int = 0) -> int:
    return EXECUTING | opcode << 4 | sub << 7


def test_words_of_held_instructions_pass() -> None:
    assert status_problem("load", word(Opcode.LOAD, MemType.INP), 0, 0, PROGRAM) == ""
    assert status_problem("compute", word(Opcode.ALU, AluOp.MAX), 2, 2, PROGRAM) == ""
    # GEMM's bits [9:7] are not defined by the register map: any value passes
    assert status_problem("compute", word(Opcode.GEMM, 5), 1, 1, PROGRAM) == ""
    # between INSN_IDX reads 1 and 3 the module may hold any of its instructions 1..3
    assert status_problem("compute", word(Opcode.ALU, AluOp.SHR), 1, 3, PROGRAM) == ""
    assert status_problem("store", word(Opcode.STORE, MemType.OUT), 4, 4, PROGRAM) == ""


def test_a_module_holding_nothing_is_not_judged() -> None:
    assert status_problem("compute", 0b1110 << 4, 2, 2, PROGRAM) == ""


def test_wrong_sub_field_of_an_alu_is_named() -> None:
    problem = status_problem("compute", word(Opcode.ALU, MemType.INP), 2, 2, PROGRAM)
    assert problem == ("COMPUTE_STATUS reads 0x145 (busy, opcode 4, sub-field 2) between "
                       "COMPUTE_INSN_IDX reads 2 and 2, but the compute module's instructions "
                       "there are: #2 opcode 4 sub-field 1")


def test_wrong_opcode_and_other_modules_instructions() -> None:
    problem = status_problem("load", word(Opcode.STORE, MemType.INP), 0, 0, PROGRAM)
    assert "LOAD_STATUS reads" in problem and "#0 opcode 0 sub-field 2" in problem
    # instruction 4 is the store module's: a load status cannot describe it
    problem = status_problem("load", word(Opcode.STORE, MemType.OUT), 4, 4, PROGRAM)
    assert problem.endswith("the load module's instructions there are: none")


def test_index_going_back_is_named() -> None:
    assert status_problem("compute", word(Opcode.GEMM), 3, 1, PROGRAM) == \
        "COMPUTE_INSN_IDX went back from 3 to 1"
