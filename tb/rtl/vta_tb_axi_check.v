`default_nettype none
// Test-only AXI protocol checker of the fast testbench mode: the rules of tb/uvm/checkers/protocol.py
// (the full mode's Python checker) in the simulation, on one port. It latches the first
// violation -- rule, channel, signal, cycle and two values -- which the testbench reads and
// turns into the same message as the Python checker (tb/uvm/env/fast.py decodes the codes).
// The codes are owned by tb/rules/axi_codes.py (AXI_RULES, CHANNELS) and used here by the names
// tb/rtl/vta_tb_codes.vh, generated from it, gives them (AXI_RULE_<RULE>, AXI_CHAN_<CHANNEL>).
//
//   rule 1 x-on-handshake       valid or ready is X/Z (four-state simulators only)
//        2 x-on-payload         a payload signal is X/Z while valid (write data: strobed lanes)
//        3 valid-dropped        valid fell before ready
//        4 payload-unstable     the payload changed while valid high and ready low
//        5 burst-type           AxBURST is not INCR                      (AXI4 only)
//        6 burst-size           AxSIZE wider than the bus                (AXI4 only)
//        7 4k-crossing          a burst crosses a 4 KiB boundary         (AXI4 only)
//        8 wlast                WLAST not exactly on beat AWLEN          (AXI4 only)
//        9 rlast                RLAST not exactly on beat ARLEN          (AXI4 only)
//       10 unexpected-response  B/R without a matching outstanding request
//       11 injected-response    an R/B response other than the one the test injected
//                               (r_inj/b_inj, from the fast memory); its message names
//                               unexpected-response, as the full mode's does
//       12 attributes           {AxLOCK, AxCACHE, AxPROT, AxQOS} differ from ATTR  (AXI4 only)
//   channel 0 AW, 1 W, 2 B, 3 AR, 4 R. signal: index in the channel's payload list below.
// W beats may come before their AW: they wait in a queue and are matched in order.
// The rules 3-10 and 12 and their bookkeeping live in tb/rtl/vta_axi_rules.vh, shared with
// the formal top (tb/rtl/formal/vta_formal_top.v): this module only reports them (ranked in
// the order below, first violation latched, waivers) and adds the rules that exist only in a
// four-state simulation (1, 2) or only in the testbench (11). Builds need -I tb/rtl.
// WAIVE (bit r: rule r) names rules a DUT profile states the DUT breaks (tb/duts: e.g.
// protocol.4k-boundary waives rule 7): a waived finding does not latch `violation`; it is
// counted in `waived_n` and the first one kept (waived_rule, _chan, _sig, _cycle, _value0/1), so the
// run reports it while every other rule is still checked.
module vta_tb_axi_check #(
    parameter integer LITE = 0,
    parameter integer DW   = 64,
    parameter integer IDW  = 1,
    parameter integer AW   = 32,
    parameter integer QD   = 256,
    parameter [11:0]  ATTR = 12'h180,  // {lock, cache, prot, qos} rtl/README.md documents
    parameter [15:0]  WAIVE = 16'h0
) (
    input  wire            clk,
    input  wire            rst_n,
    input  wire [63:0]     cycle,
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
    input  wire [1:0]      b_inj,
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
    input  wire [1:0]      r_inj,
    output reg             violation,
    output reg  [3:0]      rule,
    output reg  [2:0]      chan,
    output reg  [2:0]      sig,
    output reg  [63:0]     vcycle,
    output reg  [63:0]     value0,
    output reg  [63:0]     value1
);
    localparam integer LB = $clog2(DW / 8);

    // the rule and channel codes (AXI_RULE_*, AXI_CHAN_*), generated from tb/rules/axi_codes.py
`include "vta_tb_codes.vh"
    // the rules and their bookkeeping (shared with the formal top; this file only reports)
`include "vta_axi_rules.vh"

    // write data of the strobed lanes (rule 2 looks for X only where a lane is enabled)
    wire [DW-1:0]           w_strobed;
    genvar g;
    generate
        for (g = 0; g < NB; g = g + 1) begin : lanes
            assign w_strobed[8*g +: 8] = wstrb[g] ? wdata[8*g +: 8] : 8'd0;
        end
    endgenerate

    // --- reporting: the first violation only ----------------------------------------------
    reg        fire_now;
    reg [3:0]  f_rule;
    reg [2:0]  f_chan, f_sig;
    reg [63:0] f_v0, f_v1;
    reg        waive_now;
    reg [3:0]  w_rule;
    reg [2:0]  w_chan, w_sig;
    reg [63:0] w_v0, w_v1;
    task automatic flag(input [3:0] r, input [2:0] c, input [2:0] s, input [63:0] v0, input [63:0] v1);
        if (WAIVE[r]) begin
            if (!waive_now) begin
                waive_now = 1'b1;
                w_rule = r; w_chan = c; w_sig = s; w_v0 = v0; w_v1 = v1;
            end
        end else if (!fire_now) begin
            fire_now = 1'b1;
            f_rule = r; f_chan = c; f_sig = s; f_v0 = v0; f_v1 = v1;
        end
    endtask

    // the waived findings: how many cycles had one, and the first (read by tb/uvm/env/fast.py
    // through the hierarchy, so nothing in the design reads the first one's fields)
    reg [31:0] waived_n;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [3:0]  waived_rule;
    reg [2:0]  waived_chan, waived_sig;
    reg [63:0] waived_cycle, waived_value0, waived_value1;
    /* verilator lint_on UNUSEDSIGNAL */

    // X/Z: the reduction of a vector with an X or Z bit is X
    function automatic has_x_aw(input [IDW+AW+8+3+2-1:0] v); has_x_aw = ^v === 1'bx; endfunction
    /* verilator lint_off UNUSEDSIGNAL */  // the last field is what is left
    function automatic [2:0] x_sig_addr(input [IDW+AW+8+3+2-1:0] v);
        begin
            x_sig_addr = (^v[IDW-1:0] === 1'bx) ? 3'd0 : (^v[IDW +: AW] === 1'bx) ? 3'd1
                       : (^v[IDW+AW +: 8] === 1'bx) ? 3'd2 : (^v[IDW+AW+8 +: 3] === 1'bx) ? 3'd3 : 3'd4;
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // the low 64 bits of data words, for the latched values (any bus width)
    wire [DW+63:0] w_prev_x = {64'd0, w_prev[DW-1:0]};
    wire [DW+63:0] wdata_x  = {64'd0, wdata};
    wire [DW+63:0] r_prev_x = {64'd0, r_prev[IDW +: DW]};
    wire [DW+63:0] rdata_x  = {64'd0, rdata};
    wire [63:0] w_prev_lo = w_prev_x[63:0], wdata_lo = wdata_x[63:0];
    wire [63:0] r_prev_lo = r_prev_x[63:0], rdata_lo = rdata_x[63:0];
    wire [63:0] aw_prev_a = {{(64-AW){1'b0}}, aw_prev[IDW +: AW]};
    wire [63:0] ar_prev_a = {{(64-AW){1'b0}}, ar_prev[IDW +: AW]};

    /* verilator lint_off BLKSEQ */  // fire_now, waive_now: this cycle's scratch values
    always @(posedge clk) begin
        fire_now = 1'b0;
        waive_now = 1'b0;
        if (!rst_n) begin
            violation <= 1'b0;
            waived_n <= 32'd0;
        end else begin
            // handshake and payload X/Z (four-state simulators only: here, not in the rules)
            if (^{awvalid, awready} === 1'bx) flag(AXI_RULE_X_ON_HANDSHAKE, AXI_CHAN_AW, 3'd0, {63'd0, awvalid}, {63'd0, awready});
            if (^{wvalid, wready} === 1'bx)   flag(AXI_RULE_X_ON_HANDSHAKE, AXI_CHAN_W, 3'd0, {63'd0, wvalid}, {63'd0, wready});
            if (^{bvalid, bready} === 1'bx)   flag(AXI_RULE_X_ON_HANDSHAKE, AXI_CHAN_B, 3'd0, {63'd0, bvalid}, {63'd0, bready});
            if (^{arvalid, arready} === 1'bx) flag(AXI_RULE_X_ON_HANDSHAKE, AXI_CHAN_AR, 3'd0, {63'd0, arvalid}, {63'd0, arready});
            if (^{rvalid, rready} === 1'bx)   flag(AXI_RULE_X_ON_HANDSHAKE, AXI_CHAN_R, 3'd0, {63'd0, rvalid}, {63'd0, rready});
            if (awvalid === 1'b1 && has_x_aw(aw_pl)) flag(AXI_RULE_X_ON_PAYLOAD, AXI_CHAN_AW, x_sig_addr(aw_pl), 64'd0, 64'd0);
            if (arvalid === 1'b1 && has_x_aw(ar_pl)) flag(AXI_RULE_X_ON_PAYLOAD, AXI_CHAN_AR, x_sig_addr(ar_pl), 64'd0, 64'd0);
            if (wvalid === 1'b1 && (^{w_strobed, wstrb, LITE != 0 ? 1'b0 : wlast} === 1'bx))
                flag(AXI_RULE_X_ON_PAYLOAD, AXI_CHAN_W, (^w_strobed === 1'bx) ? 3'd0 : (^wstrb === 1'bx) ? 3'd1 : 3'd2, 64'd0, 64'd0);
            if (bvalid === 1'b1 && (^b_pl === 1'bx)) flag(AXI_RULE_X_ON_PAYLOAD, AXI_CHAN_B, (^bid === 1'bx) ? 3'd0 : 3'd1, 64'd0, 64'd0);
            if (rvalid === 1'b1 && (^r_pl === 1'bx))
                flag(AXI_RULE_X_ON_PAYLOAD, AXI_CHAN_R, (^rid === 1'bx) ? 3'd0 : (^rdata === 1'bx) ? 3'd1 : (^rresp === 1'bx) ? 3'd2 : 3'd3, 64'd0, 64'd0);
            // the shared rules (vta_axi_rules.vh), in the order findings are ranked
            if (r3_aw) flag(AXI_RULE_VALID_DROPPED, AXI_CHAN_AW, 3'd0, aw_prev_a, 64'd0);
            if (r4_aw) flag(AXI_RULE_PAYLOAD_UNSTABLE, AXI_CHAN_AW, 3'd1, aw_prev_a, {{(64-AW){1'b0}}, awaddr});
            if (r3_ar) flag(AXI_RULE_VALID_DROPPED, AXI_CHAN_AR, 3'd0, ar_prev_a, 64'd0);
            if (r4_ar) flag(AXI_RULE_PAYLOAD_UNSTABLE, AXI_CHAN_AR, 3'd1, ar_prev_a, {{(64-AW){1'b0}}, araddr});
            if (r3_w)  flag(AXI_RULE_VALID_DROPPED, AXI_CHAN_W, 3'd0, 64'd0, 64'd0);
            if (r4_w)  flag(AXI_RULE_PAYLOAD_UNSTABLE, AXI_CHAN_W, (w_pl[DW-1:0] !== w_prev[DW-1:0]) ? 3'd0 : (w_pl[DW +: NB] !== w_prev[DW +: NB]) ? 3'd1 : 3'd2,
                            w_prev_lo, wdata_lo);
            if (r3_b)  flag(AXI_RULE_VALID_DROPPED, AXI_CHAN_B, 3'd0, 64'd0, 64'd0);
            if (r4_b)  flag(AXI_RULE_PAYLOAD_UNSTABLE, AXI_CHAN_B, 3'd1, {62'd0, b_prev[IDW +: 2]}, {62'd0, bresp});
            if (r3_r)  flag(AXI_RULE_VALID_DROPPED, AXI_CHAN_R, 3'd0, 64'd0, 64'd0);
            if (r4_r)  flag(AXI_RULE_PAYLOAD_UNSTABLE, AXI_CHAN_R, 3'd1, r_prev_lo, rdata_lo);
            if (r5_aw)  flag(AXI_RULE_BURST_TYPE, AXI_CHAN_AW, 3'd4, {62'd0, awburst}, 64'd0);
            if (r6_aw)  flag(AXI_RULE_BURST_SIZE, AXI_CHAN_AW, 3'd3, {61'd0, awsize}, 64'(NB));
            if (r7_aw)  flag(AXI_RULE_4K_CROSSING, AXI_CHAN_AW, 3'd1, {{(64-AW){1'b0}}, awaddr}, {53'd0, awsize, awlen});
            if (r12_aw) flag(AXI_RULE_ATTRIBUTES, AXI_CHAN_AW, 3'd5, {52'd0, awattr}, {52'd0, ATTR});
            // rule 8's second value: bit 32 set when WLAST is missing (not early)
            if (r8_w)   flag(AXI_RULE_WLAST, AXI_CHAN_W, 3'd2, {55'd0, w_n}, {55'd0, awq_head} | (wq_head_last ? 64'd0 : 64'h1_0000_0000));
            if (r10_b)  flag(AXI_RULE_UNEXPECTED_RESPONSE, AXI_CHAN_B, 3'd0, LITE != 0 ? {32'd0, lite_bmin} : {{(64-IDW){1'b0}}, bid},
                             LITE != 0 ? {32'd0, lite_b} : 64'd0);
            // rule 11 (the test's injected response) exists only in the testbench
            if (b_take && bresp !== b_inj) flag(AXI_RULE_INJECTED_RESPONSE, AXI_CHAN_B, 3'd1, {62'd0, bresp}, {62'd0, b_inj});
            if (r5_ar)  flag(AXI_RULE_BURST_TYPE, AXI_CHAN_AR, 3'd4, {62'd0, arburst}, 64'd0);
            if (r6_ar)  flag(AXI_RULE_BURST_SIZE, AXI_CHAN_AR, 3'd3, {61'd0, arsize}, 64'(NB));
            if (r7_ar)  flag(AXI_RULE_4K_CROSSING, AXI_CHAN_AR, 3'd1, {{(64-AW){1'b0}}, araddr}, {53'd0, arsize, arlen});
            if (r12_ar) flag(AXI_RULE_ATTRIBUTES, AXI_CHAN_AR, 3'd5, {52'd0, arattr}, {52'd0, ATTR});
            if (r10_r)  flag(AXI_RULE_UNEXPECTED_RESPONSE, AXI_CHAN_R, 3'd0, LITE != 0 ? {32'd0, lite_ar} : {{(64-IDW){1'b0}}, rid},
                             LITE != 0 ? {32'd0, lite_r} : 64'd0);
            if (r_take && rresp !== r_inj) flag(AXI_RULE_INJECTED_RESPONSE, AXI_CHAN_R, 3'd2, {62'd0, rresp}, {62'd0, r_inj});
            if (r9_r)   flag(AXI_RULE_RLAST, AXI_CHAN_R, 3'd3, {55'd0, r_n}, {55'd0, r_head});
            if (fire_now && !violation) begin
                violation <= 1'b1;
                rule <= f_rule; chan <= f_chan; sig <= f_sig; vcycle <= cycle;
                value0 <= f_v0; value1 <= f_v1;
            end
            if (waive_now) begin
                waived_n <= waived_n + 32'd1;
                if (waived_n == 32'd0) begin
                    waived_rule <= w_rule; waived_chan <= w_chan; waived_sig <= w_sig; waived_cycle <= cycle;
                    waived_value0 <= w_v0; waived_value1 <= w_v1;
                end
            end
        end
    end
    /* verilator lint_on BLKSEQ */

    wire unused = &{1'b0, LB, w_prev_x[DW+63:64], wdata_x[DW+63:64],
                    r_prev_x[DW+63:64], rdata_x[DW+63:64]};
endmodule
`default_nettype wire
