`default_nettype none
// Test-only top of the fast testbench mode (MODE=fast): the full-mode top vta_tb_top (the
// DUT behind the fault injector, with the ordering checker) with its two AXI ports served
// inside the simulation -- the memory port by vta_tb_mem, the control port by vta_tb_host --
// and watched by vta_tb_axi_check instances. Python drives only the mailbox and set-up
// inputs below and wakes on `tb_host_ack` changes, on `tb_alarm` (a checker fired or a
// stray write was seen) or on a coarse timer; it reads results through the hierarchy
// (mem_* below: the memory's observations; u_chk_mem.*, u_chk_lite.*, u_tb.u_order.*, u_tb.u_live.*,
// u_host.*).
module vta_tb_fast #(
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
    parameter integer PIPE_STAGES       = 3,
    parameter integer LOG_PAGES         = 9,
    parameter integer MEM_QD            = 256,
    parameter integer ID_W              = 1,      // AXI ID bits (a DUT profile's memory.id_width)
    parameter [15:0]  WAIVE_MEM         = 16'h0   // protocol rules waived on the memory port
) (
    input  wire        ap_clk,
    input  wire        ap_rst_n,
    input  wire [3:0]  tb_fault,
    // control-port mailbox (vta_tb_host)
    input  wire        tb_host_go,
    input  wire [2:0]  tb_host_op,
    input  wire [15:0] tb_host_addr,
    input  wire [31:0] tb_host_wdata,
    input  wire [3:0]  tb_host_wstrb,
    input  wire [1:0]  tb_host_order,
    input  wire [1:0]  tb_host_lag,
    input  wire [1:0]  tb_host_bwait,
    input  wire [31:0] tb_host_mask,
    input  wire [15:0] tb_host_gap,
    input  wire        tb_host_stop,
    output wire        tb_host_ack,
    // memory set-up and read-back (vta_tb_mem)
    input  wire        tb_mem_load,
    input  wire [15:0] tb_mem_pages,
    input  wire [1:0]  tb_mem_profile,
    input  wire [31:0] tb_mem_seed,
    input  wire [7:0]  tb_mem_err_kind,
    input  wire [127:0] tb_mem_err_lo,
    input  wire [127:0] tb_mem_err_last,
    input  wire [7:0]  tb_mem_err_resp,
    input  wire [15:0] tb_mem_err_rate,
    input  wire        tb_mem_rogue_en,
    input  wire [31:0] tb_mem_rogue_lo,
    input  wire [31:0] tb_mem_rogue_last,
    input  wire        tb_mem_corrupt_en,
    input  wire [31:0] tb_mem_corrupt_lo,
    input  wire [31:0] tb_mem_corrupt_last,
    input  wire        tb_mem_dump,
    input  wire [31:0] tb_mem_dump_lo,
    input  wire [31:0] tb_mem_dump_hi,
    output wire        tb_alarm
);
    localparam integer DW = 1 << LOG_BUS_WIDTH;
    // results are read through the hierarchy, so many output pins stay unconnected
    /* verilator lint_off PINCONNECTEMPTY */

    wire [ID_W-1:0] awid, bid, arid, rid;
    wire [31:0]    awaddr, araddr;
    wire [7:0]     awlen, arlen;
    wire [2:0]     awsize, arsize;
    wire [1:0]     awburst, arburst, bresp, rresp;
    wire [11:0]    awattr, arattr;
    wire           awvalid, awready, wlast, wvalid, wready, bvalid, bready;
    wire           arvalid, arready, rlast, rvalid, rready;
    wire [DW-1:0]  wdata, rdata;
    wire [DW/8-1:0] wstrb;
    wire [15:0]    c_awaddr, c_araddr;
    wire [31:0]    c_wdata, c_rdata;
    wire [3:0]     c_wstrb;
    wire [1:0]     c_bresp, c_rresp;
    wire           c_awvalid, c_awready, c_wvalid, c_wready, c_bvalid, c_bready;
    wire           c_arvalid, c_arready, c_rvalid, c_rready;
    wire [1:0]     r_inj, b_inj;

    vta_tb_top #(
        .LOG_INP_WIDTH(LOG_INP_WIDTH), .LOG_WGT_WIDTH(LOG_WGT_WIDTH), .LOG_ACC_WIDTH(LOG_ACC_WIDTH),
        .LOG_BATCH(LOG_BATCH), .LOG_BLOCK(LOG_BLOCK), .LOG_UOP_BUFF_SIZE(LOG_UOP_BUFF_SIZE),
        .LOG_INP_BUFF_SIZE(LOG_INP_BUFF_SIZE), .LOG_WGT_BUFF_SIZE(LOG_WGT_BUFF_SIZE),
        .LOG_ACC_BUFF_SIZE(LOG_ACC_BUFF_SIZE), .LOG_BUS_WIDTH(LOG_BUS_WIDTH),
        .CMD_QUEUE_DEPTH(CMD_QUEUE_DEPTH), .TOKEN_QUEUE_DEPTH(TOKEN_QUEUE_DEPTH),
        .PIPE_STAGES(PIPE_STAGES), .ID_W(ID_W)
    ) u_tb (
        .ap_clk(ap_clk), .ap_rst_n(ap_rst_n), .tb_fault(tb_fault),
        .s_axi_control_awaddr(c_awaddr), .s_axi_control_awvalid(c_awvalid), .s_axi_control_awready(c_awready),
        .s_axi_control_wdata(c_wdata), .s_axi_control_wstrb(c_wstrb), .s_axi_control_wvalid(c_wvalid),
        .s_axi_control_wready(c_wready), .s_axi_control_bresp(c_bresp), .s_axi_control_bvalid(c_bvalid),
        .s_axi_control_bready(c_bready), .s_axi_control_araddr(c_araddr), .s_axi_control_arvalid(c_arvalid),
        .s_axi_control_arready(c_arready), .s_axi_control_rdata(c_rdata), .s_axi_control_rresp(c_rresp),
        .s_axi_control_rvalid(c_rvalid), .s_axi_control_rready(c_rready),
        .m_axi_gmem_awid(awid), .m_axi_gmem_awaddr(awaddr), .m_axi_gmem_awlen(awlen),
        .m_axi_gmem_awsize(awsize), .m_axi_gmem_awburst(awburst), .m_axi_gmem_awvalid(awvalid),
        .m_axi_gmem_awready(awready), .m_axi_gmem_wdata(wdata), .m_axi_gmem_wstrb(wstrb),
        .m_axi_gmem_wlast(wlast), .m_axi_gmem_wvalid(wvalid), .m_axi_gmem_wready(wready),
        .m_axi_gmem_bid(bid), .m_axi_gmem_bresp(bresp), .m_axi_gmem_bvalid(bvalid),
        .m_axi_gmem_bready(bready), .m_axi_gmem_arid(arid), .m_axi_gmem_araddr(araddr),
        .m_axi_gmem_arlen(arlen), .m_axi_gmem_arsize(arsize), .m_axi_gmem_arburst(arburst),
        .m_axi_gmem_arattr(arattr), .m_axi_gmem_awattr(awattr),
        .m_axi_gmem_arvalid(arvalid), .m_axi_gmem_arready(arready), .m_axi_gmem_rid(rid),
        .m_axi_gmem_rdata(rdata), .m_axi_gmem_rresp(rresp), .m_axi_gmem_rlast(rlast),
        .m_axi_gmem_rvalid(rvalid), .m_axi_gmem_rready(rready)
    );

    // The memory's observations, read by Python (tb/uvm/env/fast.py MemStatus) from these
    // top-level wires, not as u_mem.<port>: Icarus's VPI finds a name inside u_mem, whose
    // scope holds the DRAM arrays, in about half a second of CPU, and a top-level one at once.
    /* verilator lint_off UNUSEDSIGNAL */  // read by Python only
    wire        mem_stray, mem_corrupted, mem_err_seen, mem_err_chan;
    wire [31:0] mem_stray_addr, mem_stray_burst_addr, mem_stray_bytes, mem_corrupted_at;
    wire [31:0] mem_err_burst_addr, mem_err_addr, mem_err_count;
    wire [63:0] mem_stray_cycle, mem_err_cycle;
    wire [7:0]  mem_stray_burst_len, mem_err_burst_len, mem_err_beat;
    wire [1:0]  mem_err_first_resp;
    /* verilator lint_on UNUSEDSIGNAL */
    vta_tb_mem #(.DW(DW), .IDW(ID_W), .AW(32), .LOG_PAGES(LOG_PAGES), .QD(MEM_QD), .NERR(4)) u_mem (
        .clk(ap_clk), .rst_n(ap_rst_n), .cycle(u_tb.tb_cycle),
        .awid(awid), .awaddr(awaddr), .awlen(awlen), .awsize(awsize), .awvalid(awvalid), .awready(awready),
        .wdata(wdata), .wstrb(wstrb), .wvalid(wvalid), .wready(wready),
        .bid(bid), .bresp(bresp), .bvalid(bvalid), .bready(bready),
        .arid(arid), .araddr(araddr), .arlen(arlen), .arsize(arsize), .arvalid(arvalid), .arready(arready),
        .rid(rid), .rdata(rdata), .rresp(rresp), .rlast(rlast), .rvalid(rvalid), .rready(rready),
        .load(tb_mem_load), .pages_used(tb_mem_pages), .profile(tb_mem_profile), .seed(tb_mem_seed),
        .err_kind(tb_mem_err_kind), .err_lo(tb_mem_err_lo), .err_last(tb_mem_err_last),
        .err_resp(tb_mem_err_resp), .err_rate(tb_mem_err_rate),
        .rogue_en(tb_mem_rogue_en), .rogue_lo(tb_mem_rogue_lo), .rogue_last(tb_mem_rogue_last),
        .corrupt_en(tb_mem_corrupt_en), .corrupt_lo(tb_mem_corrupt_lo), .corrupt_last(tb_mem_corrupt_last),
        .dump(tb_mem_dump), .dump_lo(tb_mem_dump_lo), .dump_hi(tb_mem_dump_hi),
        .r_inj(r_inj), .b_inj(b_inj),
        .stray(mem_stray), .stray_addr(mem_stray_addr), .stray_cycle(mem_stray_cycle),
        .stray_burst_addr(mem_stray_burst_addr), .stray_burst_len(mem_stray_burst_len),
        .stray_bytes(mem_stray_bytes), .corrupted(mem_corrupted), .corrupted_at(mem_corrupted_at),
        .err_seen(mem_err_seen), .err_chan(mem_err_chan), .err_first_resp(mem_err_first_resp),
        .err_burst_addr(mem_err_burst_addr), .err_burst_len(mem_err_burst_len),
        .err_beat(mem_err_beat), .err_addr(mem_err_addr), .err_cycle(mem_err_cycle),
        .err_count(mem_err_count)
    );

    vta_tb_host #(.AW(16)) u_host (
        .clk(ap_clk), .rst_n(ap_rst_n), .go(tb_host_go), .op(tb_host_op), .addr(tb_host_addr),
        .wdata(tb_host_wdata), .wstrb(tb_host_wstrb), .order(tb_host_order), .lag(tb_host_lag),
        .bwait(tb_host_bwait), .mask(tb_host_mask),
        .gap(tb_host_gap), .stop(tb_host_stop), .ack(tb_host_ack), .rdata(), .resp(),
        .m_awaddr(c_awaddr), .m_awvalid(c_awvalid), .m_awready(c_awready),
        .m_wdata(c_wdata), .m_wstrb(c_wstrb), .m_wvalid(c_wvalid), .m_wready(c_wready),
        .m_bresp(c_bresp), .m_bvalid(c_bvalid), .m_bready(c_bready),
        .m_araddr(c_araddr), .m_arvalid(c_arvalid), .m_arready(c_arready),
        .m_rdata(c_rdata), .m_rresp(c_rresp), .m_rvalid(c_rvalid), .m_rready(c_rready)
    );

    vta_tb_axi_check #(.LITE(0), .DW(DW), .IDW(ID_W), .AW(32), .QD(MEM_QD), .WAIVE(WAIVE_MEM)) u_chk_mem (
        .clk(ap_clk), .rst_n(ap_rst_n), .cycle(u_tb.tb_cycle),
        .awid(awid), .awaddr(awaddr), .awlen(awlen), .awsize(awsize), .awburst(awburst), .awattr(awattr),
        .awvalid(awvalid), .awready(awready), .wdata(wdata), .wstrb(wstrb), .wlast(wlast),
        .wvalid(wvalid), .wready(wready), .bid(bid), .bresp(bresp), .bvalid(bvalid), .bready(bready),
        .b_inj(b_inj), .arid(arid), .araddr(araddr), .arlen(arlen), .arsize(arsize), .arburst(arburst), .arattr(arattr),
        .arvalid(arvalid), .arready(arready), .rid(rid), .rdata(rdata), .rresp(rresp), .rlast(rlast),
        .rvalid(rvalid), .rready(rready), .r_inj(r_inj),
        .violation(), .rule(), .chan(), .sig(), .vcycle(), .value0(), .value1()
    );

    vta_tb_axi_check #(.LITE(1), .DW(32), .IDW(1), .AW(16), .QD(4)) u_chk_lite (
        .clk(ap_clk), .rst_n(ap_rst_n), .cycle(u_tb.tb_cycle),
        .awid(1'b0), .awaddr(c_awaddr), .awlen(8'd0), .awsize(3'd2), .awburst(2'd1), .awattr(12'h180),
        .awvalid(c_awvalid), .awready(c_awready), .wdata(c_wdata), .wstrb(c_wstrb), .wlast(1'b1),
        .wvalid(c_wvalid), .wready(c_wready), .bid(1'b0), .bresp(c_bresp), .bvalid(c_bvalid),
        .bready(c_bready), .b_inj(c_bresp), .arid(1'b0), .araddr(c_araddr), .arlen(8'd0),
        .arsize(3'd2), .arburst(2'd1), .arattr(12'h180), .arvalid(c_arvalid), .arready(c_arready), .rid(1'b0),
        .rdata(c_rdata), .rresp(c_rresp), .rlast(1'b1), .rvalid(c_rvalid), .rready(c_rready),
        .r_inj(c_rresp),
        .violation(), .rule(), .chan(), .sig(), .vcycle(), .value0(), .value1()
    );

    /* verilator lint_on PINCONNECTEMPTY */

`ifdef VTA_TB_DUT  // a foreign DUT: no ordering or liveness checker (vta_tb_top.v)
    assign tb_alarm = u_chk_mem.violation | u_chk_lite.violation | mem_stray;
`else
    assign tb_alarm = u_chk_mem.violation | u_chk_lite.violation | u_tb.u_order.violation
                    | u_tb.u_live.violation | mem_stray;
`endif
endmodule
`default_nettype wire
