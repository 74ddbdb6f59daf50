`default_nettype none
// Whole-top formal harness (bounded): rtl/vta_top.v on the small configuration
// (models/configs/small.json; the other keys at vta_top's defaults), its SRAMs replaced by
// tb/rtl/formal/vta_ram.v (free read data, changing only where the real RAM's may), its two
// AXI ports watched by the shared AXI rules (tb/rtl/vta_axi_rules.vh, through
// tb/rtl/formal/vta_formal_axi.v):
//   s_axi_control (AXI4-Lite): the host is the manager: its AW/W/AR rules are ASSUMED (a legal
//     host, nothing more), the DUT's B/R rules ASSERTED;
//   m_axi_gmem (AXI4): the DUT is the manager: AW/W/AR rules ASSERTED (incl. INCR, size,
//     4 KiB, WLAST, attributes), the memory's B/R rules ASSUMED (a response only for an
//     outstanding request, RLAST on the last beat, valid and payload held). Read data, response
//     codes and every host value are free: programs are arbitrary instruction streams.
// Ordering (spec section 4: "DONE means all results are in DRAM"), observed at the ports: a
// CTRL read (0x00) that returns DONE, or returns not-running, was sampled at a moment with no
// write burst outstanding on m_axi_gmem (issued and not yet answered by B). It holds for
// well-formed programs only (an ill-formed one may FINISH before an unrelated STORE), so it
// is asserted on the runs whose every memory read beat keeps the program inside a class where
// it must hold: each byte that could be a STORE head (opcode 001) pushes S2C (bit 5), each
// byte that could be a FINISH head (opcode 011) pops S2C (bit 4), and at most one byte could
// be a STORE head. Every byte of every beat is checked (the fetch may read from any byte
// address), so the class is conservative, never too wide: the FINISH then waits for the one
// STORE's token, which the store pushes only after its last write response.
// Covers: the first STORE write (AW handshake, W beat, B), DONE read back, DONE after a STORE.
// A foreign DUT (`make formal DUT=NAME`, tb/formal/foreign.py): with VTA_FORMAL_FOREIGN defined,
// vta_top is the profile's generated wrapper (no parameters: the instance takes none), IDW is
// the profile's memory ID width, and the DONE ordering asserts are left out: they read rtl/'s
// register map (CTRL bit 0 a running status, DONE not host-writable), which another design
// need not have (tb/formal/foreign.py says why for upstream-chisel). The monitor may watch
// only the low MIDW bits of the memory IDs (its per-ID queues grow with 1 << MIDW): then the
// DUT's upper ID bits are ASSERTED zero on AW and AR, and the memory's on B and R ASSUMED zero,
// which removes only responses the rules already forbid (a B/R ID must be an outstanding
// request's, and every request's upper bits are zero until the assert fails).
// Run: tb/formal/top_bmc.sby (mode bmc, abc bmc3), see tb/formal/jobs.py.
module vta_formal_top #(
    parameter integer LOG_INP_WIDTH     = 3,
    parameter integer LOG_WGT_WIDTH     = 3,
    parameter integer LOG_ACC_WIDTH     = 5,
    parameter integer LOG_BATCH         = 0,
    parameter integer LOG_BLOCK         = 2,
    parameter integer LOG_UOP_BUFF_SIZE = 10,
    parameter integer LOG_INP_BUFF_SIZE = 10,
    parameter integer LOG_WGT_BUFF_SIZE = 12,
    parameter integer LOG_ACC_BUFF_SIZE = 12,
    parameter integer LOG_BUS_WIDTH     = 6,
    parameter integer CMD_QUEUE_DEPTH   = 8,
    parameter integer TOKEN_QUEUE_DEPTH = 8,
    parameter integer QD                = 8,    // >= the store's 8 AWs ahead of W and 8 reads
    parameter integer IDW               = 1,    // the memory port's ID width (vta_top: 1)
    parameter integer MIDW              = IDW   // the ID bits the monitor tells apart (<= IDW)
) (
    input  wire                           clk,
    input  wire                           ap_rst_n,
    // host (AXI4-Lite manager)
    input  wire                           s_axi_control_awvalid,
    input  wire [15:0]                    s_axi_control_awaddr,
    input  wire                           s_axi_control_wvalid,
    input  wire [31:0]                    s_axi_control_wdata,
    input  wire [3:0]                     s_axi_control_wstrb,
    input  wire                           s_axi_control_bready,
    input  wire                           s_axi_control_arvalid,
    input  wire [15:0]                    s_axi_control_araddr,
    input  wire                           s_axi_control_rready,
    // memory (AXI4 subordinate)
    input  wire                           m_axi_gmem_awready,
    input  wire                           m_axi_gmem_wready,
    input  wire                           m_axi_gmem_bvalid,
    input  wire [IDW-1:0]                 m_axi_gmem_bid,
    input  wire [1:0]                     m_axi_gmem_bresp,
    input  wire                           m_axi_gmem_arready,
    input  wire                           m_axi_gmem_rvalid,
    input  wire [IDW-1:0]                 m_axi_gmem_rid,
    input  wire [(1<<LOG_BUS_WIDTH)-1:0]  m_axi_gmem_rdata,
    input  wire [1:0]                     m_axi_gmem_rresp,
    input  wire                           m_axi_gmem_rlast
);
    localparam integer DW = 1 << LOG_BUS_WIDTH;
    localparam integer NB = DW / 8;

    wire        c_awready, c_wready, c_bvalid, c_arready, c_rvalid;
    wire [1:0]  c_bresp, c_rresp;
    wire [31:0] c_rdata;
    wire        awvalid, wvalid, wlast, bready, arvalid, rready;
    wire [IDW-1:0] awid, arid;
    wire [0:0]  awlock, arlock;
    wire [31:0] awaddr, araddr;
    wire [7:0]  awlen, arlen;
    wire [2:0]  awsize, arsize, awprot, arprot;
    wire [1:0]  awburst, arburst;
    wire [3:0]  awcache, arcache, awqos, arqos;
    wire [DW-1:0] wdata;
    wire [NB-1:0] wstrb;

`ifdef VTA_FORMAL_FOREIGN
`define VTA_FORMAL_TOP_PARAMS
`else
`define VTA_FORMAL_TOP_PARAMS #(.LOG_INP_WIDTH(LOG_INP_WIDTH), .LOG_WGT_WIDTH(LOG_WGT_WIDTH), \
        .LOG_ACC_WIDTH(LOG_ACC_WIDTH), .LOG_BATCH(LOG_BATCH), .LOG_BLOCK(LOG_BLOCK), \
        .LOG_UOP_BUFF_SIZE(LOG_UOP_BUFF_SIZE), .LOG_INP_BUFF_SIZE(LOG_INP_BUFF_SIZE), \
        .LOG_WGT_BUFF_SIZE(LOG_WGT_BUFF_SIZE), .LOG_ACC_BUFF_SIZE(LOG_ACC_BUFF_SIZE), \
        .LOG_BUS_WIDTH(LOG_BUS_WIDTH), .CMD_QUEUE_DEPTH(CMD_QUEUE_DEPTH), \
        .TOKEN_QUEUE_DEPTH(TOKEN_QUEUE_DEPTH))
`endif
    vta_top `VTA_FORMAL_TOP_PARAMS u_vta (
        .ap_clk(clk), .ap_rst_n(ap_rst_n),
        .s_axi_control_awvalid(s_axi_control_awvalid), .s_axi_control_awready(c_awready),
        .s_axi_control_awaddr(s_axi_control_awaddr),
        .s_axi_control_wvalid(s_axi_control_wvalid), .s_axi_control_wready(c_wready),
        .s_axi_control_wdata(s_axi_control_wdata), .s_axi_control_wstrb(s_axi_control_wstrb),
        .s_axi_control_bvalid(c_bvalid), .s_axi_control_bready(s_axi_control_bready),
        .s_axi_control_bresp(c_bresp),
        .s_axi_control_arvalid(s_axi_control_arvalid), .s_axi_control_arready(c_arready),
        .s_axi_control_araddr(s_axi_control_araddr),
        .s_axi_control_rvalid(c_rvalid), .s_axi_control_rready(s_axi_control_rready),
        .s_axi_control_rdata(c_rdata), .s_axi_control_rresp(c_rresp),
        .m_axi_gmem_awvalid(awvalid), .m_axi_gmem_awready(m_axi_gmem_awready),
        .m_axi_gmem_awid(awid), .m_axi_gmem_awaddr(awaddr), .m_axi_gmem_awlen(awlen),
        .m_axi_gmem_awsize(awsize), .m_axi_gmem_awburst(awburst), .m_axi_gmem_awlock(awlock),
        .m_axi_gmem_awcache(awcache), .m_axi_gmem_awprot(awprot), .m_axi_gmem_awqos(awqos),
        .m_axi_gmem_wvalid(wvalid), .m_axi_gmem_wready(m_axi_gmem_wready),
        .m_axi_gmem_wdata(wdata), .m_axi_gmem_wstrb(wstrb), .m_axi_gmem_wlast(wlast),
        .m_axi_gmem_bvalid(m_axi_gmem_bvalid), .m_axi_gmem_bready(bready),
        .m_axi_gmem_bid(m_axi_gmem_bid), .m_axi_gmem_bresp(m_axi_gmem_bresp),
        .m_axi_gmem_arvalid(arvalid), .m_axi_gmem_arready(m_axi_gmem_arready),
        .m_axi_gmem_arid(arid), .m_axi_gmem_araddr(araddr), .m_axi_gmem_arlen(arlen),
        .m_axi_gmem_arsize(arsize), .m_axi_gmem_arburst(arburst), .m_axi_gmem_arlock(arlock),
        .m_axi_gmem_arcache(arcache), .m_axi_gmem_arprot(arprot), .m_axi_gmem_arqos(arqos),
        .m_axi_gmem_rvalid(m_axi_gmem_rvalid), .m_axi_gmem_rready(rready),
        .m_axi_gmem_rid(m_axi_gmem_rid), .m_axi_gmem_rdata(m_axi_gmem_rdata),
        .m_axi_gmem_rresp(m_axi_gmem_rresp), .m_axi_gmem_rlast(m_axi_gmem_rlast)
    );

    // ---- the two ports under the shared rules ---------------------------------------------
    wire mem_wr_busy, mem_rd_busy, lite_wr_busy, lite_rd_busy;

`undef VTA_FORMAL_TOP_PARAMS
    vta_formal_axi #(.LITE(0), .DUT_MANAGER(1), .DW(DW), .IDW(MIDW), .AW(32), .QD(QD)) u_mon_mem (
        .clk(clk), .rst_n(ap_rst_n),
        .awid(awid[MIDW-1:0]), .awaddr(awaddr), .awlen(awlen), .awsize(awsize), .awburst(awburst),
        .awattr({awlock, awcache, awprot, awqos}), .awvalid(awvalid), .awready(m_axi_gmem_awready),
        .wdata(wdata), .wstrb(wstrb), .wlast(wlast), .wvalid(wvalid), .wready(m_axi_gmem_wready),
        .bid(m_axi_gmem_bid[MIDW-1:0]), .bresp(m_axi_gmem_bresp), .bvalid(m_axi_gmem_bvalid), .bready(bready),
        .arid(arid[MIDW-1:0]), .araddr(araddr), .arlen(arlen), .arsize(arsize), .arburst(arburst),
        .arattr({arlock, arcache, arprot, arqos}), .arvalid(arvalid), .arready(m_axi_gmem_arready),
        .rid(m_axi_gmem_rid[MIDW-1:0]), .rdata(m_axi_gmem_rdata), .rresp(m_axi_gmem_rresp),
        .rlast(m_axi_gmem_rlast), .rvalid(m_axi_gmem_rvalid), .rready(rready),
        .wr_busy(mem_wr_busy), .rd_busy(mem_rd_busy)
    );

    vta_formal_axi #(.LITE(1), .DUT_MANAGER(0), .DW(32), .IDW(1), .AW(16), .QD(2)) u_mon_lite (
        .clk(clk), .rst_n(ap_rst_n),
        .awid(1'b0), .awaddr(s_axi_control_awaddr), .awlen(8'd0), .awsize(3'd2), .awburst(2'd1),
        .awattr(12'h180), .awvalid(s_axi_control_awvalid), .awready(c_awready),
        .wdata(s_axi_control_wdata), .wstrb(s_axi_control_wstrb), .wlast(1'b1),
        .wvalid(s_axi_control_wvalid), .wready(c_wready),
        .bid(1'b0), .bresp(c_bresp), .bvalid(c_bvalid), .bready(s_axi_control_bready),
        .arid(1'b0), .araddr(s_axi_control_araddr), .arlen(8'd0), .arsize(3'd2), .arburst(2'd1),
        .arattr(12'h180), .arvalid(s_axi_control_arvalid), .arready(c_arready),
        .rid(1'b0), .rdata(c_rdata), .rresp(c_rresp), .rlast(1'b1),
        .rvalid(c_rvalid), .rready(s_axi_control_rready),
        .wr_busy(lite_wr_busy), .rd_busy(lite_rd_busy)
    );

    // ---- the ID bits the monitor does not tell apart: zero on both sides -------------------
    generate
        if (MIDW < IDW) begin : narrow_ids
            always @(*) if (ap_rst_n) begin
                a_awid_narrow: assert(!awvalid || awid[IDW-1:MIDW] == {(IDW-MIDW){1'b0}});
                a_arid_narrow: assert(!arvalid || arid[IDW-1:MIDW] == {(IDW-MIDW){1'b0}});
                m_bid_narrow: assume(!m_axi_gmem_bvalid || m_axi_gmem_bid[IDW-1:MIDW] == {(IDW-MIDW){1'b0}});
                m_rid_narrow: assume(!m_axi_gmem_rvalid || m_axi_gmem_rid[IDW-1:MIDW] == {(IDW-MIDW){1'b0}});
            end
        end
    endgenerate

    // ---- reset: held in the first cycle, released after ----------------------------------
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) begin
        if (!f_past) m_reset_first: assume(!ap_rst_n);
        else         m_reset_released: assume(ap_rst_n);
    end

    // ---- the program class in which DONE must wait for every write response ---------------
    reg        prog_ok;         // every memory read beat so far stays in the class
    reg        one_store;       // a byte that could be a STORE head has been read
    reg        beat_bad;
    reg [3:0]  beat_stores;
    integer    f_b;
    always @(*) begin
        beat_bad = 1'b0;
        beat_stores = 4'd0;
        for (f_b = 0; f_b < NB; f_b = f_b + 1) begin
            if (m_axi_gmem_rdata[8*f_b +: 3] == 3'd1) begin
                beat_stores = beat_stores + 4'd1;
                if (!m_axi_gmem_rdata[8*f_b + 5]) beat_bad = 1'b1;
            end
            if (m_axi_gmem_rdata[8*f_b +: 3] == 3'd3 && !m_axi_gmem_rdata[8*f_b + 4]) beat_bad = 1'b1;
        end
    end
    wire r_beat = m_axi_gmem_rvalid && rready;
    always @(posedge clk) begin
        if (!ap_rst_n) begin
            prog_ok <= 1'b1;
            one_store <= 1'b0;
        end else if (r_beat) begin
            if (beat_bad || beat_stores > 4'd1 || (one_store && beat_stores != 4'd0)) prog_ok <= 1'b0;
            if (beat_stores != 4'd0) one_store <= 1'b1;
        end
    end

    // ---- ordering, observed through CTRL reads ---------------------------------------------
    // the read data is sampled at the AR handshake (vta_ctrl: one read at a time); keep what
    // the memory port looked like then
    reg rd_ctrl, rd_wr_busy, rd_prog_ok, seen_b, rd_seen_b, seen_aw, seen_w;
    always @(posedge clk) begin
        if (!ap_rst_n) begin
            rd_ctrl <= 1'b0; rd_wr_busy <= 1'b0; rd_prog_ok <= 1'b0; rd_seen_b <= 1'b0;
            seen_b <= 1'b0; seen_aw <= 1'b0; seen_w <= 1'b0;
        end else begin
            if (s_axi_control_arvalid && c_arready) begin
                rd_ctrl <= s_axi_control_araddr[15:2] == 14'd0;
                rd_wr_busy <= mem_wr_busy;
                rd_prog_ok <= prog_ok;
                rd_seen_b <= seen_b;
            end
            if (m_axi_gmem_bvalid && bready) seen_b <= 1'b1;
            if (awvalid && m_axi_gmem_awready) seen_aw <= 1'b1;
            if (wvalid && m_axi_gmem_wready) seen_w <= 1'b1;
        end
    end
    wire ctrl_read = ap_rst_n && c_rvalid && rd_ctrl;
    wire read_done = ctrl_read && c_rdata[1];
    wire read_idle = ctrl_read && !c_rdata[0];

`ifndef VTA_FORMAL_FOREIGN
    always @(*) if (ap_rst_n) begin
        a_done_after_b: assert(!(read_done && rd_prog_ok && rd_wr_busy));
        a_idle_after_b: assert(!(read_idle && rd_prog_ok && rd_wr_busy));
    end
`else
    wire unused_order = &{1'b0, read_idle, rd_wr_busy};
`endif

    // ---- covers ------------------------------------------------------------------------------
    wire hit_aw   = awvalid && m_axi_gmem_awready;
    wire hit_w    = wvalid && m_axi_gmem_wready && seen_aw;
    wire hit_b    = m_axi_gmem_bvalid && bready && seen_w;
    wire hit_done = read_done;
    wire hit_done_store = read_done && rd_prog_ok && rd_seen_b;
`ifndef VTA_FORMAL_HUNT
    always @(*) if (ap_rst_n) begin
        c_first_aw: cover(hit_aw);
        c_first_w: cover(hit_w);
        c_first_b: cover(hit_b);
        c_done: cover(hit_done);
        c_done_after_store: cover(hit_done_store);
    end
`else
    // cover hunting with a BMC engine (abc bmc3 has no cover mode): cover number
    // VTA_FORMAL_HUNT is asserted never to happen, so the counterexample is its trace; the
    // script turns every other assertion into an assumption (tb/formal/top_bmc.sby, hunt_*)
    localparam integer HUNT = `VTA_FORMAL_HUNT;
    always @(*) if (ap_rst_n) begin
        if (HUNT == 1) c_first_aw: assert(!hit_aw);
        if (HUNT == 2) c_first_w: assert(!hit_w);
        if (HUNT == 3) c_first_b: assert(!hit_b);
        if (HUNT == 4) c_done: assert(!hit_done);
        if (HUNT == 5) c_done_after_store: assert(!hit_done_store);
    end
`endif

    wire unused_ftop = &{1'b0, mem_rd_busy, lite_wr_busy, lite_rd_busy, c_rdata[31:2], c_bresp, c_rresp};
endmodule
`default_nettype wire
