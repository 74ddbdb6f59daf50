`default_nettype none
// Synchronous FIFO of any depth 1..255 with a combinational head (dout valid
// whenever !empty). push while full and pop while empty are ignored.
module vta_fifo #(
    parameter integer WIDTH = 8,
    parameter integer DEPTH = 4
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             clr,
    input  wire             push,
    input  wire [WIDTH-1:0] din,
    output wire             full,
    input  wire             pop,
    output wire [WIDTH-1:0] dout,
    output wire             empty,
    output wire [7:0]       count
);
    localparam integer PW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam [31:0]   LAST32  = DEPTH - 1;
    localparam [31:0]   DEPTH32 = DEPTH;
    localparam [PW-1:0] LAST    = LAST32[PW-1:0];
    localparam [7:0]    DEPTH8  = DEPTH32[7:0];

    reg [WIDTH-1:0] mem [0:DEPTH-1];
    reg [PW-1:0]    wp;
    reg [PW-1:0]    rp;
    reg [7:0]       cnt;

    wire do_push = push && !full;
    wire do_pop  = pop && !empty;

    assign full  = (cnt == DEPTH8);
    assign empty = (cnt == 8'd0);
    assign count = cnt;
    assign dout  = mem[rp];

    always @(posedge clk) begin
        if (do_push) mem[wp] <= din;
    end

    always @(posedge clk) begin
        if (rst || clr) begin
            wp  <= {PW{1'b0}};
            rp  <= {PW{1'b0}};
            cnt <= 8'd0;
        end else begin
            if (do_push) wp <= (wp == LAST) ? {PW{1'b0}} : wp + 1'b1;
            if (do_pop)  rp <= (rp == LAST) ? {PW{1'b0}} : rp + 1'b1;
            if (do_push && !do_pop) cnt <= cnt + 8'd1;
            else if (do_pop && !do_push) cnt <= cnt - 8'd1;
        end
    end
endmodule
`default_nettype wire
