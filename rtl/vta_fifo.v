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
    // the flags are registers kept equal to (cnt == DEPTH) and (cnt == 0), not compares of
    // cnt: the queues' full flags and the read arbiter's order table reach the fetch and
    // LOAD read handshakes (the fmax-critical paths, README "Timing")
    reg             full_q;
    reg             empty_q;

    wire do_push = push && !full;
    wire do_pop  = pop && !empty;
    wire up   = do_push && !do_pop;
    wire down = do_pop && !do_push;

    assign full  = full_q;
    assign empty = empty_q;
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
            full_q  <= 1'b0;
            empty_q <= 1'b1;
        end else begin
            if (do_push) wp <= (wp == LAST) ? {PW{1'b0}} : wp + 1'b1;
            if (do_pop)  rp <= (rp == LAST) ? {PW{1'b0}} : rp + 1'b1;
            if (up) cnt <= cnt + 8'd1;
            else if (down) cnt <= cnt - 8'd1;
            full_q  <= up ? (cnt == DEPTH8 - 8'd1) : (full_q && !down);
            empty_q <= down ? (cnt == 8'd1) : (empty_q && !up);
        end
    end
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_fifo) -------------------------------------------
    // Assumes: a reset in the first cycle. Guarantees: count within 0..DEPTH, the flags
    // are the count's, push/pop move the count by one (ignored when full/empty), and the
    // values leave in the order they entered.
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    always @(*) if (f_past) begin
        a_count_bound: assert(cnt <= DEPTH8);
        a_full_flag:   assert(full == (cnt == DEPTH8));
        a_empty_flag:  assert(empty == (cnt == 8'd0));
        // helper invariant: the pointers are DEPTH apart by the count
        h_ptr_count:   assert(wp <= LAST && rp <= LAST
                              && ({24'd0, cnt} == ((wp >= rp && !(wp == rp && cnt == DEPTH8))
                                                   ? {{(32-PW){1'b0}}, wp} - {{(32-PW){1'b0}}, rp}
                                                   : DEPTH32 + {{(32-PW){1'b0}}, wp} - {{(32-PW){1'b0}}, rp})));
    end
    always @(posedge clk) if (f_past && !$past(rst || clr)) begin
        a_count_step: assert(cnt == $past(cnt) + {7'd0, $past(do_push)} - {7'd0, $past(do_pop)});
    end
    always @(posedge clk) if (f_past && $past(rst || clr)) a_clear: assert(cnt == 8'd0);

    // order: one watched value, pushed at a time the solver picks, reaches the head
    // after exactly the pops of the values ahead of it, and leaves unchanged
    (* anyseq *) reg f_pick;
    reg             f_armed = 1'b0;
    reg [7:0]       f_ahead;
    reg [WIDTH-1:0] f_value;
    always @(posedge clk) begin
        if (rst || clr) f_armed <= 1'b0;
        else if (!f_armed && do_push && f_pick && !(do_pop && cnt == 8'd0)) begin
            f_armed <= 1'b1;
            f_ahead <= cnt - {7'd0, do_pop};
            f_value <= din;
        end else if (f_armed && do_pop) begin
            if (f_ahead == 8'd0) f_armed <= 1'b0;
            else f_ahead <= f_ahead - 8'd1;
        end
    end
    wire [31:0] f_sum  = {{(32-PW){1'b0}}, rp} + {24'd0, f_ahead};
    wire [31:0] f_slot = (f_sum > LAST32) ? f_sum - DEPTH32 : f_sum;
    always @(*) if (f_past && f_armed) begin
        h_watch_in_fifo: assert(f_ahead < cnt);
        h_watch_slot:    assert(mem[f_slot[PW-1:0]] == f_value);
        if (f_ahead == 8'd0) a_order: assert(dout == f_value);
    end
    always @(posedge clk) if (f_past) begin
        c_full:  cover(full);
        c_order: cover(f_armed && f_ahead == 8'd0 && do_pop && DEPTH > 1 && $past(f_ahead) != 8'd0);
    end
`endif
endmodule
`default_nettype wire
