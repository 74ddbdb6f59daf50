`default_nettype none
// Dependency-token queue (spec section 4) as a saturating counter of capacity
// DEPTH. The producer may push only while can_push (count < DEPTH) and waits
// otherwise, so no token is ever lost; the consumer pops only while can_pop.
module vta_token #(
    parameter integer DEPTH = 8
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       clr,
    input  wire       push,
    input  wire       pop,
    output wire       can_push,
    output wire       can_pop,
    output wire [7:0] count
);
    localparam [31:0] DEPTH32 = DEPTH;
    localparam [7:0] DEPTH8 = DEPTH32[7:0];
    reg [7:0] cnt;

    assign can_push = (cnt != DEPTH8);
    assign can_pop  = (cnt != 8'd0);
    assign count    = cnt;

    wire do_push = push && can_push;
    wire do_pop  = pop && can_pop;

    always @(posedge clk) begin
        if (rst || clr) cnt <= 8'd0;
        else if (do_push && !do_pop) cnt <= cnt + 8'd1;
        else if (do_pop && !do_push) cnt <= cnt - 8'd1;
    end
endmodule
`default_nettype wire
