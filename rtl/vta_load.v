`default_nettype none
// Load module (spec section 4): executes LOAD of INP and WGT in program order.
// Per instruction: take it from the command queue, pop the C2L token if
// pop_next_dep (waiting while the counter is 0), load the tile into the INP
// or WGT SRAM, then push an L2C token if push_next_dep (waiting while the
// counter is full). The illegal flags pop_prev_dep/push_prev_dep are ignored.
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
    localparam [1:0] PH_IDLE = 2'd0, PH_POP = 2'd1, PH_EXEC = 2'd2, PH_PUSH = 2'd3;

    reg [1:0]   phase;
    reg [127:0] insn;
    reg [31:0]  idx;
    reg         pend_pop;
    reg         pend_push;

    wire [2:0]  mtype    = insn[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W];
    wire        is_wgt   = (mtype == MT_WGT);

    // ---- phase machine ----
    assign q_pop    = (phase == PH_IDLE) && !q_empty;
    assign c2l_pop  = (phase == PH_POP) && pend_pop && c2l_can_pop;
    wire   pop_ok   = !pend_pop || c2l_can_pop;
    wire   go       = (phase == PH_POP) && pop_ok;
    wire   eng_busy;
    assign l2c_push = (phase == PH_PUSH) && pend_push && l2c_can_push;
    wire   push_ok  = !pend_push || l2c_can_push;
    assign insn_done = (phase == PH_PUSH) && push_ok;

    always @(posedge clk) begin
        if (rst) begin
            phase     <= PH_IDLE;
            insn      <= 128'd0;
            idx       <= 32'd0;
            pend_pop  <= 1'b0;
            pend_push <= 1'b0;
        end else begin
            case (phase)
                PH_IDLE: if (!q_empty) begin
                    insn      <= q_data[127:0];
                    idx       <= q_data[159:128];
                    pend_pop  <= q_data[ISA_POP_NEXT_DEP];
                    pend_push <= q_data[ISA_PUSH_NEXT_DEP];
                    phase     <= PH_POP;
                end
                PH_POP: begin
                    if (c2l_pop) pend_pop <= 1'b0;
                    if (pop_ok) phase <= PH_EXEC;
                end
                PH_EXEC: if (!eng_busy) phase <= PH_PUSH;
                default: begin
                    if (l2c_push) pend_push <= 1'b0;
                    if (push_ok) phase <= PH_IDLE;
                end
            endcase
        end
    end

    // ---- LOAD engine ----
    wire                     e_we;
    wire [15:0]              e_waddr;
    wire [(8<<LOG_EMAX)-1:0] e_wdata;

    vta_ld_engine #(.LOG_B(LOG_B), .LOG_EMAX(LOG_EMAX)) u_eng (
        .clk(clk), .rst(rst), .start(go),
        .base(is_wgt ? wgt_base : inp_base),
        .lesz(is_wgt ? LESZ_WGT : LESZ_INP),
        .sram_base(insn[ISA_MEM_SRAM_BASE +: ISA_MEM_SRAM_BASE_W]), .dram_base(insn[ISA_MEM_DRAM_BASE +: ISA_MEM_DRAM_BASE_W]),
        .y_size(insn[ISA_MEM_Y_SIZE +: ISA_MEM_Y_SIZE_W]), .x_size(insn[ISA_MEM_X_SIZE +: ISA_MEM_X_SIZE_W]), .x_stride(insn[ISA_MEM_X_STRIDE +: ISA_MEM_X_STRIDE_W]),
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
    assign busy  = (phase != PH_IDLE);
    assign stall = ((phase == PH_POP) && !pop_ok) || ((phase == PH_PUSH) && !push_ok);
    assign insn_idx = idx;
    // [0] busy, [3:1] phase (0 idle, 1 pop tokens, 2 execute, 3 push tokens),
    // [6:4] opcode, [9:7] memory type, [11] waiting for a C2L token,
    // [13] waiting for room in L2C, [14] LOAD in progress
    assign status = {17'd0, (phase == PH_EXEC) && eng_busy,
                     (phase == PH_PUSH) && pend_push && !l2c_can_push, 1'b0,
                     (phase == PH_POP) && pend_pop && !c2l_can_pop, 1'b0,
                     insn[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W], insn[ISA_OPCODE +: ISA_OPCODE_W], 1'b0, phase, busy};

    wire unused_load = &{1'b0, e_waddr, e_wdata, insn};
endmodule
`default_nettype wire
