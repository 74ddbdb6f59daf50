"""A DUT's register map as a profile states it: where the host finds each register it uses.

The testbench programs a launch through a handful of registers (spec section 5): CTRL
(START and DONE bits), CYCLES, INSN_COUNT, the instruction address and the five base
pointers. Designs place them differently (upstream's VCR keeps 64-bit pointers as low/high
word pairs from 0x0C on, and ORs a base into an address where ours adds it), so the profile
records the map as data and this module checks it: word-aligned offsets inside the 16-bit
control space, and no two registers sharing a byte.
"""
from __future__ import annotations

from dataclasses import dataclass

from models.predict import COUNTERS as MODEL_COUNTERS
from tb.duts.schema import Node, ProfileError
from tb.duts.signals import HOST_ADDR_WIDTH

#: The pointers every program needs, in spec order (INSN_ADDR, then the bases).
POINTERS = ("insn", "uop", "inp", "wgt", "acc", "out")
#: How a base pointer meets the DRAM offset of an instruction.
COMBINE = ("add", "or")
LAST_OFFSET = (1 << HOST_ADDR_WIDTH) - 4


@dataclass(frozen=True)
class RegisterMap:
    """Byte offsets of the registers the testbench uses.

    ``pointers`` are 32-bit registers, or with ``pointer_width`` 64 low/high word pairs (the
    high word at offset + 4). ``done`` names the register and bit that read 1 once FINISH has
    completed; ``start_bit`` is the bit of ``control`` a host writes to launch. ``extra`` holds
    further counters and status words by the DUT's own names; ``counts`` names, for those
    the design documents as a count of work, the golden model's counters (models/predict.py)
    whose sum the register must hold after DONE.
    """

    control: int
    start_bit: int
    done_register: str
    done_bit: int
    cycles: int
    insn_count: int
    pointer_width: int
    base_combine: str
    pointers: dict[str, int]
    extra: dict[str, int]
    counts: dict[str, tuple[str, ...]]

    def spans(self) -> dict[str, tuple[int, int]]:
        """Every register's [first, last] byte offset, by its field path in the profile."""
        out = {"registers.control": (self.control, self.control + 3),
               "registers.cycles": (self.cycles, self.cycles + 3),
               "registers.insn_count": (self.insn_count, self.insn_count + 3)}
        size = self.pointer_width // 8
        out.update({f"registers.pointers.{k}": (v, v + size - 1) for k, v in self.pointers.items()})
        out.update({f"registers.extra.{k}": (v, v + 3) for k, v in self.extra.items()})
        return out

    def offset_of(self, name: str) -> int:
        """The offset of a register named as ``done.register`` may name it."""
        named = {"control": self.control, "cycles": self.cycles, "insn_count": self.insn_count}
        return named[name] if name in named else self.extra[name]


def _offset(node: Node, key: str) -> int:
    value = node.get(key, int)
    if not 0 <= value <= LAST_OFFSET or value % 4:
        raise node.error(f"offset {value:#x} must be a multiple of 4 in [0, {LAST_OFFSET:#x}]", key)
    return value


def _bit(node: Node, key: str) -> int:
    value = node.get(key, int)
    if not 0 <= value <= 31:
        raise node.error(f"bit {value} must be in [0, 31] of a 32-bit register", key)
    return value


def _extra(node: Node) -> tuple[dict[str, int], dict[str, tuple[str, ...]]]:
    """``registers.extra``: NAME: offset, or NAME: {offset, counts: [model counters]}."""
    offsets, counts = {}, {}
    for key in map(str, node.value):
        if not isinstance(node.value[key], dict):
            offsets[key] = _offset(node, key)
            continue
        entry = node.child(key)
        offsets[key] = _offset(entry, "offset")
        names = entry.strings("counts")
        for n, name in enumerate(names):
            if name not in MODEL_COUNTERS:
                raise ProfileError(f"{entry.path}: {entry.at('counts')}[{n}]: {name!r} is not a counter "
                                   f"the model predicts ({', '.join(MODEL_COUNTERS)})")
        if not names:
            raise entry.error("must name at least one of the model's counters", "counts")
        counts[key] = tuple(names)
        entry.done()
    return offsets, counts


def read_registers(node: Node) -> RegisterMap:
    """Read and check the ``registers`` section."""
    control, start_bit = _offset(node, "control"), _bit(node, "start_bit")
    cycles, insn_count = _offset(node, "cycles"), _offset(node, "insn_count")
    width = node.get("pointer_width", int)
    if width not in (32, 64):
        raise node.error(f"must be 32 or 64 (bits), got {width}", "pointer_width")
    combine = node.get("base_combine", str)
    if combine not in COMBINE:
        raise node.error(f"must be one of {', '.join(COMBINE)}, got {combine!r}", "base_combine")
    ptr_node = node.child("pointers")
    pointers = {k: _offset(ptr_node, k) for k in POINTERS}
    ptr_node.done()
    for key, value in pointers.items():
        if width == 64 and value + 4 > LAST_OFFSET:
            raise ptr_node.error(f"the high word at {value + 4:#x} lies beyond {LAST_OFFSET:#x}", key)
    extra, counts = _extra(node.child("extra", {}))
    done_node = node.child("done")
    done_register = done_node.get("register", str)
    done_bit = _bit(done_node, "bit")
    done_node.done()
    node.done()
    regs = RegisterMap(control, start_bit, done_register, done_bit, cycles, insn_count, width,
                       combine, pointers, extra, counts)
    if done_register not in ("control", "cycles", "insn_count", *extra):
        raise done_node.error(f"{done_register!r} is not a register of the map (control, cycles, "
                              f"insn_count or a name in registers.extra)", "register")
    _check_overlaps(node, regs)
    return regs


def _check_overlaps(node: Node, regs: RegisterMap) -> None:
    """No byte belongs to two registers."""
    spans = sorted(regs.spans().items(), key=lambda item: item[1])
    for (name_a, (lo_a, hi_a)), (name_b, (lo_b, hi_b)) in zip(spans, spans[1:], strict=False):
        if lo_b <= hi_a:
            raise ProfileError(f"{node.path}: {name_b}: bytes {lo_b:#x}..{hi_b:#x} overlap "
                               f"{name_a} ({lo_a:#x}..{hi_a:#x})")
