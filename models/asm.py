"""Readable assembly text for VTA instructions and micro-ops (documented in README.md).

One instruction per line::

    LOAD INP sram_base=0 dram_base=4 y_size=1 x_size=2 x_stride=2 pop_next push_next
    GEMM reset uop_end=1 iter_out=1 iter_in=1
    ALU SHR use_imm imm=-31 uop_end=4 iter_out=1 iter_in=1
    FINISH
    .insn 0x0000000000000000000000000000000d   # raw word (e.g. an illegal opcode)

The opcode comes first; LOAD/STORE may name the memory type and ALU the ALU opcode
next. Any field can be given as ``name=value`` (decimal or 0x hex; ``imm`` may be
negative); the bare words ``pop_prev pop_next push_prev push_next reset use_imm`` set
that one-bit field. Fields left out are 0. ``#`` starts a comment. The disassembler
prints only non-zero fields, so text and bytes round-trip exactly, including bits no
field covers (printed as ``unused_bits=0x..``). Micro-op files hold lines
``UOP dst_idx=.. src_idx=.. wgt_idx=..``.
"""
from __future__ import annotations

import json
from typing import Iterable, Mapping

from models import config as C
from models import widths as W
from models.config import VtaConfig
from models.isa import (
    ENUM_FIELDS,
    UNUSED,
    AluOp,
    EncodingError,
    MemType,
    Opcode,
    decode_insn,
    decode_uop,
    encode_insn,
    encode_uop,
    from_symbolic,
    kind_of,
    layout,
    to_symbolic,
)

FLAG_WORDS = {"pop_prev": "pop_prev_dep", "pop_next": "pop_next_dep", "push_prev": "push_prev_dep",
              "push_next": "push_next_dep", "reset": "reset_reg", "use_imm": "use_imm"}
WORD_OF_FLAG = {v: k for k, v in FLAG_WORDS.items()}


class AsmError(ValueError):
    """A line that is not valid assembly; the message names file, line and token."""


# --- disassembly ----------------------------------------------------------------------
def disasm_insn(cfg: VtaConfig, insn: Mapping[str, int]) -> str:
    """One line of assembly for a decoded instruction (only non-zero fields shown)."""
    op = insn["opcode"]
    words = [Opcode(op).name]
    enum_fields: dict[int, str] = {Opcode.LOAD: "memory_type", Opcode.STORE: "memory_type",
                                   Opcode.ALU: "alu_opcode"}
    enum_field = enum_fields.get(op)
    if enum_field is not None:
        enum = ENUM_FIELDS[enum_field]
        value = insn.get(enum_field, 0)
        if value in enum._value2member_map_:
            words.append(enum(value).name)
    for f in layout(cfg, kind_of(op)):
        value = insn.get(f.name, 0)
        if f.name == "opcode" or (f.name == enum_field
                                  and value in ENUM_FIELDS[enum_field]._value2member_map_):
            continue
        if f.name in WORD_OF_FLAG and value == 1:
            words.append(WORD_OF_FLAG[f.name])
        elif value:
            words.append(f"{f.name}={value}")
    if insn.get(UNUSED):
        words.append(f"{UNUSED}={insn[UNUSED]:#x}")
    return " ".join(words)


def disasm_uop(uop: Mapping[str, int]) -> str:
    """One line of assembly for a decoded micro-op (all three indices always shown)."""
    text = f"UOP dst_idx={uop['dst_idx']} src_idx={uop['src_idx']} wgt_idx={uop['wgt_idx']}"
    return text + (f" {UNUSED}={uop[UNUSED]:#x}" if uop.get(UNUSED) else "")


def disasm_bytes(cfg: VtaConfig, data: bytes, uop: bool = False) -> list[str]:
    """Disassemble a binary; undecodable instruction words become ``.insn`` lines."""
    size = W.UOP_BYTES if uop else W.INSN_BYTES
    if len(data) % size:
        raise AsmError(f"{len(data)} bytes is not a whole number of {size}-byte "
                       f"{'micro-ops' if uop else 'instructions'}")
    lines = []
    for n in range(0, len(data), size):
        word = int.from_bytes(data[n:n + size], "little")
        if uop:
            lines.append(disasm_uop(decode_uop(cfg, word, keep_unused=True)))
            continue
        try:
            lines.append(disasm_insn(cfg, decode_insn(cfg, word, keep_unused=True)))
        except EncodingError as exc:
            lines.append(f".insn {word:#034x}  # {exc}")
    return lines


def to_json_lines(cfg: VtaConfig, data: bytes, uop: bool = False) -> list[str]:
    """One JSON object per instruction (or micro-op) with hw_spec field names."""
    size = W.UOP_BYTES if uop else W.INSN_BYTES
    if len(data) % size:
        raise AsmError(f"{len(data)} bytes is not a whole number of {size}-byte words")
    out = []
    for n in range(0, len(data), size):
        word = int.from_bytes(data[n:n + size], "little")
        try:
            fields = decode_uop(cfg, word, True) if uop else to_symbolic(decode_insn(cfg, word, True))
        except EncodingError as exc:
            raise AsmError(f"instruction {n // size}: {exc}; JSON cannot express it "
                           f"(the text disassembly shows it as a .insn line)") from None
        out.append(json.dumps(fields))
    return out


# --- assembly --------------------------------------------------------------------------
def _number(token: str, where: str) -> int:
    """A decimal or 0x-hex literal, optionally signed (no '_' separators, 0o or 0b forms)."""
    digits = token.lstrip("+-")
    hexa = digits[:2].lower() == "0x"
    body = digits[2:] if hexa else digits
    valid = "0123456789abcdefABCDEF" if hexa else "0123456789"
    if len(token) - len(digits) > 1 or not body or any(c not in valid for c in body):
        raise AsmError(f"{where}: {_show(token)} is not a number (decimal or 0x hex)")
    value = int(token, 16) if hexa else int(token) if len(body) <= 40 else 1 << 200
    if abs(value) >> W.INSN_BITS:
        raise AsmError(f"{where}: {_show(token)} is too large for any field (over {W.INSN_BITS} bits)")
    return value


def _show(token: str) -> str:
    """A token quoted for an error message: invisible characters escaped, long ones cut."""
    text = f"'{token}'" if token.isprintable() else repr(token)
    return text if len(text) <= 40 else f"{text[:32]}...' ({len(token)} characters)"


def parse_line(cfg: VtaConfig, line: str, where: str, uop: bool = False) -> int | None:
    """Encode one line of assembly; returns None for blank and comment lines."""
    text = line.split("#", 1)[0].strip()
    if not text:
        return None
    words = text.split()
    head = words[0].upper()
    if head == ".INSN" and not uop:
        if len(words) != 2:
            raise AsmError(f"{where}: .insn takes exactly one value")
        value = _number(words[1], where)
        if not 0 <= value < (1 << W.INSN_BITS):
            raise AsmError(f"{where}: .insn value does not fit 128 bits")
        return value
    if uop:
        if head != "UOP":
            raise AsmError(f"{where}: micro-op lines start with UOP, got {_show(words[0])}")
        fields: dict[str, int] = {}
        rest = words[1:]
    else:
        try:
            opcode = Opcode[head]
        except KeyError:
            raise AsmError(f"{where}: unknown opcode {_show(words[0])} "
                           f"(one of {', '.join(o.name for o in Opcode)} or .insn)") from None
        fields = {"opcode": opcode.value}
        rest = words[1:]
        enum = MemType if opcode in (Opcode.LOAD, Opcode.STORE) else AluOp if opcode == Opcode.ALU else None
        if rest and enum is not None and rest[0].upper() in enum.__members__:
            fields["memory_type" if enum is MemType else "alu_opcode"] = enum[rest[0].upper()].value
            rest = rest[1:]
    for token in rest:
        if "=" in token:
            name, _, literal = token.partition("=")
            if name in fields:
                raise AsmError(f"{where}: field '{name}' given twice")
            fields[name] = _number(literal, f"{where}: field '{name}'")
        elif token in FLAG_WORDS and not uop:
            fields[FLAG_WORDS[token]] = 1
        else:
            raise AsmError(f"{where}: unexpected word {_show(token)} (expected name=value or one of "
                           f"{', '.join(FLAG_WORDS)})")
    try:
        return encode_uop(cfg, fields, where) if uop else encode_insn(cfg, fields, where)
    except EncodingError as exc:
        raise AsmError(str(exc)) from None


def assemble(cfg: VtaConfig, lines: Iterable[str], source: str = "<text>", uop: bool = False) -> bytes:
    """Assemble text lines into little-endian instruction (or micro-op) words."""
    size = W.UOP_BYTES if uop else W.INSN_BYTES
    out = bytearray()
    for n, line in enumerate(lines, 1):
        word = parse_line(cfg, line, f"{source}:{n}", uop)
        if word is not None:
            out += word.to_bytes(size, "little")
    return bytes(out)


def assemble_json(cfg: VtaConfig, lines: Iterable[str], source: str = "<json>", uop: bool = False) -> bytes:
    """Inverse of :func:`to_json_lines`: one JSON object per non-blank line."""
    size = W.UOP_BYTES if uop else W.INSN_BYTES
    out = bytearray()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{source}:{n}"
        try:
            obj = json.loads(line, object_pairs_hook=C.no_duplicate_keys)
        except json.JSONDecodeError as exc:
            raise AsmError(f"{where}: not valid JSON: {exc.msg}") from None
        except C.DuplicateKeyError as exc:
            raise AsmError(f"{where}: field {str(exc).removeprefix('duplicate key ')} given twice") from None
        except RecursionError:
            raise AsmError(f"{where}: not valid JSON: nested too deeply") from None
        except ValueError:  # an integer literal of thousands of digits
            raise AsmError(f"{where}: not valid JSON: an integer literal has too many digits") from None
        if not isinstance(obj, dict):
            raise AsmError(f"{where}: each line must be a JSON object")
        try:
            fields = from_symbolic(obj, where)
            word = encode_uop(cfg, fields, where) if uop else encode_insn(cfg, fields, where)
        except EncodingError as exc:
            raise AsmError(str(exc)) from None
        out += word.to_bytes(size, "little")
    return bytes(out)
