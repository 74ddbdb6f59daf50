`default_nettype none
`timescale 1ns / 1ps
// Test-only plain-Verilog bench: the fast-mode top (vta_tb_fast) run with no Python in the
// loop, the simulator's own speed limit that `make bench` compares the testbenches with
// (tb/bench/plain.py builds and runs it; it lives apart from tb/rtl/*.v because it has
// delays, which the cocotb builds of those files do not take). Everything comes from files in the working
// directory, written by the Python side beforehand:
//   vta_tb_dir.hex / vta_tb_mem.hex / vta_tb_allow.hex   the memory image (tb/uvm/agents/fastmem.py)
//   vta_tb_host.hex   the host script, one 50-bit entry per line: {op[1:0], addr[15:0],
//                     data[31:0]}: op 1 write data, 0 read (printed), 2 poll until
//                     (value & data) != 0 (printed), 3 end of script
// and plusargs +pages=N (physical pages the image uses), +profile=P +seed=S. At the end it
// writes every used word to vta_tb_dump.hex, prints "HOST <addr> <value>" for each read
// or poll and "CYCLES <n>" (clock cycles since reset), and finishes.
module vta_tb_plain;
    parameter integer LOG_INP_WIDTH     = 3;
    parameter integer LOG_WGT_WIDTH     = 3;
    parameter integer LOG_ACC_WIDTH     = 5;
    parameter integer LOG_BATCH         = 0;
    parameter integer LOG_BLOCK         = 4;
    parameter integer LOG_UOP_BUFF_SIZE = 15;
    parameter integer LOG_INP_BUFF_SIZE = 15;
    parameter integer LOG_WGT_BUFF_SIZE = 18;
    parameter integer LOG_ACC_BUFF_SIZE = 17;
    parameter integer LOG_BUS_WIDTH     = 6;
    parameter integer CMD_QUEUE_DEPTH   = 8;
    parameter integer TOKEN_QUEUE_DEPTH = 8;
    parameter integer PIPE_STAGES       = 3;
    parameter integer LOG_PAGES         = 9;
    localparam integer PAGE_WORDS = 65536 / ((1 << LOG_BUS_WIDTH) / 8);

    reg         clk = 1'b0;
    reg         rst_n = 1'b0;
    reg         go = 1'b0;
    reg  [1:0]  op = 2'd0;
    reg  [15:0] addr = 16'd0;
    reg  [31:0] data = 32'd0;
    reg         load = 1'b0;
    reg         dump = 1'b0;
    reg  [31:0] dump_hi = 32'd0;
    reg  [15:0] pages = 16'd1;
    reg  [1:0]  profile = 2'd0;
    reg  [31:0] seed = 32'd1;
    wire        ack;
    wire        alarm;
    reg  [49:0] script [0:4095];
    integer     n, cycles;

    always #5 clk = ~clk;
    always @(posedge clk) cycles <= rst_n ? cycles + 1 : 0;

    vta_tb_fast #(
        .LOG_INP_WIDTH(LOG_INP_WIDTH), .LOG_WGT_WIDTH(LOG_WGT_WIDTH), .LOG_ACC_WIDTH(LOG_ACC_WIDTH),
        .LOG_BATCH(LOG_BATCH), .LOG_BLOCK(LOG_BLOCK), .LOG_UOP_BUFF_SIZE(LOG_UOP_BUFF_SIZE),
        .LOG_INP_BUFF_SIZE(LOG_INP_BUFF_SIZE), .LOG_WGT_BUFF_SIZE(LOG_WGT_BUFF_SIZE),
        .LOG_ACC_BUFF_SIZE(LOG_ACC_BUFF_SIZE), .LOG_BUS_WIDTH(LOG_BUS_WIDTH),
        .CMD_QUEUE_DEPTH(CMD_QUEUE_DEPTH), .TOKEN_QUEUE_DEPTH(TOKEN_QUEUE_DEPTH),
        .PIPE_STAGES(PIPE_STAGES), .LOG_PAGES(LOG_PAGES)
    ) u (
        .ap_clk(clk), .ap_rst_n(rst_n), .tb_fault(4'd0),
        .tb_host_go(go), .tb_host_op({1'b0, op}), .tb_host_addr(addr), .tb_host_wdata(data),
        .tb_host_wstrb(4'hF), .tb_host_order(2'd0), .tb_host_lag(2'd0), .tb_host_bwait(2'd0),
        .tb_host_mask(data), .tb_host_gap(16'd16),
        .tb_host_stop(1'b0), .tb_host_ack(ack),
        .tb_mem_load(load), .tb_mem_pages(pages), .tb_mem_profile(profile), .tb_mem_seed(seed),
        .tb_mem_err_kind(8'd0), .tb_mem_err_lo(128'd0), .tb_mem_err_last(128'd0),
        .tb_mem_err_resp(8'd0), .tb_mem_err_rate(16'd0),
        .tb_mem_rogue_en(1'b0), .tb_mem_rogue_lo(32'd0), .tb_mem_rogue_last(32'd0),
        .tb_mem_corrupt_en(1'b0), .tb_mem_corrupt_lo(32'd0), .tb_mem_corrupt_last(32'd0),
        .tb_mem_dump(dump), .tb_mem_dump_lo(32'd0), .tb_mem_dump_hi(dump_hi), .tb_alarm(alarm)
    );

    initial begin
        if (!$value$plusargs("pages=%d", pages)) pages = 16'd1;
        if (!$value$plusargs("profile=%d", profile)) profile = 2'd0;
        if (!$value$plusargs("seed=%d", seed)) seed = 32'd1;
        $readmemh("vta_tb_host.hex", script);
        repeat (8) @(posedge clk);
        @(negedge clk) rst_n = 1'b1;
        @(negedge clk) load = 1'b1;
        @(negedge clk) load = 1'b0;
        for (n = 0; n < 4096 && script[n][49:48] != 2'd3; n = n + 1) begin
            @(negedge clk);
            {op, addr, data} = script[n];
            go = !go;
            wait (ack == go);
            if (op != 2'd1) $display("HOST %h %h", addr, u.u_host.rdata);
        end
        @(negedge clk) dump_hi = {16'd0, pages} * PAGE_WORDS - 1;
        dump = 1'b1;
        @(negedge clk) dump = 1'b0;
        $display("CYCLES %0d", cycles);
        if (alarm) $display("ALARM");
        $finish;
    end
endmodule
`default_nettype wire
