"""Histogram of instruction forms over vectors, and the coverage items a regression must reach.

Keys are ``/``-separated paths, e.g. ``opcode/GEMM``, ``load/mem/ACC_8BIT``,
``alu/SHR/imm``, ``pad/x_pad_1/15``, ``flag/compute/pop_next_dep`` or
``flags/store/pop_prev_dep+push_prev_dep``; ``total/...`` entries count vectors,
instructions and GEMM micro-op executions (the cost of simulating on RTL). The wide forms
the presets of models/genlib/presets.py aim at are counted too: programs by length
(``program/insns/1000+``), GEMM/ALU micro-op ranges (``uop_range/gemm/1000+``) and loop counts
at 1000+ and at the 14-bit maximum (``alu/iter_in/max``), LOAD forms per memory type
(``load/form/UOP/2d``), GEMMs with all six factors non-zero (``gemm/factors/all_nonzero``)
and programs whose token queues hold more tokens in program order than the configuration's
counters (``tokens/L2C/beyond_depth``: the producer must wait on a full counter).
``max/...`` entries are maxima over all vectors, not counts. The histogram is read from
the instruction bytes in DRAM, so it measures any vector, not just generated ones.
"""
from __future__ import annotations

from collections import Counter
from enum import IntEnum
from typing import Iterable, Mapping

from models.decode import decode_program
from models.isa import DEP_FLAGS, AluOp, MemType, Opcode
from models.spec import FLAG_QUEUE, LEGAL_FLAGS, QUEUES, module_of
from models.vector import Vector
from models.widths import LOOP_MAX

PADS = ("y_pad_0", "y_pad_1", "x_pad_0", "x_pad_1")
FACTORS = tuple(f"{role}_factor_{loop}" for role in ("dst", "src", "wgt") for loop in ("out", "in"))
#: Lower ends of the bins of program length and of a GEMM/ALU's micro-op range.
LENGTH_BINS = (1, 50, 200, 1000)
UOP_BINS = (1, 2, 16, 128, 1000)
#: A LOAD/STORE of this many rows or more keeps many row bursts in flight.
MANY_ROWS = 16

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

#: Forms the default draw never reaches and the presets of models/genlib/presets.py do
#: (each preset names the one it is for): shown by ``models stats``, tested over the presets.
WIDE: tuple[str, ...] = (
    "program/insns/1000+",
    "uop_range/gemm/128-999", "uop_range/gemm/1000+", "uop_range/alu/128-999", "uop_range/alu/1000+",
    *(f"{op}/{loop}/max" for op in ("gemm", "alu") for loop in ("iter_out", "iter_in")),
    "load/form/UOP/padded", "load/form/UOP/strided", "load/form/UOP/2d",
    "gemm/factors/all_nonzero",
    "tokens/L2C/beyond_depth", "tokens/S2C/beyond_depth", "tokens/C2S/beyond_depth",
    f"load/y_size/>={MANY_ROWS}",
)


def _name(enum: type[IntEnum], value: int) -> str:
    return enum(value).name if value in enum._value2member_map_ else str(value)


def bin_label(value: int, lows: tuple[int, ...]) -> str:
    """The bin of ``value`` among bins starting at ``lows``: '2-15', '1000+' (or '0')."""
    if value < lows[0]:
        return "0"
    n = max(k for k, lo in enumerate(lows) if value >= lo)
    if n == len(lows) - 1:
        return f"{lows[n]}+"
    top = lows[n + 1] - 1
    return str(top) if top == lows[n] else f"{lows[n]}-{top}"


def _loop_items(kind: str, insn: Mapping[str, int]) -> Iterable[str]:
    for field in ("iter_out", "iter_in"):
        yield f"{kind}/{field}/{'1' if insn[field] == 1 else '0' if insn[field] == 0 else '>1'}"
        if insn[field] >= 1000:
            yield f"{kind}/{field}/>=1000"
        if insn[field] == LOOP_MAX:
            yield f"{kind}/{field}/max"
    yield f"uop_range/{kind}/{bin_label(insn['uop_end'] - insn['uop_bgn'], UOP_BINS)}"


def _mem_items(kind: str, insn: Mapping[str, int]) -> Iterable[str]:
    yield f"{kind}/mem/{_name(MemType, insn['memory_type'])}"
    x, stride = insn["x_size"], insn["x_stride"]
    yield f"{kind}/x_stride/{'==x_size' if stride == x else '>x_size' if stride > x else '<x_size'}"
    if insn["y_size"] >= MANY_ROWS:
        yield f"{kind}/y_size/>={MANY_ROWS}"
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
        if insn["x_size"]:
            mem = _name(MemType, insn["memory_type"])
            if any(insn[pad] for pad in PADS):
                yield f"load/form/{mem}/padded"
            if insn["x_stride"] > insn["x_size"]:
                yield f"load/form/{mem}/strided"
            if insn["y_size"] > 1:
                yield f"load/form/{mem}/2d"
        for pad in PADS:
            value = insn[pad]
            yield f"pad/{pad}/{'zero' if value == 0 else 'nonzero'}"
            if value == 15:
                yield f"pad/{pad}/15"
    elif op == Opcode.STORE:
        yield from _mem_items("store", insn)
    elif op == Opcode.GEMM:
        yield f"gemm/reset/{'yes' if insn['reset_reg'] else 'no'}"
        yield f"gemm/factors/{'all_nonzero' if all(insn[f] for f in FACTORS) else 'some_zero'}"
        yield from _loop_items("gemm", insn)
    elif op == Opcode.ALU:
        yield f"alu/{_name(AluOp, insn['alu_opcode'])}/{'imm' if insn['use_imm'] else 'reg'}"
        yield from _loop_items("alu", insn)


def program_of(vector: Vector) -> list[dict[str, int] | None]:
    """The decoded instruction stream of a vector; None for an undecodable word (opcode 5..7)."""
    return decode_program(vector.config, vector.dram(), vector.insn_addr, vector.insn_count).insns


def _raise(hist: Counter[str], key: str, value: int) -> None:
    hist[key] = max(hist[key], value)


def tokens_beyond(program: list[dict[str, int] | None], depth: int) -> set[str]:
    """Token queues that hold more than ``depth`` tokens at some point of program order."""
    count = dict.fromkeys(QUEUES, 0)
    beyond = set()
    for insn in program:
        if insn is None:
            continue
        module = module_of(insn)
        for flag in DEP_FLAGS:
            if insn[flag] and (module, flag) in FLAG_QUEUE:
                queue = FLAG_QUEUE[module, flag]
                count[queue] += 1 if flag.startswith("push") else -1
                if count[queue] > depth:
                    beyond.add(queue)
    return beyond


def collect(vectors: Iterable[Vector]) -> Counter[str]:
    """Histogram over all instructions of all vectors."""
    hist: Counter[str] = Counter()
    for vector in vectors:
        hist["total/vectors"] += 1
        program = program_of(vector)
        hist[f"program/insns/{bin_label(len(program), LENGTH_BINS)}"] += 1
        _raise(hist, "max/instructions", len(program))
        beyond = tokens_beyond(program, vector.config.token_queue_depth)
        hist.update(f"tokens/{q}/beyond_depth" for q in beyond)
        for insn in program:
            hist["total/instructions"] += 1
            if insn is None:
                hist["opcode/illegal"] += 1
                continue
            hist.update(insn_items(insn))
            if insn["opcode"] in (Opcode.GEMM, Opcode.ALU):
                uops = max(0, insn["uop_end"] - insn["uop_bgn"])
                _raise(hist, "max/uops_per_insn", uops)
                _raise(hist, "max/iter_out", insn["iter_out"])
                _raise(hist, "max/iter_in", insn["iter_in"])
            if insn["opcode"] == Opcode.GEMM:
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
    lines.append("(* = required coverage item; max/... are maxima, not counts)")
    gemms = hist.get("opcode/GEMM", 0)
    if gemms:
        six = hist.get("gemm/factors/all_nonzero", 0)
        lines.append(f"GEMMs with all six factors non-zero: {six} of {gemms} ({100 * six / gemms:.0f} %)")
    return "\n".join(lines)
