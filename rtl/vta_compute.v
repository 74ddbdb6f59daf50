`default_nettype none
// Compute module (spec sections 3 and 4): executes GEMM, ALU, FINISH and LOAD
// of UOP / ACC / ACC_8BIT in program order. It owns the micro-op buffer and the
// accumulator buffer (one copy, one read port) and writes the OUT buffer
// (low OUT_W bits of each accumulator lane) whenever it writes an accumulator.
// Per instruction, vta_phase pops L2C / S2C, starts the LOAD engine
// (vta_ld_engine) or the GEMM/ALU pipeline (vta_gemm_alu), waits for it to
// drain and pushes C2L / C2S.
module vta_compute #(
    parameter integer LOG_B         = 3,
    parameter integer LOG_INP_WIDTH = 3,
    parameter integer LOG_WGT_WIDTH = 3,
    parameter integer LOG_ACC_WIDTH = 5,
    parameter integer LOG_BATCH     = 0,
    parameter integer LOG_BLOCK     = 4,
    parameter integer LOG_UOP_DEPTH = 13,
    parameter integer LOG_INP_DEPTH = 11,
    parameter integer LOG_WGT_DEPTH = 10,
    parameter integer LOG_ACC_DEPTH = 11,
    parameter integer PIPE_STAGES   = 3
) (
    input  wire                       clk,
    input  wire                       rst,
    // command queue
    input  wire                       q_empty,
    output wire                       q_pop,
    input  wire [159:0]               q_data,
    // tokens
    input  wire                       l2c_can_pop,
    output wire                       l2c_pop,
    input  wire                       s2c_can_pop,
    output wire                       s2c_pop,
    input  wire                       c2l_can_push,
    output wire                       c2l_push,
    input  wire                       c2s_can_push,
    output wire                       c2s_push,
    // DRAM bases
    input  wire [31:0]                uop_base,
    input  wire [31:0]                acc_base,
    // AXI read client
    output wire                       ar_valid,
    input  wire                       ar_ready,
    output wire [31:0]                ar_addr,
    output wire [7:0]                 ar_len,
    input  wire                       r_valid,
    output wire                       r_ready,
    input  wire [(8<<LOG_B)-1:0]      r_data,
    // INP / WGT SRAM read ports, OUT SRAM write port
    output wire                       inp_re,
    output wire [LOG_INP_DEPTH-1:0]   inp_raddr,
    input  wire [(1<<(LOG_BATCH+LOG_BLOCK+LOG_INP_WIDTH))-1:0] inp_rdata,
    output wire                       wgt_re,
    output wire [LOG_WGT_DEPTH-1:0]   wgt_raddr,
    input  wire [(1<<(2*LOG_BLOCK+LOG_WGT_WIDTH))-1:0] wgt_rdata,
    output wire                       out_we,
    output wire [LOG_ACC_DEPTH-1:0]   out_waddr,
    output wire [(1<<(LOG_BATCH+LOG_BLOCK+LOG_INP_WIDTH))-1:0] out_wdata,
    // events and status
    output wire                       finish,
    output wire                       gemm_uop,
    output wire                       alu_uop,
    output wire                       busy,
    output wire                       stall,
    output wire                       insn_done,
    output wire [31:0]                status,
    output wire [31:0]                insn_idx
);
`define VTA_ISA_LOOP_FIELDS
`include "vta_isa.vh"
    // ---------------------------------------------------------------------
    // derived sizes
    localparam integer ACC_W = 1 << LOG_ACC_WIDTH;
    localparam integer OUT_W = 1 << LOG_INP_WIDTH;   // OUT width = INP width
    localparam integer LANES = (1 << LOG_BATCH) * (1 << LOG_BLOCK);
    localparam integer ACC_BITS = LANES * ACC_W;
    localparam integer OUT_BITS = LANES * OUT_W;
    localparam integer LOG_ACC_BYTES  = LOG_BATCH + LOG_BLOCK + LOG_ACC_WIDTH - 3;
    localparam integer LOG_ACC8_BYTES = LOG_BATCH + LOG_BLOCK;
    localparam integer LU = LOG_UOP_DEPTH;
    localparam integer LA = LOG_ACC_DEPTH;

    localparam [2:0] OP_LOAD = 3'd0, OP_FINISH = 3'd3, OP_ALU = 3'd4;
    localparam [2:0] MT_UOP = 3'd0, MT_ACC = 3'd3, MT_ACC8 = 3'd5;
    localparam [3:0] LESZ_UOP  = 4'd2;
    localparam [31:0] LAB32  = LOG_ACC_BYTES;
    localparam [31:0] LA8B32 = LOG_ACC8_BYTES;
    localparam [3:0] LESZ_ACC  = LAB32[3:0];
    localparam [3:0] LESZ_ACC8 = LA8B32[3:0];

    // ---------------------------------------------------------------------
    // phase machine: prev side L2C pop / C2L push, next side S2C pop / C2S push
    wire [127:0] insn;
    wire         go;
    wire         exec;
    wire         eng_busy;
    wire         pipe_busy;
    wire [14:0]  ph_status;

    wire [2:0] opcode  = insn[ISA_OPCODE +: ISA_OPCODE_W];
    wire [2:0] mtype   = insn[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W];
    wire [2:0] aop     = insn[ISA_ALU_ALU_OPCODE +: ISA_ALU_ALU_OPCODE_W];
    wire is_alu    = (opcode == OP_ALU);
    wire is_finish = (opcode == OP_FINISH);
    // LOAD kinds, decoded when vta_phase takes the instruction (q_pop loads its insn from
    // q_data): always the decode of insn, but from registers, so the LOAD engine's per-cycle
    // handshake (element size, write enables) does not start with the decode (issue 24,
    // point 4: it was the critical path of small once the GEMM/ALU pipeline was split)
    function [2:0] ld_kinds(input [2:0] op, input [2:0] mt);   // {ACC_8BIT, ACC, UOP}
        ld_kinds = {op == OP_LOAD && mt == MT_ACC8, op == OP_LOAD && mt == MT_ACC,
                    op == OP_LOAD && mt == MT_UOP};
    endfunction
    reg [2:0] ld_q;
    always @(posedge clk)
        if (rst)        ld_q <= ld_kinds(3'd0, 3'd0);   // vta_phase's insn after reset: 0
        else if (q_pop) ld_q <= ld_kinds(q_data[ISA_OPCODE +: ISA_OPCODE_W],
                                         q_data[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W]);
    wire ld_uop    = ld_q[0];
    wire ld_acc    = ld_q[1];
    wire ld_acc8   = ld_q[2];

    vta_phase #(.HAS_PREV(1), .HAS_NEXT(1)) u_phase (
        .clk(clk), .rst(rst),
        .q_empty(q_empty), .q_pop(q_pop), .q_data(q_data),
        .prev_can_pop(l2c_can_pop), .prev_pop(l2c_pop), .next_can_pop(s2c_can_pop), .next_pop(s2c_pop),
        .prev_can_push(c2l_can_push), .prev_push(c2l_push), .next_can_push(c2s_can_push), .next_push(c2s_push),
        .go(go), .exec_busy(eng_busy || pipe_busy), .insn(insn), .exec(exec),
        .status_sub(is_alu ? aop : mtype), .busy(busy), .stall(stall), .insn_done(insn_done),
        .status(ph_status), .insn_idx(insn_idx)
    );
    assign finish = insn_done && is_finish;

    // ---------------------------------------------------------------------
    // LOAD of UOP / ACC / ACC_8BIT
    wire                 e_we;
    wire [15:0]          e_waddr;
    wire [ACC_BITS-1:0]  e_wdata;
    wire                 ld_any = ld_uop || ld_acc || ld_acc8;

    vta_ld_engine #(.LOG_B(LOG_B), .LOG_EMAX(LOG_ACC_BYTES),
                   .LESZ_SET((16'd1 << LESZ_UOP) | (16'd1 << LESZ_ACC) | (16'd1 << LESZ_ACC8))) u_eng (
        .clk(clk), .rst(rst), .start(go && ld_any),
        .base(ld_uop ? uop_base : acc_base),
        .lesz(ld_uop ? LESZ_UOP : (ld_acc ? LESZ_ACC : LESZ_ACC8)),
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

    // ACC_8BIT: sign-extend each byte into its accumulator lane
    reg [ACC_BITS-1:0] acc8_ext;
    integer l8;
    always @* begin
        for (l8 = 0; l8 < LANES; l8 = l8 + 1)
            acc8_ext[l8*ACC_W +: ACC_W] = {{(ACC_W-OUT_W){e_wdata[l8*OUT_W + OUT_W - 1]}}, e_wdata[l8*OUT_W +: OUT_W]};
    end

    // ---------------------------------------------------------------------
    // GEMM / ALU pipeline and the buffers it reads
    wire                uop_re;
    wire [LU-1:0]       uop_raddr;
    wire [31:0]         uop_rdata;
    wire                acc_re;
    wire [LA-1:0]       acc_raddr;
    wire [ACC_BITS-1:0] acc_q;
    wire                wb_valid;
    wire [LA-1:0]       wb_addr;
    wire [ACC_BITS-1:0] wb_data;

    vta_gemm_alu #(.LOG_INP_WIDTH(LOG_INP_WIDTH), .LOG_WGT_WIDTH(LOG_WGT_WIDTH),
                   .LOG_ACC_WIDTH(LOG_ACC_WIDTH), .LOG_BATCH(LOG_BATCH), .LOG_BLOCK(LOG_BLOCK),
                   .LOG_UOP_DEPTH(LOG_UOP_DEPTH), .LOG_INP_DEPTH(LOG_INP_DEPTH),
                   .LOG_WGT_DEPTH(LOG_WGT_DEPTH), .LOG_ACC_DEPTH(LOG_ACC_DEPTH),
                   .PIPE_STAGES(PIPE_STAGES)) u_pipe (
        .clk(clk), .rst(rst), .start(go), .insn(insn),
        .uop_re(uop_re), .uop_raddr(uop_raddr), .uop_rdata(uop_rdata),
        .inp_re(inp_re), .inp_raddr(inp_raddr), .inp_rdata(inp_rdata),
        .wgt_re(wgt_re), .wgt_raddr(wgt_raddr), .wgt_rdata(wgt_rdata),
        .acc_re(acc_re), .acc_raddr(acc_raddr), .acc_rdata(acc_q),
        .wb_valid(wb_valid), .wb_addr(wb_addr), .wb_data(wb_data),
        .ld_wdata(ld_acc8 ? acc8_ext : e_wdata),
        .busy(pipe_busy), .gemm_uop(gemm_uop), .alu_uop(alu_uop)
    );

    // micro-op buffer
    vta_ram #(.WIDTH(32), .LOG_DEPTH(LU)) u_uop (
        .clk(clk),
        .we(e_we && ld_uop), .waddr(e_waddr[LU-1:0]), .wdata(e_wdata[31:0]),
        .re(uop_re), .raddr(uop_raddr), .rdata(uop_rdata)
    );

    // accumulator buffer: one copy, one read port (vta_gemm_alu reads a two-operand ALU
    // micro-op's src and dst in two cycles)
    wire                acc_we;
    wire [LA-1:0]       acc_waddr;
    wire [ACC_BITS-1:0] acc_wdata;

    vta_ram #(.WIDTH(ACC_BITS), .LOG_DEPTH(LA)) u_acc (
        .clk(clk), .we(acc_we), .waddr(acc_waddr), .wdata(acc_wdata),
        .re(acc_re), .raddr(acc_raddr), .rdata(acc_q)
    );

    // accumulator / OUT write: LOAD engine or stage C (never both). The data mux is folded
    // into stage C's result AND-OR (vta_gemm_alu's ld_wdata: wb_data is the LOAD data outside
    // GEMM/ALU), so the write data leaves stage C without another level (issue 24, point 4)
    wire ld_acc_we = e_we && (ld_acc || ld_acc8);
    assign acc_we    = ld_acc_we || wb_valid;
    assign acc_waddr = wb_valid ? wb_addr : e_waddr[LA-1:0];
    assign acc_wdata = wb_data;

    reg [OUT_BITS-1:0] out_lo;
    integer ol;
    always @* begin
        for (ol = 0; ol < LANES; ol = ol + 1)
            out_lo[ol*OUT_W +: OUT_W] = acc_wdata[ol*ACC_W +: OUT_W];
    end
    assign out_we    = acc_we;
    assign out_waddr = acc_waddr;
    assign out_wdata = out_lo;

    // ---------------------------------------------------------------------
    // status
    // [0] busy, [3:1] phase, [6:4] opcode, [9:7] memory type (LOAD) or ALU
    // opcode, [10] waiting for L2C, [11] waiting for S2C, [12] waiting for room
    // in C2L, [13] waiting for room in C2S, [14] executing
    assign status = {17'd0, ph_status};

    wire unused_compute = &{1'b0, e_waddr, e_wdata, insn, exec};
endmodule
`default_nettype wire
