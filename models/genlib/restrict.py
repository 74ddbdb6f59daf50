"""Knobs for a design that lacks some of the ISA: what a DUT profile's differences forbid.

A DUT profile (tb/duts) names the ways a design differs from the spec; random programs for
it must stay inside what it executes as specified, or every failure would be a known one.
The names are those of tb/duts/differences.py (strings here: the model does not depend on
the testbench). ``bases-or`` stands for a design that ORs a base into an address
(``registers.base_combine: or``): the sum the spec defines equals the OR only when base
and offset share no bit, which zero bases guarantee.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from models.genlib.knobs import GenKnobs
from models.isa import AluOp

#: Restriction name -> what the generator leaves out for it.
RESTRICTIONS: dict[str, str] = {
    "isa.alu-mul": "no ALU MUL",
    "isa.alu-shr-negative": "an ALU SHR shifts by an immediate in [-(ACC_W-1), ACC_W-1], never by a "
                            "register operand (whose sign is data, unknown when drawn)",
    "isa.load-acc8": "no LOAD ACC_8BIT",
    "bases-or": "all base registers zero",
    "isa.alu-imm-reads-src": "an ALU with an immediate has src = dst in every iteration",
    "store.out-buffer": "every compute stage ends with an in-place ALU ADD 0 over its ACC window, "
                        "so that the last writer of every stored entry is an ALU",
    "isa.alu-no-bypass": "no ALU iteration reads (as dst or src) the entry the iteration before wrote",
}


@dataclass(frozen=True)
class Limits:
    """What a design lacks: difference names (RESTRICTIONS; others change nothing) and, when
    its micro-op buffer is smaller than the configuration's, the entries it holds."""

    without: frozenset[str] = field(default_factory=frozenset)
    uop_entries: int = 0

    def __bool__(self) -> bool:
        return bool(self.without) or self.uop_entries > 0


#: No limits: the design executes the whole ISA (rtl/).
NO_LIMITS = Limits()


def restrict(knobs: GenKnobs, limits: Limits) -> GenKnobs:
    """``knobs`` with every form ``limits`` forbids removed."""
    without = limits.without
    weights = list(knobs.alu_op_weights)
    if "isa.alu-mul" in without:
        weights[AluOp.MUL] = 0.0
    out = replace(knobs, alu_op_weights=(weights[0], weights[1], weights[2], weights[3], weights[4]))
    if "isa.alu-shr-negative" in without:
        out = replace(out, shr_imm_only=True)
    if "isa.load-acc8" in without:
        out = replace(out, w_load_acc8=0.0)
    if "bases-or" in without:
        out = replace(out, nonzero_bases_prob=0.0)
    if "isa.alu-imm-reads-src" in without:
        out = replace(out, imm_in_place=True)
    if "store.out-buffer" in without:
        out = replace(out, refresh_out=True)
    if "isa.alu-no-bypass" in without:
        out = replace(out, alu_no_raw=True)
    return replace(out, uop_entries=limits.uop_entries) if limits.uop_entries else out
