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
    proof: bool = False      # deeper than any usable bound: refused when the job's own proof
                             # fails on `expect` (an induction counterexample, weaker than a trace)
    file: str = ""           # rtl/ file `find` edits when it is not rtl/<top>.v
    hint: bool = False       # the whole top: needs the witness hint (VTA_FORMAL_HINT) to get deep

    @property
    def name(self) -> str:
        return f"{self.job}:{self.define or self.expect}"


NEGATIVES: tuple[Negative, ...] = (
    Negative("fifo/default", "a_full_flag",
             find="full_q  <= up ? (cnt == DEPTH8 - 8'd1) : (full_q && !down);",
             replace="full_q  <= up ? (cnt == DEPTH8 - 8'd2) : (full_q && !down);",
             what="full one entry early"),
    Negative("fifo/default", "a_order", find="assign dout  = mem[rp];",
             replace="assign dout  = mem[rp ^ {{(PW-1){1'b0}}, cnt[3]}];",
             what="a full queue of 8 presents the neighbour of its head"),
    Negative("token/default", "a_can_push", define="VTA_TEST_BREAK_TOKEN_FULL_EARLY",
             what="a push refused one token before the capacity"),
    Negative("token/default", "a_can_push", define="VTA_TEST_BREAK_TOKEN_OVER_CAPACITY",
             what="one token more than the capacity"),
    Negative("token/default", "a_cleared", define="VTA_TEST_BREAK_TOKEN_CLEAR",
             what="START does not clear the counter"),
    Negative("token/default", "a_conserved", define="VTA_TEST_BREAK_TOKEN_PUSH_POP",
             what="a push and a pop in one cycle lose the pop"),
    Negative("ctrl/NSTAT1+axi", "a_r_stable",
             find="            if (rvalid && rready) rvalid <= 1'b0;\n",
             replace="            if (rvalid && rready) rvalid <= 1'b0;\n"
                     "            else if (rvalid) rdata <= rmux;\n",
             what="a read's data follows the address bus while the host holds RREADY low (only the "
                  "shared AXI-Lite rules see it: vta_ctrl's own contract checks the data at the "
                  "handshake)"),
    # vta_formal_top (the whole top)
    Negative("formal_top/small", "a_ar_4k", define="VTA_TEST_BREAK_4K_DISTANCE",
             what="the burst generator's distance to the 4 KiB boundary is off: a fetch burst "
                  "from 0xFC0 crosses 4 KiB (found at step 10 on the whole top)"),
    # ---- vta_ld_engine, vta_store, vta_load (helper feng) ----
    Negative("ld_engine/small", "a_done_all", define="VTA_TEST_BREAK_PAD_ONLY_IDLE",
             what="a LOAD of padding rows only reports idle before its rows are written"),
    Negative("ld_engine/small", "a_done_all", find="    assign busy = gen_busy || unp_busy || wact || we;",
             replace="    assign busy = gen_busy || unp_busy || wact;",
             what="busy drops one cycle early, while the last SRAM write is still on the port"),
    Negative("ld_engine/small", "a_pad_zero",
             find="                wdata <= at_data ? el_data : {EBITS{1'b0}};",
             replace="                wdata <= el_data;",
             what="padding written with the gearbox's stale head instead of zeros"),
    Negative("ld_engine/small", "h_waddr", find="            waddr   <= sram_base - 16'd1;",
             replace="            waddr   <= sram_base;",
             what="the tile written one SRAM entry too high (h_waddr fails before the first write)"),
    Negative("store/small", "a_b_bound", define="VTA_TEST_BREAK_B_BOUND", proof=True,
             what="the count of write bursts awaiting B wraps past the design's bound of 255 "
                  "(over 255 bursts deep: no bound reaches it and PDR did not finish in 600 s; "
                  "the proof fails on a_b_bound)"),
    Negative("store/small", "a_w_after_aw", find="    assign wvalid = pk_valid && !len_empty;",
             replace="    assign wvalid = pk_valid;",
             what="a W beat presented before its burst's AW was accepted"),
    Negative("store/small", "h_not_exec",
             find="                       || !len_empty || (bpend != 8'd0);",
             replace="                       || !len_empty;",
             what="a STORE completes before its write responses arrived (a BMC trace: h_not_exec "
                  "at step 9, the cycle the phase leaves EXEC with bursts awaiting B)"),
    Negative("store/small+store_bytes", "a_strb",
             find="        .off0(addr0[LOG_B-1:0]), .stride_lo(stride_bytes[LOG_B-1:0]),",
             replace="        .off0({LOG_B{1'b0}}), .stride_lo(stride_bytes[LOG_B-1:0]),",
             what="the packer places a row as if its DRAM address were beat-aligned"),
    Negative("load/small", "a_we_inp", find="    assign inp_we    = e_we && !is_wgt;",
             replace="    assign inp_we    = e_we;", what="a WGT LOAD also writes the INP buffer"),
    Negative("load/small", "m_held",
             find="        .base(is_wgt ? wgt_base : inp_base),",
             replace="        .base(q_empty ? wgt_base : inp_base),",
             what="the engine's base follows the command queue, not the held instruction "
                  "(vta_ld_engine's assumption m_held, an obligation of vta_load here)"),
    Negative("load/small+load_tokens", "a_done_pushed",
             define="VTA_TEST_BREAK_LOAD_PUSH_DROP",
             what="the load module leaves its push phase at once (vta_phase.v), dropping the L2C "
                  "push into a full counter"),
    # ---- end vta_ld_engine, vta_store, vta_load ----
    # ---- vta_burst_gen, vta_unpack, vta_pack, vta_rd_arb ------------------------------------
    Negative("burst_gen/default", "a_4k", define="VTA_TEST_BREAK_4K_DISTANCE",
             what="the distance to the 4 KiB edge from an address with a beat bit dropped"),
    Negative("burst_gen/default", "a_busy",
             find="assign busy = req_valid || (rows_left != 16'd0);",
             replace="assign busy = (rows_left != 16'd0);",
             what="busy drops while the last request still waits for req_ready"),
    Negative("burst_gen/default", "h_end",
             find="{{(33-LOG_B){1'b0}}, next_row[LOG_B-1:0]} + BM1;",
             replace="{{(33-LOG_B){1'b0}}, addr0[LOG_B-1:0]} + BM1;",
             what="the beats of every row counted from the first row's byte offset"),
    Negative("unpack/small", "a_take_room", define="VTA_TEST_BREAK_GEARBOX_ROOM",
             what="a beat taken with one byte less room than it needs"),
    Negative("unpack/small", "h_regs",
             find="    wire             bl_lt   = bl_small && (bytes_left[LOG_B:0] < avail);\n"
                  "    wire             row_end = bl_small && (bytes_left[LOG_B:0] <= avail);",
             replace="    wire             bl_lt   = 1'b0;\n"
                     "    wire             row_end = bl_small && (bytes_left[LOG_B:0] == avail);",
             what="the last beat of a row kept whole (bytes beyond the row taken, the row "
                  "ends only on an exact fit): the byte count leaves the shadow's (h_regs) "
                  "before a beat after the last row (a_rows_done) can be taken"),
    Negative("unpack/small", "h_watch",
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
    Negative("rd_arb/default+ar_only", "h_fair",
             find="                rr        <= (gnt == LASTC[IW-1:0]) ? {IW{1'b0}} : gnt + 1'b1;",
             replace="                rr        <= gnt;",
             what="the priority stays with the client just granted (starves the others)"),
    Negative("rd_arb/default+ar_only", "a_outst",
             find="                m_arvalid <= 1'b1;",
             replace="                m_arvalid <= !m_arvalid;",
             what="a burst granted while ARREADY takes the previous one never goes out on AR"),
    Negative("rd_arb/default+ar_only", "a_tab_out",
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
    Negative("formal_top/small", "m_reset", file="vta_top.v",
             find="vta_token #(.DEPTH(TOKEN_QUEUE_DEPTH)) u_s2c (.clk(clk), .rst(rst),",
             replace="vta_token #(.DEPTH(TOKEN_QUEUE_DEPTH)) u_s2c (.clk(clk), .rst(1'b0),",
             what="the S2C token counter is never reset: it powers up holding whatever tokens its "
                  "flops hold (vta_token's reset assumption, checked in the accelerator's context)"),
    Negative("formal_top/small", "a_done_after_b", file="vta_store.v", hint=True,
             find="                       || !len_empty || (bpend != 8'd0);",
             replace="                       || !len_empty;",
             what="a STORE completes (and pushes S2C) before its write responses: DONE with a "
                  "burst awaiting B (step 31 with the hint)"),
)
