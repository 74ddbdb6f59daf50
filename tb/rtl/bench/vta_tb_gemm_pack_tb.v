`default_nettype none
`timescale 1ns / 1ps
// Test-only exhaustive check of vta_gemm_alu's GEMM products (rtl/README.md, "Two GEMM
// products per DSP"; run by tb/tests/test_gemm_pack.py). A GEMM of 16383 x 16383 micro-ops
// (dst index +1 each, so no write is forwarded to the next micro-op) fills the pipeline.
// With PIPE_STAGES 0 the clock then stops: stage C is combinational in the buffers' read
// data, so every input below is applied in turn and the write-back data compared with the
// exact products. With PIPE_STAGES P > 0 the products and sums are registered in M1 (M2),
// at P = 3 after the read data in R, and their registers run freely: each input is applied, the clock ticks P times (another
// micro-op in C each time) and the write-back data, dst read data + the registered dot
// products of that input, is compared. For each input element position k in turn (the others 0), every triple
// (x, wh, wl) of the sweep goes to x = INP[0][k], wl = WGT[0][k], wh = WGT[1][k]: lanes 0
// and 1 (one packed pair when the design packs) must read ACC[0] + x*wl and ACC[1] + x*wh
// modulo 2^32, with the accumulators' read data drawn from the triple (every value's bits
// move through both).
//   SWEEP 0: every (x, wh, wl) at every position, 2^24 each (Verilator); SWEEP 1: every
//   (x, wl) with wh in {-128, 127} at the last position (Icarus, seconds). With BLOCK 1 (no
//   pair) only lane 0 is compared, on every (x, wl).
// Prints "PACK <the design's PACK>", then "GEMM_PACK <checked> <mismatches>", and the first
// few mismatches as "MISMATCH k x wh wl lane got expected".
module vta_tb_gemm_pack_tb;
    parameter integer LOG_BLOCK = 1;
    parameter integer SWEEP     = 0;
    parameter integer PIPE_STAGES = 3;
    localparam integer LOG_UOP_DEPTH = 4;
    localparam integer LOG_INP_DEPTH = 4;
    localparam integer LOG_WGT_DEPTH = 4;
    localparam integer LOG_ACC_DEPTH = 4;
`define VTA_ISA_LOOP_FIELDS
`include "vta_isa.vh"
    localparam integer BLOCK = 1 << LOG_BLOCK;
    localparam integer PAIR  = (BLOCK > 1) ? 1 : 0;
    localparam integer NWH   = (PAIR == 0) ? 1 : (SWEEP != 0) ? 2 : 256;
    localparam integer K0    = (SWEEP != 0) ? BLOCK - 1 : 0;

    reg                         clk = 1'b0;
    reg                         rst = 1'b1;
    reg                         start = 1'b0;
    reg  [127:0]                insn = 128'd0;
    reg  [BLOCK*8-1:0]          inp = {(BLOCK*8){1'b0}};
    reg  [BLOCK*BLOCK*8-1:0]    wgt = {(BLOCK*BLOCK*8){1'b0}};
    reg  [BLOCK*32-1:0]         acc = {(BLOCK*32){1'b0}};
    wire                        wb_valid;
    wire [LOG_ACC_DEPTH-1:0]    wb_addr;
    wire [BLOCK*32-1:0]         wb_data;
    wire                        uop_re, inp_re, wgt_re, acc_re, busy, gemm_uop, alu_uop;
    wire [LOG_UOP_DEPTH-1:0]    uop_raddr;
    wire [LOG_INP_DEPTH-1:0]    inp_raddr;
    wire [LOG_WGT_DEPTH-1:0]    wgt_raddr;
    wire [LOG_ACC_DEPTH-1:0]    acc_raddr;

    vta_gemm_alu #(
        .LOG_INP_WIDTH(3), .LOG_WGT_WIDTH(3), .LOG_ACC_WIDTH(5), .LOG_BATCH(0),
        .LOG_BLOCK(LOG_BLOCK), .LOG_UOP_DEPTH(LOG_UOP_DEPTH), .LOG_INP_DEPTH(LOG_INP_DEPTH),
        .LOG_WGT_DEPTH(LOG_WGT_DEPTH), .LOG_ACC_DEPTH(LOG_ACC_DEPTH),
        .PIPE_STAGES(PIPE_STAGES)
    ) dut (
        .clk(clk), .rst(rst), .start(start), .insn(insn),
        .uop_re(uop_re), .uop_raddr(uop_raddr), .uop_rdata(32'd0),
        .inp_re(inp_re), .inp_raddr(inp_raddr), .inp_rdata(inp),
        .wgt_re(wgt_re), .wgt_raddr(wgt_raddr), .wgt_rdata(wgt),
        .acc_re(acc_re), .acc_raddr(acc_raddr), .acc_rdata(acc),
        .wb_valid(wb_valid), .wb_addr(wb_addr), .wb_data(wb_data), .ld_wdata({(BLOCK*32){1'b0}}),
        .busy(busy), .gemm_uop(gemm_uop), .alu_uop(alu_uop));

    task tick;
        begin
            #1 clk = 1'b1;
            #1 clk = 1'b0;
        end
    endtask

    integer k, n, t, c, checked, bad, p_lo, p_hi;
    reg [7:0]  x, wh, wl;
    reg [31:0] a_lo, a_hi, e_lo, e_hi, g_lo, g_hi;
    initial begin
        // GEMM, uop [0, 1) (indices 0), 16383 x 16383 iterations, dst +1 per inner one, no reset
        insn[ISA_OPCODE +: ISA_OPCODE_W] = 3'd2;
        insn[ISA_GEMM_UOP_END +: ISA_GEMM_UOP_END_W] = 1;
        insn[ISA_GEMM_ITER_OUT +: ISA_GEMM_ITER_OUT_W] = 14'h3fff;
        insn[ISA_GEMM_ITER_IN +: ISA_GEMM_ITER_IN_W] = 14'h3fff;
        insn[ISA_GEMM_DST_FACTOR_IN +: ISA_GEMM_DST_FACTOR_IN_W] = 1;
        // a change of every input: Icarus runs no always @* before its inputs first change
        inp = ~inp; wgt = ~wgt; acc = ~acc;
        tick;
        inp = ~inp; wgt = ~wgt; acc = ~acc;
        tick;
        rst = 1'b0;
        start = 1'b1;
        tick;
        start = 1'b0;
        n = 0;
        while (!wb_valid && n < 8) begin
            tick;
            n = n + 1;
        end
        $display("PACK %0d", dut.PACK);
        checked = 0;
        bad = 0;
        if (!wb_valid || !gemm_uop)
            $display("MISMATCH the micro-op never reached stage C");
        else
            for (k = K0; k < BLOCK; k = k + 1)
                for (n = 0; n < NWH; n = n + 1)
                    for (t = 0; t < 65536; t = t + 1) begin
                        x  = t[15:8];
                        wl = t[7:0];
                        if (SWEEP == 0)
                            wh = n[7:0];
                        else
                            wh = (n == 0) ? 8'h80 : 8'h7f;
                        a_lo = {wl, x, wh, wl ^ 8'h80};
                        a_hi = ~{x, wh, wl, x};
                        inp = {(BLOCK*8){1'b0}};
                        wgt = {(BLOCK*BLOCK*8){1'b0}};
                        acc = {(BLOCK*32){1'b0}};
                        inp[k*8 +: 8] = x;
                        wgt[k*8 +: 8] = wl;                              // WGT[0][k]
                        acc[0 +: 32] = a_lo;
                        if (PAIR != 0) begin
                            wgt[(BLOCK + k)*8 +: 8] = wh;                // WGT[1][k]
                            acc[32 +: 32] = a_hi;
                        end
                        #1;
                        for (c = 0; c < PIPE_STAGES; c = c + 1)
                            tick;
                        if (!wb_valid || dut.fw_hit_d) begin
                            if (bad < 5)
                                $display("MISMATCH no micro-op in stage C, or its dst forwarded");
                            bad = bad + 1;
                        end
                        // own statements: both operands signed, so sign-extended to 32 bits
                        p_lo = $signed(x) * $signed(wl);
                        p_hi = $signed(x) * $signed(wh);
                        e_lo = a_lo + p_lo;
                        e_hi = a_hi + p_hi;
                        g_lo = wb_data[0 +: 32];
                        g_hi = (PAIR != 0) ? wb_data[32 +: 32] : e_hi;
                        checked = checked + 1;
                        if (g_lo !== e_lo || g_hi !== e_hi) begin
                            if (bad < 5)
                                $display("MISMATCH %0d %0d %0d %0d %s %h %h", k, $signed(x), $signed(wh),
                                         $signed(wl), (g_lo !== e_lo) ? "lo" : "hi",
                                         (g_lo !== e_lo) ? g_lo : g_hi, (g_lo !== e_lo) ? e_lo : e_hi);
                            bad = bad + 1;
                        end
                    end
        $display("GEMM_PACK %0d %0d", checked, bad);
        $finish;
    end
endmodule
`default_nettype wire
