`default_nettype none
// VTA accelerator top level (see rtl/README.md and ../shared/VTA_SPEC.md).
// Parameters are the configuration keys of models/config.py; every other size
// (element bytes, buffer depths) is derived here and in the submodules by the
// same rules, and instruction field positions come from vta_isa.vh (generated
// from models/isa.py).
module vta_top #(
    parameter integer LOG_INP_WIDTH     = 3,
    parameter integer LOG_WGT_WIDTH     = 3,
    parameter integer LOG_ACC_WIDTH     = 5,
    parameter integer LOG_BATCH         = 0,
    parameter integer LOG_BLOCK         = 4,
    parameter integer LOG_UOP_BUFF_SIZE = 15,
    parameter integer LOG_INP_BUFF_SIZE = 15,
    parameter integer LOG_WGT_BUFF_SIZE = 18,
    parameter integer LOG_ACC_BUFF_SIZE = 17,
    parameter integer LOG_BUS_WIDTH     = 6,
    parameter integer CMD_QUEUE_DEPTH   = 8,
    parameter integer TOKEN_QUEUE_DEPTH = 8,
    parameter integer PIPE_STAGES       = 3
) (
    input  wire                           ap_clk,
    input  wire                           ap_rst_n,
    // AXI4-Lite control slave
    input  wire                           s_axi_control_awvalid,
    output wire                           s_axi_control_awready,
    input  wire [15:0]                    s_axi_control_awaddr,
    input  wire                           s_axi_control_wvalid,
    output wire                           s_axi_control_wready,
    input  wire [31:0]                    s_axi_control_wdata,
    input  wire [3:0]                     s_axi_control_wstrb,
    output wire                           s_axi_control_bvalid,
    input  wire                           s_axi_control_bready,
    output wire [1:0]                     s_axi_control_bresp,
    input  wire                           s_axi_control_arvalid,
    output wire                           s_axi_control_arready,
    input  wire [15:0]                    s_axi_control_araddr,
    output wire                           s_axi_control_rvalid,
    input  wire                           s_axi_control_rready,
    output wire [31:0]                    s_axi_control_rdata,
    output wire [1:0]                     s_axi_control_rresp,
    // AXI4 master
    output wire                           m_axi_gmem_awvalid,
    input  wire                           m_axi_gmem_awready,
    output wire [0:0]                     m_axi_gmem_awid,
    output wire [31:0]                    m_axi_gmem_awaddr,
    output wire [7:0]                     m_axi_gmem_awlen,
    output wire [2:0]                     m_axi_gmem_awsize,
    output wire [1:0]                     m_axi_gmem_awburst,
    output wire [0:0]                     m_axi_gmem_awlock,
    output wire [3:0]                     m_axi_gmem_awcache,
    output wire [2:0]                     m_axi_gmem_awprot,
    output wire [3:0]                     m_axi_gmem_awqos,
    output wire                           m_axi_gmem_wvalid,
    input  wire                           m_axi_gmem_wready,
    output wire [(1<<LOG_BUS_WIDTH)-1:0]  m_axi_gmem_wdata,
    output wire [(1<<LOG_BUS_WIDTH)/8-1:0] m_axi_gmem_wstrb,
    output wire                           m_axi_gmem_wlast,
    input  wire                           m_axi_gmem_bvalid,
    output wire                           m_axi_gmem_bready,
    input  wire [0:0]                     m_axi_gmem_bid,
    input  wire [1:0]                     m_axi_gmem_bresp,
    output wire                           m_axi_gmem_arvalid,
    input  wire                           m_axi_gmem_arready,
    output wire [0:0]                     m_axi_gmem_arid,
    output wire [31:0]                    m_axi_gmem_araddr,
    output wire [7:0]                     m_axi_gmem_arlen,
    output wire [2:0]                     m_axi_gmem_arsize,
    output wire [1:0]                     m_axi_gmem_arburst,
    output wire [0:0]                     m_axi_gmem_arlock,
    output wire [3:0]                     m_axi_gmem_arcache,
    output wire [2:0]                     m_axi_gmem_arprot,
    output wire [3:0]                     m_axi_gmem_arqos,
    input  wire                           m_axi_gmem_rvalid,
    output wire                           m_axi_gmem_rready,
    input  wire [0:0]                     m_axi_gmem_rid,
    input  wire [(1<<LOG_BUS_WIDTH)-1:0]  m_axi_gmem_rdata,
    input  wire [1:0]                     m_axi_gmem_rresp,
    input  wire                           m_axi_gmem_rlast
);
    // ---------------------------------------------------------------------
    // derived configuration (models/config.py)
    localparam integer LOG_B          = LOG_BUS_WIDTH - 3;             // log2 bus bytes
    localparam integer LOG_INP_BYTES  = LOG_BATCH + LOG_BLOCK + LOG_INP_WIDTH - 3;
    localparam integer LOG_WGT_BYTES  = 2 * LOG_BLOCK + LOG_WGT_WIDTH - 3;
    localparam integer LOG_ACC_BYTES  = LOG_BATCH + LOG_BLOCK + LOG_ACC_WIDTH - 3;
    localparam integer LOG_OUT_BYTES  = LOG_INP_BYTES;                 // OUT width = INP width
    localparam integer LOG_UOP_DEPTH  = LOG_UOP_BUFF_SIZE - 2;
    localparam integer LOG_INP_DEPTH  = LOG_INP_BUFF_SIZE - LOG_INP_BYTES;
    localparam integer LOG_WGT_DEPTH  = LOG_WGT_BUFF_SIZE - LOG_WGT_BYTES;
    localparam integer LOG_ACC_DEPTH  = LOG_ACC_BUFF_SIZE - LOG_ACC_BYTES;
    localparam integer INP_BITS       = 8 << LOG_INP_BYTES;
    localparam integer WGT_BITS       = 8 << LOG_WGT_BYTES;
    localparam integer OUT_BITS       = 8 << LOG_OUT_BYTES;
    localparam integer BUS_BYTES      = 1 << LOG_B;
    localparam integer NSTAT          = 32;

    wire clk = ap_clk;
    wire rst = !ap_rst_n;

    // ---------------------------------------------------------------------
    // control registers
    wire        launch, running, done, quiescent, finish, bus_error;
    wire [31:0] insn_count, insn_addr, uop_base, inp_base, wgt_base, acc_base, out_base;
    wire [NSTAT*32-1:0] stat;

    vta_ctrl #(.NSTAT(NSTAT)) u_ctrl (
        .clk(clk), .rst(rst),
        .awvalid(s_axi_control_awvalid), .awready(s_axi_control_awready), .awaddr(s_axi_control_awaddr),
        .wvalid(s_axi_control_wvalid), .wready(s_axi_control_wready),
        .wdata(s_axi_control_wdata), .wstrb(s_axi_control_wstrb),
        .bvalid(s_axi_control_bvalid), .bready(s_axi_control_bready), .bresp(s_axi_control_bresp),
        .arvalid(s_axi_control_arvalid), .arready(s_axi_control_arready), .araddr(s_axi_control_araddr),
        .rvalid(s_axi_control_rvalid), .rready(s_axi_control_rready),
        .rdata(s_axi_control_rdata), .rresp(s_axi_control_rresp),
        .quiescent(quiescent), .finish(finish), .bus_error(bus_error),
        .launch(launch), .running(running), .done(done),
        .insn_count(insn_count), .insn_addr(insn_addr),
        .uop_base(uop_base), .inp_base(inp_base), .wgt_base(wgt_base),
        .acc_base(acc_base), .out_base(out_base),
        .stat(stat)
    );

    // ---------------------------------------------------------------------
    // AXI read arbiter: client 0 fetch, 1 load, 2 compute
    wire [2:0]  c_arvalid, c_arready, c_rvalid, c_rready;
    wire [95:0] c_araddr;
    wire [23:0] c_arlen;
    wire [7:0]  rd_outstanding;

    vta_rd_arb #(.NC(3), .OUTST(8)) u_arb (
        .clk(clk), .rst(rst),
        .c_arvalid(c_arvalid), .c_arready(c_arready), .c_araddr(c_araddr), .c_arlen(c_arlen),
        .c_rvalid(c_rvalid), .c_rready(c_rready),
        .m_arvalid(m_axi_gmem_arvalid), .m_arready(m_axi_gmem_arready),
        .m_araddr(m_axi_gmem_araddr), .m_arlen(m_axi_gmem_arlen),
        .m_rvalid(m_axi_gmem_rvalid), .m_rready(m_axi_gmem_rready), .m_rlast(m_axi_gmem_rlast),
        .outstanding(rd_outstanding)
    );

    localparam [31:0] LOG_B32 = LOG_B;
    localparam [2:0] AXSIZE = LOG_B32[2:0];
    assign m_axi_gmem_arid    = 1'b0;
    assign m_axi_gmem_arsize  = AXSIZE;
    assign m_axi_gmem_arburst = 2'b01;    // INCR
    assign m_axi_gmem_arlock  = 1'b0;
    assign m_axi_gmem_arcache = 4'b0011;  // normal non-cacheable bufferable
    assign m_axi_gmem_arprot  = 3'b000;
    assign m_axi_gmem_arqos   = 4'b0000;
    assign m_axi_gmem_awid    = 1'b0;
    assign m_axi_gmem_awsize  = AXSIZE;
    assign m_axi_gmem_awburst = 2'b01;
    assign m_axi_gmem_awlock  = 1'b0;
    assign m_axi_gmem_awcache = 4'b0011;
    assign m_axi_gmem_awprot  = 3'b000;
    assign m_axi_gmem_awqos   = 4'b0000;

    // ---------------------------------------------------------------------
    // command queues and dependency tokens
    wire [159:0] f_qdata;
    wire ld_qpush, cp_qpush, st_qpush;
    wire ld_qfull, cp_qfull, st_qfull;
    wire ld_qempty, cp_qempty, st_qempty;
    wire ld_qpop, cp_qpop, st_qpop;
    wire [159:0] ld_qdata, cp_qdata, st_qdata;
    wire [7:0] ld_qcount, cp_qcount, st_qcount;

    vta_fifo #(.WIDTH(160), .DEPTH(CMD_QUEUE_DEPTH)) u_ldq (
        .clk(clk), .rst(rst), .clr(launch), .push(ld_qpush), .din(f_qdata), .full(ld_qfull),
        .pop(ld_qpop), .dout(ld_qdata), .empty(ld_qempty), .count(ld_qcount));
    vta_fifo #(.WIDTH(160), .DEPTH(CMD_QUEUE_DEPTH)) u_cpq (
        .clk(clk), .rst(rst), .clr(launch), .push(cp_qpush), .din(f_qdata), .full(cp_qfull),
        .pop(cp_qpop), .dout(cp_qdata), .empty(cp_qempty), .count(cp_qcount));
    vta_fifo #(.WIDTH(160), .DEPTH(CMD_QUEUE_DEPTH)) u_stq (
        .clk(clk), .rst(rst), .clr(launch), .push(st_qpush), .din(f_qdata), .full(st_qfull),
        .pop(st_qpop), .dout(st_qdata), .empty(st_qempty), .count(st_qcount));

    wire l2c_push, l2c_pop, l2c_can_push, l2c_can_pop;
    wire c2l_push, c2l_pop, c2l_can_push, c2l_can_pop;
    wire c2s_push, c2s_pop, c2s_can_push, c2s_can_pop;
    wire s2c_push, s2c_pop, s2c_can_push, s2c_can_pop;
    wire [7:0] l2c_count, c2l_count, c2s_count, s2c_count;

    vta_token #(.DEPTH(TOKEN_QUEUE_DEPTH)) u_l2c (.clk(clk), .rst(rst), .clr(launch),
        .push(l2c_push), .pop(l2c_pop), .can_push(l2c_can_push), .can_pop(l2c_can_pop), .count(l2c_count));
    vta_token #(.DEPTH(TOKEN_QUEUE_DEPTH)) u_c2l (.clk(clk), .rst(rst), .clr(launch),
        .push(c2l_push), .pop(c2l_pop), .can_push(c2l_can_push), .can_pop(c2l_can_pop), .count(c2l_count));
    vta_token #(.DEPTH(TOKEN_QUEUE_DEPTH)) u_c2s (.clk(clk), .rst(rst), .clr(launch),
        .push(c2s_push), .pop(c2s_pop), .can_push(c2s_can_push), .can_pop(c2s_can_pop), .count(c2s_count));
    vta_token #(.DEPTH(TOKEN_QUEUE_DEPTH)) u_s2c (.clk(clk), .rst(rst), .clr(launch),
        .push(s2c_push), .pop(s2c_pop), .can_push(s2c_can_push), .can_pop(s2c_can_pop), .count(s2c_count));

    // ---------------------------------------------------------------------
    // fetch
    wire        f_busy, f_stall;
    wire [31:0] f_dispatched, f_status;

    vta_fetch #(.LOG_B(LOG_B)) u_fetch (
        .clk(clk), .rst(rst), .launch(launch),
        .insn_addr(insn_addr), .insn_count(insn_count),
        .ar_valid(c_arvalid[0]), .ar_ready(c_arready[0]), .ar_addr(c_araddr[31:0]), .ar_len(c_arlen[7:0]),
        .r_valid(c_rvalid[0]), .r_ready(c_rready[0]), .r_data(m_axi_gmem_rdata),
        .q_data(f_qdata),
        .ld_push(ld_qpush), .ld_full(ld_qfull),
        .cp_push(cp_qpush), .cp_full(cp_qfull),
        .st_push(st_qpush), .st_full(st_qfull),
        .busy(f_busy), .stall(f_stall), .dispatched(f_dispatched), .status(f_status)
    );

    // ---------------------------------------------------------------------
    // on-chip buffers written by one module and read by another
    wire                     inp_we, inp_re;
    wire [LOG_INP_DEPTH-1:0] inp_waddr, inp_raddr;
    wire [INP_BITS-1:0]      inp_wdata, inp_rdata;
    wire                     wgt_we, wgt_re;
    wire [LOG_WGT_DEPTH-1:0] wgt_waddr, wgt_raddr;
    wire [WGT_BITS-1:0]      wgt_wdata, wgt_rdata;
    wire                     out_we, out_re;
    wire [LOG_ACC_DEPTH-1:0] out_waddr, out_raddr;
    wire [OUT_BITS-1:0]      out_wdata, out_rdata;

    vta_ram #(.WIDTH(INP_BITS), .LOG_DEPTH(LOG_INP_DEPTH)) u_inp (
        .clk(clk), .we(inp_we), .waddr(inp_waddr), .wdata(inp_wdata),
        .re(inp_re), .raddr(inp_raddr), .rdata(inp_rdata));
    vta_ram #(.WIDTH(WGT_BITS), .LOG_DEPTH(LOG_WGT_DEPTH)) u_wgt (
        .clk(clk), .we(wgt_we), .waddr(wgt_waddr), .wdata(wgt_wdata),
        .re(wgt_re), .raddr(wgt_raddr), .rdata(wgt_rdata));
    vta_ram #(.WIDTH(OUT_BITS), .LOG_DEPTH(LOG_ACC_DEPTH)) u_out (
        .clk(clk), .we(out_we), .waddr(out_waddr), .wdata(out_wdata),
        .re(out_re), .raddr(out_raddr), .rdata(out_rdata));

    // ---------------------------------------------------------------------
    // load
    wire        l_busy, l_stall, l_done;
    wire [31:0] l_status, l_idx;

    vta_load #(.LOG_B(LOG_B), .LOG_INP_BYTES(LOG_INP_BYTES), .LOG_WGT_BYTES(LOG_WGT_BYTES),
               .LOG_INP_DEPTH(LOG_INP_DEPTH), .LOG_WGT_DEPTH(LOG_WGT_DEPTH)) u_load (
        .clk(clk), .rst(rst),
        .q_empty(ld_qempty), .q_pop(ld_qpop), .q_data(ld_qdata),
        .c2l_can_pop(c2l_can_pop), .c2l_pop(c2l_pop), .l2c_can_push(l2c_can_push), .l2c_push(l2c_push),
        .inp_base(inp_base), .wgt_base(wgt_base),
        .ar_valid(c_arvalid[1]), .ar_ready(c_arready[1]), .ar_addr(c_araddr[63:32]), .ar_len(c_arlen[15:8]),
        .r_valid(c_rvalid[1]), .r_ready(c_rready[1]), .r_data(m_axi_gmem_rdata),
        .inp_we(inp_we), .inp_waddr(inp_waddr), .inp_wdata(inp_wdata),
        .wgt_we(wgt_we), .wgt_waddr(wgt_waddr), .wgt_wdata(wgt_wdata),
        .busy(l_busy), .stall(l_stall), .insn_done(l_done), .status(l_status), .insn_idx(l_idx)
    );

    // ---------------------------------------------------------------------
    // compute
    wire        c_busy, c_stall, c_done, gemm_uop, alu_uop;
    wire [31:0] c_status, c_idx;

    vta_compute #(.LOG_B(LOG_B), .LOG_INP_WIDTH(LOG_INP_WIDTH), .LOG_WGT_WIDTH(LOG_WGT_WIDTH),
                  .LOG_ACC_WIDTH(LOG_ACC_WIDTH), .LOG_BATCH(LOG_BATCH), .LOG_BLOCK(LOG_BLOCK),
                  .LOG_UOP_DEPTH(LOG_UOP_DEPTH), .LOG_INP_DEPTH(LOG_INP_DEPTH),
                  .LOG_WGT_DEPTH(LOG_WGT_DEPTH), .LOG_ACC_DEPTH(LOG_ACC_DEPTH),
                  .PIPE_STAGES(PIPE_STAGES)) u_compute (
        .clk(clk), .rst(rst),
        .q_empty(cp_qempty), .q_pop(cp_qpop), .q_data(cp_qdata),
        .l2c_can_pop(l2c_can_pop), .l2c_pop(l2c_pop), .s2c_can_pop(s2c_can_pop), .s2c_pop(s2c_pop),
        .c2l_can_push(c2l_can_push), .c2l_push(c2l_push), .c2s_can_push(c2s_can_push), .c2s_push(c2s_push),
        .uop_base(uop_base), .acc_base(acc_base),
        .ar_valid(c_arvalid[2]), .ar_ready(c_arready[2]), .ar_addr(c_araddr[95:64]), .ar_len(c_arlen[23:16]),
        .r_valid(c_rvalid[2]), .r_ready(c_rready[2]), .r_data(m_axi_gmem_rdata),
        .inp_re(inp_re), .inp_raddr(inp_raddr), .inp_rdata(inp_rdata),
        .wgt_re(wgt_re), .wgt_raddr(wgt_raddr), .wgt_rdata(wgt_rdata),
        .out_we(out_we), .out_waddr(out_waddr), .out_wdata(out_wdata),
        .finish(finish), .gemm_uop(gemm_uop), .alu_uop(alu_uop),
        .busy(c_busy), .stall(c_stall), .insn_done(c_done), .status(c_status), .insn_idx(c_idx)
    );

    // ---------------------------------------------------------------------
    // store
    wire        s_busy, s_stall, s_done;
    wire [31:0] s_status, s_idx;
    wire [7:0]  wr_outstanding;

    vta_store #(.LOG_B(LOG_B), .LOG_OUT_BYTES(LOG_OUT_BYTES), .LOG_ACC_DEPTH(LOG_ACC_DEPTH)) u_store (
        .clk(clk), .rst(rst),
        .q_empty(st_qempty), .q_pop(st_qpop), .q_data(st_qdata),
        .c2s_can_pop(c2s_can_pop), .c2s_pop(c2s_pop), .s2c_can_push(s2c_can_push), .s2c_push(s2c_push),
        .out_base(out_base),
        .out_re(out_re), .out_raddr(out_raddr), .out_rdata(out_rdata),
        .awvalid(m_axi_gmem_awvalid), .awready(m_axi_gmem_awready),
        .awaddr(m_axi_gmem_awaddr), .awlen(m_axi_gmem_awlen),
        .wvalid(m_axi_gmem_wvalid), .wready(m_axi_gmem_wready),
        .wdata(m_axi_gmem_wdata), .wstrb(m_axi_gmem_wstrb), .wlast(m_axi_gmem_wlast),
        .bvalid(m_axi_gmem_bvalid), .bready(m_axi_gmem_bready),
        .busy(s_busy), .stall(s_stall), .insn_done(s_done), .status(s_status), .insn_idx(s_idx),
        .wr_outstanding(wr_outstanding)
    );

    assign quiescent = !f_busy && !l_busy && !c_busy && !s_busy
                       && ld_qempty && cp_qempty && st_qempty
                       && (rd_outstanding == 8'd0) && (wr_outstanding == 8'd0);

    // ---------------------------------------------------------------------
    // performance counters (cleared at launch)
    reg [31:0] n_gemm, n_alu, n_rd, n_wr;
    reg [31:0] b_fetch, b_load, b_comp, b_store;
    reg [31:0] s_fetch_c, s_load_c, s_comp_c, s_store_c;
    reg [31:0] i_load, i_comp, i_store;
    reg [31:0] x_gemm, x_alu, x_cload, x_load, x_store;
    reg        err_r, err_b;
    assign bus_error = err_r | err_b;
    wire c_exec = c_status[14];

    wire r_fire = m_axi_gmem_rvalid && m_axi_gmem_rready;
    wire w_fire = m_axi_gmem_wvalid && m_axi_gmem_wready;
    reg [31:0] strb_bytes;
    integer sb;
    always @* begin
        strb_bytes = 32'd0;
        for (sb = 0; sb < BUS_BYTES; sb = sb + 1)
            strb_bytes = strb_bytes + {31'd0, m_axi_gmem_wstrb[sb]};
    end
    localparam [31:0] BUS_BYTES32 = BUS_BYTES;

    always @(posedge clk) begin
        if (rst || launch) begin
            n_gemm <= 32'd0; n_alu <= 32'd0; n_rd <= 32'd0; n_wr <= 32'd0;
            b_fetch <= 32'd0; b_load <= 32'd0; b_comp <= 32'd0; b_store <= 32'd0;
            s_fetch_c <= 32'd0; s_load_c <= 32'd0; s_comp_c <= 32'd0; s_store_c <= 32'd0;
            i_load <= 32'd0; i_comp <= 32'd0; i_store <= 32'd0;
            x_gemm <= 32'd0; x_alu <= 32'd0; x_cload <= 32'd0; x_load <= 32'd0; x_store <= 32'd0;
            err_r <= 1'b0; err_b <= 1'b0;
        end else begin
            if (gemm_uop) n_gemm <= n_gemm + 32'd1;
            if (alu_uop)  n_alu  <= n_alu + 32'd1;
            if (r_fire)   n_rd   <= n_rd + BUS_BYTES32;
`ifdef VTA_TEST_BREAK_WR_BYTES
            // test-only breakage (rtl/README.md): WR_BYTES counts every W beat's whole width
            if (w_fire)   n_wr   <= n_wr + BUS_BYTES32 + (strb_bytes & 32'd0);
`else
            if (w_fire)   n_wr   <= n_wr + strb_bytes;
`endif
            if (f_busy)   b_fetch <= b_fetch + 32'd1;
            if (l_busy)   b_load  <= b_load + 32'd1;
            if (c_busy)   b_comp  <= b_comp + 32'd1;
            if (s_busy)   b_store <= b_store + 32'd1;
            if (f_stall)  s_fetch_c <= s_fetch_c + 32'd1;
            if (l_stall)  s_load_c  <= s_load_c + 32'd1;
            if (c_stall)  s_comp_c  <= s_comp_c + 32'd1;
            if (s_stall)  s_store_c <= s_store_c + 32'd1;
            if (l_done)   i_load  <= i_load + 32'd1;
            if (c_done)   i_comp  <= i_comp + 32'd1;
            if (s_done)   i_store <= i_store + 32'd1;
            if (c_exec && c_status[6:4] == 3'd2) x_gemm  <= x_gemm + 32'd1;
            if (c_exec && c_status[6:4] == 3'd4) x_alu   <= x_alu + 32'd1;
            if (c_exec && c_status[6:4] == 3'd0) x_cload <= x_cload + 32'd1;
            if (l_status[14])                    x_load  <= x_load + 32'd1;
            if (s_status[14])                    x_store <= x_store + 32'd1;
            if (r_fire && m_axi_gmem_rresp != 2'b00) err_r <= 1'b1;
            if (m_axi_gmem_bvalid && m_axi_gmem_bresp != 2'b00) err_b <= 1'b1;
        end
    end

    // INSN_IDX and a module's status word describe the instruction it holds or last held
    // since the launch: an accepted START clears them like the counters (rtl/README.md,
    // Launch semantics), so no index, opcode or memory type of the last program shows. A
    // START is accepted only while every module is idle, so a module that has not taken an
    // instruction since reads all zero; once it has, the word shows its phase machine.
    reg  [2:0] taken;                                 // {store, compute, load} since the launch
    wire [2:0] shown = taken | {s_busy, c_busy, l_busy};
    always @(posedge clk) begin
        if (rst || launch) taken <= 3'd0;
        else               taken <= shown;
    end

    localparam [31:0] TQD32 = TOKEN_QUEUE_DEPTH;
    localparam [31:0] CQD32 = CMD_QUEUE_DEPTH;
    localparam [31:0] LBW32 = LOG_BUS_WIDTH;
    localparam [31:0] LBL32 = LOG_BLOCK;
    localparam [31:0] LBA32 = LOG_BATCH;
    localparam [7:0] TQD8 = TQD32[7:0];
    localparam [7:0] CQD8 = CQD32[7:0];
    localparam [3:0] LBW4 = LBW32[3:0];
    localparam [3:0] LBL4 = LBL32[3:0];
    localparam [3:0] LBA4 = LBA32[3:0];

    // stat[i] is the register at 0x24 + 4*i (see rtl/README.md)
    assign stat = {
        x_store, x_load, x_cload, x_alu, x_gemm,                       // 0xA0..0x90 EXEC cycles
        {TQD8, CQD8, LBW4, LBL4, LBA4, 4'h1},                          // 0x8C HW_INFO
        {err_r, err_b, 14'd0, wr_outstanding, rd_outstanding},         // 0x88 AXI_STATUS
        {8'd0, st_qcount, cp_qcount, ld_qcount},                       // 0x84 QUEUES
        {s2c_count, c2s_count, c2l_count, l2c_count},                  // 0x80 TOKENS
        shown[2] ? s_idx : 32'd0, shown[1] ? c_idx : 32'd0,            // 0x7C, 0x78 INSN_IDX
        shown[0] ? l_idx : 32'd0,                                      // 0x74
        shown[2] ? s_status : 32'd0, shown[1] ? c_status : 32'd0,      // 0x70, 0x6C STATUS
        shown[0] ? l_status : 32'd0, f_status,                         // 0x68, 0x64
        i_store, i_comp, i_load,                                       // 0x60..0x58 INSNS done
        f_dispatched,                                                  // 0x54
        s_store_c, s_comp_c, s_load_c, s_fetch_c,                      // 0x50..0x44 STALL
        b_store, b_comp, b_load, b_fetch,                              // 0x40..0x34 BUSY
        n_wr, n_rd, n_alu, n_gemm                                      // 0x30..0x24
    };

    wire unused_top = &{1'b0, m_axi_gmem_bid, m_axi_gmem_rid, running, done};
endmodule
`default_nettype wire
