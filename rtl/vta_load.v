`default_nettype none
// Load module (spec section 4): executes LOAD of INP and WGT in program order.
// Per instruction (vta_phase): take it from the command queue, pop the C2L
// token if pop_next_dep (waiting while the counter is 0), load the tile into
// the INP or WGT SRAM, then push an L2C token if push_next_dep (waiting while
// the counter is full). The illegal flags pop_prev_dep/push_prev_dep are ignored.
module vta_load #(
    parameter integer LOG_B         = 3,
    parameter integer LOG_INP_BYTES = 4,
    parameter integer LOG_WGT_BYTES = 8,
    parameter integer LOG_INP_DEPTH = 11,
    parameter integer LOG_WGT_DEPTH = 10
) (
    input  wire                         clk,
    input  wire                         rst,
    // command queue
    input  wire                         q_empty,
    output wire                         q_pop,
    input  wire [159:0]                 q_data,
    // tokens
    input  wire                         c2l_can_pop,
    output wire                         c2l_pop,
    input  wire                         l2c_can_push,
    output wire                         l2c_push,
    // DRAM bases
    input  wire [31:0]                  inp_base,
    input  wire [31:0]                  wgt_base,
    // AXI read client
    output wire                         ar_valid,
    input  wire                         ar_ready,
    output wire [31:0]                  ar_addr,
    output wire [7:0]                   ar_len,
    input  wire                         r_valid,
    output wire                         r_ready,
    input  wire [(8<<LOG_B)-1:0]        r_data,
    // SRAM write ports
    output wire                         inp_we,
    output wire [LOG_INP_DEPTH-1:0]     inp_waddr,
    output wire [(8<<LOG_INP_BYTES)-1:0] inp_wdata,
    output wire                         wgt_we,
    output wire [LOG_WGT_DEPTH-1:0]     wgt_waddr,
    output wire [(8<<LOG_WGT_BYTES)-1:0] wgt_wdata,
    // status
    output wire                         busy,
    output wire                         stall,
    output wire                         insn_done,
    output wire [31:0]                  status,
    output wire [31:0]                  insn_idx
);
`include "vta_isa.vh"
    localparam integer LOG_EMAX = (LOG_INP_BYTES > LOG_WGT_BYTES) ? LOG_INP_BYTES : LOG_WGT_BYTES;
    localparam [2:0] MT_WGT = 3'd1;
    localparam [31:0] LIB32 = LOG_INP_BYTES;
    localparam [31:0] LWB32 = LOG_WGT_BYTES;
    localparam [3:0] LESZ_INP = LIB32[3:0];
    localparam [3:0] LESZ_WGT = LWB32[3:0];

    // ---- phase machine: next side only (C2L pop, L2C push) ----
    wire [127:0] insn;
    wire [2:0]   mtype = insn[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W];
    // the memory type decoded when vta_phase takes the instruction (q_pop loads its insn
    // from q_data): always the decode of insn, but from a register, so the read gearbox's
    // element size (lesz) and its handshake do not start with the decode (as compute's
    // LOAD kinds; README "Timing")
    reg          is_wgt;
    always @(posedge clk)
        if (rst)        is_wgt <= 1'b0;   // vta_phase's insn after reset: 0, not WGT
        else if (q_pop) is_wgt <= (q_data[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W] == MT_WGT);
    wire         go;
    wire         eng_busy;
    wire         exec;
    wire         no_prev_pop, no_prev_push;
    wire [14:0]  ph_status;

    vta_phase #(.HAS_PREV(0), .HAS_NEXT(1)) u_phase (
        .clk(clk), .rst(rst),
        .q_empty(q_empty), .q_pop(q_pop), .q_data(q_data),
        .prev_can_pop(1'b0), .prev_pop(no_prev_pop), .next_can_pop(c2l_can_pop), .next_pop(c2l_pop),
        .prev_can_push(1'b0), .prev_push(no_prev_push), .next_can_push(l2c_can_push), .next_push(l2c_push),
        .go(go), .exec_busy(eng_busy), .insn(insn), .exec(exec),
        .status_sub(mtype), .busy(busy), .stall(stall), .insn_done(insn_done),
        .status(ph_status), .insn_idx(insn_idx)
    );

    // ---- LOAD engine ----
    wire                     e_we;
    wire [15:0]              e_waddr;
    wire [(8<<LOG_EMAX)-1:0] e_wdata;

    vta_ld_engine #(.LOG_B(LOG_B), .LOG_EMAX(LOG_EMAX),
                   .LESZ_SET((16'd1 << LESZ_INP) | (16'd1 << LESZ_WGT))) u_eng (
        .clk(clk), .rst(rst), .start(go),
        .base(is_wgt ? wgt_base : inp_base),
        .lesz(is_wgt ? LESZ_WGT : LESZ_INP),
        .sram_base(insn[ISA_MEM_SRAM_BASE +: ISA_MEM_SRAM_BASE_W]),
        .dram_base(insn[ISA_MEM_DRAM_BASE +: ISA_MEM_DRAM_BASE_W]),
        .y_size(insn[ISA_MEM_Y_SIZE +: ISA_MEM_Y_SIZE_W]),
        .x_size(insn[ISA_MEM_X_SIZE +: ISA_MEM_X_SIZE_W]),
        .x_stride(insn[ISA_MEM_X_STRIDE +: ISA_MEM_X_STRIDE_W]),
        .y_pad_0(insn[ISA_MEM_Y_PAD_0 +: ISA_MEM_Y_PAD_0_W]), .y_pad_1(insn[ISA_MEM_Y_PAD_1 +: ISA_MEM_Y_PAD_1_W]),
        .x_pad_0(insn[ISA_MEM_X_PAD_0 +: ISA_MEM_X_PAD_0_W]), .x_pad_1(insn[ISA_MEM_X_PAD_1 +: ISA_MEM_X_PAD_1_W]),
        .ar_valid(ar_valid), .ar_ready(ar_ready), .ar_addr(ar_addr), .ar_len(ar_len),
        .r_valid(r_valid), .r_ready(r_ready), .r_data(r_data),
        .we(e_we), .waddr(e_waddr), .wdata(e_wdata), .busy(eng_busy)
    );

    assign inp_we    = e_we && !is_wgt;
    assign inp_waddr = e_waddr[LOG_INP_DEPTH-1:0];
    assign inp_wdata = e_wdata[(8<<LOG_INP_BYTES)-1:0];
    assign wgt_we    = e_we && is_wgt;
    assign wgt_waddr = e_waddr[LOG_WGT_DEPTH-1:0];
    assign wgt_wdata = e_wdata[(8<<LOG_WGT_BYTES)-1:0];

    // ---- status ----
    // [0] busy, [3:1] phase, [6:4] opcode, [9:7] memory type, [11] waiting for
    // a C2L token, [13] waiting for room in L2C, [14] LOAD in progress
    assign status = {17'd0, ph_status};

    wire unused_load = &{1'b0, e_waddr, e_wdata, insn, exec, no_prev_pop, no_prev_push};
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_load) -----------------------------------------------
    // Assumes: a reset in the first cycle; the host does not write INP_BASE / WGT_BASE while
    // the module holds an instruction (rtl/README.md: base registers are not changed while
    // running). Nothing is assumed of the command queue, the tokens, AR/R or the R data.
    // Guarantees (the token clause bounded only, with VTA_FORMAL_LOAD_TOKENS):
    //  - tokens: a C2L token is popped only if the instruction names it (pop_next_dep), only
    //    while the counter is non-zero and before its LOAD starts, which waits for it; an L2C
    //    token only if named (push_next_dep), only with room, after the LOAD finished, and
    //    the instruction does not complete before it is pushed; prev-side flags are ignored;
    //  - one instruction at a time, in queue order: an instruction is taken only while none
    //    is held, and each taken one completes (insn_done) exactly once, with its program
    //    index, before the next is taken;
    //  - dispatch by memory type: the memory type is that of the instruction taken, held
    //    until it completes; the SRAM writes go to the WGT buffer for WGT and to the INP
    //    buffer otherwise, never both, only while the instruction executes;
    //  - an instruction completes only after its LOAD is finished (engine idle: every
    //    element of its padded tile written: vta_ld_engine's contract, whose assumptions
    //    (start only when idle, geometry held while busy) are this module's obligations).
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);
    always @(posedge clk) if (f_past && !$past(rst) && $past(busy)) begin  // a reset cycle too
        m_bases_held: assume(inp_base == $past(inp_base) && wgt_base == $past(wgt_base));
    end

    reg        f_pop_owed = 1'b0;   // the held instruction's C2L pop not yet taken
    reg        f_push_owed = 1'b0;  // its L2C push not yet taken
    always @(posedge clk) begin
        if (rst) begin
            f_pop_owed <= 1'b0; f_push_owed <= 1'b0;
        end else if (q_pop) begin
            f_pop_owed  <= q_data[ISA_POP_NEXT_DEP];
            f_push_owed <= q_data[ISA_PUSH_NEXT_DEP];
        end else begin
            if (c2l_pop)  f_pop_owed  <= 1'b0;
            if (l2c_push) f_push_owed <= 1'b0;
        end
    end
    reg        f_go_seen = 1'b0;    // the held instruction's LOAD has started
    always @(posedge clk) f_go_seen <= !rst && !q_pop && (f_go_seen || go);
    reg        f_open = 1'b0;     // an instruction was taken and has not completed
    reg [31:0] f_idx = 32'd0;     // its program index
    reg        f_wgt = 1'b0;      // its memory type is WGT
    always @(posedge clk) begin
        if (rst) f_open <= 1'b0;
        else if (q_pop) begin
            f_open <= 1'b1;
            f_idx  <= q_data[159:128];
            f_wgt  <= (q_data[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W] == MT_WGT);
        end else if (insn_done) f_open <= 1'b0;
    end
    always @(*) if (f_past && !rst) begin
        if (q_pop)     a_one_at_a_time: assert(!f_open && !busy);
        if (insn_done) a_done_once:     assert(f_open && insn_idx == f_idx && !eng_busy);
        if (f_open)    a_type_held:     assert(is_wgt == f_wgt);
        a_we_inp:   assert(!inp_we || (exec && f_open && !f_wgt));
        a_we_wgt:   assert(!wgt_we || (exec && f_open && f_wgt));
        a_busy:     assert(busy == f_open);
        h_idle_eng: assert(exec || !eng_busy);
        h_idx:      assert(!f_open || insn_idx == f_idx);
    end
`ifdef VTA_FORMAL_LOAD_TOKENS
    // bounded only (tb/formal/jobs.py: why): vta_phase's pending-token flags are not visible here
    always @(*) if (f_past && !rst) begin
        if (c2l_pop)   a_pop_owed:    assert(f_pop_owed && c2l_can_pop && !f_go_seen);
        if (l2c_push)  a_push_owed:   assert(f_push_owed && l2c_can_push && !eng_busy && f_go_seen);
        if (go)        a_go_popped:   assert(!f_pop_owed || c2l_pop);
        if (insn_done) a_done_pushed: assert(!f_push_owed || l2c_push);
    end
`endif
    always @(posedge clk) if (f_past && !rst) begin
        c_wgt_done: cover(insn_done && f_wgt && $past(wgt_we, 2));
        c_inp_done: cover(insn_done && !f_wgt && $past(inp_we, 2));
    end
`endif
endmodule
`default_nettype wire
