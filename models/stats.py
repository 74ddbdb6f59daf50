"""Histogram of instruction forms over vectors, and the coverage items a regression must reach.

Keys are ``/``-separated paths, e.g. ``opcode/GEMM``, ``load/mem/ACC_8BIT``,
``alu/SHR/imm``, ``pad/x_pad_1/15``, ``flag/compute/pop_next_dep`` or
``flags/store/pop_prev_dep+push_prev_dep``; ``total/...`` entries count vectors,
instructions and GEMM micro-op executions (the cost of simulating on RTL). The histogram
is read from the instruction bytes in DRAM, so it measures any vector, not just generated
ones.
"""
from __future__ import annotations

from collections import Counter
from enum import IntEnum
from typing import Iterable, Mapping

from models.decode import decode_program
from models.isa import DEP_FLAGS, AluOp, MemType, Opcode
from models.spec import LEGAL_FLAGS, module_of
from models.vector import Vector

PADS = ("y_pad_0", "y_pad_1", "x_pad_0", "x_pad_1")

#: Items every regression must hit: each opcode, each LOAD memory type and STORE OUT,
#: each ALU op with and without immediate, each LOAD pad non-zero and at 15, GEMM with and
#: without reset, and each legal token flag of each module.
REQUIRED: tuple[str, ...] = (
    tuple(f"opcode/{op.name}" for op in Opcode)
    + tuple(f"load/mem/{m.name}" for m in (MemType.UOP, MemType.WGT, MemType.INP, MemType.ACC,
                                            MemType.ACC_8BIT))
    + ("store/mem/OUT",)
    + tuple(f"alu/{op.name}/{how}" for op in AluOp for how in ("imm", "reg"))
    + tuple(f"pad/{p}/{v}" for p in PADS for v in ("nonzero", "15"))
    + ("gemm/reset/yes", "gemm/reset/no")
    + tuple(f"flag/{m}/{f}" for m, flags in LEGAL_FLAGS.items() for f in flags)
)


def _name(enum: type[IntEnum], value: int) -> str:
    return enum(value).name if value in enum._value2member_map_ else str(value)


def _loop_items(kind: str, insn: Mapping[str, int]) -> Iterable[str]:
    for field in ("iter_out", "iter_in"):
        yield f"{kind}/{field}/{'1' if insn[field] == 1 else '0' if insn[field] == 0 else '>1'}"


def _mem_items(kind: str, insn: Mapping[str, int]) -> Iterable[str]:
    yield f"{kind}/mem/{_name(MemType, insn['memory_type'])}"
    x, stride = insn["x_size"], insn["x_stride"]
    yield f"{kind}/x_stride/{'==x_size' if stride == x else '>x_size' if stride > x else '<x_size'}"
    if x == 0:
        yield f"{kind}/x_size/0"


def insn_items(insn: Mapping[str, int]) -> Iterable[str]:
    """Every histogram key one instruction contributes."""
    op = insn["opcode"]
    module = module_of(insn)
    yield f"opcode/{_name(Opcode, op)}"
    set_flags = [f for f in DEP_FLAGS if insn[f]]
    for flag in set_flags:
        yield f"flag/{module}/{flag}" + ("" if flag in LEGAL_FLAGS[module] else " (ILLEGAL)")
    yield f"flags/{module}/{'+'.join(set_flags) or 'none'}"
    if op == Opcode.LOAD:
        yield from _mem_items("load", insn)
        for pad in PADS:
            value = insn[pad]
            yield f"pad/{pad}/{'zero' if value == 0 else 'nonzero'}"
            if value == 15:
                yield f"pad/{pad}/15"
    elif op == Opcode.STORE:
        yield from _mem_items("store", insn)
    elif op == Opcode.GEMM:
        yield f"gemm/reset/{'yes' if insn['reset_reg'] else 'no'}"
        yield from _loop_items("gemm", insn)
    elif op == Opcode.ALU:
        yield f"alu/{_name(AluOp, insn['alu_opcode'])}/{'imm' if insn['use_imm'] else 'reg'}"
        yield from _loop_items("alu", insn)


def program_of(vector: Vector) -> list[dict[str, int] | None]:
    """The decoded instruction stream of a vector; None for an undecodable word (opcode 5..7)."""
    return decode_program(vector.config, vector.dram(), vector.insn_addr, vector.insn_count).insns


def collect(vectors: Iterable[Vector]) -> Counter[str]:
    """Histogram over all instructions of all vectors."""
    hist: Counter[str] = Counter()
    for vector in vectors:
        hist["total/vectors"] += 1
        for insn in program_of(vector):
            hist["total/instructions"] += 1
            if insn is None:
                hist["opcode/illegal"] += 1
                continue
            hist.update(insn_items(insn))
            if insn["opcode"] == Opcode.GEMM:
                uops = max(0, insn["uop_end"] - insn["uop_bgn"])
                hist["total/gemm_uop_execs"] += insn["iter_out"] * insn["iter_in"] * uops
    return hist


def missing(hist: Mapping[str, int]) -> list[str]:
    """The REQUIRED items the histogram never saw."""
    return [item for item in REQUIRED if not hist.get(item)]


def format_stats(hist: Mapping[str, int]) -> str:
    """One ``key count`` line per item, grouped by the key's first part, required ones marked."""
    width = max((len(k) for k in hist), default=0)
    lines, group = [], None
    for key in sorted(hist):
        head = key.split("/", 1)[0]
        if head != group:
            if group is not None:
                lines.append("")
            group = head
        mark = "  *" if key in REQUIRED else ""
        lines.append(f"{key:<{width}} {hist[key]:>8}{mark}")
    lines.append("")
    lines.append("(* = required coverage item)")
    return "\n".join(lines)
