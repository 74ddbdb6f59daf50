`default_nettype none
// Test-only liveness and fairness checker, bound next to the ordering checker by
// tb/rtl/vta_tb_top.v (so it runs in both testbench modes). The final DRAM cannot show a
// client that waited too long, an idle module that left its queue full, or a port that
// kept more bursts in flight than the design says: this checker can. It latches the first
// violation (rule, which client/queue/token, cycle, two values) for tb/rules/liveness.py,
// which owns the rule codes (LIVE_RULES; here LIVE_RULE_<RULE> of tb/rtl/vta_tb_codes.vh).
// The bounds come from the RTL (rtl/README.md, "Arbitration and liveness bounds"):
//   rule 1 ar-unfair        a read client waited (ARVALID, no grant) through more than
//                           NC-1 grants to the other clients: vta_rd_arb is round robin
//                           (which: fetch, load, compute = 0..2; grants, cycles waited)
//   rule 2 ar-withheld      a client requested while vta_rd_arb could grant (its AR
//                           register free, fewer than RD_OUTST bursts in its table) and no
//                           client was granted (which: lowest requester; requests, table)
//   rule 3 rd-outstanding   more than RD_OUTST read bursts in flight on the memory port
//                           (AR accepted, RLAST not yet) (bursts, limit)
//   rule 4 wr-ahead         more than WR_AHEAD write bursts accepted on AW whose last W
//                           beat has not been sent (vta_store's burst-length FIFO) (bursts, limit)
//   rule 5 wr-outstanding   more than WR_OUTST write bursts awaiting B (vta_store's 8-bit
//                           count) (bursts, limit)
//   rule 6 queue-stuck      a command queue held an instruction while its module was idle,
//                           more than QUEUE_WAIT cycles, without the module taking it
//                           (which: load, compute, store; occupancy, cycles)
//   rule 7 token-not-popped a module in its pop phase owed a token whose counter was
//                           non-zero, more than TOKEN_WAIT cycles, without popping it
//                           (which: L2C, C2L, C2S, S2C = 0..3; count, cycles)
//   rule 8 token-not-pushed a module in its push phase owed a token whose counter had room,
//                           more than TOKEN_WAIT cycles, without pushing it (count, cycles)
//   rule 9 acc-port-conflict the accumulator/OUT write port was written by compute's LOAD
//                           engine and its GEMM/ALU stage in the same cycle (one write lost)
//   rule 10 fetch-credit    fetch's credit gate (vta_fetch): a burst is requested exactly when
//                           its beat buffer can hold FETCH_BURST more beats besides those
//                           buffered, in flight and presented. which 0: beats left to
//                           request, the AR register free and that room, yet no request in
//                           the next cycle (beats buffered + in flight + presented, beats
//                           left); which 1: more beats buffered and in flight than the
//                           buffer holds (beats, FETCH_BEATS). The checker counts the beats
//                           itself from the program's size and fetch's grants and R beats.
// It also keeps figures of the contention it saw (the longest wait and the most grants to
// others of each read client, the most read bursts in flight, write bursts ahead of W and
// awaiting B), so the tests can show each bound was reached and never exceeded, and the
// longest time a read beat waited for the DUT's RREADY: the shared R channel is in order,
// so that is how long every burst granted after it waits (bounded by the instruction that
// holds it, not by the arbiter; rtl/README.md).
// Everything is cleared by `launch` (an accepted START) and by reset.
module vta_tb_live_check #(
    parameter integer NC          = 3,    // vta_rd_arb's clients
    parameter integer RD_OUTST    = 8,    // vta_rd_arb's OUTST
    parameter integer WR_AHEAD    = 8,    // depth of vta_store's burst-length FIFO
    parameter integer WR_OUTST    = 255,  // vta_store's response count saturates below 256
    parameter integer TOKEN_DEPTH = 8,
    parameter integer QUEUE_WAIT  = 0,    // vta_phase takes the head in its first idle cycle
    parameter integer TOKEN_WAIT  = 0,    // ... and pops/pushes as soon as the counter allows
    parameter integer LOG_B       = 3,    // log2 of the bus width in bytes
    parameter integer FETCH_BURST = 16,   // vta_fetch's burst (beats) and beat buffer
    parameter integer FETCH_BEATS = 32
) (
    input  wire           clk,
    input  wire           rst_n,
    input  wire           launch,
    input  wire [63:0]    cycle,
    // vta_rd_arb (inside the DUT): client requests and grants, its AR register, its table
    input  wire [NC-1:0]  arb_req,       // c_arvalid
    input  wire [NC-1:0]  arb_gnt,       // c_arready (a grant: the burst enters the table)
    input  wire           arb_arvalid,   // the DUT's ARVALID (before the fault injector)
    input  wire           arb_arready,
    input  wire           arb_rlast,     // RVALID & RREADY & RLAST at the DUT: a burst leaves
    // the memory port (after the fault injector)
    input  wire           aw_fire,
    input  wire           wlast_fire,
    input  wire           b_fire,
    input  wire           ar_fire,
    input  wire           rlast_fire,
    input  wire           r_held,        // RVALID & !RREADY: a read beat waits for the DUT
    // command queues and modules (load, compute, store)
    input  wire [23:0]    q_count,       // 8 bits each
    input  wire [2:0]     q_pop,
    input  wire [2:0]     q_pop_prev,    // flags of the instruction popped this cycle
    input  wire [2:0]     q_pop_next,
    input  wire [2:0]     q_push_prev,
    input  wire [2:0]     q_push_next,
    input  wire [8:0]     phase,         // status[3:1] per module: 0 idle 1 pop 2 exec 3 push
    // token counters L2C C2L C2S S2C (bit 0 = L2C)
    input  wire [3:0]     tok_push,
    input  wire [3:0]     tok_pop,
    input  wire [31:0]    tok_count,
    // fetch: the program's place and size, its AR length (arb_req/arb_gnt bit 0 are its
    // request and grant), its R beats and the beats its buffer holds (FETCH_STATUS[15:8])
    input  wire [LOG_B-1:0] insn_off,    // INSN_ADDR's offset in its bus beat
    input  wire [27:0]    insn_count,      // INSN_COUNT (16-byte instructions)
    input  wire [7:0]     f_arlen,
    input  wire           f_rbeat,
    input  wire [7:0]     f_buffered,
    // compute's accumulator/OUT write port
    input  wire           acc_load_we,
    input  wire           acc_pipe_we,
    output reg            violation,
    output reg  [3:0]     rule,
    output reg  [2:0]     which,
    output reg  [63:0]    vcycle,
    output reg  [31:0]    value0,
    output reg  [31:0]    value1,
    output reg  [NC*8-1:0]  others_max,  // per client: most grants to others in one wait
    output reg  [NC*32-1:0] wait_max,    // per client: longest wait in cycles
    output reg  [31:0]    rd_max,
    output reg  [31:0]    wr_ahead_max,
    output reg  [31:0]    wr_out_max,
    output reg  [31:0]    r_held_max     // longest run of cycles a read beat waited for RREADY
);
    // the rule codes (LIVE_RULE_*), generated from tb/rules/liveness.py (LIVE_RULES)
`include "vta_tb_codes.vh"
    localparam [2:0] PH_IDLE = 3'd0, PH_POP = 3'd1, PH_PUSH = 3'd3;
    localparam [7:0] TD = TOKEN_DEPTH[7:0];
    localparam [31:0] FAIR32 = NC - 1;     // grants to others a waiting client may see
    localparam [7:0]  FAIR = FAIR32[7:0];

    // Token t's consumer and producer (module 0 load, 1 compute, 2 store) and which flag of
    // their instruction names it (1: the prev side, 0: the next side):
    //   L2C: compute pops prev, load pushes next;   C2L: load pops next, compute pushes prev;
    //   C2S: store pops prev, compute pushes next;  S2C: compute pops next, store pushes prev.
    function automatic integer consumer(input integer t); consumer = (t == 1) ? 0 : (t == 2) ? 2 : 1; endfunction
    function automatic integer producer(input integer t); producer = (t == 0) ? 0 : (t == 3) ? 2 : 1; endfunction
    function automatic pops_prev(input integer t);  pops_prev  = (t == 0) || (t == 2); endfunction
    function automatic pushes_prev(input integer t); pushes_prev = (t == 1) || (t == 3); endfunction

    reg [31:0] table_n;                   // bursts granted by vta_rd_arb, not yet drained
    reg [31:0] rd_n, wr_ahead_n, wr_out_n, r_held_n;
    reg [7:0]  others [0:NC-1];
    reg [31:0] waited [0:NC-1];
    reg [31:0] q_wait [0:2];
    reg [31:0] pop_wait [0:3];
    reg [31:0] push_wait [0:3];
    reg [3:0]  owe_pop, owe_push;         // per token: the consumer's/producer's instruction names it
    reg [31:0] f_left;                    // fetch beats not yet granted (0 before the first launch)
    reg [31:0] f_flight;                  // fetch beats granted, not yet received
    reg        f_due;                     // fetch had credit, beats left and a free AR register
    reg [31:0] f_due_used;                // ... with these beats buffered + in flight + presented
    localparam [32:0] BM1 = (33'd1 << LOG_B) - 33'd1;
    localparam [31:0] FB32 = FETCH_BURST, FBEATS32 = FETCH_BEATS;
    // beats covering the program: its bytes from the first beat boundary, rounded up
    wire [32:0] f_span  = {1'b0, insn_count, 4'b0000} + {{(33-LOG_B){1'b0}}, insn_off} + BM1;
    wire [31:0] f_total = {{(LOG_B-1){1'b0}}, f_span[32:LOG_B]};
    wire [31:0] f_pend  = arb_req[0] ? {24'd0, f_arlen} + 32'd1 : 32'd0;
    wire [31:0] f_used  = {24'd0, f_buffered} + f_flight + f_pend;
    wire unused_span = &{1'b0, f_span[LOG_B-1:0]};

    // hit/h_*, n, nw, no, found, first are this cycle's scratch values: blocking assignments
    /* verilator lint_off BLKSEQ */
    reg        hit;
    reg [3:0]  h_rule;
    reg [2:0]  h_which;
    reg [31:0] h_v0, h_v1;
    task automatic flag(input [3:0] r, input [2:0] w, input [31:0] v0, input [31:0] v1);
        if (!hit) begin
            hit = 1'b1; h_rule = r; h_which = w; h_v0 = v0; h_v1 = v1;
        end
    endtask

    integer c, t, m;
    reg [31:0] n, nw;
    reg [7:0]  no;
    reg        found;
    reg [2:0]  first;
    always @(posedge clk) begin
        hit = 1'b0;
        if (!rst_n || launch) begin
            violation <= 1'b0;
            table_n <= 32'd0; rd_n <= 32'd0; wr_ahead_n <= 32'd0; wr_out_n <= 32'd0;
            for (c = 0; c < NC; c = c + 1) begin others[c] <= 8'd0; waited[c] <= 32'd0; end
            for (m = 0; m < 3; m = m + 1) q_wait[m] <= 32'd0;
            for (t = 0; t < 4; t = t + 1) begin pop_wait[t] <= 32'd0; push_wait[t] <= 32'd0; end
            owe_pop <= 4'd0; owe_push <= 4'd0;
            f_left <= launch ? f_total : 32'd0; f_flight <= 32'd0; f_due <= 1'b0; f_due_used <= 32'd0;
            others_max <= {NC*8{1'b0}}; wait_max <= {NC*32{1'b0}};
            rd_max <= 32'd0; wr_ahead_max <= 32'd0; wr_out_max <= 32'd0;
            r_held_n <= 32'd0; r_held_max <= 32'd0;
        end else begin
            // ---- read arbiter: round robin, work conserving ----
            for (c = 0; c < NC; c = c + 1) begin
                if (arb_req[c] && !arb_gnt[c]) begin
                    no = others[c] + {7'd0, |arb_gnt};
                    nw = waited[c] + 32'd1;
                    if (no > FAIR) flag(LIVE_RULE_AR_UNFAIR, c[2:0], {24'd0, no}, nw);
                    others[c] <= no;
                    waited[c] <= nw;
                    if (no > others_max[8*c +: 8]) others_max[8*c +: 8] <= no;
                    if (nw > wait_max[32*c +: 32]) wait_max[32*c +: 32] <= nw;
                end else begin
                    others[c] <= 8'd0;
                    waited[c] <= 32'd0;
                end
            end
            found = 1'b0;
            first = 3'd0;
            for (c = NC - 1; c >= 0; c = c - 1)
                if (arb_req[c]) begin found = 1'b1; first = c[2:0]; end
            if (found && !(|arb_gnt) && table_n < RD_OUTST && (!arb_arvalid || arb_arready))
                flag(LIVE_RULE_AR_WITHHELD, first, {{(32-NC){1'b0}}, arb_req}, table_n);
            table_n <= table_n + {31'd0, |arb_gnt} - {31'd0, arb_rlast};
            // ---- bursts in flight on the memory port ----
            n = rd_n + {31'd0, ar_fire} - {31'd0, rlast_fire};
            if ($signed(n) > RD_OUTST) flag(LIVE_RULE_RD_OUTSTANDING, 3'd0, n, RD_OUTST);
            if ($signed(n) > $signed(rd_max)) rd_max <= n;
            rd_n <= n;
            n = wr_ahead_n + {31'd0, aw_fire} - {31'd0, wlast_fire};
            if ($signed(n) > WR_AHEAD) flag(LIVE_RULE_WR_AHEAD, 3'd0, n, WR_AHEAD);
            if ($signed(n) > $signed(wr_ahead_max)) wr_ahead_max <= n;
            wr_ahead_n <= n;
            n = wr_out_n + {31'd0, aw_fire} - {31'd0, b_fire};
            if ($signed(n) > WR_OUTST) flag(LIVE_RULE_WR_OUTSTANDING, 3'd0, n, WR_OUTST);
            if ($signed(n) > $signed(wr_out_max)) wr_out_max <= n;
            wr_out_n <= n;
            n = r_held ? r_held_n + 32'd1 : 32'd0;
            if (n > r_held_max) r_held_max <= n;
            r_held_n <= n;
            // ---- command queues: an idle module takes its head ----
            for (m = 0; m < 3; m = m + 1) begin
                if (q_count[8*m +: 8] != 8'd0 && phase[3*m +: 3] == PH_IDLE && !q_pop[m]) begin
                    n = q_wait[m] + 32'd1;
                    if (n > QUEUE_WAIT) flag(LIVE_RULE_QUEUE_STUCK, m[2:0], {24'd0, q_count[8*m +: 8]}, n);
                    q_wait[m] <= n;
                end else begin
                    q_wait[m] <= 32'd0;
                end
            end
            // ---- token counters: an owed token is popped / pushed as soon as it can be ----
            for (t = 0; t < 4; t = t + 1) begin
                if (owe_pop[t] && phase[3*consumer(t) +: 3] == PH_POP && tok_count[8*t +: 8] != 8'd0
                    && !tok_pop[t]) begin
                    n = pop_wait[t] + 32'd1;
                    if (n > TOKEN_WAIT) flag(LIVE_RULE_TOKEN_NOT_POPPED, t[2:0], {24'd0, tok_count[8*t +: 8]}, n);
                    pop_wait[t] <= n;
                end else begin
                    pop_wait[t] <= 32'd0;
                end
                if (owe_push[t] && phase[3*producer(t) +: 3] == PH_PUSH && tok_count[8*t +: 8] != TD
                    && !tok_push[t]) begin
                    n = push_wait[t] + 32'd1;
                    if (n > TOKEN_WAIT) flag(LIVE_RULE_TOKEN_NOT_PUSHED, t[2:0], {24'd0, tok_count[8*t +: 8]}, n);
                    push_wait[t] <= n;
                end else begin
                    push_wait[t] <= 32'd0;
                end
                if (q_pop[consumer(t)])
                    owe_pop[t] <= pops_prev(t) ? q_pop_prev[consumer(t)] : q_pop_next[consumer(t)];
                else if (tok_pop[t])
                    owe_pop[t] <= 1'b0;
                if (q_pop[producer(t)])
                    owe_push[t] <= pushes_prev(t) ? q_push_prev[producer(t)] : q_push_next[producer(t)];
                else if (tok_push[t])
                    owe_push[t] <= 1'b0;
            end
            // ---- fetch requests a burst exactly when its beat buffer has room for it ----
            if (f_due && !arb_req[0]) flag(LIVE_RULE_FETCH_CREDIT, 3'd0, f_due_used, f_left);
            n = f_flight + ((arb_req[0] && arb_gnt[0]) ? f_pend : 32'd0) - {31'd0, f_rbeat};
            if ({24'd0, f_buffered} + n > FBEATS32) flag(LIVE_RULE_FETCH_CREDIT, 3'd1, {24'd0, f_buffered} + n, FBEATS32);
            f_flight <= n;
            f_due <= (f_left > f_pend) && (!arb_req[0] || arb_gnt[0]) && (f_used + FB32 <= FBEATS32);
            f_due_used <= f_used;
            if (arb_req[0] && arb_gnt[0]) f_left <= (f_left > f_pend) ? f_left - f_pend : 32'd0;
            // ---- the accumulator/OUT write port has one writer at a time ----
            if (acc_load_we && acc_pipe_we) flag(LIVE_RULE_ACC_PORT_CONFLICT, 3'd1, 32'd1, 32'd1);
            if (hit && !violation) begin
                violation <= 1'b1;
                rule <= h_rule; which <= h_which; vcycle <= cycle; value0 <= h_v0; value1 <= h_v1;
            end
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
`default_nettype wire
