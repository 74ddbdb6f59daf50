`default_nettype none
// GEMM / ALU micro-op pipeline of the compute module (spec section 3), one
// micro-op per cycle (two for an ALU that reads ACC[src], use_imm 0):
//   A: loop counters (o, i, k) -> UOP SRAM read
//   B: index arithmetic -> INP, WGT SRAM reads; ACC SRAM read of dst (of src,
//      then dst, in the two cycles of a two-operand ALU micro-op)
//   C: multiply-accumulate / tensor ALU -> ACC (and OUT) write-back
// The ACC buffer has one read port (one block RAM copy; rtl/README.md, "GEMM/ALU
// pipeline"), so a two-operand ALU micro-op holds each stage for two cycles: its
// src value is read in the first and kept, its dst value read in the second.
// A read that could have missed a write is one in the same cycle as the write of the
// micro-op just ahead (the RAM reads before writing): the dst read of a one-cycle
// micro-op, the src read of a two-operand one. Such a read takes the value from a
// forwarding register, so micro-ops behave strictly in loop order.
// The SRAMs are the compute module's; this module drives their read ports and
// the write-back. insn is held by the phase machine for the whole instruction;
// start (its go) begins a GEMM or ALU (other opcodes leave the pipeline idle).
module vta_gemm_alu #(
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
    input  wire                       start,
    input  wire [127:0]               insn,
    // micro-op buffer read port
    output wire                       uop_re,
    output wire [LOG_UOP_DEPTH-1:0]   uop_raddr,
    input  wire [31:0]                uop_rdata,
    // INP / WGT read ports
    output wire                       inp_re,
    output wire [LOG_INP_DEPTH-1:0]   inp_raddr,
    input  wire [(1<<(LOG_BATCH+LOG_BLOCK+LOG_INP_WIDTH))-1:0] inp_rdata,
    output wire                       wgt_re,
    output wire [LOG_WGT_DEPTH-1:0]   wgt_raddr,
    input  wire [(1<<(2*LOG_BLOCK+LOG_WGT_WIDTH))-1:0] wgt_rdata,
    // accumulator read port and write-back
    output wire                       acc_re,
    output wire [LOG_ACC_DEPTH-1:0]   acc_raddr,
    input  wire [(1<<(LOG_BATCH+LOG_BLOCK+LOG_ACC_WIDTH))-1:0] acc_rdata,
    output wire                       wb_valid,
    output wire [LOG_ACC_DEPTH-1:0]   wb_addr,
    output wire [(1<<(LOG_BATCH+LOG_BLOCK+LOG_ACC_WIDTH))-1:0] wb_data,
    // events
    output wire                       busy,
    output wire                       gemm_uop,
    output wire                       alu_uop
);
`define VTA_ISA_LOOP_FIELDS
`include "vta_isa.vh"
    // ---------------------------------------------------------------------
    // derived sizes
    localparam integer INP_W = 1 << LOG_INP_WIDTH;
    localparam integer WGT_W = 1 << LOG_WGT_WIDTH;
    localparam integer ACC_W = 1 << LOG_ACC_WIDTH;
    localparam integer BATCH = 1 << LOG_BATCH;
    localparam integer BLOCK = 1 << LOG_BLOCK;
    localparam integer LANES = BATCH * BLOCK;
    localparam integer ACC_BITS = LANES * ACC_W;
    localparam integer LU = LOG_UOP_DEPTH;
    localparam integer LI = LOG_INP_DEPTH;
    localparam integer LW = LOG_WGT_DEPTH;
    localparam integer LA = LOG_ACC_DEPTH;
    localparam integer LS = ISA_UOP_SRC_IDX_W;   // uop src_idx width: max(LA, LI)

    localparam [2:0] OP_GEMM = 3'd2, OP_ALU = 3'd4;
    localparam [2:0] ALU_MIN = 3'd0, ALU_MAX = 3'd1, ALU_ADD = 3'd2, ALU_SHR = 3'd3, ALU_MUL = 3'd4;

    wire [2:0] opcode  = insn[ISA_OPCODE +: ISA_OPCODE_W];
    wire is_gemm   = (opcode == OP_GEMM);
    wire is_alu    = (opcode == OP_ALU);

    // ---------------------------------------------------------------------
    // stage A: loop generator. The loop fields up to dst_factor_in have the
    // same positions in GEMM and ALU (models/isa.py: _LOOP_FIELDS), so they are
    // read with the GEMM names for both.
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
    // a two-operand ALU: each micro-op takes two cycles per stage (src read, then dst read)
    wire          two    = is_alu && !f_uimm;

    wire loop_nonempty = (f_iout != 14'd0) && (f_iin != 14'd0) && ({1'b0, f_ubgn} < f_uend);
    wire [LU:0] uend_m1 = f_uend - 1'b1;

    reg          lg_act;
    reg          half;    // second cycle of a two-operand micro-op in stage A
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
            lg_act <= 1'b0; half <= 1'b0;
            k <= {LU{1'b0}}; ii <= 14'd0; oo <= 14'd0;
            d_o <= {LA{1'b0}}; d_c <= {LA{1'b0}};
            s_o <= {LS{1'b0}}; s_c <= {LS{1'b0}};
            w_o <= {LW{1'b0}}; w_c <= {LW{1'b0}};
        end else if (start) begin
            lg_act <= (is_gemm || is_alu) && loop_nonempty; half <= 1'b0;
            k <= f_ubgn; ii <= 14'd0; oo <= 14'd0;
            d_o <= {LA{1'b0}}; d_c <= {LA{1'b0}};
            s_o <= {LS{1'b0}}; s_c <= {LS{1'b0}};
            w_o <= {LW{1'b0}}; w_c <= {LW{1'b0}};
        end else if (lg_act && two && !half) begin
            half <= 1'b1;   // the same micro-op once more: its dst read follows its src read
        end else if (lg_act) begin
            half <= 1'b0;
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

    assign uop_re    = lg_act;
    assign uop_raddr = k;

    // ---------------------------------------------------------------------
    // stage B: index arithmetic, SRAM reads
    reg          vb;
    reg          b_first;  // first cycle of a two-operand micro-op: the src read
    reg [LA-1:0] b_d;
    reg [LS-1:0] b_s;
    reg [LW-1:0] b_w;
    always @(posedge clk) begin
        if (rst) begin
            vb <= 1'b0; b_first <= 1'b0;
            b_d <= {LA{1'b0}}; b_s <= {LS{1'b0}}; b_w <= {LW{1'b0}};
        end else begin
            vb  <= lg_act;
            b_first <= lg_act && two && !half;
            b_d <= d_c;
            b_s <= s_c;
            b_w <= w_c;
        end
    end

    wire [LS-1:0] u_src  = uop_rdata[ISA_UOP_SRC_IDX +: ISA_UOP_SRC_IDX_W];
    wire [LA-1:0] a_dst  = uop_rdata[ISA_UOP_DST_IDX +: ISA_UOP_DST_IDX_W] + b_d;
    wire [LS-1:0] a_src  = u_src + b_s;
    wire [LW-1:0] a_wgt  = uop_rdata[ISA_UOP_WGT_IDX +: ISA_UOP_WGT_IDX_W] + b_w;

    assign inp_re        = vb && is_gemm;
    assign inp_raddr     = a_src[LI-1:0];
    assign wgt_re        = vb && is_gemm;
    assign wgt_raddr     = a_wgt;
    assign acc_re        = vb;
    assign acc_raddr     = b_first ? a_src[LA-1:0] : a_dst;

    reg          vc;
    reg          c_first;  // stage C holds a two-operand micro-op's src value: no write yet
    reg [LA-1:0] c_d;
    reg [LA-1:0] c_s;
    always @(posedge clk) begin
        if (rst) begin
            vc <= 1'b0; c_first <= 1'b0; c_d <= {LA{1'b0}}; c_s <= {LA{1'b0}};
        end else begin
            vc  <= vb;
            c_first <= b_first;
            c_d <= a_dst;
            c_s <= a_src[LA-1:0];
        end
    end

    // ---------------------------------------------------------------------
    // stage C: forwarding, MAC / ALU, write-back
    // fw_*: the write-back of the cycle before. A src value is forwarded in the first
    // cycle of a two-operand micro-op and kept in src_q for its second (the dst read then
    // follows a cycle without a write, so it misses nothing and fw_v is low).
    reg                 fw_v;
    reg [LA-1:0]        fw_a;
    reg [ACC_BITS-1:0]  fw_d;
    reg [ACC_BITS-1:0]  src_q;
    wire wb = vc && !c_first;
    wire [ACC_BITS-1:0] dst_v = (fw_v && fw_a == c_d) ? fw_d : acc_rdata;
    wire [ACC_BITS-1:0] src_v = (fw_v && fw_a == c_s) ? fw_d : acc_rdata;

    function [ACC_W-1:0] sx_inp(input [INP_W-1:0] v);
        sx_inp = {{(ACC_W-INP_W){v[INP_W-1]}}, v};
    endfunction
    function [ACC_W-1:0] sx_wgt(input [WGT_W-1:0] v);
        sx_wgt = {{(ACC_W-WGT_W){v[WGT_W-1]}}, v};
    endfunction

    // GEMM: ACC[b][j] += sum_k INP[b][k] * WGT[j][k]
    //
    // Two products per multiplier (rtl/README.md, "Two GEMM products per DSP"). Output lanes
    // lo = 2m and hi = 2m+1 of a batch row share the input element x = INP[b][k]; with their
    // weights wl = WGT[2m][k], wh = WGT[2m+1][k] packed as pk = wh * 2^S + wl, one signed
    // multiplication gives pp = x * pk = (x*wh) * 2^S + x*wl (exact integers). Derivation,
    // S = INP_W + WGT_W (16 at 8x8):
    //   x*wl lies in (-2^(S-2), 2^(S-2)] (2^(S-2) only for -128 * -128 at 8x8), so inside
    //   [-2^(S-1), 2^(S-1)): x*wl is pp's low S bits sign-extended, pp[S-1] its sign;
    //   pp >>> S = floor(pp / 2^S) = x*wh + floor(x*wl / 2^S) = x*wh - pp[S-1], so
    //   x*wh = (pp >>> S) + pp[S-1] = (pp + 2^(S-1)) >>> S,
    //   and the low S bits of pp + 2^(S-1) are x*wl + 2^(S-1), in [0, 2^S): x*wl with its
    //   top bit inverted.
    // The correction is the added 2^(S-1) (a DSP post-adder takes it on its C port). The hi
    // lane's accumulator rides above it, acc * 2^S + 2^(S-1), so the hi field of
    //   r = x*pk + acc * 2^S + 2^(S-1)          (bits S .. S+ACC_W-1, modulo 2^ACC_W)
    // is acc + x*wh: the hi lane accumulates along k in the multipliers' post-adders as the
    // plain products did, and only the lo lane's products are summed in logic.
    // pk spans [-2^(S+WGT_W-1) - 2^(WGT_W-1), 2^(S+WGT_W-1)): S + WGT_W + 1 bits, 25 at 8x8,
    // the DSP48E1's A port (S = 17 would need 26), x the 18-bit B port. PACK is set when both
    // fit and the lanes pair up (BLOCK even); otherwise every product has its own multiplier.
    // Both forms are combinational in stage C: the pipeline and its cycle counts are the same.
    localparam integer PROD_W  = INP_W + WGT_W;          // one product, signed, exact
    localparam integer PK_S    = PROD_W;                 // shift of the hi weight
    localparam integer PK_W    = PK_S + WGT_W + 1;       // packed weights
    localparam integer R_W     = PK_S + ACC_W;           // packed product + hi accumulator
    localparam integer DSP_A_W = 25, DSP_B_W = 18;       // DSP48E1 multiplier ports (signed)
    localparam integer PACK    = (BLOCK % 2 == 0 && PK_W <= DSP_A_W && INP_W <= DSP_B_W) ? 1 : 0;

    // r = x * (wh * 2^S + wl) + acc * 2^S + 2^(S-1): r[S +: ACC_W] = acc + x*wh,
    // {~r[S-1], r[S-2:0]} = x*wl (derivation above)
    function [R_W-1:0] mul_pair(input [INP_W-1:0] x, input [WGT_W-1:0] wh,
                                input [WGT_W-1:0] wl, input [ACC_W-1:0] acc);
        reg [PK_W-1:0] pk;
        begin
            pk = {wh[WGT_W-1], wh, {PK_S{1'b0}}} + {{(PK_S+1){wl[WGT_W-1]}}, wl};
            mul_pair = $signed({{(R_W-PK_W){pk[PK_W-1]}}, pk}) * $signed({{(R_W-INP_W){x[INP_W-1]}}, x})
                     + {acc, 1'b1, {(PK_S-1){1'b0}}};
        end
    endfunction
    function [ACC_W-1:0] sx_prod(input [PROD_W-1:0] v);
        sx_prod = {{(ACC_W-PROD_W){v[PROD_W-1]}}, v};
    endfunction

    reg [ACC_BITS-1:0] gemm_res;
    generate
        if (PACK != 0) begin : g_pack
            reg [ACC_W-1:0] acc_hi, dot_lo;
            reg [R_W-1:0]   r;
            integer gb, gm, gk;
            always @* begin
                for (gb = 0; gb < BATCH; gb = gb + 1)
                    for (gm = 0; gm < BLOCK / 2; gm = gm + 1) begin
                        acc_hi = dst_v[(gb * BLOCK + 2 * gm + 1) * ACC_W +: ACC_W];
                        dot_lo = {ACC_W{1'b0}};
                        for (gk = 0; gk < BLOCK; gk = gk + 1) begin
                            r = mul_pair(inp_rdata[(gb * BLOCK + gk) * INP_W +: INP_W],
                                         wgt_rdata[((2 * gm + 1) * BLOCK + gk) * WGT_W +: WGT_W],
                                         wgt_rdata[((2 * gm) * BLOCK + gk) * WGT_W +: WGT_W], acc_hi);
                            acc_hi = r[PK_S +: ACC_W];
                            dot_lo = dot_lo + sx_prod({~r[PK_S-1], r[PK_S-2:0]});
                        end
                        gemm_res[(gb * BLOCK + 2 * gm) * ACC_W +: ACC_W] =
                            dst_v[(gb * BLOCK + 2 * gm) * ACC_W +: ACC_W] + dot_lo;
                        gemm_res[(gb * BLOCK + 2 * gm + 1) * ACC_W +: ACC_W] = acc_hi;
                    end
            end
        end else begin : g_plain
            reg [ACC_W-1:0] dot;
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
        end
    endgenerate

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
`ifdef VTA_TEST_BREAK_ALU_MAX
                // test-only breakage (rtl/README.md): MAX returns the smaller operand
                ALU_MAX: alu_lane = ($signed(a) < $signed(b)) ? a : b;
`else
                ALU_MAX: alu_lane = ($signed(a) > $signed(b)) ? a : b;
`endif
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
                                                  f_uimm ? imm_ext : src_q[al*ACC_W +: ACC_W]);
    end

    wire [ACC_BITS-1:0] c_res = is_alu ? alu_res : (f_rst ? {ACC_BITS{1'b0}} : gemm_res);

    always @(posedge clk) begin
        if (rst) begin
            fw_v <= 1'b0; fw_a <= {LA{1'b0}}; fw_d <= {ACC_BITS{1'b0}};
        end else begin
            fw_v <= wb;
            fw_a <= c_d;
            fw_d <= c_res;
        end
    end

    always @(posedge clk)
        if (vc && c_first) src_q <= src_v;

    assign wb_valid = wb;
    assign wb_addr  = c_d;
    assign wb_data  = c_res;

    assign busy     = lg_act || vb || vc;
    assign gemm_uop = wb && is_gemm;
    assign alu_uop  = wb && is_alu;

    wire unused_gemm_alu = &{1'b0, insn, a_src, u_src, uop_rdata};
endmodule
`default_nettype wire
