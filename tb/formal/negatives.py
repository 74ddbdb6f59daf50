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
    # ---- vta_ctrl, vta_phase, vta_fetch (branch fctl) ----
    Negative("phase/HAS_PREV0-HAS_NEXT1", "a_done", define="VTA_TEST_BREAK_LOAD_PUSH_DROP",
             what="the load module leaves its push phase at once: a push into a full counter dropped"),
    Negative("phase/HAS_PREV1-HAS_NEXT1", "a_push_prev",
             find="PH_EXEC: if (!exec_busy) phase <= PH_PUSH;",
             replace="PH_EXEC: phase <= PH_PUSH;",
             what="the push phase does not wait for the engine: tokens pushed before the work is done"),
    Negative("phase/HAS_PREV1-HAS_NEXT1", "a_pop_prev",
             find="if (prev_pop) pend_pop_prev <= 1'b0;",
             replace="if (prev_pop && next_pop) pend_pop_prev <= 1'b0;",
             what="a prev token popped alone stays pending: popped twice"),
    Negative("phase/HAS_PREV1-HAS_NEXT0", "a_take_idle",
             find="assign q_pop     = (phase == PH_IDLE) && !q_empty;",
             replace="assign q_pop     = ((phase == PH_IDLE) || insn_done) && !q_empty;",
             what="the next head is taken in the insn_done cycle, one cycle early, and dropped"),
    Negative("ctrl/default", "a_launch",
             find="w_strb[0] && w_data[0] && quiescent && !launch;",
             replace="w_strb[0] && w_data[0] && !launch;",
             what="START accepted while the accelerator is busy"),
    Negative("ctrl/default", "a_insn_addr",
             find="14'd3: insn_addr  <= merge(insn_addr, w_data, w_strb);",
             replace="14'd3: insn_addr  <= merge(insn_addr, w_data, 4'hf);",
             what="INSN_ADDR written whole whatever WSTRB says"),
    Negative("ctrl/NSTAT1", "a_insn_count",
             find="14'd2: insn_count <= merge(insn_count, w_data, w_strb);",
             replace="14'd2: insn_count <= merge(insn_count, {4'd0, w_data[27:0]}, w_strb);",
             what="INSN_COUNT's bits 31:28 dropped on write instead of read back as written"),
    Negative("ctrl/NSTAT1", "a_done_idle",
             find="done    <= 1'b0;",
             replace="done    <= done;",
             what="an accepted START leaves DONE set"),
    Negative("ctrl/default", "a_rdata",
             find="rmux = stat[(i - 9) * 32 +: 32];",
             replace="rmux = stat[(i - 8) * 32 +: 32];",
             what="the stat words read one word off (0x24 returns the word of 0x28)"),
    Negative("fetch/default", "a_dispatched", define="VTA_TEST_BREAK_ILLEGAL_DISPATCH",
             what="opcodes 5-7 consumed without the documented dispatch to compute"),
    Negative("fetch/default", "a_busy", define="VTA_TEST_BREAK_INSN_COUNT_HIGH",
             what="INSN_COUNT's bits 31:28 counted: with any of them set fetch never finishes"),
    Negative("fetch/default", "a_busy",
             find="if (sent + 32'd1 == count) active <= 1'b0;",
             replace="if (sent + 32'd2 == count) active <= 1'b0;",
             what="fetch goes idle one instruction early (or never, for one instruction)"),
    Negative("fetch/default", "a_room",
             find="wire tgt_full = to_ld ? ld_full : (to_st ? st_full : cp_full);",
             replace="wire tgt_full = to_ld ? ld_full : (to_st ? 1'b0 : cp_full);",
             what="a STORE dispatched into a full store queue"),
    Negative("fetch/default", "a_insn",
             find=".off0(insn_addr[LOG_B-1:0]),",
             replace=".off0({LOG_B{1'b0}}),",
             what="the gearbox ignores INSN_ADDR's offset in the beat: instructions misaligned"),
)
