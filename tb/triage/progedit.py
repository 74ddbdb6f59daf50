"""Editing a program for the shrinker: drop instructions, shrink fields, zero and trim data.

The shrinker (tb/triage/shrink.py) tries many smaller variants of a failing program. Each
must still be a well-formed program (spec section 4), or its result on the RTL means
nothing: so every edit here keeps the dependency tokens balanced and FINISH last, and
:func:`candidate` admits a variant only if the models' checker finds nothing and the golden
model runs it and expects some output (the expectation always comes from the model).
A :class:`Program` is a vector taken apart: the instruction list and the other init images.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from models.checker import check_vector
from models.config import VtaConfig
from models.decode import decode_program
from models.executor import ProgramError, run_vector, written_images
from models.isa import MemType, Opcode, insns_to_bytes
from models.spec import FLAG_QUEUE, POP_FLAGS, PUSH_FLAGS, module_of
from models.vector import Image, Vector, VectorError
from models.widths import INSN_BYTES

#: (field, smallest value) the shrinker moves each field of a LOAD/STORE or GEMM/ALU toward.
MEM_FIELDS = (("y_size", 1), ("x_size", 1), ("y_pad_0", 0), ("y_pad_1", 0), ("x_pad_0", 0),
              ("x_pad_1", 0))
LOOP_FIELDS = (("iter_out", 1), ("iter_in", 1))
SHRUNK_FIELDS = tuple(name for name, _ in MEM_FIELDS + LOOP_FIELDS) + ("x_stride", "uop_end")
#: One field change: (instruction index, field, new value).
Edit = tuple[int, str, int]
#: A byte range of one data image: (image index, start offset, end offset).
Span = tuple[int, int, int]


class EditError(ValueError):
    """A vector the shrinker cannot take apart (its message is the one-line error)."""


@dataclass(frozen=True)
class Program:
    """A vector as instructions plus the other init images (the instruction stream removed)."""

    cfg: VtaConfig
    insns: tuple[dict[str, int], ...]
    data: tuple[Image, ...]
    insn_addr: int
    bases: dict[str, int]
    description: str

    @classmethod
    def from_vector(cls, v: Vector) -> "Program":
        prog = decode_program(v.config, v.dram(), v.insn_addr, v.insn_count)
        if len(prog.insns) != v.insn_count or any(i is None for i in prog.insns):
            raise EditError(f"{v.manifest}: the instruction stream holds undecodable words")
        lo, hi = v.insn_addr, v.insn_addr + INSN_BYTES * v.insn_count
        data = []
        for img in v.init:  # every image minus the bytes of the instruction stream
            end = img.addr + len(img.data)
            if img.addr < lo:
                data.append(Image(img.addr, img.data[:max(0, min(end, lo) - img.addr)], img.file))
            if end > hi:
                cut = max(hi, img.addr) - img.addr
                name = img.file if img.addr >= lo else img.file.replace(".bin", "") + "_hi.bin"
                data.append(Image(img.addr + cut, img.data[cut:], name))
        return cls(v.config, tuple(dict(i) for i in prog.insns if i is not None),
                   tuple(d for d in data if d.data), v.insn_addr, dict(v.bases), v.description)

    def vector(self) -> Vector:
        """The program as a vector without ``expect`` (:func:`candidate` adds the model's)."""
        names = {"insns.bin"}
        init = [Image(self.insn_addr, insns_to_bytes(self.cfg, self.insns), "insns.bin")]
        for n, img in enumerate(self.data):
            name = img.file if img.file and img.file not in names else f"data{n}.bin"
            names.add(name)
            init.append(Image(img.addr, img.data, name))
        return Vector(self.cfg, self.insn_addr, len(self.insns), init, None, dict(self.bases),
                      self.description)


@dataclass(frozen=True, order=True)
class Size:
    """How big a program is, most important first: the shrinker accepts only smaller ones."""

    insns: int
    uops: int  # micro-op words the LOAD UOPs load
    work: int  # the model's micro-op executions plus bytes read and written
    bytes: int  # init image bytes, instructions included
    nonzero: int  # data bytes that are not zero
    fields: int  # sum of the fields the shrinker shrinks (strides included)

    def to_json(self) -> dict[str, int]:
        return {"instructions": self.insns, "micro-ops": self.uops, "work": self.work,
                "bytes": self.bytes, "nonzero data bytes": self.nonzero}


@dataclass(frozen=True)
class Candidate:
    """A well-formed program with the model's expectation, ready to run."""

    program: Program
    vector: Vector
    size: Size


def candidate(prog: Program) -> Candidate | None:
    """The program as a runnable vector, or None if the checker rejects it, the model cannot
    run it or it writes no output (a run that compares nothing fails as ``no-compare``)."""
    v = prog.vector()
    try:
        if not check_vector(v).ok:
            return None
        result = run_vector(v)
    except (VectorError, ProgramError):
        return None
    v.expect = written_images(result)
    if not v.expect:
        return None
    c = result.counters
    uops = sum(i["x_size"] * i["y_size"] for i in prog.insns
               if i["opcode"] == Opcode.LOAD and i["memory_type"] == MemType.UOP)
    size = Size(len(prog.insns), uops,
                c["gemm_uops"] + c["alu_uops"] + c["bytes_read"] + c["bytes_written"],
                sum(len(i.data) for i in v.init),
                sum(len(d.data) - d.data.count(0) for d in prog.data),
                sum(i[name] for i in prog.insns for name in SHRUNK_FIELDS if name in i))
    return Candidate(prog, v, size)


# --- dropping instructions -----------------------------------------------------------------
def _queue(insn: dict[str, int], flag: str) -> str | None:
    return FLAG_QUEUE.get((module_of(insn), flag))


def partners(insns: Sequence[dict[str, int]]) -> dict[tuple[int, str], tuple[int, str]]:
    """Each set token flag's partner, both ways: a queue's k-th push is taken by its k-th pop
    (token counters are FIFO in effect: tokens carry nothing but their count)."""
    out = {}
    for queue in set(FLAG_QUEUE.values()):
        pushes = [(n, f) for n, i in enumerate(insns) for f in PUSH_FLAGS
                  if i.get(f) and _queue(i, f) == queue]
        pops = [(n, f) for n, i in enumerate(insns) for f in POP_FLAGS
                if i.get(f) and _queue(i, f) == queue]
        for a, b in zip(pushes, pops, strict=False):
            out[a], out[b] = b, a
    return out


def _rehome(insns: list[dict[str, int]], kept: list[int], removed: int, flag: str) -> bool:
    """Move a token flag of a removed instruction to a kept one of its module: a pop to the
    next one (waiting later never breaks an order), a push to the one before (it finished
    before the removed one would have); the other way if that one has the flag already.
    False if no instruction can take it."""
    module = module_of(insns[removed])
    same = [k for k in kept if module_of(insns[k]) == module]
    after = [k for k in same if k > removed]
    before = [k for k in reversed(same) if k < removed]
    order = after + before if flag in POP_FLAGS else before + after
    home = next((k for k in order if not insns[k].get(flag)), None)
    if home is not None:
        insns[home][flag] = 1
    return home is not None


def _drop(prog: Program, gone: set[int], rehome: bool) -> Program:
    """Without the instructions ``gone``: their token flags moved to neighbours (``rehome``)
    or, where that cannot be or is not asked for, their partners' flags cleared too."""
    insns = [dict(i) for i in prog.insns]
    pair = partners(prog.insns)
    kept = [n for n in range(len(insns)) if n not in gone]
    for n in sorted(gone):
        for flag in POP_FLAGS + PUSH_FLAGS:
            if insns[n].get(flag) and not (rehome and _rehome(insns, kept, n, flag)):
                other = pair.get((n, flag))
                if other is not None and other[0] not in gone:
                    insns[other[0]][other[1]] = 0
    return replace(prog, insns=tuple(insns[n] for n in kept))  # the checker judges the balance


def drop(prog: Program, indices: Iterable[int]) -> Program:
    """The program without the instructions at ``indices`` (never the last one, FINISH),
    its tokens balanced: their token flags moved to neighbours of the same module if that
    gives a well-formed program, else the flags of their tokens' partners cleared as well."""
    gone = set(indices) - {len(prog.insns) - 1}
    moved = _drop(prog, gone, rehome=True)
    return moved if candidate(moved) is not None else _drop(prog, gone, rehome=False)


# --- shrinking fields ------------------------------------------------------------------------
def field_edits(prog: Program, halve: bool) -> list[Edit]:
    """Every field that could be smaller: sizes, pads and loop counts to their least value
    (or half way there with ``halve``), a loop's micro-op range to its first micro-op, a
    row stride to the row length."""
    out: list[Edit] = []
    for n, i in enumerate(prog.insns):
        op = i["opcode"]
        fields: tuple[tuple[str, int], ...] = ()
        if op in (Opcode.LOAD, Opcode.STORE):
            fields = MEM_FIELDS + (("x_stride", i["x_size"]),)
        elif op in (Opcode.GEMM, Opcode.ALU):
            fields = LOOP_FIELDS + (("uop_end", i["uop_bgn"] + 1),)
        for name, least in fields:
            value = i[name]
            target = least + (value - least) // 2 if halve else least
            if value > target >= 0 and not (name == "x_size" and value == 0):
                out.append((n, name, target))
    return out


def apply_edits(prog: Program, edits: Iterable[Edit]) -> Program:
    insns = [dict(i) for i in prog.insns]
    for n, name, value in edits:
        insns[n][name] = value
    return replace(prog, insns=tuple(insns))


# --- data ----------------------------------------------------------------------------------
def data_spans(prog: Program, pieces: int) -> list[Span]:
    """Each data image cut into up to ``pieces`` ranges, leaving out those already zero."""
    out = []
    for n, img in enumerate(prog.data):
        step = max(1, -(-len(img.data) // pieces))
        out += [(n, lo, min(lo + step, len(img.data))) for lo in range(0, len(img.data), step)
                if any(img.data[lo:lo + step])]
    return out


def zero(prog: Program, spans: Iterable[Span]) -> Program:
    data = [bytearray(img.data) for img in prog.data]
    for n, lo, hi in spans:
        data[n][lo:hi] = bytes(hi - lo)
    return replace(prog, data=tuple(replace(img, data=bytes(d)) for img, d in zip(prog.data, data,
                                                                                strict=True)))


def trim(prog: Program) -> Program:
    """Only the bytes of each data image that some LOAD reads (the rest cannot change the
    result: nothing reads it); an image nobody reads goes."""
    report = check_vector(prog.vector())
    reads = [r for fp in report.footprints for r in fp.dram_reads]
    data = []
    for img in prog.data:
        end = img.addr + len(img.data)
        hits = [(max(a, img.addr), min(a + n, end)) for a, n in reads if a < end and a + n > img.addr]
        if hits:
            lo, hi = min(h[0] for h in hits), max(h[1] for h in hits)
            data.append(Image(lo, img.data[lo - img.addr:hi - img.addr], img.file))
    return replace(prog, data=tuple(data))
