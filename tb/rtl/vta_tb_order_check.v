`default_nettype none
// Test-only ordering checker, bound to vta_top's command queues, token counters, module
// status words and AXI handshakes by tb/rtl/vta_tb_top.v (so it runs in both testbench
// modes). It checks what a comparison of the final DRAM cannot see and latches the first
// violation (rule, which queue or module, cycle, two values) for tb/rules/ordering.py, which
// owns the rule codes (ORDER_RULES; here ORDER_RULE_<RULE> of tb/rtl/vta_tb_codes.vh):
//   rule 1 done-early     DONE rose while a write response or read data was outstanding
//   rule 2 token-lost     a token counter differs from its pushes minus pops (which: L2C,
//                         C2L, C2S, S2C = 0..3)
//   rule 3 early-exec     a module started executing an instruction before popping every
//                         token the instruction names (which: load, compute, store = 0..2)
//   rule 4 queue-lost     a command queue's occupancy differs from its pushes minus pops
//   rule 5 over-capacity  a token counter holds more than TOKEN_DEPTH tokens (which: 0..3)
//                         or a command queue more than CMD_DEPTH entries (which: 4..6)
// It also records, per token counter and command queue, whether it reached full capacity
// and whether its producer then waited (module status "waits for room"; fetch blocked by
// a full queue): the tests check that some program drives every one of them to full.
// And, per token counter, at which counts a pop met a push in the same cycle (the push
// accepted, or waiting for room at the capacity): bit c of tok_pushpop[32*t +: 32] is
// count c, so the push-pop flow (tb/sweep_programs.py: push_pop) can show every count from
// 1 to the capacity reached.
// Everything is cleared by `launch` (an accepted START) and by reset.
module vta_tb_order_check #(
    parameter integer TOKEN_DEPTH = 8,
    parameter integer CMD_DEPTH   = 8
) (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        launch,
    input  wire        done,
    input  wire [63:0] cycle,
    input  wire        aw_fire,
    input  wire        b_fire,
    input  wire        ar_fire,
    input  wire        rlast_fire,
    input  wire [3:0]  tok_push,      // accepted pushes, L2C C2L C2S S2C (bit 0 = L2C)
    input  wire [3:0]  tok_pop,       // accepted pops
    input  wire [31:0] tok_count,     // 8 bits each
    input  wire [3:0]  tok_wait,      // the producer waits for room
    input  wire [2:0]  q_push,        // accepted pushes, load compute store
    input  wire [2:0]  q_pop,
    input  wire [23:0] q_count,
    input  wire        fetch_blocked,
    input  wire [2:0]  q_pop_prev,    // pop_prev_dep / pop_next_dep of the instruction popped
    input  wire [2:0]  q_pop_next,
    input  wire [8:0]  phase,         // status[3:1] per module
    output reg         violation,
    output reg  [3:0]  rule,
    output reg  [2:0]  which,
    output reg  [63:0] vcycle,
    output reg  [31:0] value0,
    output reg  [31:0] value1,
    output reg  [3:0]  tok_full,
    output reg  [3:0]  tok_stalled,
    output reg  [2:0]  q_full,
    output reg  [2:0]  q_stalled,
    output reg  [127:0] tok_pushpop
);
    // the rule codes (ORDER_RULE_*), generated from tb/rules/ordering.py (ORDER_RULES)
`include "vta_tb_codes.vh"
    localparam [7:0] TD = TOKEN_DEPTH[7:0];
    localparam [7:0] QD = CMD_DEPTH[7:0];
    localparam [2:0] EXEC = 3'd2;

    reg [31:0] writes, reads;                                // outstanding bursts
    reg [7:0]  tok_shadow [0:3];
    reg [7:0]  q_shadow   [0:2];
    reg        done_q;
    reg [8:0]  phase_q;
    // per module: the instruction's pops still owed, prev side / next side
    reg [2:0]  owe_prev, owe_next;

    // which queue each module pops on each side (load: next C2L; compute: prev L2C, next
    // S2C; store: prev C2S), and whether the module has that side at all
    function automatic [1:0] prev_q(input integer m); prev_q = (m == 1) ? 2'd0 : 2'd2; endfunction
    function automatic [1:0] next_q(input integer m); next_q = (m == 0) ? 2'd1 : 2'd3; endfunction
    function automatic has_prev(input integer m); has_prev = m != 0; endfunction
    function automatic has_next(input integer m); has_next = m != 2; endfunction

    reg        hit;
    reg [3:0]  h_rule;
    reg [2:0]  h_which;
    reg [31:0] h_v0, h_v1;
    task automatic flag(input [3:0] r, input [2:0] w, input [31:0] v0, input [31:0] v1);
        if (!hit) begin
            hit = 1'b1; h_rule = r; h_which = w; h_v0 = v0; h_v1 = v1;
        end
    endtask

    integer t, m;
    reg [7:0] nt;
    reg [2:0] op, on;
    /* verilator lint_off BLKSEQ */  // hit/h_*, nt, op/on: this cycle's scratch values
    always @(posedge clk) begin
        hit = 1'b0;
        if (!rst_n || launch) begin
            violation <= 1'b0;
            writes <= 32'd0; reads <= 32'd0;
            for (t = 0; t < 4; t = t + 1) tok_shadow[t] <= 8'd0;
            for (t = 0; t < 3; t = t + 1) q_shadow[t] <= 8'd0;
            done_q <= 1'b0; phase_q <= 9'd0; owe_prev <= 3'd0; owe_next <= 3'd0;
            tok_full <= 4'd0; tok_stalled <= 4'd0; q_full <= 3'd0; q_stalled <= 3'd0;
            tok_pushpop <= 128'd0;
        end else begin
            writes <= writes + {31'd0, aw_fire} - {31'd0, b_fire};
            reads  <= reads + {31'd0, ar_fire} - {31'd0, rlast_fire};
            done_q <= done;
            if (done && !done_q && (writes != 32'd0 || reads != 32'd0))
                flag(ORDER_RULE_DONE_EARLY, 3'd0, writes, reads);
            for (t = 0; t < 4; t = t + 1) begin
                if (tok_count[8*t +: 8] != tok_shadow[t]) flag(ORDER_RULE_TOKEN_LOST, t[2:0], {24'd0, tok_shadow[t]}, {24'd0, tok_count[8*t +: 8]});
                nt = tok_shadow[t] + {7'd0, tok_push[t]} - {7'd0, tok_pop[t]};
                tok_shadow[t] <= nt;
                if (tok_count[8*t +: 8] == TD) tok_full[t] <= 1'b1;
                if (tok_count[8*t +: 8] == TD && tok_wait[t]) tok_stalled[t] <= 1'b1;
                if (tok_count[8*t +: 8] > TD) flag(ORDER_RULE_OVER_CAPACITY, t[2:0], {24'd0, tok_count[8*t +: 8]}, {24'd0, TD});
                if (tok_pop[t] && (tok_push[t] || tok_wait[t]) && tok_count[8*t +: 8] < 8'd32)
                    tok_pushpop[32*t + {27'd0, tok_count[8*t +: 5]}] <= 1'b1;
            end
            for (t = 0; t < 3; t = t + 1) begin
                if (q_count[8*t +: 8] != q_shadow[t]) flag(ORDER_RULE_QUEUE_LOST, t[2:0], {24'd0, q_shadow[t]}, {24'd0, q_count[8*t +: 8]});
                q_shadow[t] <= q_shadow[t] + {7'd0, q_push[t]} - {7'd0, q_pop[t]};
                if (q_count[8*t +: 8] == QD) q_full[t] <= 1'b1;
                if (q_count[8*t +: 8] == QD && fetch_blocked) q_stalled[t] <= 1'b1;
                if (q_count[8*t +: 8] > QD) flag(ORDER_RULE_OVER_CAPACITY, t[2:0] + 3'd4, {24'd0, q_count[8*t +: 8]}, {24'd0, QD});
            end
            op = owe_prev;
            on = owe_next;
            for (m = 0; m < 3; m = m + 1) begin
                if (q_pop[m]) begin
                    op[m] = q_pop_prev[m] && has_prev(m);
                    on[m] = q_pop_next[m] && has_next(m);
                end
                if (has_prev(m) && tok_pop[prev_q(m)]) op[m] = 1'b0;
                if (has_next(m) && tok_pop[next_q(m)]) on[m] = 1'b0;
                if (phase[3*m +: 3] == EXEC && phase_q[3*m +: 3] != EXEC && (op[m] || on[m]))
                    flag(ORDER_RULE_EARLY_EXEC, m[2:0], {31'd0, op[m]}, {31'd0, on[m]});
            end
            owe_prev <= op;
            owe_next <= on;
            phase_q <= phase;
            if (hit && !violation) begin
                violation <= 1'b1;
                rule <= h_rule; which <= h_which; vcycle <= cycle; value0 <= h_v0; value1 <= h_v1;
            end
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
`default_nettype wire
