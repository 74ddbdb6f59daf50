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
    reg [8:0]  held;      // fifo_count + inflight, kept in a register of its own

    // ---- burst requests with credit gating ----
    // allow: the beats buffered, in flight and requested (pending: ar_len + 1 while ar_valid)
    // and a whole burst more fit the beat FIFO, fifo_count + inflight + pending + BURST <=
    // FIFO_BEATS. fifo_count + inflight is the register held (a beat received moves from one
    // to the other), so allow is one add and compare of registers, not three adds (issue 24,
    // point 4: this sum to the burst generator's enables was small's critical path)
    wire [7:0] fifo_count;
    localparam [8:0] ROOM9 = FIFO9 - BURST9;   // at most this many beats held or requested
    wire       allow   = ar_valid ? ((held + {1'b0, ar_len}) < ROOM9) : (held <= ROOM9);
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

    vta_unpack #(.LOG_B(LOG_B), .LOG_EMAX(4), .LESZ_SET(16'h0010)) u_unp (
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
            held     <= 9'd0;
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
            held     <= 9'd0;
        end else begin
            inflight <= inflight + ((ar_valid && ar_ready) ? ({1'b0, ar_len} + 9'd1) : 9'd0)
                                 - ((r_valid && r_ready) ? 9'd1 : 9'd0);
            // the FIFO's count goes down on a pop of a beat it holds (a push is a beat
            // received, which inflight loses)
            held     <= held + ((ar_valid && ar_ready) ? ({1'b0, ar_len} + 9'd1) : 9'd0)
                             - ((unp_ready && !fifo_empty) ? 9'd1 : 9'd0);
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
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_fetch) ------------------------------------------
    // Assumes (its neighbours in vta_top): a reset in the first cycle; vta_ctrl launches
    // only while quiescent, so at a launch fetch is not busy and no beat of its read bursts
    // is still to come; vta_rd_arb routes an R beat to fetch only for a burst of fetch's
    // that it granted (AXI R in order, so the k-th beat since the launch is the k-th beat
    // requested); the memory returns the program's bytes (one watched byte: any offset
    // f_wp from INSN_ADDR, any value f_wv).
    // Guarantees (spec sections 4, 5; rtl/README.md "Launch semantics", "Queues, tokens
    // and flow control", "Arbitration and liveness bounds"), counting from a launch with
    // INSN_ADDR a, INSN_COUNT n (bits 31:28 ignored: n = INSN_COUNT[27:0]):
    //  - reads: bursts of at most 16 beats, contiguous from the beat holding byte a, never
    //    across 4 KiB, never beyond the beat holding byte a + 16n - 1 (none for n = 0);
    //    R is never held while a beat of fetch is due (the credit gate).
    //  - dispatch: instruction k (0-based) goes out as {k, the 16 bytes at a + 16k} into
    //    exactly one queue, the one its opcode names (LOAD of INP/WGT: load; STORE: store;
    //    everything else, illegal opcodes 5-7 and memory types included: compute), never
    //    into a full queue, at most one a cycle, never more than n; `dispatched` counts them.
    //  - busy exactly while fewer than n are dispatched; once not busy, every beat was
    //    requested and received and no request is pending.
    // Checked to a bound only (tb/formal/jobs.py, FETCH_WHY): its induction would need
    // invariants on vta_burst_gen's and vta_unpack's internal counts.
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    localparam integer FB = 1 << LOG_B;
    localparam [35:0]  FB_M1 = FB - 1;
    reg [31:0] f_addr = 32'd0;       // INSN_ADDR latched at the launch
    reg [27:0] f_n    = 28'd0;       // INSN_COUNT[27:0] latched at the launch
    reg [31:0] f_req  = 32'd0;       // beats requested (AR handshakes) since the launch
    reg [31:0] f_rcv  = 32'd0;       // beats received (R handshakes)
    reg [31:0] f_disp = 32'd0;       // instructions dispatched
    wire f_ar_hs = ar_valid && ar_ready;
    wire f_r_hs  = r_valid && r_ready;
    wire f_push  = ld_push || cp_push || st_push;
    wire [31:0] f_base  = {f_addr[31:LOG_B], {LOG_B{1'b0}}};
    wire [35:0] f_off   = {{(36-LOG_B){1'b0}}, f_addr[LOG_B-1:0]};
    wire [35:0] f_span  = ({4'd0, f_n, 4'd0} + f_off + FB_M1) >> LOG_B;
    wire [31:0] f_total = (f_n == 28'd0) ? 32'd0 : f_span[31:0];   // beats the program covers
    always @(posedge clk) begin
        if (rst) begin
            f_addr <= 32'd0; f_n <= 28'd0; f_req <= 32'd0; f_rcv <= 32'd0; f_disp <= 32'd0;
        end else if (launch) begin
            f_addr <= insn_addr; f_n <= insn_count[27:0];
            f_req <= 32'd0; f_rcv <= 32'd0; f_disp <= 32'd0;
        end else begin
            if (f_ar_hs) f_req <= f_req + {24'd0, ar_len} + 32'd1;
            if (f_r_hs)  f_rcv <= f_rcv + 32'd1;
            if (f_push)  f_disp <= f_disp + 32'd1;
        end
    end

    // the neighbours
    always @(*) if (f_past && !rst) begin
        m_launch_quiet: assume(!launch || (!busy && f_rcv == f_req));
        m_r_granted:    assume(!r_valid || f_rcv != f_req);
    end
    // the memory: one watched byte of the program (any instruction f_wp[35:4], any byte
    // f_wp[3:0] of it, any value f_wv) arrives in the beat due (number f_rcv) in its lane
    (* anyconst *) reg [35:0] f_wp;                 // offset of the watched byte from INSN_ADDR
    (* anyconst *) reg [7:0]  f_wv;
    wire [35:0] f_wrel = f_wp + f_off - ({4'd0, f_rcv} << LOG_B);   // its lane in this beat
    always @(*) if (f_past && !rst && r_valid && f_wrel < FB)
        m_mem: assume(r_data[f_wrel[LOG_B-1:0]*8 +: 8] == f_wv);
    always @(*) if (f_past && !rst && f_push && {4'd0, f_disp} == f_wp[35:4])
        a_insn: assert(q_data[f_wp[3:0]*8 +: 8] == f_wv);
    always @(posedge clk) if (f_past && !rst)
        c_watched: cover(f_push && {4'd0, f_disp} == f_wp[35:4] && f_wp[35:4] == 32'd0
                         && f_wp[3:0] == 4'd15 && f_off == 36'd5);

    wire [2:0] f_op = q_data[ISA_OPCODE +: ISA_OPCODE_W];
    wire [2:0] f_mt = q_data[ISA_MEM_MEMORY_TYPE +: ISA_MEM_MEMORY_TYPE_W];
    wire f_is_ld = (f_op == OP_LOAD) && ((f_mt == MT_INP) || (f_mt == MT_WGT));
    wire f_is_st = (f_op == OP_STORE);
    always @(*) if (f_past && !rst) begin
        // reads
        a_ar_addr:   assert(!ar_valid || ar_addr == f_base + (f_req << LOG_B));
        a_ar_len:    assert(!ar_valid || (ar_len <= 8'd15 && f_req + {24'd0, ar_len} + 32'd1 <= f_total));
        a_ar_4k:     assert(!ar_valid || {20'd0, ar_addr[11:0]} + (({24'd0, ar_len} + 32'd1) << LOG_B) <= 32'd4096);
        a_r_ready:   assert(f_rcv == f_req || r_ready);
        a_rcv:       assert(f_rcv <= f_req && f_req <= f_total);
        // dispatch
        a_one_queue: assert({1'b0, ld_push} + {1'b0, cp_push} + {1'b0, st_push} <= 2'd1);
        a_room:      assert(!(ld_push && ld_full) && !(cp_push && cp_full) && !(st_push && st_full));
        a_route:     assert((!ld_push || f_is_ld) && (!st_push || f_is_st)
                            && (!cp_push || (!f_is_ld && !f_is_st)));
        a_index:     assert(!f_push || q_data[159:128] == f_disp);
        a_count:     assert(!f_push || f_disp < {4'd0, f_n});
        a_dispatched: assert(dispatched == f_disp);
        a_busy:      assert(busy == (f_disp < {4'd0, f_n}));
        a_idle:      assert(busy || (!ar_valid && f_req == f_total && f_rcv == f_total));
        a_stall:     assert(!stall || (busy && !f_push && (ld_full || cp_full || st_full)));
    end

    always @(posedge clk) if (f_past && !rst) begin
        c_illegal:  cover(cp_push && f_op >= 3'd5);
        c_stalled:  cover(stall && f_disp == 32'd0);
        c_last:     cover(f_push && f_disp == 32'd1 && f_n == 28'd2);
        c_high:     cover(launch && insn_count[31:28] != 4'd0);
        c_burst2:   cover(f_ar_hs && f_req == 32'd16);     // a second burst while the first is due
    end
`endif
endmodule
`default_nettype wire
