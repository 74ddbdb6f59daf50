"""The coverpoints: every bin the regression must hit, and how an observation maps to bins.

A coverpoint is a name, a fixed list of bin labels and a function from one observation
to the labels it hits. Labels do not depend on the configuration (``x_size/max`` means
"the largest legal value for this build"), so data from runs on different
configurations merge bin by bin. Observations come in four kinds (``Point.source``):
``insn`` (an executed instruction, :class:`tb.uvm.agents.txn.InsnEvent`), ``axi`` (an AXI4
burst), ``lite`` (an AXI4-Lite register access) and ``cycle`` (a per-cycle snapshot of
handshakes and module activity, :class:`CycleSample`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from models.config import VtaConfig
from models.isa import DEP_FLAGS, AluOp, MemType, Opcode
from models.spec import LEGAL_FLAGS, MEMORY, MODULES
from models.stats import FACTORS, MANY_ROWS, PADS, UOP_BINS, bin_label
from models.widths import LOOP_MAX
from tb.rules import regs

CHANNELS = ("aw", "w", "b", "ar", "r")
#: The host registers of spec section 5 by offset; 0x24 up to regs.FIRST_UNMAPPED are the
#: RTL's read-only counters and status words, binned together as "status".
REGISTERS = {regs.CTRL: "CTRL", regs.CYCLES: "CYCLES", regs.INSN_COUNT: "INSN_COUNT",
             regs.INSN_ADDR: "INSN_ADDR",
             **{addr: f"{name.upper()}_BASE" for name, addr in regs.BASE_REGS.items()}}
WRITABLE = tuple(name for name in REGISTERS.values() if name != "CYCLES")
BUFFERS = ("uop", "inp", "wgt", "acc", "out")
LOAD_TYPES = (MemType.UOP, MemType.WGT, MemType.INP, MemType.ACC, MemType.ACC_8BIT)
_BUFFER_OF = {mt: info.buffer for mt, info in MEMORY.items()}


@dataclass(frozen=True)
class CycleSample:
    """What one clock edge showed: stalled AXI channels and which modules were active.

    ``stalls`` names channels with valid high and ready low (aw/w/ar: the memory slave
    holds the RTL back; b/r: the RTL holds the slave back) plus ``b_delay``/``r_delay``
    when a response is owed but not offered. ``busy`` counts modules not idle (rtl
    vta_top ``l_busy``/``c_busy``/``s_busy``), ``executing`` those in their execute phase
    with work in flight (status bit 14).
    """

    stalls: frozenset[str]
    busy: int
    executing: int


@dataclass(frozen=True)
class Point:
    """One coverpoint: ``bins`` are its labels, ``hits`` maps an observation to labels."""

    name: str
    source: str
    bins: tuple[str, ...]
    hits: Callable[[Any, VtaConfig | None], Iterable[str]]
    description: str


def _flag_combos(module: str) -> tuple[str, ...]:
    legal = LEGAL_FLAGS[module]
    out = []
    for mask in range(1 << len(legal)):
        out.append("+".join(f for n, f in enumerate(legal) if mask >> n & 1) or "none")
    return tuple(f"{module}/{c}" for c in out)


def _need(cfg: VtaConfig | None) -> VtaConfig:
    """The configuration a configuration-relative bin needs (insn observations carry one)."""
    if cfg is None:
        raise ValueError("this coverpoint needs the configuration of the observation")
    return cfg


def _depth(cfg: VtaConfig, buffer: str) -> int:
    return {"uop": cfg.uop_depth, "inp": cfg.inp_depth, "wgt": cfg.wgt_depth,
            "acc": cfg.acc_depth, "out": cfg.out_depth}[buffer]


def _is(insn: dict, *ops: Opcode) -> bool:
    return insn["opcode"] in ops


def _memory(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if _is(i, Opcode.LOAD) and i["memory_type"] in _BUFFER_OF:
        yield f"load/{MemType(i['memory_type']).name}"
    elif _is(i, Opcode.STORE) and i["memory_type"] == MemType.OUT:
        yield "store/OUT"


def _pad(pad: str) -> Callable[[Any, VtaConfig | None], Iterable[str]]:
    def hits(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
        if _is(e.insn, Opcode.LOAD) and e.insn["x_size"]:
            v = e.insn[pad]
            yield "0" if v == 0 else "nonzero"
            if v == 15:
                yield "15"
    return hits


def _kind(insn: dict) -> str:
    return "load" if insn["opcode"] == Opcode.LOAD else "store"


def _sizes(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if not _is(i, Opcode.LOAD, Opcode.STORE) or i["memory_type"] not in _BUFFER_OF or not i["x_size"]:
        return
    depth = _depth(_need(cfg), _BUFFER_OF[MemType(i["memory_type"])])
    for name in ("x_size", "y_size"):
        if i[name] == 1:
            yield f"{_kind(i)}/{name}/1"
        if i[name] == depth:
            yield f"{_kind(i)}/{name}/max"


def _stride(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if _is(i, Opcode.LOAD, Opcode.STORE) and i["x_size"]:
        if i["x_stride"] == i["x_size"]:
            yield f"{_kind(i)}/equal"
        elif i["x_stride"] > i["x_size"]:
            yield f"{_kind(i)}/greater"


def _flags(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    set_flags = [f for f in DEP_FLAGS if e.insn[f]]
    yield f"{e.module}/{'+'.join(set_flags) or 'none'}"


def _loops(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if _is(i, Opcode.GEMM, Opcode.ALU):
        op = Opcode(i["opcode"]).name.lower()
        for name in ("iter_out", "iter_in"):
            if i[name] >= 1:
                yield f"{op}/{name}/{'1' if i[name] == 1 else '>1'}"
        uops = i["uop_end"] - i["uop_bgn"]
        if uops >= 1:
            yield f"{op}/uops/{'1' if uops == 1 else 'many'}"


def _gemm_reset(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    if _is(e.insn, Opcode.GEMM):
        yield "reset" if e.insn["reset_reg"] else "accumulate"


def _alu(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if _is(i, Opcode.ALU) and i["alu_opcode"] in AluOp._value2member_map_:
        yield f"{AluOp(i['alu_opcode']).name}/{'imm' if i['use_imm'] else 'reg'}"


def _imm(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if not (_is(i, Opcode.ALU) and i["use_imm"]):
        return
    v = i["imm"]
    named = {0: "0", 1: "+1", -1: "-1", -(1 << 15): "min", (1 << 15) - 1: "max"}
    if v in named:
        yield named[v]
    if i["alu_opcode"] == AluOp.SHR and abs(v) == _need(cfg).acc_width - 1:
        yield f"SHR/{'+' if v > 0 else '-'}(W-1)"


def _sram(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    """First and last SRAM entry a LOAD writes or a STORE reads (pads included)."""
    i = e.insn
    if not _is(i, Opcode.LOAD, Opcode.STORE) or i["memory_type"] not in _BUFFER_OF or not i["x_size"]:
        return
    buf = _BUFFER_OF[MemType(i["memory_type"])]
    if _is(i, Opcode.LOAD):
        rows = i["y_pad_0"] + i["y_size"] + i["y_pad_1"]
        cols = i["x_pad_0"] + i["x_size"] + i["x_pad_1"]
    else:
        rows, cols = i["y_size"], i["x_size"]
    first, last = i["sram_base"], i["sram_base"] + rows * cols - 1
    if first == 0:
        yield f"{buf}/0"
    if first <= _depth(_need(cfg), buf) - 1 <= last:
        yield f"{buf}/last"


def _acc8(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if _is(i, Opcode.LOAD) and i["memory_type"] == MemType.ACC_8BIT and i["x_size"]:
        yield "padded" if any(i[p] for p in PADS) else "unpadded"


#: Program lengths a program reaches (its instruction index, counted once per program).
LENGTHS = (50, 200, 1000)
UOP_RANGES = tuple(bin_label(lo, UOP_BINS) for lo in UOP_BINS)


def _length(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    if e.index + 1 in LENGTHS:
        yield f"{e.index + 1}+"


def _uop_range(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if _is(i, Opcode.GEMM, Opcode.ALU) and i["uop_end"] > i["uop_bgn"]:
        yield f"{Opcode(i['opcode']).name.lower()}/{bin_label(i['uop_end'] - i['uop_bgn'], UOP_BINS)}"


def _iter_max(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if _is(i, Opcode.GEMM, Opcode.ALU):
        op = Opcode(i["opcode"]).name.lower()
        for name in ("iter_out", "iter_in"):
            if i[name] >= 1000:
                yield f"{op}/{name}/1000+"
            if i[name] == LOOP_MAX:
                yield f"{op}/{name}/max"


def _uop_form(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if _is(i, Opcode.LOAD) and i["memory_type"] == MemType.UOP and i["x_size"]:
        if any(i[p] for p in PADS):
            yield "padded"
        if i["x_stride"] > i["x_size"]:
            yield "strided"
        if i["y_size"] > 1:
            yield "2d"


def _factors(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    if _is(e.insn, Opcode.GEMM):
        yield "all_nonzero" if all(e.insn[f] for f in FACTORS) else "some_zero"


def _rows(e: Any, cfg: VtaConfig | None) -> Iterable[str]:
    i = e.insn
    if _is(i, Opcode.LOAD, Opcode.STORE) and i["x_size"] and i["y_size"] >= MANY_ROWS:
        yield f"{_kind(i)}/{MANY_ROWS}+"


def _burst_len(b: Any, cfg: VtaConfig | None) -> Iterable[str]:
    yield f"{b.kind}/{'1' if b.beats == 1 else '256' if b.beats == 256 else '2..255'}"


def _burst_4k(b: Any, cfg: VtaConfig | None) -> Iterable[str]:
    end = b.beat_addr(b.beats - 1) + b.size  # first byte after the burst
    if end % 4096 == 0:
        yield f"{b.kind}/ends_at_4k"


def _lite(a: Any, cfg: VtaConfig | None) -> Iterable[str]:
    offset = a.addr & ~3
    name = REGISTERS.get(offset) or ("status" if offset < regs.FIRST_UNMAPPED else "unmapped")
    if a.kind == "write" and name in ("CYCLES", "status"):
        name += "(read-only)"
    yield f"{a.kind}/{name}"


def _stalls(c: CycleSample, cfg: VtaConfig | None) -> Iterable[str]:
    return c.stalls


def _busy(c: CycleSample, cfg: VtaConfig | None) -> Iterable[str]:
    for label, n in (("busy", c.busy), ("executing", c.executing)):
        if n >= 2:
            yield f"{label}/2+"
        if n == 3:
            yield f"{label}/3"


POINTS: tuple[Point, ...] = (
    Point("insn.opcode", "insn", tuple(op.name for op in Opcode),
          lambda e, cfg: [Opcode(e.insn["opcode"]).name], "every opcode executed"),
    Point("insn.memory_type", "insn",
          tuple(f"load/{m.name}" for m in LOAD_TYPES) + ("store/OUT",),
          _memory, "memory type of each LOAD and STORE"),
    *(Point(f"load.{pad}", "insn", ("0", "nonzero", "15"), _pad(pad),
            f"LOAD {pad}: zero, non-zero and the maximum 15") for pad in PADS),
    Point("mem.size", "insn",
          tuple(f"{k}/{f}/{v}" for k in ("load", "store") for f in ("x_size", "y_size")
                for v in ("1", "max")),
          _sizes, "x_size and y_size at 1 and at the buffer depth (largest legal)"),
    Point("mem.x_stride", "insn", ("load/equal", "load/greater", "store/equal", "store/greater"),
          _stride, "x_stride equal to and greater than x_size"),
    Point("insn.tokens", "insn", tuple(c for m in MODULES for c in _flag_combos(m)),
          _flags, "every legal combination of dependency flags per module"),
    Point("gemm.reset", "insn", ("reset", "accumulate"), _gemm_reset, "GEMM with and without reset"),
    Point("uop.loops", "insn",
          tuple(f"{op}/{f}/{v}" for op in ("gemm", "alu")
                for f, vals in (("iter_out", ("1", ">1")), ("iter_in", ("1", ">1")),
                                ("uops", ("1", "many"))) for v in vals),
          _loops, "iter_out, iter_in at 1 and above; one and many micro-ops"),
    Point("alu.op_x_imm", "insn",
          tuple(f"{op.name}/{how}" for op in AluOp for how in ("imm", "reg")),
          _alu, "each ALU operation crossed with use_imm"),
    Point("alu.imm", "insn", ("0", "+1", "-1", "min", "max", "SHR/+(W-1)", "SHR/-(W-1)"),
          _imm, "immediates 0, +-1, 16-bit extremes, shifts by +-(ACC width - 1)"),
    Point("sram.index", "insn", tuple(f"{b}/{e}" for b in BUFFERS for e in ("0", "last")),
          _sram, "SRAM entry 0 and the last entry of every buffer"),
    Point("load.acc8", "insn", ("unpadded", "padded"), _acc8, "LOAD ACC_8BIT with and without pads"),
    Point("program.length", "insn", tuple(f"{n}+" for n in LENGTHS), _length,
          "programs of 50, 200 and 1,000 instructions or more (fetch and command queues over "
          "long streams)"),
    Point("uop.range", "insn", tuple(f"{op}/{r}" for op in ("gemm", "alu") for r in UOP_RANGES),
          _uop_range, "micro-op range of a GEMM/ALU: 1, 2-15, 16-127, 128-999, 1000+"),
    Point("uop.iter_max", "insn",
          tuple(f"{op}/{f}/{v}" for op in ("gemm", "alu") for f in ("iter_out", "iter_in")
                for v in ("1000+", "max")),
          _iter_max, "iter_out and iter_in at 1000+ and at the 14-bit maximum 16383"),
    Point("load.uop_form", "insn", ("padded", "strided", "2d"), _uop_form,
          "LOAD UOP padded (zero micro-ops), strided and 2-D"),
    Point("gemm.factors", "insn", ("all_nonzero", "some_zero"), _factors,
          "GEMM with all six loop factors non-zero, and with some zero"),
    Point("mem.rows", "insn", (f"load/{MANY_ROWS}+", f"store/{MANY_ROWS}+"), _rows,
          f"LOAD and STORE of {MANY_ROWS} rows or more (many row bursts in flight)"),
    Point("axi.burst_len", "axi",
          tuple(f"{k}/{n}" for k in ("read", "write") for n in ("1", "2..255", "256")),
          _burst_len, "AXI burst lengths 1, in between and 256 beats"),
    Point("axi.4k_boundary", "axi", ("read/ends_at_4k", "write/ends_at_4k"), _burst_4k,
          "bursts ending right at a 4 KiB boundary"),
    Point("axi.backpressure", "cycle",
          tuple(f"{ch}_stall" for ch in CHANNELS) + ("b_delay", "r_delay"),
          _stalls, "valid held without ready on each channel; responses held back"),
    Point("modules.concurrent", "cycle",
          ("busy/2+", "busy/3", "executing/2+", "executing/3"), _busy,
          "two and three modules busy (not idle) / executing in the same cycle"),
    Point("host.registers", "lite",
          tuple(f"write/{r}" for r in WRITABLE) + tuple(f"read/{r}" for r in REGISTERS.values())
          + ("read/status", "read/unmapped", "write/unmapped", "write/CYCLES(read-only)",
             "write/status(read-only)"),
          _lite, "every control register written and read; counters and status; unmapped offsets"),
)


def all_bins() -> set[tuple[str, str]]:
    """Every (coverpoint, bin) pair."""
    return {(p.name, b) for p in POINTS for b in p.bins}
