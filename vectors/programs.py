"""Writing the vectors' programs: the program builder and the sequences vectors share.

This is the one place that imports the program builder (models/progbuild.py); vector
modules take Program and friends from here, so moving the builder is a one-line change.

The helpers end or prepare a program the same way in every vector that needs it. The
recurring one is :func:`emit_expose`: STORE keeps only the low 8 bits of each
accumulator lane, so to observe full 32-bit results a vector ends with it instead of a
plain :func:`store_and_finish`.

An ALU operation by immediate names its destination as its source too, in every vector
outside the ALU family, as TVM's lowering writes it (the operand it rewrites). The spec
ignores the source then; upstream's Chisel reads it (tb/duts/upstream-chisel,
``isa.alu-imm-reads-src``), so this form lets a foreign DUT run the vectors whose subject is
not the ALU. The ALU family (vectors/families/alu.py) keeps immediates whose source differs,
where the spec's "source ignored" is the point.
"""
from __future__ import annotations

from typing import Callable, TypedDict, Unpack

from models.isa import AluOp
from models.progbuild import Program, UopRange, as_bytes
from models.spec import MEMTYPE_OF
from models.vector import Vector

__all__ = ["MEMTYPE_OF", "Builder", "Program", "TokenFlags", "UopRange", "as_bytes",
           "emit_expose", "emit_fill", "emit_reset", "store_and_finish"]

#: A vector builder: takes the vector's name (it seeds the random data) and returns the
#: Vector; the description it passes to Program.build documents it in the manifest and
#: the README.
Builder = Callable[[str], Vector]


class TokenFlags(TypedDict, total=False):
    """The token-flag keywords a helper passes on to Program.gemm / Program.alu."""

    pop_prev: bool
    pop_next: bool
    push_prev: bool
    push_next: bool


def emit_reset(p: Program, base: int, n: int, **flags: Unpack[TokenFlags]) -> None:
    """GEMM reset of ACC[base .. base+n) with one micro-op and an inner loop."""
    p.gemm([(base, 0, 0)], iters=(1, n), dst=(0, 1), reset=True, **flags)


def emit_fill(p: Program, n: int, value: int) -> None:
    """ACC[0 .. n) = value in every lane (GEMM reset, then ALU ADD immediate), so that what a
    later LOAD leaves untouched, or writes as a zero pad, shows in the STORE."""
    emit_reset(p, 0, n)
    p.alu(AluOp.ADD, [(0, 0, 0)], iters=(1, n), dst=(0, 1), src=(0, 1), imm=value)


def store_and_finish(p: Program, n: int) -> int:
    """STORE ACC[0 .. n) (after the C2S token the last compute pushed) to a new OUT region of
    n elements, then FINISH; returns the region's dram_base."""
    out = p.alloc("out", n)
    p.store(0, out, 1, n, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return out


def emit_expose(p: Program, n: int) -> int:
    """End the program by storing every byte of every lane of ACC[0 .. n); returns the OUT base.

    ACC[0 .. n) is copied three times into the scratch ACC[n .. 4n) (GEMM reset, ALU ADD
    register) and the copies are shifted right by 8, 16 and 24 (ALU SHR immediate 8, the
    last pushing C2S); a STORE of the 4n elements from ACC 0 then shows bytes 0..3 of
    each lane, which :func:`vectors.reference.byte_planes` predicts.
    """
    emit_reset(p, n, 3 * n)
    p.alu(AluOp.ADD, [(n, 0, 0)], iters=(3, n), dst=(n, 1), src=(0, 1))
    for k in range(3):
        p.alu(AluOp.SHR, [(n + k * n, n + k * n, 0)], iters=(1, (3 - k) * n), dst=(0, 1),
              src=(0, 1), imm=8, push_next=k == 2)
    return store_and_finish(p, 4 * n)
