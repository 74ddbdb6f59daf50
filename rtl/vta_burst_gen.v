`default_nettype none
// AXI burst address generator for a 2-D access: nrows rows of row_bytes bytes,
// row r starting at byte address addr0 + r*stride_bytes (any byte alignment).
// Each row is covered by the bus-aligned beats that contain its bytes, split
// into INCR bursts of at most MAXB beats that never cross a 4 KiB boundary.
// The request is a registered valid/addr/len held stable until req_ready;
// a new burst is computed only while `allow` is high (credit gating).
module vta_burst_gen #(
    parameter integer LOG_B = 3,    // log2(bus bytes)
    parameter integer MAXB  = 256   // maximum beats per burst (1..256)
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    input  wire [31:0] addr0,
    input  wire [31:0] row_bytes,
    input  wire [31:0] stride_bytes,
    input  wire [15:0] nrows,
    input  wire        allow,
    output reg         req_valid,
    input  wire        req_ready,
    output reg  [31:0] req_addr,
    output reg  [7:0]  req_len,
    output wire        busy
);
    localparam [32:0] BM1 = (1 << LOG_B) - 1;
    localparam [31:0] MAXB32 = MAXB;

    reg [31:0] row_addr;   // byte address of the current row
    reg [31:0] cur;        // beat-aligned address of the next beat to request
    reg [31:0] beats_left; // beats of the current row not yet requested
    reg [15:0] rows_left;  // rows not completely requested (incl. current)

    // Beats that cover [a, a+row_bytes).
    wire [31:0] next_row = row_addr + stride_bytes;
    wire [32:0] s_first  = {1'b0, row_bytes} + {{(33-LOG_B){1'b0}}, addr0[LOG_B-1:0]} + BM1;
    wire [32:0] s_next   = {1'b0, row_bytes} + {{(33-LOG_B){1'b0}}, next_row[LOG_B-1:0]} + BM1;
    wire [31:0] beats_first = {{(LOG_B-1){1'b0}}, s_first[32:LOG_B]};
    wire [31:0] beats_next  = {{(LOG_B-1){1'b0}}, s_next[32:LOG_B]};
    wire unused_s = &{1'b0, s_first[LOG_B-1:0], s_next[LOG_B-1:0]};

    // Length of the next burst: min(beats_left, MAXB, beats to the 4 KiB edge).
`ifdef VTA_TEST_BREAK_4K_DISTANCE
    // test-only breakage (rtl/README.md): the distance to the 4 KiB edge from an address
    // with its lowest beat bit dropped
    wire [11:0] cur_lo = cur[11:0] & ~(12'd1 << LOG_B);
    wire [12:0] to_edge_bytes = 13'h1000 - {1'b0, cur_lo};
`else
    wire [12:0] to_edge_bytes = 13'h1000 - {1'b0, cur[11:0]};
`endif
    wire [31:0] to_edge = {19'd0, to_edge_bytes} >> LOG_B;
    wire [31:0] n1 = (beats_left < MAXB32) ? beats_left : MAXB32;
    wire [31:0] n  = (n1 < to_edge) ? n1 : to_edge;
    wire        last_of_row = (n == beats_left);

    wire can_load = (!req_valid || req_ready);
    wire load = can_load && allow && (rows_left != 16'd0);

    assign busy = req_valid || (rows_left != 16'd0);

    always @(posedge clk) begin
        if (rst) begin
            req_valid  <= 1'b0;
            req_addr   <= 32'd0;
            req_len    <= 8'd0;
            row_addr   <= 32'd0;
            cur        <= 32'd0;
            beats_left <= 32'd0;
            rows_left  <= 16'd0;
        end else if (start) begin
            req_valid  <= 1'b0;
            row_addr   <= addr0;
            cur        <= {addr0[31:LOG_B], {LOG_B{1'b0}}};
            beats_left <= beats_first;
            rows_left  <= (row_bytes == 32'd0) ? 16'd0 : nrows;
        end else begin
            if (req_valid && req_ready && !load) req_valid <= 1'b0;
            if (load) begin
                req_valid <= 1'b1;
                req_addr  <= cur;
                req_len   <= n[7:0] - 8'd1;
                if (last_of_row) begin
                    rows_left  <= rows_left - 16'd1;
                    row_addr   <= next_row;
                    cur        <= {next_row[31:LOG_B], {LOG_B{1'b0}}};
                    beats_left <= beats_next;
                end else begin
                    cur        <= cur + {n[31-LOG_B:0], {LOG_B{1'b0}}};
                    beats_left <= beats_left - n;
                end
            end
        end
    end
endmodule
`default_nettype wire
