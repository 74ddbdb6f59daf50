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

`ifdef VTA_TEST_BREAK_TOKEN_FULL_EARLY
    // test-only breakage (rtl/README.md): full one token before the capacity
    assign can_push = (cnt < DEPTH8 - 8'd1);
`elsif VTA_TEST_BREAK_TOKEN_OVER_CAPACITY
    // test-only breakage (rtl/README.md): holds one token more than the capacity
    assign can_push = (cnt != DEPTH8 + 8'd1);
`else
    assign can_push = (cnt != DEPTH8);
`endif
    assign can_pop  = (cnt != 8'd0);
    assign count    = cnt;

    wire do_push = push && can_push;
    wire do_pop  = pop && can_pop;
`ifdef VTA_TEST_BREAK_TOKEN_CLEAR
    // test-only breakage (rtl/README.md): only a reset clears the counter, not a START
    wire cleared = rst;
    wire unused_clr = clr;
`else
    wire cleared = rst || clr;
`endif

    always @(posedge clk) begin
        if (cleared) cnt <= 8'd0;
`ifdef VTA_TEST_BREAK_TOKEN_PUSH_POP
        // test-only breakage (rtl/README.md): a push and a pop in one cycle lose the pop
        else if (do_push) cnt <= cnt + 8'd1;
        else if (do_pop) cnt <= cnt - 8'd1;
`else
        else if (do_push && !do_pop) cnt <= cnt + 8'd1;
        else if (do_pop && !do_push) cnt <= cnt - 8'd1;
`endif
    end
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_token) ------------------------------------------
    // Assumes: a reset in the first cycle. Guarantees: the count is pushes taken minus pops
    // taken since the last reset or START (no token lost or invented), never above DEPTH;
    // a push is taken whenever the count is below DEPTH, a pop whenever it is above 0.
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) m_reset: assume(rst);
    always @(*) if (f_past) begin
        a_capacity: assert(cnt <= DEPTH8);
        a_can_push: assert(can_push == (cnt < DEPTH8));
        a_can_pop:  assert(can_pop == (cnt != 8'd0));
    end
    always @(posedge clk) if (f_past) begin
        if ($past(rst || clr)) a_cleared: assert(cnt == 8'd0);
        else a_conserved: assert(cnt == $past(cnt) + {7'd0, $past(push && cnt < DEPTH8)}
                                                  - {7'd0, $past(pop && cnt != 8'd0)});
    end
    always @(posedge clk) if (f_past) begin
        c_full:       cover(cnt == DEPTH8);
        c_full_pop:   cover(cnt == DEPTH8 && push && pop);
        c_empty_push: cover(cnt == 8'd0 && push && pop);
    end
`endif
endmodule
`default_nettype wire
