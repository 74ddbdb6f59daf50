`default_nettype none
// Test-only fault injector between the VTA and the testbench (never synthesised).
// AXI4 memory port: DUT master side dm_* -> testbench slave side m_axi_gmem_*.
// AXI4-Lite control port: testbench master side s_axi_control_* -> DUT slave side ds_*.
// With fault == 0 every signal passes straight through. Other values model RTL bugs
// that the testbench's checkers must catch. tb/rules/faults.py owns the codes (FAULTS) and
// names them; tb/rtl/vta_tb_codes.vh, generated from it, defines them here as FAULT_<NAME>:
//   1 aw-flip          flip bit FLIP_BIT of AWADDR (stray write)
//   2 drop-wlast       drop WLAST (protocol: beat count / WLAST)
//   3 wdata-unstable   invert WDATA while WVALID && !WREADY (protocol: payload stability)
//   4 lite-spurious-b  extra BVALID on the control port when a read address is accepted
//                      (protocol: response without request)
//   5 aw-4k            move AWADDR to 8 bytes below a 4 KiB boundary (protocol: 4 KiB crossing)
//   6 aw-x             drive AWADDR to X while AWVALID (protocol: X on a valid channel; 4-state sims)
//   7 ar-stuck         never let a read address through (watchdog: the read path deadlocks,
//                      no progress)
//   8 sim-hang         hang the simulator itself: a zero-delay loop, as a combinational loop
//                      can; Python never runs again, so only the runner's --timeout backstop
//                      (SIGALRM) ends it
//   9 counter-skew     GEMM_UOPS (0x24) reads one more than the design counted (counter check)
//  10 early-b          answer every write burst to the DUT as soon as its last beat is
//                      accepted, and take the memory's real B responses only 64 cycles after
//                      the last one: the DUT raises DONE while its writes are still
//                      unanswered (ordering check)
//  11 rd-overissue     issue every read burst twice on the memory port, the copy right after
//                      the original, and drop the copy's data: the DUT sees its own bursts
//                      only, the port twice as many in flight as the design keeps (liveness
//                      check: rd-outstanding)
//  12 b-hold           not a fault but a memory behaviour AXI allows: take the memory's write
//                      responses at once and withhold them from the DUT until B_HOLD bursts
//                      await one (the design's stated bound) or no write has ended for 64
//                      cycles, then give them all back, one a cycle (the b-bound flow: a DUT
//                      that issues one burst more than its bound is caught by the liveness
//                      check wr-outstanding, which counts at the DUT's side of this module)
module vta_axi_fault #(
    parameter integer ID_W     = 1,
    parameter integer ADDR_W   = 32,
    parameter integer DATA_W   = 64,
    parameter integer LITE_AW  = 16,
    parameter integer FLIP_BIT = 16,
    parameter integer B_HOLD   = 255
) (
    input  wire                  ap_clk,
    input  wire                  ap_rst_n,
    input  wire [3:0]            tb_fault,
    // AXI4 from the DUT (master)
    input  wire [ID_W-1:0]       dm_awid,
    input  wire [ADDR_W-1:0]     dm_awaddr,
    input  wire [7:0]            dm_awlen,
    input  wire [2:0]            dm_awsize,
    input  wire [1:0]            dm_awburst,
    input  wire                  dm_awvalid,
    output wire                  dm_awready,
    input  wire [DATA_W-1:0]     dm_wdata,
    input  wire [DATA_W/8-1:0]   dm_wstrb,
    input  wire                  dm_wlast,
    input  wire                  dm_wvalid,
    output wire                  dm_wready,
    output wire [ID_W-1:0]       dm_bid,
    output wire [1:0]            dm_bresp,
    output wire                  dm_bvalid,
    input  wire                  dm_bready,
    input  wire [ID_W-1:0]       dm_arid,
    input  wire [ADDR_W-1:0]     dm_araddr,
    input  wire [7:0]            dm_arlen,
    input  wire [2:0]            dm_arsize,
    input  wire [1:0]            dm_arburst,
    input  wire                  dm_arvalid,
    output wire                  dm_arready,
    output wire [ID_W-1:0]       dm_rid,
    output wire [DATA_W-1:0]     dm_rdata,
    output wire [1:0]            dm_rresp,
    output wire                  dm_rlast,
    output wire                  dm_rvalid,
    input  wire                  dm_rready,
    // AXI4 to the testbench memory (slave)
    output wire [ID_W-1:0]       m_axi_gmem_awid,
    output wire [ADDR_W-1:0]     m_axi_gmem_awaddr,
    output wire [7:0]            m_axi_gmem_awlen,
    output wire [2:0]            m_axi_gmem_awsize,
    output wire [1:0]            m_axi_gmem_awburst,
    output wire                  m_axi_gmem_awvalid,
    input  wire                  m_axi_gmem_awready,
    output wire [DATA_W-1:0]     m_axi_gmem_wdata,
    output wire [DATA_W/8-1:0]   m_axi_gmem_wstrb,
    output wire                  m_axi_gmem_wlast,
    output wire                  m_axi_gmem_wvalid,
    input  wire                  m_axi_gmem_wready,
    input  wire [ID_W-1:0]       m_axi_gmem_bid,
    input  wire [1:0]            m_axi_gmem_bresp,
    input  wire                  m_axi_gmem_bvalid,
    output wire                  m_axi_gmem_bready,
    output wire [ID_W-1:0]       m_axi_gmem_arid,
    output wire [ADDR_W-1:0]     m_axi_gmem_araddr,
    output wire [7:0]            m_axi_gmem_arlen,
    output wire [2:0]            m_axi_gmem_arsize,
    output wire [1:0]            m_axi_gmem_arburst,
    output wire                  m_axi_gmem_arvalid,
    input  wire                  m_axi_gmem_arready,
    input  wire [ID_W-1:0]       m_axi_gmem_rid,
    input  wire [DATA_W-1:0]     m_axi_gmem_rdata,
    input  wire [1:0]            m_axi_gmem_rresp,
    input  wire                  m_axi_gmem_rlast,
    input  wire                  m_axi_gmem_rvalid,
    output wire                  m_axi_gmem_rready,
    // AXI4-Lite from the testbench host (master)
    input  wire [LITE_AW-1:0]    s_axi_control_awaddr,
    input  wire                  s_axi_control_awvalid,
    output wire                  s_axi_control_awready,
    input  wire [31:0]           s_axi_control_wdata,
    input  wire [3:0]            s_axi_control_wstrb,
    input  wire                  s_axi_control_wvalid,
    output wire                  s_axi_control_wready,
    output wire [1:0]            s_axi_control_bresp,
    output wire                  s_axi_control_bvalid,
    input  wire                  s_axi_control_bready,
    input  wire [LITE_AW-1:0]    s_axi_control_araddr,
    input  wire                  s_axi_control_arvalid,
    output wire                  s_axi_control_arready,
    output wire [31:0]           s_axi_control_rdata,
    output wire [1:0]            s_axi_control_rresp,
    output wire                  s_axi_control_rvalid,
    input  wire                  s_axi_control_rready,
    // AXI4-Lite to the DUT (slave)
    output wire [LITE_AW-1:0]    ds_awaddr,
    output wire                  ds_awvalid,
    input  wire                  ds_awready,
    output wire [31:0]           ds_wdata,
    output wire [3:0]            ds_wstrb,
    output wire                  ds_wvalid,
    input  wire                  ds_wready,
    input  wire [1:0]            ds_bresp,
    input  wire                  ds_bvalid,
    output wire                  ds_bready,
    output wire [LITE_AW-1:0]    ds_araddr,
    output wire                  ds_arvalid,
    input  wire                  ds_arready,
    input  wire [31:0]           ds_rdata,
    input  wire [1:0]            ds_rresp,
    input  wire                  ds_rvalid,
    output wire                  ds_rready
);
    localparam [ADDR_W-1:0] FLIP = {{(ADDR_W-1){1'b0}}, 1'b1} << FLIP_BIT;

    // the fault codes (FAULT_*), generated from tb/rules/faults.py
`include "vta_tb_codes.vh"

    wire f_flip    = tb_fault == FAULT_AW_FLIP;
    wire f_wlast   = tb_fault == FAULT_DROP_WLAST;
    wire f_wdata   = tb_fault == FAULT_WDATA_UNSTABLE;
    wire f_bresp   = tb_fault == FAULT_LITE_SPURIOUS_B;
    wire f_4k      = tb_fault == FAULT_AW_4K;
    wire f_xaddr   = tb_fault == FAULT_AW_X;
    wire f_arstuck = tb_fault == FAULT_AR_STUCK;
    wire f_count   = tb_fault == FAULT_COUNTER_SKEW;
    wire f_earlyb  = tb_fault == FAULT_EARLY_B;
    wire f_dup     = tb_fault == FAULT_RD_OVERISSUE;
    wire f_bhold   = tb_fault == FAULT_B_HOLD;

    // early B responses (early-b): one owed per last W beat the DUT got accepted; the real
    // ones are accepted once no write has ended for 64 cycles
    reg [7:0] early_owed;
    reg [6:0] early_quiet;
    wire      early_take = dm_wvalid && dm_wready && dm_wlast;
    wire      early_give = dm_bvalid && dm_bready;
    always @(posedge ap_clk) begin
        if (!ap_rst_n) begin
            early_owed  <= 8'd0;
            early_quiet <= 7'd0;
        end else begin
            early_owed  <= early_owed + {7'd0, early_take} - {7'd0, f_earlyb && early_give};
            early_quiet <= early_take ? 7'd0 : (early_quiet[6] ? early_quiet : early_quiet + 7'd1);
        end
    end

    // withheld write responses (b-hold): counted as the memory gives them, released in a run
    localparam [31:0] HOLD32 = B_HOLD;
    localparam [8:0] HOLD = HOLD32[8:0];
    reg [8:0] held;
    reg       releasing;
    wire      held_take = m_axi_gmem_bvalid && m_axi_gmem_bready;
    wire      held_give = dm_bvalid && dm_bready;
    wire [8:0] held_next = held + {8'd0, held_take} - {8'd0, f_bhold && held_give};
    always @(posedge ap_clk) begin
        if (!ap_rst_n) begin
            held      <= 9'd0;
            releasing <= 1'b0;
        end else begin
            held      <= held_next;
            releasing <= (held_next >= HOLD || early_quiet[6]) ? (held_next != 9'd0)
                                                                : releasing && held_next != 9'd0;
        end
    end

    // duplicated reads (rd-overissue): after the port accepts one of the DUT's read bursts, its
    // copy is offered before the DUT's next one; a tag per burst on the port, in AR order
    // (R returns in that order: every burst has ID 0), marks the copies, whose beats are
    // taken from the memory and not shown to the DUT
    localparam integer TAGS = 32;  // > 2 x the design's 8 read bursts in flight
    reg              dup_pend;
    reg [ADDR_W-1:0] dup_addr;
    reg [7:0]        dup_len;
    reg [TAGS-1:0]   dup_tag;
    reg [4:0]        tag_in, tag_out;
    wire port_ar    = m_axi_gmem_arvalid && m_axi_gmem_arready;
    wire head_copy  = dup_tag[tag_out];
    wire port_rlast = m_axi_gmem_rvalid && m_axi_gmem_rready && m_axi_gmem_rlast;
    always @(posedge ap_clk) begin
        if (!ap_rst_n) begin
            dup_pend <= 1'b0;
            dup_addr <= {ADDR_W{1'b0}};
            dup_len  <= 8'd0;
            dup_tag  <= {TAGS{1'b0}};
            tag_in   <= 5'd0;
            tag_out  <= 5'd0;
        end else begin
            if (port_ar) begin
                dup_tag[tag_in] <= dup_pend;
                tag_in          <= tag_in + 5'd1;
                dup_pend        <= f_dup && !dup_pend;
                dup_addr        <= dm_araddr;
                dup_len         <= dm_arlen;
            end
            if (port_rlast) tag_out <= tag_out + 5'd1;
        end
    end

    // address of the control-port read in flight (for the counter fault)
    reg [LITE_AW-1:0] lite_raddr;
    always @(posedge ap_clk) begin
        if (!ap_rst_n) lite_raddr <= {LITE_AW{1'b0}};
        else if (s_axi_control_arvalid && s_axi_control_arready) lite_raddr <= s_axi_control_araddr;
    end

    always @(posedge ap_clk) begin : sim_hang
        while (tb_fault == FAULT_SIM_HANG) begin end
    end

    wire [ADDR_W-1:0] aw_near_4k = {dm_awaddr[ADDR_W-1:12], 12'hFF8};
    wire [ADDR_W-1:0] aw_faulty  = f_flip ? (dm_awaddr ^ FLIP) : f_4k ? aw_near_4k : dm_awaddr;

    assign m_axi_gmem_awid    = dm_awid;
    assign m_axi_gmem_awaddr  = f_xaddr ? {ADDR_W{1'bx}} : aw_faulty;
    assign m_axi_gmem_awlen   = dm_awlen;
    assign m_axi_gmem_awsize  = dm_awsize;
    assign m_axi_gmem_awburst = dm_awburst;
    assign m_axi_gmem_awvalid = dm_awvalid;
    assign dm_awready         = m_axi_gmem_awready;
    // while a beat waits its data is inverted, so it changes when ready comes (any stall length)
    assign m_axi_gmem_wdata   = (f_wdata && !m_axi_gmem_wready) ? ~dm_wdata : dm_wdata;
    assign m_axi_gmem_wstrb   = dm_wstrb;
    assign m_axi_gmem_wlast   = dm_wlast & ~f_wlast;
    assign m_axi_gmem_wvalid  = dm_wvalid;
    assign dm_wready          = m_axi_gmem_wready;
    assign dm_bid             = (f_earlyb || f_bhold) ? {ID_W{1'b0}} : m_axi_gmem_bid;
    assign dm_bresp           = (f_earlyb || f_bhold) ? 2'b00 : m_axi_gmem_bresp;
    assign dm_bvalid          = f_earlyb ? early_owed != 8'd0 : f_bhold ? releasing : m_axi_gmem_bvalid;
    assign m_axi_gmem_bready  = f_earlyb ? early_quiet[6] : f_bhold | dm_bready;
    assign m_axi_gmem_arid    = dm_arid;
    assign m_axi_gmem_araddr  = dup_pend ? dup_addr : dm_araddr;
    assign m_axi_gmem_arlen   = dup_pend ? dup_len : dm_arlen;
    assign m_axi_gmem_arsize  = dm_arsize;
    assign m_axi_gmem_arburst = dm_arburst;
    assign m_axi_gmem_arvalid = dup_pend | (dm_arvalid & ~f_arstuck);
    assign dm_arready         = m_axi_gmem_arready & ~f_arstuck & ~dup_pend;
    assign dm_rid             = m_axi_gmem_rid;
    assign dm_rdata           = m_axi_gmem_rdata;
    assign dm_rresp           = m_axi_gmem_rresp;
    assign dm_rlast           = m_axi_gmem_rlast;
    assign dm_rvalid          = m_axi_gmem_rvalid & ~head_copy;
    assign m_axi_gmem_rready  = dm_rready | head_copy;

    assign ds_awaddr             = s_axi_control_awaddr;
    assign ds_awvalid            = s_axi_control_awvalid;
    assign s_axi_control_awready = ds_awready;
    assign ds_wdata              = s_axi_control_wdata;
    assign ds_wstrb              = s_axi_control_wstrb;
    assign ds_wvalid             = s_axi_control_wvalid;
    assign s_axi_control_wready  = ds_wready;
    assign s_axi_control_bresp   = ds_bresp;
    assign s_axi_control_bvalid  = ds_bvalid |
                                   (f_bresp & s_axi_control_arvalid & s_axi_control_arready);
    assign ds_bready             = s_axi_control_bready;
    assign ds_araddr             = s_axi_control_araddr;
    assign ds_arvalid            = s_axi_control_arvalid;
    assign s_axi_control_arready = ds_arready;
    assign s_axi_control_rdata   = (f_count && lite_raddr == 'h24) ? ds_rdata + 32'd1 : ds_rdata;
    assign s_axi_control_rresp   = ds_rresp;
    assign s_axi_control_rvalid  = ds_rvalid;
    assign ds_rready             = s_axi_control_rready;
endmodule
`default_nettype wire
