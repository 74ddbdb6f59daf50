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
    engine: str = ""         # "abc pdr" for a bug deeper than any usable bound (PDR's traces are real)

    @property
    def name(self) -> str:
        return f"{self.job}:{self.define or self.expect}"


NEGATIVES: tuple[Negative, ...] = (
    Negative("fifo/default", "a_full_flag", find="assign full  = (cnt == DEPTH8);",
             replace="assign full  = (cnt == DEPTH8 - 8'd1);", what="full one entry early"),
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
    Negative("store/small", "a_b_bound", define="VTA_TEST_BREAK_B_BOUND", engine="abc pdr",
             what="the count of write bursts awaiting B wraps past the design's bound of 255 "
                  "(over 255 bursts deep: refused by PDR, whose counterexamples are reachable)"),
    Negative("store/small", "h_not_exec",
             find="                       || !len_empty || (bpend != 8'd0);",
             replace="                       || !len_empty;",
             what="a STORE completes before its write responses arrived (a BMC trace: h_not_exec "
                  "at step 9, the cycle the phase leaves EXEC with bursts awaiting B)"),
    Negative("store/small", "a_w_after_aw", find="    assign wvalid = pk_valid && !len_empty;",
             replace="    assign wvalid = pk_valid;",
             what="a W beat presented before its burst's AW was accepted"),
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
)
