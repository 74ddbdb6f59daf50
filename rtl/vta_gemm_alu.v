`default_nettype none
// GEMM / ALU micro-op pipeline of the compute module (spec section 3), one
// micro-op per cycle (two for an ALU that reads ACC[src], use_imm 0; Q = min(P, 2) more
// for an ALU MUL):
//   A: loop counters (o, i, k) -> UOP SRAM read
//   B: index arithmetic -> INP, WGT SRAM reads
//   P = PIPE_STAGES stages (0..3, rtl/README.md, "GEMM/ALU pipeline"): with P = 3 the
//      first (R) registers the INP/WGT read data; then M1 registers the GEMM products,
//      M2 (P >= 2) the per-lane dot sums; indices and flags move along
//   the stage before C when P = 0 (B), the stage before that when P > 0 (P - 1): ACC SRAM
//      read of dst (of src, then dst, in the two cycles of a two-operand ALU micro-op); with
//      P > 0 the read data is registered (acc_d) in the stage before C
//   C: forwarding, accumulate / tensor ALU -> ACC (and OUT) write-back; an ALU MUL takes
//      Q = min(P, 2) more cycles (its operands registered in C, written Q cycles later, in
//      the Q bubble cycles stage A leaves after each MUL micro-op; R lies before C, so it
//      does not lengthen the MUL)
// The ACC buffer has one read port (one block RAM copy; rtl/README.md, "GEMM/ALU
// pipeline"), so a two-operand ALU micro-op holds each stage for two cycles: its
// src value is read in the first and kept, its dst value read in the second.
// Writes stay in order, one per cycle (a MUL's delayed write falls in its bubbles), and
// the RAM reads before writing, so a read misses the writes from its own cycle until its
// value is used: one (the cycle before C) when the read is issued one cycle before C
// (P = 0), two when it is issued two cycles before (P > 0). Those are forwarded (below),
// so micro-ops behave strictly in loop order.
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
    parameter integer LOG_ACC_DEPTH = 11,
    parameter integer PIPE_STAGES   = 3
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
    // the ACC buffer's write data outside GEMM/ALU (compute's LOAD of ACC / ACC_8BIT):
    // wb_data carries it when the instruction is neither GEMM nor ALU
    input  wire [(1<<(LOG_BATCH+LOG_BLOCK+LOG_ACC_WIDTH))-1:0] ld_wdata,
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
    localparam integer P = PIPE_STAGES;
    // cycles an ALU MUL's write-back follows stage C (and bubbles stage A leaves after it)
    localparam integer Q = (PIPE_STAGES < 2) ? PIPE_STAGES : 2;
    localparam [31:0]  Q32 = Q;

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
    // an ALU MUL with P > 0: Q bubble cycles follow each micro-op (its multi-cycle write-back)
    wire          mulp   = is_alu && (f_aop == ALU_MUL) && (P != 0);

    wire loop_nonempty = (f_iout != 14'd0) && (f_iin != 14'd0) && ({1'b0, f_ubgn} < f_uend);
    wire [LU:0] uend_m1 = f_uend - 1'b1;

    reg          lg_act;
    reg          half;    // second cycle of a two-operand micro-op in stage A
    reg [1:0]    bub;     // bubble cycles left after an ALU MUL micro-op
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
            lg_act <= 1'b0; half <= 1'b0; bub <= 2'd0;
            k <= {LU{1'b0}}; ii <= 14'd0; oo <= 14'd0;
            d_o <= {LA{1'b0}}; d_c <= {LA{1'b0}};
            s_o <= {LS{1'b0}}; s_c <= {LS{1'b0}};
            w_o <= {LW{1'b0}}; w_c <= {LW{1'b0}};
        end else if (start) begin
            lg_act <= (is_gemm || is_alu) && loop_nonempty; half <= 1'b0; bub <= 2'd0;
            k <= f_ubgn; ii <= 14'd0; oo <= 14'd0;
            d_o <= {LA{1'b0}}; d_c <= {LA{1'b0}};
            s_o <= {LS{1'b0}}; s_c <= {LS{1'b0}};
            w_o <= {LW{1'b0}}; w_c <= {LW{1'b0}};
        end else if (lg_act && bub != 2'd0) begin
            bub <= bub - 2'd1;   // a bubble: nothing enters stage B
        end else if (lg_act && two && !half) begin
            half <= 1'b1;   // the same micro-op once more: its dst read follows its src read
        end else if (lg_act) begin
            half <= 1'b0;
            if (mulp) bub <= Q32[1:0];
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

    wire a_emit = lg_act && (bub == 2'd0);   // stage A passes a cycle of a micro-op on

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
            vb  <= a_emit;
            b_first <= a_emit && two && !half;
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

    // stages 1..P between B (stage 0) and C: valid, first, dst and src indices move along.
    // Stage P - RD issues the ACC read: with P = 0 stage B, one cycle before C (the read data
    // goes to C's forwarding mux); with P > 0 stage P - 1, two cycles before C (RD = 1: the
    // read data is registered, forwarded into that register, in acc_d)
    wire [P:0]          st_v, st_f;
    wire [(P+1)*LA-1:0] st_d, st_s;
    assign st_v[0] = vb;
    assign st_f[0] = b_first;
    assign st_d[0 +: LA] = a_dst;
    assign st_s[0 +: LA] = a_src[LA-1:0];
    genvar gs;
    generate
        for (gs = 1; gs <= P; gs = gs + 1) begin : g_stage
            reg          v, f;
            reg [LA-1:0] d, s;
            always @(posedge clk) begin
                if (rst) begin
                    v <= 1'b0; f <= 1'b0; d <= {LA{1'b0}}; s <= {LA{1'b0}};
                end else begin
                    v <= st_v[gs-1];
                    f <= st_f[gs-1];
                    d <= st_d[(gs-1)*LA +: LA];
                    s <= st_s[(gs-1)*LA +: LA];
                end
            end
            assign st_v[gs] = v;
            assign st_f[gs] = f;
            assign st_d[gs*LA +: LA] = d;
            assign st_s[gs*LA +: LA] = s;
        end
    endgenerate
    wire          r_first = st_f[P];
    wire [LA-1:0] r_d     = st_d[P*LA +: LA];
    wire [LA-1:0] r_s     = st_s[P*LA +: LA];
    localparam integer RD = (P != 0) ? 1 : 0;   // registers on the ACC read data
    localparam integer RS = P - RD;             // the stage that issues the ACC read

    assign acc_re        = st_v[RS];
    assign acc_raddr     = st_f[RS] ? st_s[RS*LA +: LA] : st_d[RS*LA +: LA];

    reg          vc;
    reg          c_first;  // stage C holds a two-operand micro-op's src value: no write yet
    reg [LA-1:0] c_d;
    always @(posedge clk) begin
        if (rst) begin
            vc <= 1'b0; c_first <= 1'b0; c_d <= {LA{1'b0}};
        end else begin
            vc  <= st_v[P];
            c_first <= r_first;
            c_d <= r_d;
        end
    end

    // ---------------------------------------------------------------------
    // stage C: forwarding, MAC / ALU, write-back
    // dst_v, src_v: the ACC value C works on, with the writes its read missed forwarded.
    //   P = 0 (RD = 0): the read is issued one cycle before C, so it misses the write of the
    //   cycle before C alone (fw_d); fw_hit_d/fw_hit_s are compared a cycle early, where the
    //   write meets the addresses C takes next, so C starts with the mux alone.
    //   P > 0 (RD = 1): the read is issued two cycles before C and its data registered in
    //   acc_d, so it misses the write of its own cycle (fw_d when acc_d takes the data: hit
    //   fw_h2) and that of the next cycle (wb_data itself: hit fw_h1, the later, first); both
    //   hits are compared in the read's cycle, fw_h1 against the write the next cycle makes
    //   (nx_wv, nx_wa), so acc_d's input is a mux with registered selects and C starts from a
    //   register (the ACC block RAM's clock-to-out and the forwarding mux leave stage C).
    // A src value is forwarded like a dst value and kept in src_q in the first cycle of a
    // two-operand micro-op for its second (that first cycle makes no write, so the dst read
    // misses nothing more than one-cycle micro-ops do).
    reg [ACC_BITS-1:0]  fw_d;
    reg [ACC_BITS-1:0]  src_q;
    wire [ACC_BITS-1:0] dst_v, src_v;
    wire                fw_hit_d;   // C's dst value is forwarded (test benches check it is not)

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
    // Both forms are combinational in stage C when P = 0: the cycle counts are the same.
    // With P > 0 the multiplies leave C and no longer depend on ACC: M1 registers each k's
    // products alone, mul_pair with acc = 0 (the hi field then is x*wh itself, exact in
    // PROD_W bits by the same argument: the low S bits of x*pk + 2^(S-1) lie in [0, 2^S)),
    // and both lanes' products are summed in adder trees in logic, into M2 when P >= 2; C
    // adds the dst value. With P = 3 the multiplies read the R register, not the RAMs. The post-adder chain along k is broken there on purpose: it would put
    // BLOCK serial adders after the multiplies in M1 (rtl/README.md, "GEMM/ALU pipeline").
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
    // x*wl, sign-extended, from a mul_pair result r
    function [ACC_W-1:0] lo_prod(input [R_W-1:0] r);
        lo_prod = sx_prod({~r[PK_S-1], r[PK_S-2:0]});
    endfunction

    wire [ACC_BITS-1:0] gemm_res;   // P = 0: dst + the dot products, combinational in C
    wire [ACC_BITS-1:0] dot_ext;    // P > 0: the registered dot sums, sign-extended
    generate
        if (P == 0 && PACK != 0) begin : g_pack
            assign dot_ext = {ACC_BITS{1'b0}};
            reg [ACC_BITS-1:0] res;
            assign gemm_res = res;
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
                            dot_lo = dot_lo + lo_prod(r);
                        end
                        res[(gb * BLOCK + 2 * gm) * ACC_W +: ACC_W] =
                            dst_v[(gb * BLOCK + 2 * gm) * ACC_W +: ACC_W] + dot_lo;
                        res[(gb * BLOCK + 2 * gm + 1) * ACC_W +: ACC_W] = acc_hi;
                    end
            end
        end else if (P == 0) begin : g_plain
            assign dot_ext = {ACC_BITS{1'b0}};
            reg [ACC_BITS-1:0] res;
            assign gemm_res = res;
            reg [ACC_W-1:0] dot;
            integer gl, gk;
            always @* begin
                for (gl = 0; gl < LANES; gl = gl + 1) begin
                    dot = {ACC_W{1'b0}};
                    for (gk = 0; gk < BLOCK; gk = gk + 1)
                        dot = dot + sx_inp(inp_rdata[((gl / BLOCK) * BLOCK + gk) * INP_W +: INP_W])
                                  * sx_wgt(wgt_rdata[((gl % BLOCK) * BLOCK + gk) * WGT_W +: WGT_W]);
                    res[gl*ACC_W +: ACC_W] = dst_v[gl*ACC_W +: ACC_W] + dot;
                end
            end
        end else begin : g_piped
            // M1: every product, lane l = b*BLOCK + j, element k at (l*BLOCK + k)*PROD_W
            reg [LANES*BLOCK*PROD_W-1:0] prod_c, m1_prod;
            // a dot sum of BLOCK products, each of magnitude <= 2^(PROD_W-2), is exact in
            // DOT_W = PROD_W + LOG_BLOCK bits (21 at BLOCK 32): narrower adders and registers
            localparam integer DOT_W = (PROD_W + LOG_BLOCK < ACC_W) ? PROD_W + LOG_BLOCK : ACC_W;
            reg [LANES*DOT_W-1:0]        dot_c;
            reg [ACC_W-1:0]              t;
            reg [DOT_W-1:0]              dot;
            function [DOT_W-1:0] sx_dot(input [PROD_W-1:0] v);
                sx_dot = {{(DOT_W-PROD_W){v[PROD_W-1]}}, v};
            endfunction
            wire unused_piped = &{1'b0, t[ACC_W-1:PROD_W]};
            integer gl, gk;
            // R (P = 3): the INP/WGT read data registered, so M1's multiplies start from a
            // register (the block RAM's output register where the tool merges it)
            localparam integer INP_BITS = 1 << (LOG_BATCH + LOG_BLOCK + LOG_INP_WIDTH);
            localparam integer WGT_BITS = 1 << (2 * LOG_BLOCK + LOG_WGT_WIDTH);
            wire [INP_BITS-1:0] inp_m;
            wire [WGT_BITS-1:0] wgt_m;
            if (P >= 3) begin : g_rd
                reg [INP_BITS-1:0] inp_q;
                reg [WGT_BITS-1:0] wgt_q;
                // free-running: a micro-op's read data is in R the cycle after stage B
                always @(posedge clk) begin
                    inp_q <= inp_rdata;
                    wgt_q <= wgt_rdata;
                end
                assign inp_m = inp_q;
                assign wgt_m = wgt_q;
            end else begin : g_rd_none
                assign inp_m = inp_rdata;
                assign wgt_m = wgt_rdata;
            end
            if (PACK != 0) begin : g_m1_pack
                reg [R_W-1:0] r;
                integer gb, gm, gp;
                always @* begin
                    for (gb = 0; gb < BATCH; gb = gb + 1)
                        for (gm = 0; gm < BLOCK / 2; gm = gm + 1)
                            for (gp = 0; gp < BLOCK; gp = gp + 1) begin
                                r = mul_pair(inp_m[(gb * BLOCK + gp) * INP_W +: INP_W],
                                             wgt_m[((2 * gm + 1) * BLOCK + gp) * WGT_W +: WGT_W],
                                             wgt_m[((2 * gm) * BLOCK + gp) * WGT_W +: WGT_W],
                                             {ACC_W{1'b0}});
                                prod_c[((gb * BLOCK + 2 * gm + 1) * BLOCK + gp) * PROD_W +: PROD_W] =
                                    r[PK_S +: PROD_W];
                                t = lo_prod(r);
                                prod_c[((gb * BLOCK + 2 * gm) * BLOCK + gp) * PROD_W +: PROD_W] =
                                    t[PROD_W-1:0];
                            end
                end
            end else begin : g_m1_plain
                integer pl, pk;
                always @* begin
                    for (pl = 0; pl < LANES; pl = pl + 1)
                        for (pk = 0; pk < BLOCK; pk = pk + 1) begin
                            t = sx_inp(inp_m[((pl / BLOCK) * BLOCK + pk) * INP_W +: INP_W])
                              * sx_wgt(wgt_m[((pl % BLOCK) * BLOCK + pk) * WGT_W +: WGT_W]);
                            prod_c[(pl * BLOCK + pk) * PROD_W +: PROD_W] = t[PROD_W-1:0];
                        end
                end
            end
            // free-running: a micro-op's products are in M1 the cycle after stage B (after R)
            always @(posedge clk) m1_prod <= prod_c;
            always @* begin
                for (gl = 0; gl < LANES; gl = gl + 1) begin
                    dot = {DOT_W{1'b0}};
                    for (gk = 0; gk < BLOCK; gk = gk + 1)
                        dot = dot + sx_dot(m1_prod[(gl * BLOCK + gk) * PROD_W +: PROD_W]);
                    dot_c[gl*DOT_W +: DOT_W] = dot;
                end
            end
            wire [LANES*DOT_W-1:0] dot_f;
            if (P >= 2) begin : g_m2
                reg [LANES*DOT_W-1:0] m2_dot;
                always @(posedge clk) m2_dot <= dot_c;
                assign dot_f = m2_dot;
            end else begin : g_m1_only
                assign dot_f = dot_c;
            end
            // C adds dst to these in the adder it shares with the ALU's ADD (below)
            genvar fl;
            for (fl = 0; fl < LANES; fl = fl + 1) begin : g_dot_ext
                assign dot_ext[fl*ACC_W +: ACC_W] =
                    {{(ACC_W-DOT_W){dot_f[fl*DOT_W + DOT_W - 1]}}, dot_f[fl*DOT_W +: DOT_W]};
            end
            assign gemm_res = {ACC_BITS{1'b0}};
        end
    endgenerate

    // ALU SHR of one lane: arithmetic right by b >= 0 (>= ACC_W: sign fill), left by -b
    localparam [ACC_W-1:0] ACC_W_C = ACC_W;
    function [ACC_W-1:0] alu_shr(input [ACC_W-1:0] a, input [ACC_W-1:0] b);
        reg [ACC_W-1:0] nb;
        reg [ACC_W-1:0] sra;
        begin
            nb  = {ACC_W{1'b0}} - b;
            // own statement: inside ?: with unsigned operands >>> would turn logical
            sra = $signed(a) >>> b[LOG_ACC_WIDTH-1:0];
            if (!b[ACC_W-1])
                alu_shr = (b >= ACC_W_C) ? {ACC_W{a[ACC_W-1]}} : sra;
            else
                alu_shr = (nb >= ACC_W_C) ? {ACC_W{1'b0}} : (a << nb[LOG_ACC_WIDTH-1:0]);
        end
    endfunction

    wire [ACC_W-1:0] imm_ext = {{(ACC_W-16){f_imm[15]}}, f_imm};
    wire [ACC_BITS-1:0] alu_b = f_uimm ? {LANES{imm_ext}} : src_q;

    // ALU MUL with P > 0 (rtl/README.md, "GEMM/ALU pipeline"): C registers the operands
    // (after forwarding), the low half of the 32x32 product is written Q = min(P, 2) cycles
    // later, in the bubbles stage A left behind the micro-op, so writes stay in order, one
    // per cycle.
    //   Q = 1: the product of the registered operands;
    //   Q = 2: the three 16x16 partial products that reach the low half registered, then
    //          a*b mod 2^32 = al*bl + 2^16 * (al*bh + ah*bl mod 2^16).
    wire                mul_wv;   // a MUL's delayed write
    wire                mul_busy;
    wire [LA-1:0]       mul_wa;
    wire                mul_nv;   // mul_wv and mul_wa of the next cycle (forwarding, P > 0)
    wire [LA-1:0]       mul_na;
    wire [ACC_BITS-1:0] mul_wd;
    generate
        if (P == 0) begin : g_mul_comb
            assign mul_wv = 1'b0;
            assign mul_busy = 1'b0;
            assign mul_wa = {LA{1'b0}};
            assign mul_wd = {ACC_BITS{1'b0}};
            assign mul_nv = 1'b0;
            assign mul_na = {LA{1'b0}};
        end else begin : g_mul
            localparam integer H = ACC_W / 2;
            reg                mv1;
            reg [LA-1:0]       ma1;
            reg [ACC_BITS-1:0] op_a, op_b, prod;
            integer ml;
            always @(posedge clk) begin
                if (rst) mv1 <= 1'b0;
                else     mv1 <= vc && !c_first && mulp;
                ma1  <= c_d;
                op_a <= dst_v;
                op_b <= alu_b;
            end
            if (P == 1) begin : g_mul1
                always @* begin
                    for (ml = 0; ml < LANES; ml = ml + 1)
                        prod[ml*ACC_W +: ACC_W] = op_a[ml*ACC_W +: ACC_W] * op_b[ml*ACC_W +: ACC_W];
                end
                assign mul_wv = mv1;
                assign mul_busy = mv1;
                assign mul_wa = ma1;
                assign mul_nv = vc && !c_first && mulp;
                assign mul_na = c_d;
            end else begin : g_mul2
                reg                mv2;
                reg [LA-1:0]       ma2;
                reg [ACC_BITS-1:0] pll;
                reg [LANES*H-1:0]  plh, phl;
                reg [H-1:0]        mid;
                always @(posedge clk) begin
                    if (rst) mv2 <= 1'b0;
                    else     mv2 <= mv1;
                    ma2 <= ma1;
                    for (ml = 0; ml < LANES; ml = ml + 1) begin
                        pll[ml*ACC_W +: ACC_W] <= {{H{1'b0}}, op_a[ml*ACC_W +: H]}
                                                * {{H{1'b0}}, op_b[ml*ACC_W +: H]};
                        plh[ml*H +: H] <= op_a[ml*ACC_W +: H] * op_b[ml*ACC_W + H +: H];
                        phl[ml*H +: H] <= op_a[ml*ACC_W + H +: H] * op_b[ml*ACC_W +: H];
                    end
                end
                integer sl;
                always @* begin
                    for (sl = 0; sl < LANES; sl = sl + 1) begin
                        mid = plh[sl*H +: H] + phl[sl*H +: H];
                        prod[sl*ACC_W +: ACC_W] = pll[sl*ACC_W +: ACC_W] + {mid, {H{1'b0}}};
                    end
                end
                assign mul_wv = mv2;
                assign mul_busy = mv1 || mv2;
                assign mul_wa = ma2;
                assign mul_nv = mv1;
                assign mul_na = ma1;
            end
            assign mul_wd = prod;
        end
    endgenerate

    // Stage C's result, one AND-OR per bit (rtl/README.md, "GEMM/ALU pipeline"). The
    // enables depend on the instruction and mul_wv alone, not on the ACC read, so what
    // arrives late from it (the MIN/MAX compare, the sum, the shift) passes one gate and the
    // OR instead of a chain of multiplexers. GEMM (P > 0) and ADD share one adder,
    // dst + (the dot sums or the ALU operand), whose second operand is ready early.
    //   MIN: a if a < b, else b; MAX: a unless a < b (a == b: either); ADD: a + b; SHR:
    //   alu_shr; MUL: a * b when P = 0 (else written Q cycles later, from g_mul); the
    //   illegal alu_opcodes 5..7: a (the destination unchanged); GEMM: dst + dot, 0 with
    //   reset_reg; any other instruction: ld_wdata (compute's ACC write mux, LOAD data or
    //   stage C, folded into this AND-OR: the pipeline writes only during a GEMM or ALU, the
    //   LOAD engine only during a LOAD).
    wire op_mm   = is_alu && (f_aop == ALU_MIN || f_aop == ALU_MAX);
    wire op_add  = is_alu && (f_aop == ALU_ADD);
    wire op_shr  = is_alu && (f_aop == ALU_SHR);
    wire op_mul0 = is_alu && (f_aop == ALU_MUL) && (P == 0);
    wire op_keep = is_alu && !op_mm && !op_add && !op_shr && !op_mul0;
`ifdef VTA_TEST_BREAK_ALU_MAX
    // test-only breakage (rtl/README.md): MAX returns the smaller operand
    wire max_inv = 1'b0;
`else
    wire max_inv = (f_aop == ALU_MAX);
`endif
    wire e_mm   = !mul_wv && op_mm;
    wire e_sum  = !mul_wv && (op_add || (is_gemm && !f_rst && P != 0));
    wire e_shr  = !mul_wv && op_shr;
    wire e_mul0 = !mul_wv && op_mul0;
    wire e_keep = !mul_wv && op_keep;
    wire e_g0   = !mul_wv && is_gemm && !f_rst && P == 0;
    wire e_ld   = !is_gemm && !is_alu;
    wire [ACC_BITS-1:0] add_b = is_alu ? alu_b : dot_ext;

    reg [ACC_BITS-1:0] c_res;
    reg [ACC_W-1:0]    ca, cb, cs;
    reg                pick_a;
    integer cl;
    always @* begin
        for (cl = 0; cl < LANES; cl = cl + 1) begin
            ca = dst_v[cl*ACC_W +: ACC_W];
            cb = alu_b[cl*ACC_W +: ACC_W];
            cs = ca + add_b[cl*ACC_W +: ACC_W];
            pick_a = ($signed(ca) < $signed(cb)) ^ max_inv;
            c_res[cl*ACC_W +: ACC_W] =
                  ({ACC_W{e_keep || (e_mm && pick_a)}} & ca)
                | ({ACC_W{e_mm && !pick_a}} & cb)
                | ({ACC_W{e_sum}} & cs)
                | ({ACC_W{e_shr}} & alu_shr(ca, cb))
                | ({ACC_W{e_mul0}} & (ca * cb))
                | ({ACC_W{e_g0}} & gemm_res[cl*ACC_W +: ACC_W])
                | ({ACC_W{mul_wv}} & mul_wd[cl*ACC_W +: ACC_W])
                | ({ACC_W{e_ld}} & ld_wdata[cl*ACC_W +: ACC_W]);
        end
    end

    wire wb = vc && !c_first && !mulp;   // C's own write (a MUL's follows Q cycles later)
    assign wb_valid = wb || mul_wv;
    assign wb_addr  = mul_wv ? mul_wa : c_d;
    assign wb_data  = c_res;

    always @(posedge clk)
        fw_d <= wb_data;   // the write of the cycle before
    generate
        if (RD == 0) begin : g_fw1
            reg fw_hd, fw_hs;
            always @(posedge clk) begin
                if (rst) begin
                    fw_hd <= 1'b0; fw_hs <= 1'b0;
                end else begin
                    // c_d <= r_d at this same edge; r_s is the src address C's src_v is for
                    fw_hd <= wb_valid && (wb_addr == r_d);
                    fw_hs <= wb_valid && (wb_addr == r_s);
                end
            end
            assign dst_v = fw_hd ? fw_d : acc_rdata;
            assign src_v = fw_hs ? fw_d : acc_rdata;
            assign fw_hit_d = fw_hd;
        end else begin : g_fw2
            // the write of the next cycle: C's own (the micro-op in stage P now) or a MUL's
            // delayed one (mul_nv, mul_na from g_mul); never both (the MUL's falls in bubbles)
            wire          nx_wv = (st_v[P] && !r_first && !mulp) || mul_nv;
            wire [LA-1:0] nx_wa = mul_nv ? mul_na : r_d;
            reg                fw_h1, fw_h2, fw_q;
            reg [ACC_BITS-1:0] acc_d;
            always @(posedge clk) begin
                if (rst) begin
                    fw_h1 <= 1'b0; fw_h2 <= 1'b0; fw_q <= 1'b0;
                end else begin
                    fw_h1 <= nx_wv && (nx_wa == acc_raddr);
                    fw_h2 <= wb_valid && (wb_addr == acc_raddr);
                    fw_q  <= fw_h1 || fw_h2;
                end
            end
            // free-running: a read's data is in acc_d the cycle it is in stage C
            always @(posedge clk)
                acc_d <= fw_h1 ? wb_data : (fw_h2 ? fw_d : acc_rdata);
            assign dst_v = acc_d;
            assign src_v = acc_d;
            assign fw_hit_d = fw_q;
        end
    endgenerate

    always @(posedge clk)
        if (vc && c_first) src_q <= src_v;

    assign busy     = lg_act || (|st_v) || vc || mul_busy;
    assign gemm_uop = wb && is_gemm;
    assign alu_uop  = wb_valid && is_alu;

    wire unused_gemm_alu = &{1'b0, insn, a_src, u_src, uop_rdata, fw_hit_d, r_s, mul_nv, mul_na};
endmodule
`default_nettype wire
