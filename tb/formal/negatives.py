"""Deliberately broken copies that each contract must refuse (tests and `make formal`'s self-check).

A contract that passes a broken module proves nothing. Each entry breaks one module, either
by a test-only define that rtl/ already carries (rtl/README.md, "test-only breaks") or by one
textual edit of a copy of the module, and names the assertion that must fail. The formal
runner checks the copy with the same job as the real module (tb/formal/run.py).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Negative:
    """One broken module and the assertion its contract must fail with."""

    job: str                 # FormalJob.name the broken copy is checked with
    expect: str              # label of the assertion that must fail (a_... or h_...)
    define: str = ""         # a VTA_TEST_BREAK_* define of rtl/, or
    find: str = ""           # text of rtl/<top>.v replaced (exactly once) by `replace`
    replace: str = ""
    what: str = ""           # the bug in words
    file: str = ""           # rtl/ file `find` edits when it is not rtl/<top>.v
    hint: bool = False       # the whole top: needs the witness hint (VTA_FORMAL_HINT) to get deep

    @property
    def name(self) -> str:
        return f"{self.job}:{self.define or self.expect}"


NEGATIVES: tuple[Negative, ...] = (
    Negative("fifo/default", "a_full_flag", find="assign full  = (cnt == DEPTH8);",
             replace="assign full  = (cnt == DEPTH8 - 8'd1);", what="full one entry early"),
    Negative("fifo/default", "a_order", find="if (do_pop)  rp <= (rp == LAST) ? {PW{1'b0}} : rp + 1'b1;",
             replace="if (do_pop)  rp <= (rp == LAST) ? {PW{1'b0}} : rp + (wp[0] ? 1'b1 : 1'b0);",
             what="the read pointer stalls on odd write pointers"),
    Negative("token/default", "a_can_push", define="VTA_TEST_BREAK_TOKEN_FULL_EARLY",
             what="a push refused one token before the capacity"),
    Negative("token/default", "a_capacity", define="VTA_TEST_BREAK_TOKEN_OVER_CAPACITY",
             what="one token more than the capacity"),
    Negative("token/default", "a_cleared", define="VTA_TEST_BREAK_TOKEN_CLEAR",
             what="START does not clear the counter"),
    Negative("token/default", "a_conserved", define="VTA_TEST_BREAK_TOKEN_PUSH_POP",
             what="a push and a pop in one cycle lose the pop"),
    # vta_formal_top (the whole top, tb/formal/top_bmc.sby task break4k)
    Negative("formal_top/small", "a_ar_4k", define="VTA_TEST_BREAK_4K_DISTANCE",
             what="the burst generator's distance to the 4 KiB boundary is off: a fetch burst "
                  "from 0xFC0 crosses 4 KiB (found at step 10 on the whole top)"),
    Negative("formal_top/small", "a_done_after_b", file="vta_store.v", hint=True,
             find="                       || !len_empty || (bpend != 8'd0);",
             replace="                       || !len_empty;",
             what="a STORE completes (and pushes S2C) before its write responses: DONE with a "
                  "burst awaiting B (step 31 with the hint)"),
)
