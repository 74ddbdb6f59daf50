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
    # ---- vta_burst_gen, vta_unpack, vta_pack, vta_rd_arb ------------------------------------
    Negative("burst_gen/default", "a_4k", define="VTA_TEST_BREAK_4K_DISTANCE",
             what="the distance to the 4 KiB edge from an address with a beat bit dropped"),
    Negative("burst_gen/default", "a_busy",
             find="assign busy = req_valid || (rows_left != 16'd0);",
             replace="assign busy = (rows_left != 16'd0);",
             what="busy drops while the last request still waits for req_ready"),
    Negative("burst_gen/default", "h_end",
             find="wire [32:0] s_next   = {1'b0, row_bytes} + {{(33-LOG_B){1'b0}}, next_row[LOG_B-1:0]} + BM1;",
             replace="wire [32:0] s_next   = {1'b0, row_bytes} + {{(33-LOG_B){1'b0}}, addr0[LOG_B-1:0]} + BM1;",
             what="the beats of every row counted from the first row's byte offset"),
    Negative("unpack/small", "a_take_room", define="VTA_TEST_BREAK_GEARBOX_ROOM",
             what="a beat taken with one byte less room than it needs"),
    Negative("unpack/small", "a_rows_done",
             find="wire [31:0] nvalid = (bytes_left < avail) ? bytes_left : avail;",
             replace="wire [31:0] nvalid = avail;",
             what="the last beat of a row kept whole (bytes beyond the row taken)"),
    Negative("unpack/small", "a_order",
             find="wire [B*8-1:0] shifted = in_data >> {boff, 3'b000};",
             replace="wire [B*8-1:0] shifted = in_data;",
             what="a row's first beat not realigned to the row's byte offset"),
    Negative("pack/small", "a_strb",
             find="                out_strb  <= sb_q[B-1:0];",
             replace="                out_strb  <= (cnt >= B_C) ? sb_q[B-1:0] : {B{1'b1}};",
             what="a row's partial last beat flushed with every strobe set"),
    Negative("pack/small", "h_row",
             find="                cnt        <= {{(CW-LOG_B){1'b0}}, off + stride_lo};",
             replace="                cnt        <= {{(CW-LOG_B){1'b0}}, off};",
             what="the next row placed at the previous row's lane (the stride's low bits ignored)"),
    Negative("rd_arb/default", "h_fair",
             find="                rr        <= (gnt == LASTC[IW-1:0]) ? {IW{1'b0}} : gnt + 1'b1;",
             replace="                rr        <= gnt;",
             what="the priority stays with the client just granted (starves the others)"),
    Negative("rd_arb/default", "a_outst",
             find="                m_arvalid <= 1'b1;",
             replace="                m_arvalid <= !m_arvalid;",
             what="a burst granted while ARREADY takes the previous one never goes out on AR"),
    Negative("rd_arb/default", "a_tab_out",
             find="    wire r_done = m_rvalid && m_rready && m_rlast;",
             replace="    wire r_done = m_rvalid && m_rready;",
             what="the burst table pops on every R beat, not on RLAST"),
    Negative("rd_arb/NC3-OUTST2", "a_r_from_head",
             find="    assign m_rready = !tab_empty && c_rready[head];",
             replace="    assign m_rready = !tab_empty && (|c_rready);",
             what="RREADY from any client, not the one whose burst the beat belongs to"),
    Negative("rd_arb/NC3-OUTST2", "a_route",
             find="        .push(take), .din(gnt), .full(tab_full),",
             replace="        .push(take), .din(rr), .full(tab_full),",
             what="the table records the priority pointer, not the granted client"),
)
