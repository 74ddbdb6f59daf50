`default_nettype none
// Write data path: packs a stream of E-byte elements (nrows rows of xsize
// elements, row r starting at byte offset off0 + r*stride within its first
// beat) into bus beats with exact byte strobes, matching the beats that
// vta_burst_gen requests for the same access. The last beat of a row is
// flushed with only the row's bytes enabled. The output is a registered
// valid/data/strb held stable until out_ready.
module vta_pack #(
    parameter integer LOG_B = 3,  // log2(bus bytes)
    parameter integer LOG_E = 4   // log2(element bytes)
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire                   start,
    input  wire [LOG_B-1:0]       off0,
    input  wire [LOG_B-1:0]       stride_lo,
    input  wire [15:0]            xsize,
    input  wire [15:0]            nrows,
    input  wire                   in_valid,
    output wire                   in_ready,
    input  wire [(8<<LOG_E)-1:0]  in_data,
    output reg                    out_valid,
    input  wire                   out_ready,
    output reg  [(8<<LOG_B)-1:0]  out_data,
    output reg  [(1<<LOG_B)-1:0]  out_strb,
    output wire                   busy
);
    localparam integer B   = 1 << LOG_B;
    localparam integer E   = 1 << LOG_E;
    localparam integer CAP = E + B;
    localparam integer CW  = $clog2(CAP + 1);
    localparam [31:0]   B32 = B;
    localparam [31:0]   E32 = E;
    localparam [CW-1:0] B_C = B32[CW-1:0];
    localparam [CW-1:0] E_C = E32[CW-1:0];

    reg [CAP*8-1:0] buf_q;
    reg [CAP-1:0]   sb_q;
    reg [CW-1:0]    cnt;
    reg [15:0]      rows_left;
    reg [15:0]      elems_left;
    reg [LOG_B-1:0] off;

    wire active   = (rows_left != 16'd0);
    wire row_in   = (elems_left != 16'd0);
    wire can_emit = active && ((cnt >= B_C) || (!row_in && cnt != {CW{1'b0}}));
    wire emit     = can_emit && (!out_valid || out_ready);

    wire [CW-1:0]    cnt1 = emit ? ((cnt >= B_C) ? cnt - B_C : {CW{1'b0}}) : cnt;
    wire [CAP*8-1:0] buf1 = emit ? (buf_q >> (B * 8)) : buf_q;
    wire [CAP-1:0]   sb1  = emit ? (sb_q >> B) : sb_q;

    assign in_ready = active && row_in && (cnt1 <= B_C);
    wire accept = in_valid && in_ready;

    wire row_done = active && !row_in && (cnt == {CW{1'b0}});

    assign busy = active || out_valid;

    always @(posedge clk) begin
        if (rst) begin
            buf_q      <= {CAP{8'h00}};
            sb_q       <= {CAP{1'b0}};
            cnt        <= {CW{1'b0}};
            rows_left  <= 16'd0;
            elems_left <= 16'd0;
            off        <= {LOG_B{1'b0}};
            out_valid  <= 1'b0;
            out_data   <= {(B*8){1'b0}};
            out_strb   <= {B{1'b0}};
        end else if (start) begin
            buf_q      <= {CAP{8'h00}};
            sb_q       <= {CAP{1'b0}};
            cnt        <= {{(CW-LOG_B){1'b0}}, off0};
            rows_left  <= (xsize == 16'd0) ? 16'd0 : nrows;
            elems_left <= xsize;
            off        <= off0;
        end else begin
            if (out_valid && out_ready) out_valid <= 1'b0;
            if (emit) begin
                out_valid <= 1'b1;
                out_data  <= buf_q[B*8-1:0];
                out_strb  <= sb_q[B-1:0];
            end
            if (row_done) begin
                // start the next row (or finish): its first bytes sit at its offset
                rows_left  <= rows_left - 16'd1;
                elems_left <= xsize;
                off        <= off + stride_lo;
                cnt        <= {{(CW-LOG_B){1'b0}}, off + stride_lo};
                buf_q      <= {CAP{8'h00}};
                sb_q       <= {CAP{1'b0}};
            end else if (accept) begin
                buf_q      <= buf1 | ({{(B*8){1'b0}}, in_data} << {cnt1, 3'b000});
                sb_q       <= sb1 | ({{B{1'b0}}, {E{1'b1}}} << cnt1);
                cnt        <= cnt1 + E_C;
                elems_left <= elems_left - 16'd1;
            end else begin
                buf_q <= buf1;
                sb_q  <= sb1;
                cnt   <= cnt1;
            end
        end
    end
endmodule
`default_nettype wire
