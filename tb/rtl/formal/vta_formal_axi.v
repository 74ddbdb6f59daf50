`default_nettype none
// Formal port monitor: the shared AXI rules (tb/rtl/vta_axi_rules.vh, the very conditions the
// fast testbench mode's checker reports) on one port, each turned into an assert on the
// side the DUT drives and an assume on the side its environment drives.
//   DUT_MANAGER = 1: the DUT is the manager (AXI4 m_axi_gmem): AW, W, AR asserted, B, R assumed
//   DUT_MANAGER = 0: the DUT is the subordinate (AXI4-Lite s_axi_control): the reverse
// The queues of the rules hold QD outstanding bursts: the counts are asserted never to exceed
// QD (the DUT issues every request they count), so a too-small QD fails instead of wrapping.
// Outputs for the top's ordering rules: writes / reads outstanding (AXI4 bookkeeping).
module vta_formal_axi #(
    parameter integer LITE = 0,
    parameter integer DUT_MANAGER = 1,
    parameter integer DW   = 64,
    parameter integer IDW  = 1,
    parameter integer AW   = 32,
    parameter integer QD   = 8,
    parameter [11:0]  ATTR = 12'h180
) (
    input  wire            clk,
    input  wire            rst_n,
    input  wire [IDW-1:0]  awid,
    input  wire [AW-1:0]   awaddr,
    input  wire [7:0]      awlen,
    input  wire [2:0]      awsize,
    input  wire [1:0]      awburst,
    input  wire [11:0]     awattr,
    input  wire            awvalid,
    input  wire            awready,
    input  wire [DW-1:0]   wdata,
    input  wire [DW/8-1:0] wstrb,
    input  wire            wlast,
    input  wire            wvalid,
    input  wire            wready,
    input  wire [IDW-1:0]  bid,
    input  wire [1:0]      bresp,
    input  wire            bvalid,
    input  wire            bready,
    input  wire [IDW-1:0]  arid,
    input  wire [AW-1:0]   araddr,
    input  wire [7:0]      arlen,
    input  wire [2:0]      arsize,
    input  wire [1:0]      arburst,
    input  wire [11:0]     arattr,
    input  wire            arvalid,
    input  wire            arready,
    input  wire [IDW-1:0]  rid,
    input  wire [DW-1:0]   rdata,
    input  wire [1:0]      rresp,
    input  wire            rlast,
    input  wire            rvalid,
    input  wire            rready,
    output wire            wr_busy,     // a write burst accepted (or W beats sent) without its B yet
    output wire            rd_busy      // a read burst accepted without its last R beat yet
);
`include "vta_axi_rules.vh"

    reg wr_owed;
    reg rd_owed;
    integer f_k;
    always @(*) begin
        wr_owed = 1'b0;
        rd_owed = 1'b0;
        for (f_k = 0; f_k < NID; f_k = f_k + 1) begin
            if (b_owed[f_k] != 16'd0) wr_owed = 1'b1;
            if (rq_n[f_k] != {(QW+1){1'b0}}) rd_owed = 1'b1;
        end
    end
    assign wr_busy = LITE == 0 && (awq_n != {(QW+1){1'b0}} || wq_n != {(QW+1){1'b0}} || wr_owed);
    assign rd_busy = LITE == 0 && rd_owed;

    // ---- contract: the rules, asserted on the DUT's side, assumed on the environment's ----
    generate
        if (DUT_MANAGER != 0) begin : dut_manager
            always @(*) if (rst_n) begin
                a_aw_valid_held: assert(!r3_aw);
                a_aw_stable: assert(!r4_aw);
                a_w_valid_held: assert(!r3_w);
                a_w_stable: assert(!r4_w);
                a_ar_valid_held: assert(!r3_ar);
                a_ar_stable: assert(!r4_ar);
                a_aw_incr: assert(!r5_aw);
                a_ar_incr: assert(!r5_ar);
                a_aw_size: assert(!r6_aw);
                a_ar_size: assert(!r6_ar);
                a_aw_4k: assert(!r7_aw);
                a_ar_4k: assert(!r7_ar);
                a_wlast: assert(!r8_w);
                a_aw_attr: assert(!r12_aw);
                a_ar_attr: assert(!r12_ar);
                m_b_valid_held: assume(!r3_b);
                m_b_stable: assume(!r4_b);
                m_b_expected: assume(!r10_b);
                m_r_valid_held: assume(!r3_r);
                m_r_stable: assume(!r4_r);
                m_r_expected: assume(!r10_r);
                m_rlast: assume(!r9_r);
            end
        end else begin : dut_subordinate
            always @(*) if (rst_n) begin
                m_aw_valid_held: assume(!r3_aw);
                m_aw_stable: assume(!r4_aw);
                m_w_valid_held: assume(!r3_w);
                m_w_stable: assume(!r4_w);
                m_ar_valid_held: assume(!r3_ar);
                m_ar_stable: assume(!r4_ar);
                m_aw_incr: assume(!r5_aw);
                m_ar_incr: assume(!r5_ar);
                m_aw_size: assume(!r6_aw);
                m_ar_size: assume(!r6_ar);
                m_aw_4k: assume(!r7_aw);
                m_ar_4k: assume(!r7_ar);
                m_aw_attr: assume(!r12_aw);
                m_ar_attr: assume(!r12_ar);
                a_b_valid_held: assert(!r3_b);
                a_b_stable: assert(!r4_b);
                a_b_expected: assert(!r10_b);
                a_r_valid_held: assert(!r3_r);
                a_r_stable: assert(!r4_r);
                a_r_expected: assert(!r10_r);
                m_wlast: assume(!r8_w);
                a_rlast: assert(!r9_r);
            end
        end
    endgenerate

    // the bookkeeping's capacity: every count it keeps is of requests the manager issued
    // (the read queues of every ID)
    reg rq_over;
    integer f_q;
    always @(*) begin
        rq_over = 1'b0;
        for (f_q = 0; f_q < NID; f_q = f_q + 1)
            if (rq_n[f_q] > QD) rq_over = 1'b1;
    end
    generate
        if (LITE == 0 && DUT_MANAGER != 0) begin : capacity
            always @(*) if (rst_n) begin
                h_awq_bound: assert(awq_n <= QD);
                h_wq_bound: assert(wq_n <= QD);
                h_rq_bound: assert(!rq_over);
            end
        end
    endgenerate

    wire unused_fmon = &{1'b0, b_take, r_take, lite_bmin, b_hs, w_hs};
endmodule
`default_nettype wire
