`default_nettype none
// vta_ctrl under the shared AXI4-Lite rules (tb/rtl/vta_axi_rules.vh, through
// tb/rtl/formal/vta_formal_axi.v, as the whole top watches s_axi_control): the host's AW/W/AR
// rules are ASSUMED, vta_ctrl's B/R rules ASSERTED (a response only for a request, held with
// a stable payload until taken). vta_ctrl's own contract (rtl/vta_ctrl.v, read with FORMAL)
// holds alongside; it assumes nothing of the host, so the rules only add obligations.
// Run: `make formal MODULES=ctrl` (tb/formal/jobs.py: the vta_ctrl jobs with wrapper=...).
module vta_formal_ctrl #(
    parameter integer NSTAT = 1
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               awvalid,
    input  wire [15:0]        awaddr,
    input  wire               wvalid,
    input  wire [31:0]        wdata,
    input  wire [3:0]         wstrb,
    input  wire               bready,
    input  wire               arvalid,
    input  wire [15:0]        araddr,
    input  wire               rready,
    input  wire               quiescent,
    input  wire               finish,
    input  wire               bus_error,
    input  wire [NSTAT*32-1:0] stat
);
    wire        awready, wready, bvalid, arready, rvalid;
    wire [1:0]  bresp, rresp;
    wire [31:0] rdata;
    wire        launch, running, done;
    wire [31:0] insn_count, insn_addr, uop_base, inp_base, wgt_base, acc_base, out_base;
    wire        wr_busy, rd_busy;

    vta_ctrl #(.NSTAT(NSTAT)) u_ctrl (
        .clk(clk), .rst(rst),
        .awvalid(awvalid), .awready(awready), .awaddr(awaddr),
        .wvalid(wvalid), .wready(wready), .wdata(wdata), .wstrb(wstrb),
        .bvalid(bvalid), .bready(bready), .bresp(bresp),
        .arvalid(arvalid), .arready(arready), .araddr(araddr),
        .rvalid(rvalid), .rready(rready), .rdata(rdata), .rresp(rresp),
        .quiescent(quiescent), .finish(finish), .bus_error(bus_error),
        .launch(launch), .running(running), .done(done),
        .insn_count(insn_count), .insn_addr(insn_addr), .uop_base(uop_base),
        .inp_base(inp_base), .wgt_base(wgt_base), .acc_base(acc_base), .out_base(out_base),
        .stat(stat)
    );

    vta_formal_axi #(.LITE(1), .DUT_MANAGER(0), .DW(32), .IDW(1), .AW(16), .QD(2)) u_mon (
        .clk(clk), .rst_n(!rst),
        .awid(1'b0), .awaddr(awaddr), .awlen(8'd0), .awsize(3'd2), .awburst(2'd1),
        .awattr(12'h180), .awvalid(awvalid), .awready(awready),
        .wdata(wdata), .wstrb(wstrb), .wlast(1'b1), .wvalid(wvalid), .wready(wready),
        .bid(1'b0), .bresp(bresp), .bvalid(bvalid), .bready(bready),
        .arid(1'b0), .araddr(araddr), .arlen(8'd0), .arsize(3'd2), .arburst(2'd1),
        .arattr(12'h180), .arvalid(arvalid), .arready(arready),
        .rid(1'b0), .rdata(rdata), .rresp(rresp), .rlast(1'b1), .rvalid(rvalid), .rready(rready),
        .wr_busy(wr_busy), .rd_busy(rd_busy)
    );

    wire unused_fctrl = &{1'b0, launch, running, done, insn_count, insn_addr, uop_base, inp_base,
                          wgt_base, acc_base, out_base, wr_busy, rd_busy};
endmodule
`default_nettype wire
