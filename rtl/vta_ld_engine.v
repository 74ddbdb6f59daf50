`default_nettype none
// LOAD engine shared by the load and compute modules (spec section 3, LOAD).
// Requests the y_size DRAM rows of x_size elements of 2^lesz bytes starting at
// byte address base + dram_base*2^lesz with a row pitch of x_stride elements,
// realigns them, and writes the padded tile to SRAM sequentially from
// sram_base: y_pad_0 zero rows, then per row x_pad_0 zeros, the x_size
// elements and x_pad_1 zeros, then y_pad_1 zero rows. x_size == 0 is a no-op.
// One SRAM write per cycle; busy stays high until the last write is issued.
module vta_ld_engine #(
    parameter integer LOG_B    = 3,
    parameter integer LOG_EMAX = 4
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     start,
    input  wire [31:0]              base,
    input  wire [3:0]               lesz,
    input  wire [15:0]              sram_base,
    input  wire [31:0]              dram_base,
    input  wire [15:0]              y_size,
    input  wire [15:0]              x_size,
    input  wire [15:0]              x_stride,
    input  wire [3:0]               y_pad_0,
    input  wire [3:0]               y_pad_1,
    input  wire [3:0]               x_pad_0,
    input  wire [3:0]               x_pad_1,
    // AXI read client
    output wire                     ar_valid,
    input  wire                     ar_ready,
    output wire [31:0]              ar_addr,
    output wire [7:0]               ar_len,
    input  wire                     r_valid,
    output wire                     r_ready,
    input  wire [(8<<LOG_B)-1:0]    r_data,
    // SRAM write
    output reg                      we,
    output reg  [15:0]              waddr,
    output reg  [(8<<LOG_EMAX)-1:0] wdata,
    output wire                     busy
);
    localparam integer EBITS = 8 << LOG_EMAX;

    wire [31:0] addr0        = base + (dram_base << lesz);
    wire [31:0] row_bytes    = {16'd0, x_size} << lesz;
    wire [31:0] stride_bytes = {16'd0, x_stride} << lesz;
    wire [15:0] nrows        = (x_size == 16'd0) ? 16'd0 : y_size;

    wire gen_busy;
    wire unp_busy;
    wire el_valid;
    wire el_ready;
    wire [EBITS-1:0] el_data;

    vta_burst_gen #(.LOG_B(LOG_B), .MAXB(256)) u_gen (
        .clk(clk), .rst(rst), .start(start),
        .addr0(addr0), .row_bytes(row_bytes), .stride_bytes(stride_bytes), .nrows(nrows),
        .allow(1'b1),
        .req_valid(ar_valid), .req_ready(ar_ready), .req_addr(ar_addr), .req_len(ar_len),
        .busy(gen_busy)
    );

    vta_unpack #(.LOG_B(LOG_B), .LOG_EMAX(LOG_EMAX)) u_unp (
        .clk(clk), .rst(rst), .start(start),
        .off0(addr0[LOG_B-1:0]), .stride_lo(stride_bytes[LOG_B-1:0]),
        .row_bytes(row_bytes), .nrows(nrows), .lesz(lesz),
        .in_valid(r_valid), .in_ready(r_ready), .in_data(r_data),
        .out_valid(el_valid), .out_ready(el_ready), .out_data(el_data),
        .busy(unp_busy)
    );

    // ---- SRAM writer: walks the padded tile in order ----
    reg        wact;
    reg [16:0] yy;
    reg [16:0] xx;
    reg [16:0] ylast;     // Y - 1
    reg [16:0] xlast;     // X - 1
    reg [16:0] ydat_lo;   // first data row
    reg [16:0] ydat_hi;   // one past the last data row
    reg [16:0] xdat_lo;
    reg [16:0] xdat_hi;

    wire at_data = (yy >= ydat_lo) && (yy < ydat_hi) && (xx >= xdat_lo) && (xx < xdat_hi);
    assign el_ready = wact && at_data;
    wire step = wact && (!at_data || el_valid);

    wire [16:0] ysum = {13'd0, y_pad_0} + {1'b0, y_size} + {13'd0, y_pad_1};
    wire [16:0] xsum = {13'd0, x_pad_0} + {1'b0, x_size} + {13'd0, x_pad_1};

`ifdef VTA_TEST_BREAK_PAD_ONLY_IDLE
    // test-only breakage (rtl/README.md): a LOAD without data rows (y_size 0, pads only)
    // reports idle while its padding rows are still being written
    assign busy = gen_busy || unp_busy || (wact && (ydat_hi != ydat_lo)) || we;
`else
    assign busy = gen_busy || unp_busy || wact || we;
`endif

    always @(posedge clk) begin
        if (rst) begin
            wact    <= 1'b0;
            yy      <= 17'd0;
            xx      <= 17'd0;
            ylast   <= 17'd0;
            xlast   <= 17'd0;
            ydat_lo <= 17'd0;
            ydat_hi <= 17'd0;
            xdat_lo <= 17'd0;
            xdat_hi <= 17'd0;
            we      <= 1'b0;
            waddr   <= 16'd0;
            wdata   <= {EBITS{1'b0}};
        end else if (start) begin
            wact    <= (x_size != 16'd0) && (ysum != 17'd0);  // Y = 0: nothing to write
            yy      <= 17'd0;
            xx      <= 17'd0;
            ylast   <= ysum - 17'd1;
            xlast   <= xsum - 17'd1;
            ydat_lo <= {13'd0, y_pad_0};
            ydat_hi <= {13'd0, y_pad_0} + {1'b0, y_size};
            xdat_lo <= {13'd0, x_pad_0};
            xdat_hi <= {13'd0, x_pad_0} + {1'b0, x_size};
            we      <= 1'b0;
            waddr   <= sram_base - 16'd1;
        end else begin
            we <= step;
            if (step) begin
                waddr <= waddr + 16'd1;
                wdata <= at_data ? el_data : {EBITS{1'b0}};
                if (xx == xlast) begin
                    xx <= 17'd0;
                    yy <= yy + 17'd1;
                    if (yy == ylast) wact <= 1'b0;
                end else begin
                    xx <= xx + 17'd1;
                end
            end
        end
    end
endmodule
`default_nettype wire
