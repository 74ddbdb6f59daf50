`default_nettype none
`timescale 1ns / 1ps
// Test-only stimulus for the ordering checker (tb/rtl/vta_tb_order_check.v) on its own:
// one scenario per rule plus a clean one, each after a reset; prints
// "SCENARIO <name> <violation> <rule> <which>" for tb/tests/test_ordering.py.
module vta_tb_order_check_tb;
    reg         clk = 1'b0;
    reg         rst_n = 1'b0;
    reg         launch = 1'b0, done = 1'b0;
    reg         aw_fire = 1'b0, b_fire = 1'b0, ar_fire = 1'b0, rlast_fire = 1'b0;
    reg  [3:0]  tok_push = 4'd0, tok_pop = 4'd0, tok_wait = 4'd0;
    reg  [31:0] tok_count = 32'd0;
    reg  [2:0]  q_push = 3'd0, q_pop = 3'd0, q_pop_prev = 3'd0, q_pop_next = 3'd0;
    reg  [23:0] q_count = 24'd0;
    reg         fetch_blocked = 1'b0;
    reg  [8:0]  phase = 9'd0;
    reg  [63:0] cycle = 64'd0;
    wire        violation;
    wire [3:0]  rule;
    wire [2:0]  which;

    always #5 clk = ~clk;
    always @(posedge clk) cycle <= cycle + 64'd1;

    vta_tb_order_check #(.TOKEN_DEPTH(2), .CMD_DEPTH(2)) u (
        .clk(clk), .rst_n(rst_n), .launch(launch), .done(done), .cycle(cycle),
        .aw_fire(aw_fire), .b_fire(b_fire), .ar_fire(ar_fire), .rlast_fire(rlast_fire),
        .tok_push(tok_push), .tok_pop(tok_pop), .tok_count(tok_count), .tok_wait(tok_wait),
        .q_push(q_push), .q_pop(q_pop), .q_count(q_count), .fetch_blocked(fetch_blocked),
        .q_pop_prev(q_pop_prev), .q_pop_next(q_pop_next), .phase(phase),
        .violation(violation), .rule(rule), .which(which), .vcycle(), .value0(), .value1(),
        .tok_full(), .tok_stalled(), .q_full(), .q_stalled(), .tok_pushpop()
    );

    task automatic restart;
        begin
            @(negedge clk) rst_n = 1'b0;
            {done, aw_fire, b_fire, tok_push, tok_pop, tok_count, q_push, q_pop, q_count, phase} = 0;
            {q_pop_prev, q_pop_next} = 0;
            @(negedge clk) rst_n = 1'b1;
        end
    endtask

    task automatic report(input [8*16-1:0] name);
        begin
            @(negedge clk);
            @(negedge clk);
            $display("SCENARIO %0s %0d %0d %0d", name, violation, rule, which);
        end
    endtask

    initial begin
        // clean: L2C push then count, compute takes an instruction popping L2C, pops, executes
        restart;
        @(negedge clk) begin tok_push = 4'b0001; q_push = 3'b010; end
        @(negedge clk) begin tok_push = 0; q_push = 0; tok_count = 32'd1; q_count = 24'h000100; end
        @(negedge clk) begin q_pop = 3'b010; q_pop_prev = 3'b010; end
        @(negedge clk) begin q_pop = 0; q_count = 0; tok_pop = 4'b0001; end
        @(negedge clk) begin tok_pop = 0; tok_count = 32'd0; phase = 9'b000_010_000; end
        report("clean");
        // done-early: a write burst accepted, DONE before its response
        restart;
        @(negedge clk) aw_fire = 1'b1;
        @(negedge clk) begin aw_fire = 1'b0; done = 1'b1; end
        report("done-early");
        // token-lost: a push the counter does not count
        restart;
        @(negedge clk) tok_push = 4'b0100;
        @(negedge clk) tok_push = 0;
        report("token-lost");
        // early-exec: compute takes an instruction popping L2C and executes without the pop
        restart;
        @(negedge clk) q_push = 3'b010;
        @(negedge clk) begin q_push = 0; q_count = 24'h000100; end
        @(negedge clk) begin q_pop = 3'b010; q_pop_prev = 3'b010; end
        @(negedge clk) begin q_pop = 0; q_count = 0; phase = 9'b000_010_000; end
        report("early-exec");
        // queue-lost: a push into the store queue that its occupancy does not show
        restart;
        @(negedge clk) q_push = 3'b100;
        @(negedge clk) q_push = 0;
        report("queue-lost");
        // over-capacity: the C2S counter goes from its capacity (2) to 3 on a push
        restart;
        @(negedge clk) tok_push = 4'b0100;
        @(negedge clk) begin tok_count = 32'h00010000; end
        @(negedge clk) begin tok_count = 32'h00020000; end
        @(negedge clk) begin tok_push = 0; tok_count = 32'h00030000; end
        report("over-capacity");
        $finish;
    end
endmodule
`default_nettype wire
