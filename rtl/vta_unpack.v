`default_nettype none
// Read data path: turns the bus beats of a 2-D access (nrows rows of row_bytes
// bytes, row r at byte offset off0 + r*stride within its first beat, the same
// access vta_burst_gen requests) into a stream of elements of 2^lesz bytes.
// A byte gearbox of EMAX+B bytes realigns any byte alignment; bytes of a beat
// outside the row are dropped. Element bytes above 2^lesz in out_data are
// don't-care (they hold the following bytes).
module vta_unpack #(
    parameter integer LOG_B    = 3,  // log2(bus bytes)
    parameter integer LOG_EMAX = 4   // log2(largest element bytes)
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire                       start,
    input  wire [LOG_B-1:0]           off0,
    input  wire [LOG_B-1:0]           stride_lo,
    input  wire [31:0]                row_bytes,
    input  wire [15:0]                nrows,
    input  wire [3:0]                 lesz,
    input  wire                       in_valid,
    output wire                       in_ready,
    input  wire [(8<<LOG_B)-1:0]      in_data,
    output wire                       out_valid,
    input  wire                       out_ready,
    output wire [(8<<LOG_EMAX)-1:0]   out_data,
    output wire                       busy
);
    localparam integer B    = 1 << LOG_B;
    localparam integer EMAX = 1 << LOG_EMAX;
    localparam integer CAP  = EMAX + B;          // gearbox bytes
    localparam integer CW   = $clog2(CAP + 1);   // byte count width
    localparam [31:0]   EMAX32 = EMAX;
    localparam [CW-1:0] EMAX_C = EMAX32[CW-1:0];
    localparam [31:0] B32 = B;

    reg [CAP*8-1:0]  buf_q;   // bytes [0, cnt) valid, the rest zero
    reg [CW-1:0]     cnt;
    reg [15:0]       rows_left;
    reg [31:0]       bytes_left;
    reg              first;
    reg [LOG_B-1:0]  off;

    wire [CW-1:0] esz = {{(CW-1){1'b0}}, 1'b1} << lesz;

    assign out_valid = (cnt >= esz);
    assign out_data  = buf_q[EMAX*8-1:0];
    wire pop = out_valid && out_ready;

    wire [CW-1:0]    cnt1 = pop ? (cnt - esz) : cnt;
    wire [CAP*8-1:0] buf1 = pop ? (buf_q >> {esz, 3'b000}) : buf_q;

`ifdef VTA_TEST_BREAK_GEARBOX_ROOM
    // test-only breakage (rtl/README.md): a beat is taken with one byte less room than it needs
    assign in_ready = (rows_left != 16'd0) && (cnt1 <= EMAX_C + 1'b1);
`else
    assign in_ready = (rows_left != 16'd0) && (cnt1 <= EMAX_C);
`endif
    wire accept = in_valid && in_ready;

    wire [LOG_B-1:0] boff = first ? off : {LOG_B{1'b0}};
    wire [31:0] avail = B32 - {{(32-LOG_B){1'b0}}, boff};
    wire [31:0] nvalid = (bytes_left < avail) ? bytes_left : avail;
    wire [B*8-1:0] shifted = in_data >> {boff, 3'b000};
    wire [B*8-1:0] keep    = ~({(B*8){1'b1}} << {nvalid[LOG_B:0], 3'b000});
    wire [CAP*8-1:0] ins = {{EMAX{8'h00}}, shifted & keep};

    wire [31:0] bytes_next = bytes_left - nvalid;

    assign busy = (rows_left != 16'd0) || (cnt != {CW{1'b0}});

    always @(posedge clk) begin
        if (rst) begin
            buf_q      <= {CAP{8'h00}};
            cnt        <= {CW{1'b0}};
            rows_left  <= 16'd0;
            bytes_left <= 32'd0;
            first      <= 1'b0;
            off        <= {LOG_B{1'b0}};
        end else if (start) begin
            buf_q      <= {CAP{8'h00}};
            cnt        <= {CW{1'b0}};
            rows_left  <= (row_bytes == 32'd0) ? 16'd0 : nrows;
            bytes_left <= row_bytes;
            first      <= 1'b1;
            off        <= off0;
        end else begin
            if (accept) begin
                buf_q <= buf1 | (ins << {cnt1, 3'b000});
                cnt   <= cnt1 + nvalid[CW-1:0];
                if (bytes_next == 32'd0) begin
                    rows_left  <= rows_left - 16'd1;
                    bytes_left <= row_bytes;
                    first      <= 1'b1;
                    off        <= off + stride_lo;
                end else begin
                    bytes_left <= bytes_next;
                    first      <= 1'b0;
                end
            end else begin
                buf_q <= buf1;
                cnt   <= cnt1;
            end
        end
    end

    wire unused_nvalid = &{1'b0, nvalid[31:LOG_B+1]};
endmodule
`default_nettype wire
