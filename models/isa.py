"""Bit-exact instruction and micro-op encoding (spec section 2).

Upstream declares instructions as C bit-fields on uint64_t: fields go from bit 0 upward
in declaration order and a field that would straddle a 64-bit word starts at the next
word. :func:`layout` reproduces that rule for any configuration, so the same code serves
the default build and every other one. Instructions are plain ``dict[str, int]`` keyed
by upstream's hw_spec.h field names; ``imm`` is held signed.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import Iterable, Mapping, Protocol

from models import widths as W


class Depths(Protocol):
    """What the layout reads of a configuration: the log2 buffer depths that size the index
    fields (models/config.py's VtaConfig has them). A protocol, so that the configuration can
    check its layout here without this module importing it back."""

    @property
    def log_uop_depth(self) -> int: ...
    @property
    def log_inp_depth(self) -> int: ...
    @property
    def log_wgt_depth(self) -> int: ...
    @property
    def log_acc_depth(self) -> int: ...
    def __hash__(self) -> int: ...   # layouts are cached per configuration


class Opcode(IntEnum):
    LOAD = 0
    STORE = 1
    GEMM = 2
    FINISH = 3
    ALU = 4


class MemType(IntEnum):
    UOP = 0
    WGT = 1
    INP = 2
    ACC = 3
    OUT = 4
    ACC_8BIT = 5


class AluOp(IntEnum):
    MIN = 0
    MAX = 1
    ADD = 2
    SHR = 3
    MUL = 4


class EncodingError(ValueError):
    """A field value that does not fit, an unknown name, or bytes that are not instructions."""


Insn = dict  # dict[str, int]: field name -> value (imm signed)

HEAD = [("opcode", 3), ("pop_prev_dep", 1), ("pop_next_dep", 1),
        ("push_prev_dep", 1), ("push_next_dep", 1)]
DEP_FLAGS = ("pop_prev_dep", "pop_next_dep", "push_prev_dep", "push_next_dep")
SIGNED_FIELDS = frozenset({"imm"})


@dataclass(frozen=True)
class Field:
    """One bit-field: its name, least significant bit and width."""

    name: str
    lsb: int
    width: int

    @property
    def msb(self) -> int:
        return self.lsb + self.width - 1


def _place(widths: Iterable[tuple[str, int]]) -> tuple[Field, ...]:
    """Lay fields out by the uint64_t bit-field rule."""
    out, pos = [], 0
    for name, width in widths:
        if pos // 64 != (pos + width - 1) // 64:
            pos = (pos // 64 + 1) * 64
        out.append(Field(name, pos, width))
        pos += width
    return tuple(out)


@dataclass(frozen=True)
class Depth:
    """A field width that depends on the configuration: the largest of the named log2
    buffer depths ('uop', 'inp', 'wgt', 'acc', i.e. ``cfg.log_<name>_depth``) plus ``plus``."""

    names: tuple[str, ...]
    plus: int = 0

    def bits(self, cfg: Depths) -> int:
        return max(getattr(cfg, f"log_{name}_depth") for name in self.names) + self.plus


#: A field width in the symbolic description: fixed bits or a :class:`Depth`.
Width = int | Depth
_UOP, _INP, _WGT, _ACC = Depth(("uop",)), Depth(("inp",)), Depth(("wgt",)), Depth(("acc",))
_MEM_FIELDS: tuple[tuple[str, Width], ...] = (
    *HEAD, ("memory_type", 3), ("sram_base", W.MEMOP_SRAM_ADDR_BITS),
    ("dram_base", W.MEMOP_DRAM_ADDR_BITS), ("y_size", W.MEMOP_SIZE_BITS),
    ("x_size", W.MEMOP_SIZE_BITS), ("x_stride", W.MEMOP_STRIDE_BITS),
    ("y_pad_0", W.MEMOP_PAD_BITS), ("y_pad_1", W.MEMOP_PAD_BITS),
    ("x_pad_0", W.MEMOP_PAD_BITS), ("x_pad_1", W.MEMOP_PAD_BITS))
_LOOP_FIELDS: tuple[tuple[str, Width], ...] = (
    *HEAD, ("reset_reg", 1), ("uop_bgn", _UOP), ("uop_end", Depth(("uop",), 1)),
    ("iter_out", W.LOOP_ITER_BITS), ("iter_in", W.LOOP_ITER_BITS),
    ("dst_factor_out", _ACC), ("dst_factor_in", _ACC))
#: Field order and widths of every layout kind, written once: :func:`layout` places them
#: for a configuration and models/hdl_isa.py turns them into the RTL's rtl/vta_isa.vh.
FIELDS: dict[str, tuple[tuple[str, Width], ...]] = {
    "mem": _MEM_FIELDS,
    "gemm": (*_LOOP_FIELDS, ("src_factor_out", _INP), ("src_factor_in", _INP),
             ("wgt_factor_out", _WGT), ("wgt_factor_in", _WGT)),
    "alu": (*_LOOP_FIELDS, ("src_factor_out", _ACC), ("src_factor_in", _ACC),
            ("alu_opcode", 3), ("use_imm", 1), ("imm", W.ALU_IMM_BITS)),
    "finish": tuple(HEAD),
    "uop": (("dst_idx", _ACC), ("src_idx", Depth(("acc", "inp"))), ("wgt_idx", _WGT)),
}


def width_bits(width: Width, cfg: Depths) -> int:
    """Bits of a symbolic width under one configuration."""
    return width if isinstance(width, int) else width.bits(cfg)


@lru_cache(maxsize=None)
def _layouts(cfg: Depths) -> dict[str, tuple[Field, ...]]:
    return {kind: _place((name, width_bits(width, cfg)) for name, width in fields)
            for kind, fields in FIELDS.items()}


def layout(cfg: Depths, kind: str) -> tuple[Field, ...]:
    """Fields of one instruction kind ('mem', 'gemm', 'alu', 'finish') or of a 'uop'."""
    return _layouts(cfg)[kind]


def layout_error(cfg: Depths) -> str | None:
    """Why an instruction would exceed 128 bits or a micro-op 32 bits under ``cfg`` (None: it
    fits). models/config.py raises it as the configuration's ConfigError."""
    for kind, fields in _layouts(cfg).items():
        limit = W.UOP_BITS if kind == "uop" else W.INSN_BITS
        last = fields[-1]
        if last.msb >= limit:
            what = "a micro-op" if kind == "uop" else f"a {kind.upper()} instruction"
            return (f"{what} needs {last.msb + 1} bits under this configuration "
                    f"(field '{last.name}' ends at bit {last.msb}), more than {limit}")
    return None


def kind_of(opcode: int) -> str:
    """Layout kind of an opcode; raises EncodingError for 5..7."""
    if opcode in (Opcode.LOAD, Opcode.STORE):
        return "mem"
    if opcode == Opcode.GEMM:
        return "gemm"
    if opcode == Opcode.ALU:
        return "alu"
    if opcode == Opcode.FINISH:
        return "finish"
    raise EncodingError(f"illegal opcode {opcode} (legal: 0..4, "
                        f"{', '.join(f'{o.name}={o.value}' for o in Opcode)})")


#: Pseudo-field holding the bits no field covers (bits skipped at a 64-bit boundary, the
#: tail of a FINISH or of a short micro-op). Kept only so that disassembly of arbitrary
#: bytes re-assembles byte for byte; hardware ignores these bits.
UNUSED = "unused_bits"


def _field_mask(fields: tuple[Field, ...]) -> int:
    mask = 0
    for f in fields:
        mask |= ((1 << f.width) - 1) << f.lsb
    return mask


def _pack(fields: tuple[Field, ...], values: Mapping[str, int], what: str, total_bits: int) -> int:
    known = {f.name for f in fields} | {UNUSED}
    for name in values:
        if name not in known:
            raise EncodingError(f"{what}: unknown field '{name}' (fields: {', '.join(sorted(known))})")
    word = 0
    for f in fields:
        value = int(values.get(f.name, 0))
        if f.name in SIGNED_FIELDS:
            lo, hi = -(1 << (f.width - 1)), (1 << (f.width - 1)) - 1
            if not lo <= value <= hi:
                raise EncodingError(f"{what}: field '{f.name}' = {value} does not fit "
                                    f"{f.width} signed bits [{lo}, {hi}]")
            value &= (1 << f.width) - 1
        elif not 0 <= value < (1 << f.width):
            raise EncodingError(f"{what}: field '{f.name}' = {value} does not fit "
                                f"{f.width} bits [0, {(1 << f.width) - 1}]")
        word |= value << f.lsb
    unused = int(values.get(UNUSED, 0))
    free = ((1 << total_bits) - 1) & ~_field_mask(fields)
    if unused & ~free or unused < 0:
        raise EncodingError(f"{what}: '{UNUSED}' = {unused:#x} sets bits that belong to fields "
                            f"(free bits mask {free:#x})")
    return word | unused


def _unpack(fields: tuple[Field, ...], word: int, total_bits: int, keep_unused: bool) -> dict[str, int]:
    out = {}
    for f in fields:
        value = (word >> f.lsb) & ((1 << f.width) - 1)
        if f.name in SIGNED_FIELDS and value >> (f.width - 1):
            value -= 1 << f.width
        out[f.name] = value
    unused = word & ((1 << total_bits) - 1) & ~_field_mask(fields)
    if keep_unused and unused:
        out[UNUSED] = unused
    return out


def encode_insn(cfg: Depths, insn: Mapping[str, int], what: str = "instruction") -> int:
    """Pack an instruction dict (missing fields are 0) into a 128-bit integer."""
    if "opcode" not in insn:
        raise EncodingError(f"{what}: missing field 'opcode'")
    try:
        kind = kind_of(int(insn["opcode"]))
    except EncodingError as exc:
        raise EncodingError(f"{what}: {exc}") from None
    return _pack(layout(cfg, kind), insn, what, W.INSN_BITS)


def decode_insn(cfg: Depths, word: int, keep_unused: bool = False) -> Insn:
    """Unpack a 128-bit instruction; the opcode must be legal (fields are not judged).

    With keep_unused, bits outside every field come back under 'unused_bits' (when
    non-zero) so that a disassembly can be re-assembled byte for byte.
    """
    return _unpack(layout(cfg, kind_of(word & 7)), word, W.INSN_BITS, keep_unused)


def encode_uop(cfg: Depths, uop: Mapping[str, int], what: str = "micro-op") -> int:
    """Pack a micro-op dict into a 32-bit integer."""
    return _pack(layout(cfg, "uop"), uop, what, W.UOP_BITS)


def decode_uop(cfg: Depths, word: int, keep_unused: bool = False) -> dict[str, int]:
    """Unpack a 32-bit micro-op (see decode_insn for keep_unused)."""
    return _unpack(layout(cfg, "uop"), word, W.UOP_BITS, keep_unused)


def insns_to_bytes(cfg: Depths, insns: Iterable[Mapping[str, int]]) -> bytes:
    """Serialise instructions as 16-byte little-endian words."""
    return b"".join(encode_insn(cfg, i, f"instruction {n}").to_bytes(W.INSN_BYTES, "little")
                    for n, i in enumerate(insns))


def insns_from_bytes(cfg: Depths, data: bytes, what: str = "instruction stream",
                     keep_unused: bool = False) -> list[Insn]:
    """Parse 16-byte instructions; a ragged length or an illegal opcode is an error."""
    if len(data) % W.INSN_BYTES:
        raise EncodingError(f"{what}: {len(data)} bytes is not a multiple of {W.INSN_BYTES}")
    out = []
    for n in range(len(data) // W.INSN_BYTES):
        word = int.from_bytes(data[n * W.INSN_BYTES:(n + 1) * W.INSN_BYTES], "little")
        try:
            out.append(decode_insn(cfg, word, keep_unused))
        except EncodingError as exc:
            raise EncodingError(f"{what}: instruction {n}: {exc}") from None
    return out


def uops_to_bytes(cfg: Depths, uops: Iterable[Mapping[str, int]]) -> bytes:
    """Serialise micro-ops as 4-byte little-endian words."""
    return b"".join(encode_uop(cfg, u, f"micro-op {n}").to_bytes(W.UOP_BYTES, "little")
                    for n, u in enumerate(uops))


# --- symbolic (JSON) form: enum fields by name -----------------------------------------
ENUM_FIELDS: dict[str, type[IntEnum]] = {"opcode": Opcode, "memory_type": MemType, "alu_opcode": AluOp}


def to_symbolic(insn: Mapping[str, int]) -> dict[str, int | str]:
    """Replace opcode, memory_type and alu_opcode numbers by their names (illegal ones stay numbers)."""
    out: dict[str, int | str] = {}
    for name, value in insn.items():
        enum = ENUM_FIELDS.get(name)
        out[name] = enum(value).name if enum is not None and value in enum._value2member_map_ else value
    return out


def from_symbolic(obj: Mapping[str, object], what: str) -> dict[str, int]:
    """Inverse of :func:`to_symbolic`; accepts names or numbers for the enum fields."""
    out: dict[str, int] = {}
    for name, value in obj.items():
        enum = ENUM_FIELDS.get(name)
        if isinstance(value, str) and enum is not None:
            try:
                out[name] = enum[value.upper()].value
            except KeyError:
                raise EncodingError(f"{what}: field '{name}' has unknown name '{value}' "
                                    f"(one of {', '.join(e.name for e in enum)})") from None
        elif isinstance(value, int) and not isinstance(value, bool):
            out[name] = value
        else:
            raise EncodingError(f"{what}: field '{name}' must be an integer, got {value!r}")
    return out

