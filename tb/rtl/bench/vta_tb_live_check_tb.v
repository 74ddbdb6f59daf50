`default_nettype none
`timescale 1ns / 1ps
// Test-only stimulus for the liveness checker (tb/rtl/vta_tb_live_check.v) on its own, with
// small limits (2 read bursts, 2 writes ahead of W, 3 awaiting B, token depth 2, fetch bursts
// of 2 beats into a 4-beat buffer on an 8-byte bus): one
// scenario per rule plus a clean one that reaches every bound without breaking it, each
// after a reset; prints "SCENARIO <name> <violation> <rule> <which>" and, for the clean
// one, "FIGURES <most grants to others> <longest wait> <reads> <ahead> <awaiting B>" for
// tb/tests/test_liveness.py.
module vta_tb_live_check_tb;
    reg         clk = 1'b0;
    reg         rst_n = 1'b0;
    reg  [63:0] cycle = 64'd0;
    reg  [2:0]  req = 3'd0, gnt = 3'd0;
    reg         arvalid = 1'b0, arready = 1'b0, arb_rlast = 1'b0;
    reg         aw_fire = 1'b0, wlast_fire = 1'b0, b_fire = 1'b0, ar_fire = 1'b0, rlast_fire = 1'b0;
    reg  [23:0] q_count = 24'd0;
    reg  [2:0]  q_pop = 3'd0, pop_prev = 3'd0, pop_next = 3'd0, push_prev = 3'd0, push_next = 3'd0;
    reg  [8:0]  phase = 9'd0;
    reg  [3:0]  tok_push = 4'd0, tok_pop = 4'd0;
    reg  [31:0] tok_count = 32'd0;
    reg         acc_load_we = 1'b0, acc_pipe_we = 1'b0;
    reg         launch = 1'b0, f_rbeat = 1'b0;
    reg  [7:0]  f_arlen = 8'd0;
    wire        violation;
    wire [3:0]  rule;
    wire [2:0]  which;
    wire [23:0] others_max;
    wire [95:0] wait_max;
    wire [31:0] rd_max, wr_ahead_max, wr_out_max;

    always #5 clk = ~clk;
    always @(posedge clk) cycle <= cycle + 64'd1;

    vta_tb_live_check #(.NC(3), .RD_OUTST(2), .WR_AHEAD(2), .WR_OUTST(3), .TOKEN_DEPTH(2),
                        .LOG_B(3), .FETCH_BURST(2), .FETCH_BEATS(4)) u (
        .clk(clk), .rst_n(rst_n), .launch(launch), .cycle(cycle),
        .arb_req(req), .arb_gnt(gnt), .arb_arvalid(arvalid), .arb_arready(arready),
        .arb_rlast(arb_rlast), .aw_fire(aw_fire), .wlast_fire(wlast_fire), .b_fire(b_fire),
        .ar_fire(ar_fire), .rlast_fire(rlast_fire), .r_held(1'b0), .q_count(q_count), .q_pop(q_pop),
        .q_pop_prev(pop_prev), .q_pop_next(pop_next), .q_push_prev(push_prev),
        .q_push_next(push_next), .phase(phase), .tok_push(tok_push), .tok_pop(tok_pop),
        .tok_count(tok_count), .insn_off(3'd0), .insn_count(28'd2), .f_arlen(f_arlen),
        .f_rbeat(f_rbeat), .f_buffered(8'd0), .acc_load_we(acc_load_we), .acc_pipe_we(acc_pipe_we),
        .violation(violation), .rule(rule), .which(which), .vcycle(), .value0(), .value1(),
        .others_max(others_max), .wait_max(wait_max), .rd_max(rd_max),
        .wr_ahead_max(wr_ahead_max), .wr_out_max(wr_out_max), .r_held_max()
    );

    task automatic restart;
        begin
            @(negedge clk) rst_n = 1'b0;
            {req, gnt, arvalid, arready, arb_rlast, aw_fire, wlast_fire, b_fire, ar_fire, rlast_fire} = 0;
            {q_count, q_pop, pop_prev, pop_next, push_prev, push_next, phase} = 0;
            {tok_push, tok_pop, tok_count, acc_load_we, acc_pipe_we, launch, f_rbeat, f_arlen} = 0;
            @(negedge clk) rst_n = 1'b1;
        end
    endtask

    task automatic quiet;  // every input back to "nothing happens"
        begin
            {req, gnt, arvalid, arready, arb_rlast, aw_fire, wlast_fire, b_fire, ar_fire, rlast_fire} = 0;
            {q_pop, pop_prev, pop_next, push_prev, push_next, tok_push, tok_pop} = 0;
            {acc_load_we, acc_pipe_we, launch, f_rbeat, f_arlen} = 0;
        end
    endtask

    task automatic report(input [8*17-1:0] name);
        begin
            @(negedge clk) quiet;
            @(negedge clk);
            $display("SCENARIO %0s %0d %0d %0d", name, violation, rule, which);
        end
    endtask

    initial begin
        // clean: a launch of two instructions (4 beats); fetch requests a 2-beat burst as soon
        // as the buffer has room, a second one in the next cycle (4 beats committed: no
        // third), then its beats arrive; then client 2 waits through two grants (0, then 1,
        // the round robin's bound) and gets the third; the table fills to its limit and
        // drains; two read bursts, two writes ahead of W, three awaiting B; compute takes
        // its queue's head at once, pops its L2C token, load pushes one
        restart;
        @(negedge clk) launch = 1'b1;
        @(negedge clk) launch = 1'b0;
        @(negedge clk) begin req = 3'b001; gnt = 3'b001; f_arlen = 8'd1; end
        @(negedge clk) begin req = 3'b001; gnt = 3'b001; f_arlen = 8'd1; end
        @(negedge clk) begin req = 3'b000; gnt = 3'b000; f_arlen = 8'd0; f_rbeat = 1'b1; end
        repeat (3) @(negedge clk) f_rbeat = 1'b1;
        @(negedge clk) f_rbeat = 1'b0;
        @(negedge clk) begin req = 3'b111; gnt = 3'b001; end
        @(negedge clk) begin req = 3'b110; gnt = 3'b010; arvalid = 1'b1; arready = 1'b1; end
        @(negedge clk) begin req = 3'b100; gnt = 3'b000; arb_rlast = 1'b1; end
        @(negedge clk) begin gnt = 3'b100; arb_rlast = 1'b0; end
        @(negedge clk) begin req = 3'b000; gnt = 3'b000; arvalid = 1'b0; ar_fire = 1'b1; end
        @(negedge clk) begin ar_fire = 1'b1; aw_fire = 1'b1; end
        @(negedge clk) begin ar_fire = 1'b0; rlast_fire = 1'b1; aw_fire = 1'b1; end
        @(negedge clk) begin rlast_fire = 1'b1; aw_fire = 1'b1; wlast_fire = 1'b1; end
        @(negedge clk) begin rlast_fire = 1'b0; aw_fire = 1'b0; wlast_fire = 1'b1; b_fire = 1'b1; end
        @(negedge clk) begin wlast_fire = 1'b1; b_fire = 1'b1; end
        @(negedge clk) begin wlast_fire = 1'b0; b_fire = 1'b1; end
        @(negedge clk) begin b_fire = 1'b0; q_count = 24'h000100; q_pop = 3'b010; pop_prev = 3'b010;
                             tok_count = 32'd1; end
        @(negedge clk) begin q_pop = 0; pop_prev = 0; q_count = 0; phase = 9'b000_001_000; tok_pop = 4'b0001; end
        @(negedge clk) begin tok_pop = 0; tok_count = 0; phase = 9'b000_010_000; q_count = 24'h000001;
                             q_pop = 3'b001; push_next = 3'b001; end
        @(negedge clk) begin q_pop = 0; push_next = 0; q_count = 0; phase = 9'b000_010_011;
                             tok_push = 4'b0001; acc_pipe_we = 1'b1; end
        @(negedge clk) begin tok_push = 0; phase = 0; acc_pipe_we = 1'b0; acc_load_we = 1'b1; end
        report("clean");
        $display("FIGURES %0d %0d %0d %0d %0d", others_max[23:16], wait_max[95:64], rd_max,
                 wr_ahead_max, wr_out_max);
        // ar-unfair: client 2 waits through three grants (0, 1, 0)
        restart;
        @(negedge clk) begin req = 3'b101; gnt = 3'b001; end
        @(negedge clk) begin req = 3'b110; gnt = 3'b010; end
        @(negedge clk) begin req = 3'b101; gnt = 3'b001; end
        report("ar-unfair");
        // ar-withheld: load requests, the AR register is free and the table empty, no grant
        restart;
        @(negedge clk) req = 3'b010;
        report("ar-withheld");
        // rd-outstanding: three read bursts accepted, none drained
        restart;
        @(negedge clk) ar_fire = 1'b1;
        @(negedge clk) ar_fire = 1'b1;
        @(negedge clk) ar_fire = 1'b1;
        report("rd-outstanding");
        // wr-ahead: three write addresses accepted before any last W beat
        restart;
        @(negedge clk) aw_fire = 1'b1;
        @(negedge clk) aw_fire = 1'b1;
        @(negedge clk) aw_fire = 1'b1;
        report("wr-ahead");
        // wr-outstanding: four write bursts sent in full, no B
        restart;
        repeat (4) @(negedge clk) begin aw_fire = 1'b1; wlast_fire = 1'b1; end
        report("wr-outstanding");
        // queue-stuck: the store queue holds an instruction, store idle, nothing taken
        restart;
        @(negedge clk) q_count = 24'h010000;
        report("queue-stuck");
        q_count = 0;
        // token-not-popped: compute takes an instruction popping S2C, S2C holds a token,
        // compute stays in its pop phase without popping
        restart;
        @(negedge clk) begin q_count = 24'h000100; q_pop = 3'b010; pop_next = 3'b010; tok_count = 32'h0100_0000; end
        @(negedge clk) begin q_pop = 0; pop_next = 0; q_count = 0; phase = 9'b000_001_000; end
        report("token-not-popped");
        phase = 0; tok_count = 0;
        // token-not-pushed: compute takes an instruction pushing C2L, C2L has room, compute
        // stays in its push phase without pushing
        restart;
        @(negedge clk) begin q_count = 24'h000100; q_pop = 3'b010; push_prev = 3'b010; end
        @(negedge clk) begin q_pop = 0; push_prev = 0; q_count = 0; phase = 9'b000_011_000; end
        report("token-not-pushed");
        phase = 0;
        // acc-port-conflict: LOAD engine and GEMM/ALU write-back in the same cycle
        restart;
        @(negedge clk) begin acc_load_we = 1'b1; acc_pipe_we = 1'b1; end
        report("acc-port-conflict");
        // fetch-credit: after a launch the buffer is empty and beats are left, fetch requests nothing
        restart;
        @(negedge clk) launch = 1'b1;
        @(negedge clk) launch = 1'b0;
        @(negedge clk);
        report("fetch-credit");
        // fetch-overcommit: a 5-beat burst granted to fetch, whose buffer holds 4
        restart;
        @(negedge clk) begin req = 3'b001; gnt = 3'b001; f_arlen = 8'd4; end
        report("fetch-overcommit");
        $finish;
    end
endmodule
`default_nettype wire
