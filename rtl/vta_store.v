`default_nettype none
// Store module (spec sections 3 and 4): executes STORE in program order. Per
// instruction: pop C2S if pop_prev_dep, then for y < y_size, x < x_size write
// OUT element (sram_base + y*x_size + x) to DRAM element
// (dram_base + y*x_stride + x) at OUT_BASE, with exact byte strobes, then wait
// for every write response, then push S2C if push_prev_dep (phases: vta_phase).
// memory_type and the pad fields are not looked at (a STORE always stores OUT).
module vta_store #(
    parameter integer LOG_B         = 3,
    parameter integer LOG_OUT_BYTES = 4,
    parameter integer LOG_ACC_DEPTH = 11
) (
    input  wire                          clk,
    input  wire                          rst,
    // command queue
    input  wire                          q_empty,
    output wire                          q_pop,
    input  wire [159:0]                  q_data,
    // tokens
    input  wire                          c2s_can_pop,
    output wire                          c2s_pop,
    input  wire                          s2c_can_push,
    output wire                          s2c_push,
    input  wire [31:0]                   out_base,
    // OUT SRAM read port
    output wire                          out_re,
    output wire [LOG_ACC_DEPTH-1:0]      out_raddr,
    input  wire [(8<<LOG_OUT_BYTES)-1:0] out_rdata,
    // AXI write channels
    output wire                          awvalid,
    input  wire                          awready,
    output wire [31:0]                   awaddr,
    output wire [7:0]                    awlen,
    output wire                          wvalid,
    input  wire                          wready,
    output wire [(8<<LOG_B)-1:0]         wdata,
    output wire [(1<<LOG_B)-1:0]         wstrb,
    output wire                          wlast,
    input  wire                          bvalid,
    output wire                          bready,
    // status
    output wire                          busy,
    output wire                          stall,
    output wire                          insn_done,
    output wire [31:0]                   status,
    output wire [31:0]                   insn_idx,
    output wire [7:0]                    wr_outstanding
);
`include "vta_isa.vh"
    localparam integer LA = LOG_ACC_DEPTH;
    localparam integer EB = 8 << LOG_OUT_BYTES;
    localparam [31:0]  LOB32 = LOG_OUT_BYTES;
    localparam [3:0]   LESZ = LOB32[3:0];

    // ---- phase machine: prev side only (C2S pop, S2C push) ----
    wire [127:0] insn;
    wire         go;
    wire         exec;
    wire         exec_busy;
    wire         no_next_pop, no_next_push;
    wire [14:0]  ph_status;

    vta_phase #(.HAS_PREV(1), .HAS_NEXT(0)) u_phase (
        .clk(clk), .rst(rst),
        .q_empty(q_empty), .q_pop(q_pop), .q_data(q_data),
        .prev_can_pop(c2s_can_pop), .prev_pop(c2s_pop), .next_can_pop(1'b0), .next_pop(no_next_pop),
        .prev_can_push(s2c_can_push), .prev_push(s2c_push), .next_can_push(1'b0), .next_push(no_next_push),
        .go(go), .exec_busy(exec_busy), .insn(insn), .exec(exec),
        .status_sub(insn[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W]),
        .busy(busy), .stall(stall), .insn_done(insn_done),
        .status(ph_status), .insn_idx(insn_idx)
    );

    wire [15:0] f_sram  = insn[ISA_MEM_SRAM_BASE +: ISA_MEM_SRAM_BASE_W];
    wire [31:0] f_dram  = insn[ISA_MEM_DRAM_BASE +: ISA_MEM_DRAM_BASE_W];
    wire [15:0] f_ysize = insn[ISA_MEM_Y_SIZE +: ISA_MEM_Y_SIZE_W];
    wire [15:0] f_xsize = insn[ISA_MEM_X_SIZE +: ISA_MEM_X_SIZE_W];
    wire [15:0] f_xstr  = insn[ISA_MEM_X_STRIDE +: ISA_MEM_X_STRIDE_W];

    // ---- address side: AW bursts; their lengths feed the W side ----
    wire [31:0] addr0        = out_base + (f_dram << LESZ);
    wire [31:0] row_bytes    = {16'd0, f_xsize} << LESZ;
    wire [31:0] stride_bytes = {16'd0, f_xstr} << LESZ;
    wire [15:0] nrows        = (f_xsize == 16'd0) ? 16'd0 : f_ysize;

    wire       gen_valid;
    wire       gen_busy;
    wire       len_full;
    wire       len_empty;
    wire [7:0] len_head;
    wire [7:0] len_count;
    reg  [7:0] bpend;  // bursts issued whose response has not arrived

    vta_burst_gen #(.LOG_B(LOG_B), .MAXB(256)) u_gen (
        .clk(clk), .rst(rst), .start(go),
        .addr0(addr0), .row_bytes(row_bytes), .stride_bytes(stride_bytes), .nrows(nrows),
        .allow(1'b1),
        .req_valid(gen_valid), .req_ready(awready && aw_room), .req_addr(awaddr), .req_len(awlen),
        .busy(gen_busy)
    );
    // AWVALID may only rise while the length table has room; once high it
    // stays high until accepted (the table does not fill meanwhile).
    // Responses are counted in 8 bits, so at most 255 bursts await one.
`ifdef VTA_TEST_BREAK_B_BOUND
    // test-only breakage (rtl/README.md): the count of bursts awaiting B wraps past 255
    wire   aw_room = !len_full;
`else
    wire   aw_room = !len_full && (bpend != 8'hFF);
`endif
    assign awvalid = gen_valid && aw_room;
    wire aw_fire = awvalid && awready;

    wire w_fire;
    reg  [7:0] wbeat;
    assign wlast = (wbeat == len_head);
    vta_fifo #(.WIDTH(8), .DEPTH(8)) u_len (
        .clk(clk), .rst(rst), .clr(1'b0),
        .push(aw_fire), .din(awlen), .full(len_full),
        .pop(w_fire && wlast), .dout(len_head), .empty(len_empty), .count(len_count)
    );

    // ---- OUT SRAM reader: sequential elements into a small buffer ----
    reg  [31:0] rd_left;
    reg  [LA-1:0] rd_addr;
    reg         rd_inflight;
    wire        eb_full;
    wire        eb_empty;
    wire [7:0]  eb_count;
    wire [EB-1:0] eb_dout;
    wire        pk_ready;

    wire rd_issue = (rd_left != 32'd0) && ({1'b0, eb_count} + {8'd0, rd_inflight} < 9'd3);
    assign out_re    = rd_issue;
    assign out_raddr = rd_addr;
    wire [31:0] total = {16'd0, f_xsize} * {16'd0, f_ysize};

    always @(posedge clk) begin
        if (rst) begin
            rd_left     <= 32'd0;
            rd_addr     <= {LA{1'b0}};
            rd_inflight <= 1'b0;
        end else if (go) begin
            rd_left     <= total;
            rd_addr     <= f_sram[LA-1:0];
            rd_inflight <= 1'b0;
        end else begin
            rd_inflight <= rd_issue;
            if (rd_issue) begin
                rd_left <= rd_left - 32'd1;
                rd_addr <= rd_addr + 1'b1;
            end
        end
    end

    vta_fifo #(.WIDTH(EB), .DEPTH(3)) u_elems (
        .clk(clk), .rst(rst), .clr(1'b0),
        .push(rd_inflight), .din(out_rdata), .full(eb_full),
        .pop(pk_ready), .dout(eb_dout), .empty(eb_empty), .count(eb_count)
    );

    // ---- elements -> beats with strobes ----
    wire pk_valid;
    wire pk_busy;
    vta_pack #(.LOG_B(LOG_B), .LOG_E(LOG_OUT_BYTES)) u_pack (
        .clk(clk), .rst(rst), .start(go),
        .off0(addr0[LOG_B-1:0]), .stride_lo(stride_bytes[LOG_B-1:0]),
        .xsize(f_xsize), .nrows(nrows),
        .in_valid(!eb_empty), .in_ready(pk_ready), .in_data(eb_dout),
        .out_valid(pk_valid), .out_ready(wready && !len_empty), .out_data(wdata), .out_strb(wstrb),
        .busy(pk_busy)
    );
    // WVALID waits until the burst length is known (see AWVALID above).
    assign wvalid = pk_valid && !len_empty;
    assign w_fire = wvalid && wready;

    always @(posedge clk) begin
        if (rst) wbeat <= 8'd0;
        else if (w_fire) wbeat <= wlast ? 8'd0 : wbeat + 8'd1;
    end

    // ---- write responses ----
    assign bready = 1'b1;
    always @(posedge clk) begin
        if (rst) bpend <= 8'd0;
        else bpend <= bpend + (aw_fire ? 8'd1 : 8'd0) - (bvalid ? 8'd1 : 8'd0);
    end
    assign wr_outstanding = bpend;

    assign exec_busy = gen_busy || pk_busy || (rd_left != 32'd0) || rd_inflight || !eb_empty
                       || !len_empty || (bpend != 8'd0);

    // ---- status ----
    // [0] busy, [3:1] phase, [6:4] opcode, [9:7] memory type, [10] waiting for
    // a C2S token, [12] waiting for room in S2C, [14] executing, [15] waiting
    // for write responses only, [23:16] write bursts awaiting a response
    assign status = {8'd0, bpend, exec && !gen_busy && !pk_busy && (bpend != 8'd0), ph_status};

    wire unused_store = &{1'b0, f_sram, eb_full, len_count, insn, no_next_pop, no_next_push, total[31:0]};
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_store) ----------------------------------------------
    // Assumes: a reset in the first cycle; the AXI slave sends a write response (BVALID; BREADY
    // is always high) only for a burst whose last W beat (WLAST) it has taken and whose
    // response it has not sent yet (AXI: B follows WLAST). Nothing is assumed of AWREADY,
    // WREADY, the command queue, the tokens, out_base or the OUT SRAM data.
    // Guarantees (generic valid/payload stability is the shared AXI property file's):
    //  - W never runs ahead of AW: a W beat only for a burst accepted on AW, and at most 8
    //    bursts accepted on AW ahead of their last W beat;
    //  - the W beats of the burst at the head follow the length queue's head (WLAST exactly on
    //    beat AWLEN+1 of the head length; the queue takes AWLEN at each AW handshake and
    //    drops it with WLAST, vta_fifo's contract orders it);
    //  - at most 255 write bursts await a response, and wr_outstanding / status[23:16] is
    //    exactly the number that do;
    //  - an instruction completes (insn_done), and the module goes idle, only after every
    //    burst it issued has had its W beats and its B response.
    // With VTA_FORMAL_STORE_BYTES (bounded): each W beat's strobes are exactly the bytes of
    // the row it covers (row y at out_base + (dram_base + y*x_stride)*OUT bytes, beats in
    // order), and the bytes of a watched element (row, column), read from OUT as read number
    // row*x_size + column, are the element's bytes.
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    wire       f_wl = w_fire && wlast;
    reg  [8:0] f_ahead = 9'd0;    // bursts accepted on AW whose last W beat has not been sent
    reg  [8:0] f_wdone = 9'd0;    // bursts whose last W beat was sent, awaiting B
    reg  [7:0] f_wbeat = 8'd0;    // W beats of the head burst sent so far
    wire [8:0] f_out = f_ahead + f_wdone;
    always @(posedge clk) begin
        if (rst) begin
            f_ahead <= 9'd0; f_wdone <= 9'd0; f_wbeat <= 8'd0;
        end else begin
            f_ahead <= f_ahead + {8'd0, aw_fire} - {8'd0, f_wl};
            f_wdone <= f_wdone + {8'd0, f_wl} - {8'd0, bvalid};
            if (w_fire) f_wbeat <= wlast ? 8'd0 : f_wbeat + 8'd1;
        end
    end
    always @(*) if (f_past && !rst) m_b_after_wlast: assume(!bvalid || f_wdone != 9'd0);

    always @(*) if (f_past && !rst) begin
        if (wvalid) a_w_after_aw: assert(f_ahead != 9'd0);
        if (wvalid) a_wlast: assert(wlast == (f_wbeat == len_head));
        a_aw_ahead:       assert(f_ahead <= 9'd8);
        a_b_bound:        assert(f_out <= 9'd255);
        a_outstanding:    assert({1'b0, wr_outstanding} == f_out && status[23:16] == wr_outstanding);
        if (insn_done) a_done_after_b: assert(f_out == 9'd0);
        if (!busy)     a_idle_after_b: assert(f_out == 9'd0);
        // helper invariants: the length queue holds the bursts ahead of W; outside EXEC
        // the address side is idle
        h_wdone:     assert(f_wdone <= 9'd255);
        h_len_queue: assert({1'b0, len_count} == f_ahead && wbeat == f_wbeat
                            && (len_empty == (len_count == 8'd0)));
        h_not_exec:  assert(exec || (!gen_busy && !pk_busy && len_empty && rd_left == 32'd0
                                     && !rd_inflight && eb_empty && bpend == 8'd0));
    end


`ifdef VTA_FORMAL_STORE_BYTES
    // ---- bounded part (tb/formal/jobs.py: why): each W beat's strobes are exactly the bytes
    // of the row it covers, and a watched tile element lands in its bytes ----
    localparam integer FB = 1 << LOG_B;
    (* anyconst *) reg [15:0] f_wy;          // watched element: row
    (* anyconst *) reg [15:0] f_wx;          //                  column
    reg [31:0] f_rb = 32'd0, f_st = 32'd0;   // row bytes, stride bytes of the STORE
    reg [15:0] f_xs = 16'd0;
    // W side: the beat addresses of row 0, row 1, ... (row y at addr0 + y*stride bytes)
    reg [15:0] f_wrow = 16'd0;
    reg [31:0] f_wra = 32'd0, f_wbi = 32'd0, f_wbl = 32'd0;
    wire [31:0] f_wnrow  = f_wra + f_st;
    wire [32:0] f_w_first = {1'b0, row_bytes} + {{(33-LOG_B){1'b0}}, addr0[LOG_B-1:0]} + FB - 1;
    wire [32:0] f_w_next  = {1'b0, f_rb} + {{(33-LOG_B){1'b0}}, f_wnrow[LOG_B-1:0]} + FB - 1;
    // read side: element (row, column) is the read number row*x_size + column
    reg [15:0] f_rdr = 16'd0, f_rdc = 16'd0;
    reg [LA-1:0] f_rdaddr = {LA{1'b0}};      // OUT address of the next read
    reg          f_cap = 1'b0, f_wel_ok = 1'b0;
    reg [EB-1:0] f_wel;
    always @(posedge clk) begin
        if (rst) begin
            f_wrow <= 16'd0; f_rdr <= 16'd0; f_rdc <= 16'd0; f_cap <= 1'b0; f_wel_ok <= 1'b0;
        end else if (go) begin
            f_rb <= row_bytes; f_st <= stride_bytes; f_xs <= f_xsize;
            f_wrow <= 16'd0; f_wra <= addr0; f_wbi <= {addr0[31:LOG_B], {LOG_B{1'b0}}};
            f_wbl <= f_w_first[32:LOG_B];
            f_rdr <= 16'd0; f_rdc <= 16'd0; f_cap <= 1'b0; f_wel_ok <= 1'b0;
            f_rdaddr <= f_sram[LA-1:0];
        end else begin
            if (w_fire) begin
                if (f_wbl == 32'd1) begin
                    f_wrow <= f_wrow + 16'd1; f_wra <= f_wnrow;
                    f_wbi <= {f_wnrow[31:LOG_B], {LOG_B{1'b0}}}; f_wbl <= f_w_next[32:LOG_B];
                end else begin
                    f_wbi <= f_wbi + FB; f_wbl <= f_wbl - 32'd1;
                end
            end
            if (out_re) begin
                f_rdaddr <= f_rdaddr + 1'b1;
                if (f_rdc == f_xs - 16'd1) begin f_rdc <= 16'd0; f_rdr <= f_rdr + 16'd1; end
                else f_rdc <= f_rdc + 16'd1;
            end
            // the OUT SRAM answers a read in the next cycle (vta_ram)
            f_cap <= out_re && f_rdr == f_wy && f_rdc == f_wx;
            if (f_cap) begin f_wel <= out_rdata; f_wel_ok <= 1'b1; end
        end
    end
    reg [FB-1:0] f_strb_exp;
    reg          f_bytes_ok;
    reg [31:0]   f_off;
    integer      f_i;
    always @(*) begin
        f_bytes_ok = 1'b1;
        f_off = 32'd0;
        for (f_i = 0; f_i < FB; f_i = f_i + 1) begin
            f_off = f_wbi + f_i - f_wra;                   // lane f_i's byte offset in the row
            f_strb_exp[f_i] = (f_off < f_rb);
            if (f_strb_exp[f_i] && f_wrow == f_wy && (f_off >> LOG_OUT_BYTES) == {16'd0, f_wx})
                f_bytes_ok = f_bytes_ok && f_wel_ok
                             && (wdata[f_i*8 +: 8] == f_wel[f_off[LOG_OUT_BYTES-1:0]*8 +: 8]);
        end
    end
    always @(*) if (f_past && !rst && !go && wvalid) begin
        a_strb:  assert(wstrb == f_strb_exp);
        a_bytes: assert(f_bytes_ok);
    end
    always @(*) if (f_past && !rst && !go && out_re) a_rd_addr: assert(out_raddr == f_rdaddr);
    always @(posedge clk) if (f_past && !rst) begin
        c_watched_written: cover(w_fire && f_wrow == f_wy && f_wel_ok && f_wx == 16'd1);
    end
`endif

    always @(posedge clk) if (f_past && !rst) begin
        c_two_bursts_ahead: cover(f_ahead == 9'd2 && f_wdone == 9'd1);
        c_done:             cover(insn_done && $past(bvalid, 2));
    end
`endif
endmodule
`default_nettype wire
