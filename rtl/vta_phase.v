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
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_phase) ------------------------------------------
    // Assumes: a reset in the first cycle; nothing else of its neighbours (the queue head,
    // the token counters' can_pop/can_push and the engine's exec_busy may do anything).
    // Guarantees, per instruction (spec section 4, rtl/README.md "Queues, tokens and flow
    // control"): the head of the command queue is taken only while no instruction is held
    // and at once when one is waiting; the instruction and its program index are the head's
    // and stay until the next is taken. It pops exactly the tokens its flags name on the
    // sides the module has (HAS_PREV/HAS_NEXT), once each, only while the counter is
    // non-zero and as soon as it is; `go` (the engine's start) comes once, with or after the
    // last pop; the engine's exec_busy is waited for after go; then it pushes exactly the
    // tokens its flags name, once each, only into a counter with room and as soon as it has
    // room; insn_done comes once, with or after the last push, and only then is the next
    // instruction taken. busy/stall/status[14:0] say the same, and every busy cycle is
    // exactly one of: a stall, an engine-busy cycle, go, the engine seen idle, insn_done
    // (the counter relation BUSY = STALL + EXEC + 3 x INSNS).
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    // where the held instruction is, from the interface alone
    reg f_hold = 1'b0;     // an instruction taken, insn_done not yet
    reg f_go   = 1'b0;     // its go has come
    reg f_exd  = 1'b0;     // the engine was seen idle after go (exec && !exec_busy)
    reg f_pp = 1'b0, f_pn = 1'b0, f_hp = 1'b0, f_hn = 1'b0;   // popped prev/next, pushed prev/next
    always @(posedge clk) begin
        if (rst) begin
            f_hold <= 1'b0; f_go <= 1'b0; f_exd <= 1'b0;
            f_pp <= 1'b0; f_pn <= 1'b0; f_hp <= 1'b0; f_hn <= 1'b0;
        end else if (q_pop) begin
            f_hold <= 1'b1; f_go <= 1'b0; f_exd <= 1'b0;
            f_pp <= 1'b0; f_pn <= 1'b0; f_hp <= 1'b0; f_hn <= 1'b0;
        end else begin
            if (go) f_go <= 1'b1;
            if (exec && !exec_busy) f_exd <= 1'b1;
            if (prev_pop)  f_pp <= 1'b1;
            if (next_pop)  f_pn <= 1'b1;
            if (prev_push) f_hp <= 1'b1;
            if (next_push) f_hn <= 1'b1;
            if (insn_done) f_hold <= 1'b0;
        end
    end
    // the tokens the held instruction asks for, on the sides the module has
    wire f_wpp = (HAS_PREV != 0) && insn[ISA_POP_PREV_DEP];
    wire f_wpn = (HAS_NEXT != 0) && insn[ISA_POP_NEXT_DEP];
    wire f_whp = (HAS_PREV != 0) && insn[ISA_PUSH_PREV_DEP];
    wire f_whn = (HAS_NEXT != 0) && insn[ISA_PUSH_NEXT_DEP];
    wire f_popping  = f_hold && !f_go;
    wire f_pushing  = f_hold && f_exd;
    wire f_pops_ok  = (!f_wpp || f_pp || prev_can_pop) && (!f_wpn || f_pn || next_can_pop);
    wire f_push_ok  = (!f_whp || f_hp || prev_can_push) && (!f_whn || f_hn || next_can_push);
    wire [1:0] f_phase = !f_hold ? 2'd0 : (!f_go ? 2'd1 : (!f_exd ? 2'd2 : 2'd3));

    always @(*) if (f_past && !rst) begin
        // the command queue
        a_take_idle:   assert(!q_pop || (!f_hold && !q_empty));
        a_take_eager:  assert(f_hold || q_empty || q_pop);
        // pops: only asked-for tokens, only when available, once, before go; as soon as possible
        a_pop_avail:   assert((!prev_pop || prev_can_pop) && (!next_pop || next_can_pop));
        a_pop_prev:    assert(!prev_pop || (f_popping && f_wpp && !f_pp));
        a_pop_next:    assert(!next_pop || (f_popping && f_wpn && !f_pn));
        a_pop_eager:   assert(!f_popping || ((prev_pop == (f_wpp && !f_pp && prev_can_pop))
                                              && (next_pop == (f_wpn && !f_pn && next_can_pop))));
        a_go:          assert(go == (f_popping && f_pops_ok));
        // execution: after go, until the engine is seen idle
        a_exec:        assert(exec == (f_hold && f_go && !f_exd));
        // pushes: only asked-for tokens, only with room, once, after the engine is done
        a_push_room:   assert((!prev_push || prev_can_push) && (!next_push || next_can_push));
        a_push_prev:   assert(!prev_push || (f_pushing && f_whp && !f_hp));
        a_push_next:   assert(!next_push || (f_pushing && f_whn && !f_hn));
        a_push_eager:  assert(!f_pushing || ((prev_push == (f_whp && !f_hp && prev_can_push))
                                             && (next_push == (f_whn && !f_hn && next_can_push))));
        a_done:        assert(insn_done == (f_pushing && f_push_ok));
        // status outputs
        a_busy:        assert(busy == f_hold);
        a_stall:       assert(stall == ((f_popping && !f_pops_ok) || (f_pushing && !f_push_ok)));
        a_status:      assert(status == {exec && exec_busy,
                                         f_pushing && f_whn && !f_hn && !next_can_push,
                                         f_pushing && f_whp && !f_hp && !prev_can_push,
                                         f_popping && f_wpn && !f_pn && !next_can_pop,
                                         f_popping && f_wpp && !f_pp && !prev_can_pop,
                                         status_sub, insn[ISA_OPCODE +: ISA_OPCODE_W],
                                         1'b0, f_phase, f_hold});
        a_busy_split:  assert({3'd0, stall} + {3'd0, exec && exec_busy} + {3'd0, go}
                              + {3'd0, exec && !exec_busy} + {3'd0, insn_done} == {3'd0, busy});
        // helper invariants: the phase register and pending flags are the interface's state
        h_phase:       assert(phase == f_phase);
        h_pend_pop:    assert(!f_popping || (pend_pop_prev == (f_wpp && !f_pp)
                                             && pend_pop_next == (f_wpn && !f_pn)));
        h_pend_push:   assert(!f_hold || (pend_push_prev == (f_whp && !f_hp)
                                          && pend_push_next == (f_whn && !f_hn)));
        h_popped:      assert(!f_hold || ((!f_pp || f_wpp) && (!f_pn || f_wpn)
                                          && (!f_go || (f_pp == f_wpp && f_pn == f_wpn))));
        h_pushed:      assert(!f_hold || ((!f_hp || (f_whp && f_exd)) && (!f_hn || (f_whn && f_exd))));
        h_exd:         assert(!f_exd || f_go);
    end
    // the instruction and its program index: the head taken, held until the next is taken
    always @(posedge clk) if (f_past && !$past(rst)) begin
        if ($past(q_pop)) a_insn_taken: assert(insn == $past(q_data[127:0]) && insn_idx == $past(q_data[159:128]));
        else a_insn_held: assert(insn == $past(insn) && insn_idx == $past(insn_idx));
    end
    always @(posedge clk) if (f_past && $past(rst)) a_reset: assert(!busy && insn_idx == 32'd0);

    always @(posedge clk) if (f_past && !rst) begin
        c_pop_wait:  cover(f_popping && (f_wpp || f_wpn) && !f_pops_ok);
        c_pops_at_go: cover(go && ((HAS_PREV != 0 && HAS_NEXT != 0) ? (prev_pop && next_pop)
                                                                   : (prev_pop || next_pop)));
        c_push_wait: cover(f_pushing && (f_whp || f_whn) && !f_push_ok);
        c_next_insn: cover(q_pop && $past(insn_done));
    end
`endif
endmodule
`default_nettype wire
