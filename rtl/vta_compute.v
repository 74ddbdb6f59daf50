`default_nettype none
// Compute module (spec sections 3 and 4): executes GEMM, ALU, FINISH and LOAD
// of UOP / ACC / ACC_8BIT in program order. It owns the micro-op buffer and the
// accumulator buffer (two copies, one per read port) and writes the OUT buffer
// (low OUT_W bits of each accumulator lane) whenever it writes an accumulator.
//
// GEMM/ALU pipeline, one micro-op per cycle:
//   A: loop counters (o, i, k) -> UOP SRAM read
//   B: index arithmetic -> INP, WGT, ACC[dst], ACC[src] SRAM reads
//   C: multiply-accumulate / tensor ALU -> ACC and OUT write
// A micro-op in C whose accumulator was written by the micro-op just ahead of
// it (the only write its SRAM read could have missed) takes the value from a
// forwarding register, so micro-ops behave strictly in loop order.
// Per instruction, vta_phase pops L2C / S2C, the LOAD engine or the pipeline
// executes, and vta_phase pushes C2L / C2S.
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
    parameter integer LOG_ACC_DEPTH = 11
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire                       clr,      // launch: buffers read as zero again
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
    localparam integer INP_W = 1 << LOG_INP_WIDTH;
    localparam integer WGT_W = 1 << LOG_WGT_WIDTH;
    localparam integer ACC_W = 1 << LOG_ACC_WIDTH;
    localparam integer OUT_W = INP_W;
    localparam integer BATCH = 1 << LOG_BATCH;
    localparam integer BLOCK = 1 << LOG_BLOCK;
    localparam integer LANES = BATCH * BLOCK;
    localparam integer ACC_BITS = LANES * ACC_W;
    localparam integer OUT_BITS = LANES * OUT_W;
    localparam integer LOG_ACC_BYTES  = LOG_BATCH + LOG_BLOCK + LOG_ACC_WIDTH - 3;
    localparam integer LOG_ACC8_BYTES = LOG_BATCH + LOG_BLOCK;
    localparam integer LU = LOG_UOP_DEPTH;
    localparam integer LI = LOG_INP_DEPTH;
    localparam integer LW = LOG_WGT_DEPTH;
    localparam integer LA = LOG_ACC_DEPTH;
    localparam integer LS = ISA_UOP_SRC_IDX_W;   // uop src_idx width: max(LA, LI)

    localparam [2:0] OP_LOAD = 3'd0, OP_GEMM = 3'd2, OP_FINISH = 3'd3, OP_ALU = 3'd4;
    localparam [2:0] MT_UOP = 3'd0, MT_ACC = 3'd3, MT_ACC8 = 3'd5;
    localparam [2:0] ALU_MIN = 3'd0, ALU_MAX = 3'd1, ALU_ADD = 3'd2, ALU_SHR = 3'd3, ALU_MUL = 3'd4;
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
    wire is_load   = (opcode == OP_LOAD);
    wire is_gemm   = (opcode == OP_GEMM);
    wire is_alu    = (opcode == OP_ALU);
    wire is_finish = (opcode == OP_FINISH);
    wire ld_uop    = is_load && (mtype == MT_UOP);
    wire ld_acc    = is_load && (mtype == MT_ACC);
    wire ld_acc8   = is_load && (mtype == MT_ACC8);

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

    vta_ld_engine #(.LOG_B(LOG_B), .LOG_EMAX(LOG_ACC_BYTES)) u_eng (
        .clk(clk), .rst(rst), .start(go && ld_any),
        .base(ld_uop ? uop_base : acc_base),
        .lesz(ld_uop ? LESZ_UOP : (ld_acc ? LESZ_ACC : LESZ_ACC8)),
        .sram_base(insn[ISA_MEM_SRAM_BASE +: ISA_MEM_SRAM_BASE_W]), .dram_base(insn[ISA_MEM_DRAM_BASE +: ISA_MEM_DRAM_BASE_W]),
        .y_size(insn[ISA_MEM_Y_SIZE +: ISA_MEM_Y_SIZE_W]), .x_size(insn[ISA_MEM_X_SIZE +: ISA_MEM_X_SIZE_W]), .x_stride(insn[ISA_MEM_X_STRIDE +: ISA_MEM_X_STRIDE_W]),
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
    // GEMM / ALU loop generator (stage A). The loop fields up to dst_factor_in
    // have the same positions in GEMM and ALU (models/isa.py: _LOOP_FIELDS), so
    // they are read with the GEMM names for both.
    wire [LU-1:0] f_ubgn = insn[ISA_GEMM_UOP_BGN +: ISA_GEMM_UOP_BGN_W];
    wire [LU:0]   f_uend = insn[ISA_GEMM_UOP_END +: ISA_GEMM_UOP_END_W];
    wire [13:0]   f_iout = insn[ISA_GEMM_ITER_OUT +: ISA_GEMM_ITER_OUT_W];
    wire [13:0]   f_iin  = insn[ISA_GEMM_ITER_IN +: ISA_GEMM_ITER_IN_W];
    wire [LA-1:0] f_dfo  = insn[ISA_GEMM_DST_FACTOR_OUT +: ISA_GEMM_DST_FACTOR_OUT_W];
    wire [LA-1:0] f_dfi  = insn[ISA_GEMM_DST_FACTOR_IN +: ISA_GEMM_DST_FACTOR_IN_W];
    wire [LS-1:0] f_sfo  = is_alu ? {{(LS-LA){1'b0}}, insn[ISA_ALU_SRC_FACTOR_OUT +: ISA_ALU_SRC_FACTOR_OUT_W]}
                                  : {{(LS-LI){1'b0}}, insn[ISA_GEMM_SRC_FACTOR_OUT +: ISA_GEMM_SRC_FACTOR_OUT_W]};
    wire [LS-1:0] f_sfi  = is_alu ? {{(LS-LA){1'b0}}, insn[ISA_ALU_SRC_FACTOR_IN +: ISA_ALU_SRC_FACTOR_IN_W]}
                                  : {{(LS-LI){1'b0}}, insn[ISA_GEMM_SRC_FACTOR_IN +: ISA_GEMM_SRC_FACTOR_IN_W]};
    wire [LW-1:0] f_wfo  = insn[ISA_GEMM_WGT_FACTOR_OUT +: ISA_GEMM_WGT_FACTOR_OUT_W];
    wire [LW-1:0] f_wfi  = insn[ISA_GEMM_WGT_FACTOR_IN +: ISA_GEMM_WGT_FACTOR_IN_W];
    wire          f_rst  = insn[ISA_GEMM_RESET_REG];
    wire [2:0]    f_aop  = insn[ISA_ALU_ALU_OPCODE +: ISA_ALU_ALU_OPCODE_W];
    wire          f_uimm = insn[ISA_ALU_USE_IMM];
    wire [15:0]   f_imm  = insn[ISA_ALU_IMM +: ISA_ALU_IMM_W];

    wire loop_nonempty = (f_iout != 14'd0) && (f_iin != 14'd0) && ({1'b0, f_ubgn} < f_uend);
    wire [LU:0] uend_m1 = f_uend - 1'b1;

    reg          lg_act;
    reg [LU-1:0] k;
    reg [13:0]   ii;
    reg [13:0]   oo;
    reg [LA-1:0] d_o, d_c;
    reg [LS-1:0] s_o, s_c;
    reg [LW-1:0] w_o, w_c;

    wire k_wrap = ({1'b0, k} == uend_m1);
    wire i_wrap = (ii == f_iin - 14'd1);
    wire o_wrap = (oo == f_iout - 14'd1);

    always @(posedge clk) begin
        if (rst) begin
            lg_act <= 1'b0;
            k <= {LU{1'b0}}; ii <= 14'd0; oo <= 14'd0;
            d_o <= {LA{1'b0}}; d_c <= {LA{1'b0}};
            s_o <= {LS{1'b0}}; s_c <= {LS{1'b0}};
            w_o <= {LW{1'b0}}; w_c <= {LW{1'b0}};
        end else if (go) begin
            lg_act <= (is_gemm || is_alu) && loop_nonempty;
            k <= f_ubgn; ii <= 14'd0; oo <= 14'd0;
            d_o <= {LA{1'b0}}; d_c <= {LA{1'b0}};
            s_o <= {LS{1'b0}}; s_c <= {LS{1'b0}};
            w_o <= {LW{1'b0}}; w_c <= {LW{1'b0}};
        end else if (lg_act) begin
            if (!k_wrap) begin
                k <= k + 1'b1;
            end else begin
                k <= f_ubgn;
                if (!i_wrap) begin
                    ii  <= ii + 14'd1;
                    d_c <= d_c + f_dfi;
                    s_c <= s_c + f_sfi;
                    w_c <= w_c + f_wfi;
                end else begin
                    ii  <= 14'd0;
                    oo  <= oo + 14'd1;
                    d_o <= d_o + f_dfo;  d_c <= d_o + f_dfo;
                    s_o <= s_o + f_sfo;  s_c <= s_o + f_sfo;
                    w_o <= w_o + f_wfo;  w_c <= w_o + f_wfo;
                    if (o_wrap) lg_act <= 1'b0;
                end
            end
        end
    end

    // ---------------------------------------------------------------------
    // micro-op buffer
    wire [31:0] uop_rdata;
    vta_ram #(.WIDTH(32), .LOG_DEPTH(LU)) u_uop (
        .clk(clk), .rst(rst), .clr(clr),
        .we(e_we && ld_uop), .waddr(e_waddr[LU-1:0]), .wdata(e_wdata[31:0]),
        .re(lg_act), .raddr(k), .rdata(uop_rdata)
    );

    // stage B: index arithmetic, SRAM reads
    reg          vb;
    reg [LA-1:0] b_d;
    reg [LS-1:0] b_s;
    reg [LW-1:0] b_w;
    always @(posedge clk) begin
        if (rst) begin
            vb <= 1'b0; b_d <= {LA{1'b0}}; b_s <= {LS{1'b0}}; b_w <= {LW{1'b0}};
        end else begin
            vb  <= lg_act;
            b_d <= d_c;
            b_s <= s_c;
            b_w <= w_c;
        end
    end

    wire [LS-1:0] u_src  = uop_rdata[ISA_UOP_SRC_IDX +: ISA_UOP_SRC_IDX_W];
    wire [LA-1:0] a_dst  = uop_rdata[ISA_UOP_DST_IDX +: ISA_UOP_DST_IDX_W] + b_d;
    wire [LS-1:0] a_src  = u_src + b_s;
    wire [LW-1:0] a_wgt  = uop_rdata[ISA_UOP_WGT_IDX +: ISA_UOP_WGT_IDX_W] + b_w;

    assign inp_re    = vb && is_gemm;
    assign inp_raddr = a_src[LI-1:0];
    assign wgt_re    = vb && is_gemm;
    assign wgt_raddr = a_wgt;

    // accumulator buffer: two copies, written together, one per read port
    reg                 vc;
    reg [LA-1:0]        c_d;
    reg [LA-1:0]        c_s;
    wire                acc_we;
    wire [LA-1:0]       acc_waddr;
    wire [ACC_BITS-1:0] acc_wdata;
    wire [ACC_BITS-1:0] acc_dst_q;
    wire [ACC_BITS-1:0] acc_src_q;

    vta_ram #(.WIDTH(ACC_BITS), .LOG_DEPTH(LA)) u_acc_dst (
        .clk(clk), .rst(rst), .clr(clr), .we(acc_we), .waddr(acc_waddr), .wdata(acc_wdata),
        .re(vb), .raddr(a_dst), .rdata(acc_dst_q)
    );
    vta_ram #(.WIDTH(ACC_BITS), .LOG_DEPTH(LA)) u_acc_src (
        .clk(clk), .rst(rst), .clr(clr), .we(acc_we), .waddr(acc_waddr), .wdata(acc_wdata),
        .re(vb && is_alu), .raddr(a_src[LA-1:0]), .rdata(acc_src_q)
    );

    always @(posedge clk) begin
        if (rst) begin
            vc <= 1'b0; c_d <= {LA{1'b0}}; c_s <= {LA{1'b0}};
        end else begin
            vc  <= vb;
            c_d <= a_dst;
            c_s <= a_src[LA-1:0];
        end
    end

    // stage C: forwarding, MAC / ALU, write back
    reg                 fw_v;
    reg [LA-1:0]        fw_a;
    reg [ACC_BITS-1:0]  fw_d;
    wire [ACC_BITS-1:0] dst_v = (fw_v && fw_a == c_d) ? fw_d : acc_dst_q;
    wire [ACC_BITS-1:0] src_v = (fw_v && fw_a == c_s) ? fw_d : acc_src_q;

    function [ACC_W-1:0] sx_inp(input [INP_W-1:0] v);
        sx_inp = {{(ACC_W-INP_W){v[INP_W-1]}}, v};
    endfunction
    function [ACC_W-1:0] sx_wgt(input [WGT_W-1:0] v);
        sx_wgt = {{(ACC_W-WGT_W){v[WGT_W-1]}}, v};
    endfunction

    // GEMM: ACC[b][j] += sum_k INP[b][k] * WGT[j][k]
    reg [ACC_BITS-1:0] gemm_res;
    reg [ACC_W-1:0]    dot;
    integer gl, gk;
    always @* begin
        for (gl = 0; gl < LANES; gl = gl + 1) begin
            dot = {ACC_W{1'b0}};
            for (gk = 0; gk < BLOCK; gk = gk + 1)
                dot = dot + sx_inp(inp_rdata[((gl / BLOCK) * BLOCK + gk) * INP_W +: INP_W])
                          * sx_wgt(wgt_rdata[((gl % BLOCK) * BLOCK + gk) * WGT_W +: WGT_W]);
            gemm_res[gl*ACC_W +: ACC_W] = dst_v[gl*ACC_W +: ACC_W] + dot;
        end
    end

    // ALU, per lane
    localparam [ACC_W-1:0] ACC_W_C = ACC_W;
    function [ACC_W-1:0] alu_lane(input [2:0] op, input [ACC_W-1:0] a, input [ACC_W-1:0] b);
        reg [ACC_W-1:0] nb;
        reg [ACC_W-1:0] sra;
        begin
            nb  = {ACC_W{1'b0}} - b;
            // own statement: inside ?: with unsigned operands >>> would turn logical
            sra = $signed(a) >>> b[LOG_ACC_WIDTH-1:0];
            case (op)
                ALU_MIN: alu_lane = ($signed(a) < $signed(b)) ? a : b;
                ALU_MAX: alu_lane = ($signed(a) > $signed(b)) ? a : b;
                ALU_ADD: alu_lane = a + b;
                ALU_SHR: begin
                    if (!b[ACC_W-1])
                        alu_lane = (b >= ACC_W_C) ? {ACC_W{a[ACC_W-1]}}
                                                  : sra;
                    else
                        alu_lane = (nb >= ACC_W_C) ? {ACC_W{1'b0}} : (a << nb[LOG_ACC_WIDTH-1:0]);
                end
                ALU_MUL: alu_lane = a * b;
                default: alu_lane = a;
            endcase
        end
    endfunction

    wire [ACC_W-1:0] imm_ext = {{(ACC_W-16){f_imm[15]}}, f_imm};
    reg [ACC_BITS-1:0] alu_res;
    integer al;
    always @* begin
        for (al = 0; al < LANES; al = al + 1)
            alu_res[al*ACC_W +: ACC_W] = alu_lane(f_aop, dst_v[al*ACC_W +: ACC_W],
                                                  f_uimm ? imm_ext : src_v[al*ACC_W +: ACC_W]);
    end

    wire [ACC_BITS-1:0] c_res = is_alu ? alu_res : (f_rst ? {ACC_BITS{1'b0}} : gemm_res);

    always @(posedge clk) begin
        if (rst) begin
            fw_v <= 1'b0; fw_a <= {LA{1'b0}}; fw_d <= {ACC_BITS{1'b0}};
        end else begin
            fw_v <= vc;
            fw_a <= c_d;
            fw_d <= c_res;
        end
    end

    // accumulator / OUT write mux: LOAD engine or stage C (never both)
    wire ld_acc_we = e_we && (ld_acc || ld_acc8);
    assign acc_we    = ld_acc_we || vc;
    assign acc_waddr = vc ? c_d : e_waddr[LA-1:0];
    assign acc_wdata = vc ? c_res : (ld_acc8 ? acc8_ext : e_wdata);

    reg [OUT_BITS-1:0] out_lo;
    integer ol;
    always @* begin
        for (ol = 0; ol < LANES; ol = ol + 1)
            out_lo[ol*OUT_W +: OUT_W] = acc_wdata[ol*ACC_W +: OUT_W];
    end
    assign out_we    = acc_we;
    assign out_waddr = acc_waddr;
    assign out_wdata = out_lo;

    assign pipe_busy = lg_act || vb || vc;
    assign gemm_uop  = vc && is_gemm;
    assign alu_uop   = vc && is_alu;

    // ---------------------------------------------------------------------
    // status
    // [0] busy, [3:1] phase, [6:4] opcode, [9:7] memory type (LOAD) or ALU
    // opcode, [10] waiting for L2C, [11] waiting for S2C, [12] waiting for room
    // in C2L, [13] waiting for room in C2S, [14] executing
    assign status = {17'd0, ph_status};

    wire unused_compute = &{1'b0, e_waddr, e_wdata, a_src, u_src, uop_rdata, insn, exec};
endmodule
`default_nettype wire
