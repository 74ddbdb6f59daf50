`default_nettype none
// Fetch module: reads insn_count 16-byte instructions from insn_addr (any byte
// alignment) and dispatches them in program order into the command queue of
// the module that executes them (spec section 4), stalling while that queue is
// full. Reads go through a beat buffer of FIFO_BEATS beats; a burst is only
// requested while the buffer has room for all of its beats plus everything
// already in flight, so fetch never holds up the shared R channel.
// Each queue entry is {32-bit program index, 128-bit instruction}.
module vta_fetch #(
    parameter integer LOG_B = 3
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  launch,
    input  wire [31:0]           insn_addr,
    input  wire [31:0]           insn_count,
    // AXI read client
    output wire                  ar_valid,
    input  wire                  ar_ready,
    output wire [31:0]           ar_addr,
    output wire [7:0]            ar_len,
    input  wire                  r_valid,
    output wire                  r_ready,
    input  wire [(8<<LOG_B)-1:0] r_data,
    // dispatch
    output wire [159:0]          q_data,
    output wire                  ld_push,
    input  wire                  ld_full,
    output wire                  cp_push,
    input  wire                  cp_full,
    output wire                  st_push,
    input  wire                  st_full,
    // status
    output wire                  busy,
    output wire                  stall,
    output wire [31:0]           dispatched,
    output wire [31:0]           status
);
`include "vta_isa.vh"
    localparam integer BURST      = 16;           // beats per fetch burst
    localparam integer FIFO_BEATS = 2 * BURST;
    localparam [31:0]  BURST32    = BURST;
    localparam [31:0]  FIFO32     = FIFO_BEATS;
    localparam [8:0]   BURST9     = BURST32[8:0];
    localparam [8:0]   FIFO9      = FIFO32[8:0];
    localparam [2:0]   OP_LOAD = 3'd0, OP_STORE = 3'd1;
    localparam [2:0]   MT_WGT = 3'd1, MT_INP = 3'd2;

    reg        active;
    reg [31:0] count;
    reg [31:0] sent;
    reg [8:0]  inflight;  // beats requested, not yet received

    // ---- burst requests with credit gating ----
    wire [7:0] fifo_count;
    wire [8:0] pending = ar_valid ? ({1'b0, ar_len} + 9'd1) : 9'd0;
    wire       allow   = ({1'b0, fifo_count} + inflight + pending + BURST9) <= FIFO9;
    wire       gen_busy;

    vta_burst_gen #(.LOG_B(LOG_B), .MAXB(BURST)) u_gen (
        .clk(clk), .rst(rst), .start(launch),
        .addr0(insn_addr), .row_bytes({insn_count[27:0], 4'b0000}), .stride_bytes(32'd0),
        .nrows(16'd1), .allow(allow),
        .req_valid(ar_valid), .req_ready(ar_ready), .req_addr(ar_addr), .req_len(ar_len),
        .busy(gen_busy)
    );

    // ---- beat buffer ----
    wire                  fifo_full;
    wire                  fifo_empty;
    wire [(8<<LOG_B)-1:0] fifo_dout;
    wire                  unp_ready;

    assign r_ready = !fifo_full;
    vta_fifo #(.WIDTH(8 << LOG_B), .DEPTH(FIFO_BEATS)) u_beats (
        .clk(clk), .rst(rst), .clr(launch),
        .push(r_valid), .din(r_data), .full(fifo_full),
        .pop(unp_ready), .dout(fifo_dout), .empty(fifo_empty), .count(fifo_count)
    );

    // ---- beats -> 16-byte instructions ----
    wire         i_valid;
    wire [127:0] i_data;
    wire         i_ready;
    wire         unp_busy;

    vta_unpack #(.LOG_B(LOG_B), .LOG_EMAX(4)) u_unp (
        .clk(clk), .rst(rst), .start(launch),
        .off0(insn_addr[LOG_B-1:0]), .stride_lo({LOG_B{1'b0}}),
        .row_bytes({insn_count[27:0], 4'b0000}), .nrows(16'd1), .lesz(4'd4),
        .in_valid(!fifo_empty), .in_ready(unp_ready), .in_data(fifo_dout),
        .out_valid(i_valid), .out_ready(i_ready), .out_data(i_data),
        .busy(unp_busy)
    );

    // ---- dispatch ----
    wire [2:0] op = i_data[ISA_OPCODE +: ISA_OPCODE_W];
    wire [2:0] mt = i_data[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W];
    wire to_ld = (op == OP_LOAD) && ((mt == MT_INP) || (mt == MT_WGT));
    wire to_st = (op == OP_STORE);
    wire to_cp = !to_ld && !to_st;
    wire tgt_full = to_ld ? ld_full : (to_st ? st_full : cp_full);
    wire disp_ok = active && i_valid;
    assign i_ready = disp_ok && !tgt_full;
    assign ld_push = i_ready && to_ld;
    assign st_push = i_ready && to_st;
`ifdef VTA_TEST_BREAK_ILLEGAL_DISPATCH
    // test-only breakage (rtl/README.md): opcodes 5-7 are consumed but never dispatched
    assign cp_push = i_ready && to_cp && (op <= 3'd4);
`else
    assign cp_push = i_ready && to_cp;
`endif
    assign q_data  = {sent, i_data};

    always @(posedge clk) begin
        if (rst) begin
            active   <= 1'b0;
            count    <= 32'd0;
            sent     <= 32'd0;
            inflight <= 9'd0;
        end else if (launch) begin
`ifdef VTA_TEST_BREAK_INSN_COUNT_HIGH  // test only (rtl/README.md): bits 31:28 counted
            active   <= (insn_count != 32'd0);
            count    <= insn_count;
`else  // INSN_COUNT bits 31:28 are ignored: a count behaves exactly as its low 28 bits
            active   <= (insn_count[27:0] != 28'd0);
            count    <= {4'd0, insn_count[27:0]};
`endif
            sent     <= 32'd0;
            inflight <= 9'd0;
        end else begin
            inflight <= inflight + ((ar_valid && ar_ready) ? ({1'b0, ar_len} + 9'd1) : 9'd0)
                                 - ((r_valid && r_ready) ? 9'd1 : 9'd0);
            if (i_ready) begin
                sent <= sent + 32'd1;
                if (sent + 32'd1 == count) active <= 1'b0;
            end
        end
    end

    assign busy       = active;
    assign stall      = disp_ok && tgt_full;
    assign dispatched = sent;
    // [0] fetching, [1] blocked by a full command queue, [2] burst requests
    // pending, [3] unpacking, [15:8] beats buffered, [24:16] beats in flight
    assign status = {7'd0, inflight, fifo_count, 4'd0, unp_busy, gen_busy, stall, active};

    wire unused_fetch = &{1'b0, insn_count[31:28]};
endmodule
`default_nettype wire
