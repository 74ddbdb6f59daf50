`default_nettype none
// Per-instruction phase machine of the load, compute and store modules (spec
// section 4; rtl/README.md "Queues, tokens and flow control"):
//   IDLE: take the head of the command queue (instruction + program index)
//   POP:  pop each named token as soon as its counter is non-zero, one at a
//         time; leave when none is pending (go: execution starts)
//   EXEC: wait until the module's engine reports !exec_busy
//   PUSH: push each named token as soon as its counter has room; leave when
//         none is pending (insn_done)
// "prev" tokens go to/come from the module before this one in the
// load -> compute -> store chain, "next" tokens the one after it. A module
// without that side (HAS_PREV / HAS_NEXT = 0: load has no prev, store no next)
// ignores the instruction's flags for it; its token inputs are then unused and
// its pop/push outputs stay 0.
module vta_phase #(
    parameter integer HAS_PREV = 1,
    parameter integer HAS_NEXT = 1
) (
    input  wire         clk,
    input  wire         rst,
    // command queue: {program index, instruction}
    input  wire         q_empty,
    output wire         q_pop,
    input  wire [159:0] q_data,
    // tokens
    input  wire         prev_can_pop,
    output wire         prev_pop,
    input  wire         next_can_pop,
    output wire         next_pop,
    input  wire         prev_can_push,
    output wire         prev_push,
    input  wire         next_can_push,
    output wire         next_push,
    // execution
    output wire         go,          // pops done: the engine starts this cycle
    input  wire         exec_busy,   // engine still busy (looked at in EXEC only)
    output wire [127:0] insn,        // instruction held until the module takes the next
    output wire         exec,        // in the EXEC phase
    // status
    input  wire [2:0]   status_sub,  // status bits [9:7] (memory type or ALU opcode)
    output wire         busy,
    output wire         stall,
    output wire         insn_done,
    output wire [14:0]  status,
    output wire [31:0]  insn_idx
);
`include "vta_isa.vh"
    localparam [1:0] PH_IDLE = 2'd0, PH_POP = 2'd1, PH_EXEC = 2'd2, PH_PUSH = 2'd3;

    reg [1:0]   phase;
    reg [127:0] insn_r;
    reg [31:0]  idx;
    reg         pend_pop_prev, pend_pop_next, pend_push_prev, pend_push_next;

    assign q_pop     = (phase == PH_IDLE) && !q_empty;
    assign prev_pop  = (phase == PH_POP) && pend_pop_prev && prev_can_pop;
    assign next_pop  = (phase == PH_POP) && pend_pop_next && next_can_pop;
    wire   pop_ok    = (!pend_pop_prev || prev_can_pop) && (!pend_pop_next || next_can_pop);
    assign go        = (phase == PH_POP) && pop_ok;
    assign prev_push = (phase == PH_PUSH) && pend_push_prev && prev_can_push;
    assign next_push = (phase == PH_PUSH) && pend_push_next && next_can_push;
    wire   push_ok   = (!pend_push_prev || prev_can_push) && (!pend_push_next || next_can_push);
`ifdef VTA_TEST_BREAK_LOAD_PUSH_DROP
    // test-only breakage (rtl/README.md): the load module (no prev side) leaves its push
    // phase at once, so a push into a full counter is dropped
    wire   leave_push = (HAS_PREV == 0) ? 1'b1 : push_ok;
`else
    wire   leave_push = push_ok;
`endif
    assign insn_done = (phase == PH_PUSH) && leave_push;

    always @(posedge clk) begin
        if (rst) begin
            phase          <= PH_IDLE;
            insn_r         <= 128'd0;
            idx            <= 32'd0;
            pend_pop_prev  <= 1'b0;
            pend_pop_next  <= 1'b0;
            pend_push_prev <= 1'b0;
            pend_push_next <= 1'b0;
        end else begin
            case (phase)
                PH_IDLE: if (!q_empty) begin
                    insn_r         <= q_data[127:0];
                    idx            <= q_data[159:128];
                    pend_pop_prev  <= (HAS_PREV != 0) && q_data[ISA_POP_PREV_DEP];
                    pend_pop_next  <= (HAS_NEXT != 0) && q_data[ISA_POP_NEXT_DEP];
                    pend_push_prev <= (HAS_PREV != 0) && q_data[ISA_PUSH_PREV_DEP];
                    pend_push_next <= (HAS_NEXT != 0) && q_data[ISA_PUSH_NEXT_DEP];
                    phase          <= PH_POP;
                end
                PH_POP: begin
                    if (prev_pop) pend_pop_prev <= 1'b0;
                    if (next_pop) pend_pop_next <= 1'b0;
                    if (pop_ok) phase <= PH_EXEC;
                end
                PH_EXEC: if (!exec_busy) phase <= PH_PUSH;
                default: begin
                    if (prev_push) pend_push_prev <= 1'b0;
                    if (next_push) pend_push_next <= 1'b0;
                    if (leave_push) phase <= PH_IDLE;
                end
            endcase
        end
    end

    assign insn     = insn_r;
    assign exec     = (phase == PH_EXEC);
    assign busy     = (phase != PH_IDLE);
    assign stall    = ((phase == PH_POP) && !pop_ok) || ((phase == PH_PUSH) && !push_ok);
    assign insn_idx = idx;
    // [0] busy, [3:1] phase (0 idle, 1 pop tokens, 2 execute, 3 push tokens),
    // [6:4] opcode, [9:7] status_sub, [10] waiting to pop prev, [11] waiting
    // to pop next, [12] waiting for room to push prev, [13] waiting for room
    // to push next, [14] executing (in EXEC with exec_busy)
    assign status = {exec && exec_busy,
                     (phase == PH_PUSH) && pend_push_next && !next_can_push,
                     (phase == PH_PUSH) && pend_push_prev && !prev_can_push,
                     (phase == PH_POP) && pend_pop_next && !next_can_pop,
                     (phase == PH_POP) && pend_pop_prev && !prev_can_pop,
                     status_sub, insn_r[ISA_OPCODE +: ISA_OPCODE_W], 1'b0, phase, busy};
endmodule
`default_nettype wire
