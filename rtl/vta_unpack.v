`default_nettype none
// Read data path: turns the bus beats of a 2-D access (nrows rows of row_bytes
// bytes, row r at byte offset off0 + r*stride within its first beat, the same
// access vta_burst_gen requests) into a stream of elements of 2^lesz bytes.
// A byte gearbox of EMAX+B bytes realigns any byte alignment; bytes of a beat
// outside the row are dropped. Element bytes above 2^lesz in out_data are
// don't-care (they hold the following bytes).
module vta_unpack #(
    parameter integer LOG_B    = 3,  // log2(bus bytes)
    parameter integer LOG_EMAX = 4,  // log2(largest element bytes)
    // bit l set: lesz == l may reach this instance (the pop side is a mux over these sizes)
    parameter [15:0]  LESZ_SET = 16'hffff
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire                       start,
    input  wire [LOG_B-1:0]           off0,
    input  wire [LOG_B-1:0]           stride_lo,
    input  wire [31:0]                row_bytes,
    input  wire [15:0]                nrows,
    input  wire [3:0]                 lesz,
    input  wire                       in_valid,
    output wire                       in_ready,
    input  wire [(8<<LOG_B)-1:0]      in_data,
    output wire                       out_valid,
    input  wire                       out_ready,
    output wire [(8<<LOG_EMAX)-1:0]   out_data,
    output wire                       busy
);
    localparam integer B    = 1 << LOG_B;
    localparam integer EMAX = 1 << LOG_EMAX;
    localparam integer CAP  = EMAX + B;          // gearbox bytes
    localparam integer CW   = $clog2(CAP + 1);   // byte count width
    localparam [31:0]   EMAX32 = EMAX;
    localparam [CW-1:0] EMAX_C = EMAX32[CW-1:0];
    localparam [31:0] B32 = B;
    localparam [LOG_B:0] B_S = B32[LOG_B:0];

    reg [CAP*8-1:0]  buf_q;   // bytes [0, cnt) valid, the rest zero
    reg [CW-1:0]     cnt;
    reg [15:0]       rows_left;
    reg [31:0]       bytes_left;
    reg              first;
    reg [LOG_B-1:0]  off;

    // the element size in bytes, taken at start (lesz is held from start while busy), so
    // out_valid, in_ready and the count's update start from registers, not from the
    // neighbour's decode of its instruction (the fmax-critical path, README "Timing").
    // An instance of one size (LESZ_SET a single bit: fetch's 16-byte instructions) takes it
    // from the parameter, a constant: lesz can only be that size, and Yosys keeps the
    // hierarchy (synth -noflatten), so a constant on the lesz port would not reach inside.
    // out_valid is then a test of cnt's high bits, not a compare against a register.
    function integer one_size(input [15:0] set);   // the size, or -1 if not exactly one
        integer b, n;
        begin
            one_size = -1;
            n = 0;
            for (b = 0; b < 16; b = b + 1)
                if (set[b]) begin
                    one_size = b;
                    n = n + 1;
                end
            if (n != 1) one_size = -1;
        end
    endfunction
    localparam integer ONE_L = one_size(LESZ_SET);
    localparam integer ONE   = (ONE_L >= 0) ? 1 : 0;
    localparam integer ONE_S = (ONE != 0) ? ONE_L : 0;
    localparam [CW-1:0] ESZ_ONE = {{(CW-1){1'b0}}, 1'b1} << ONE_S;
    reg  [CW-1:0] esz_q;
    always @(posedge clk)
        if (rst)        esz_q <= {{(CW-1){1'b0}}, 1'b1};
        else if (start) esz_q <= {{(CW-1){1'b0}}, 1'b1} << lesz;
    wire [CW-1:0] esz = (ONE != 0) ? ESZ_ONE : esz_q;

    assign out_valid = (cnt >= esz);
    assign out_data  = buf_q[EMAX*8-1:0];
    wire pop = out_valid && out_ready;

    wire [CW-1:0] cnt_pop = cnt - esz;   // the count after a pop (out_valid: cnt >= esz)
    wire [CW-1:0]    cnt1 = pop ? cnt_pop : cnt;

    // pop: the buffer moves down by one element, a constant shift per size in LESZ_SET, so
    // each byte is a small AND-OR of the sizes the instance uses (no barrel shifter)
    // (zeros as a byte replication: a bit replication of CAP*8 passes Verilator's
    // replication limit of 8192 at BLOCK 32)
    localparam [CAP*8-1:0] NONE = {CAP{8'h00}};
    reg [CAP*8-1:0] buf1;
    integer l;
    always @(*) begin
        buf1 = pop ? NONE : buf_q;
        for (l = 0; l <= LOG_EMAX; l = l + 1)
            if (LESZ_SET[l])
                buf1 = buf1 | ((pop && (ONE != 0 || lesz == l[3:0])) ? (buf_q >> (8 << l)) : NONE);
    end

    // in_ready is cnt1 <= EMAX, written as two compares of the registered count (before the
    // pop, and after a pop of one element) so that out_ready only selects between them: the
    // consumer's decision reaches the read handshake (AXI rready) through one gate, not
    // through the subtract and compare (the fmax-critical path, README "Timing")
`ifdef VTA_TEST_BREAK_GEARBOX_ROOM
    // test-only breakage (rtl/README.md): a beat is taken with one byte less room than it needs
    wire room_hold = (cnt <= EMAX_C + 1'b1);
    wire room_pop  = out_valid && (cnt_pop <= EMAX_C + 1'b1);
`else
    wire room_hold = (cnt <= EMAX_C);
    wire room_pop  = out_valid && (cnt_pop <= EMAX_C);
`endif
    assign in_ready = (rows_left != 16'd0) && (room_hold || (room_pop && out_ready));
    wire accept = in_valid && in_ready;

    wire [LOG_B-1:0] boff = first ? off : {LOG_B{1'b0}};
    // the row bytes in this beat, nvalid = min(bytes_left, avail), avail = B - boff in
    // 1..B: compared on bytes_left's low LOG_B + 1 bits and a zero test of the rest, not a
    // 32-bit compare. row_end (bytes_left <= avail) is "bytes_next == 0" without the
    // subtract: the beat ends the row (it enables off, first, rows_left, bytes_left)
    wire [LOG_B:0]   avail = B_S - {1'b0, boff};
    wire             bl_small = (bytes_left[31:LOG_B+1] == {(31-LOG_B){1'b0}});
    wire             bl_lt   = bl_small && (bytes_left[LOG_B:0] < avail);
    wire             row_end = bl_small && (bytes_left[LOG_B:0] <= avail);
    wire [31:0] nvalid = {{(31-LOG_B){1'b0}}, bl_lt ? bytes_left[LOG_B:0] : avail};
    wire [B*8-1:0] shifted = in_data >> {boff, 3'b000};
    wire [B*8-1:0] keep    = ~({(B*8){1'b1}} << {nvalid[LOG_B:0], 3'b000});
    wire [B*8-1:0] sm      = shifted & keep;

    // write: the row bytes go to buffer bytes [cnt1, cnt1 + nvalid). The beat is rotated by
    // cnt1 mod B (a B-byte rotator) and written into the slots cnt1 / B and cnt1 / B + 1 by a
    // per-byte enable; bytes from cnt1 on are zero and sm's bytes beyond nvalid are zero, so
    // an OR over the B bytes [cnt1, cnt1 + B) writes exactly the row bytes.
    localparam integer NS = (CAP + B - 1) / B;   // B-byte slots of the buffer
    localparam integer SW = CW - LOG_B;          // slot number width
    wire [LOG_B-1:0] wo = cnt1[LOG_B-1:0];
    wire [SW-1:0]    ws = cnt1[CW-1:LOG_B];
    wire [2*B*8-1:0] rot2 = {sm, sm} << {wo, 3'b000};
    wire [B*8-1:0]   rot  = rot2[2*B*8-1:B*8];   // rot byte (cnt1 + k) mod B = sm byte k
    reg [NS:0]       hot;   // hot[k+1]: a beat is taken into slot k; hot[0] = 0
    reg [B-1:0]      lo_ge; // lo_ge[j]: lane j at or above cnt1 mod B
    reg [CAP*8-1:0]  ins;
    integer i;
    always @(*) begin
        hot[0] = 1'b0;
        for (i = 0; i < NS; i = i + 1)
            hot[i+1] = accept && ({{(32-SW){1'b0}}, ws} == i);
        for (i = 0; i < B; i = i + 1)
            lo_ge[i] = ({{(32-LOG_B){1'b0}}, wo} <= i);
        for (i = 0; i < CAP; i = i + 1)
            ins[i*8 +: 8] = ((hot[i/B+1] && lo_ge[i%B]) || (hot[i/B] && !lo_ge[i%B]))
                            ? rot[(i%B)*8 +: 8] : 8'h00;
    end

    wire [31:0] bytes_next = bytes_left - nvalid;

    assign busy = (rows_left != 16'd0) || (cnt != {CW{1'b0}});

    always @(posedge clk) begin
        if (rst) begin
            buf_q      <= {CAP{8'h00}};
            cnt        <= {CW{1'b0}};
            rows_left  <= 16'd0;
            bytes_left <= 32'd0;
            first      <= 1'b0;
            off        <= {LOG_B{1'b0}};
        end else if (start) begin
            buf_q      <= {CAP{8'h00}};
            cnt        <= {CW{1'b0}};
            rows_left  <= (row_bytes == 32'd0) ? 16'd0 : nrows;
            bytes_left <= row_bytes;
            first      <= 1'b1;
            off        <= off0;
        end else begin
            buf_q <= buf1 | ins;   // ins is zero unless a beat is taken
            if (accept) begin
                cnt   <= cnt1 + nvalid[CW-1:0];
                if (row_end) begin
                    rows_left  <= rows_left - 16'd1;
                    bytes_left <= row_bytes;
                    first      <= 1'b1;
                    off        <= off + stride_lo;
                end else begin
                    bytes_left <= bytes_next;
                    first      <= 1'b0;
                end
            end else begin
                cnt   <= cnt1;
            end
        end
    end

    wire unused_nvalid = &{1'b0, nvalid[31:LOG_B+1], rot2[B*8-1:0]};
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_unpack) ------------------------------------------
    // Assumes: a reset in the first cycle; lesz <= LOG_EMAX, one of LESZ_SET's sizes, and
    // held while busy; row_bytes
    // and stride_lo keep their values from start while a row after the current one remains
    // (fetch reads one row, so INSN_COUNT may be rewritten meanwhile). start may come at
    // any time; the beats (in_valid, in_data) and out_ready are free.
    // Guarantees: the row bytes of the beats taken (row r starts at byte offset off0 +
    // r*stride_lo of its first beat; a row's bytes run on through its beats; the bytes
    // outside the rows are dropped) leave as elements in the same order, none lost or
    // repeated: a watched byte, taken at a time and lane the solver picks, comes out in
    // the element and byte lane its position in the stream says. A beat is taken only
    // while rows remain and the gearbox has room for all of its row bytes (never more
    // than CAP = EMAX + B bytes held), and always when it has room for a whole beat;
    // out_valid exactly while a whole element is held; busy while rows remain or bytes
    // are held. The shadow f_* follows the access from the handshakes alone.
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    reg [31:0]      f_rb = 32'd0;     // row_bytes, stride_lo and lesz of the access
    reg [LOG_B-1:0] f_sl = {LOG_B{1'b0}};
    reg [3:0]       f_lesz = 4'd0;
    reg [15:0]      f_rows = 16'd0;   // rows not completely taken
    reg [31:0]      f_left = 32'd0;   // bytes of the current row not yet taken
    reg [LOG_B-1:0] f_off = {LOG_B{1'b0}};  // byte offset of the current row in its first beat
    reg             f_first = 1'b0;   // the next beat is the current row's first
    reg [15:0]      f_pend = 16'd0;   // row bytes taken and not yet output
    wire        f_take = in_valid && in_ready;
    wire        f_pop  = out_valid && out_ready;
    // the element size of the access started last (the RTL takes it at start; while busy
    // lesz is that one, and in a start cycle the elements held are still the last access's)
    wire [15:0] f_esz  = 16'd1 << f_lesz;
    wire [LOG_B-1:0] f_boff = f_first ? f_off : {LOG_B{1'b0}};
    wire [31:0] f_room = B32 - {{(32-LOG_B){1'b0}}, f_boff};   // beat bytes from the row's start
    wire [31:0] f_nb   = (f_left < f_room) ? f_left : f_room;  // row bytes in this beat
    wire [15:0] f_pend1 = f_pend - (f_pop ? f_esz : 16'd0);
    localparam [15:0] CAP16 = CAP;
    localparam [15:0] B16   = B;

    always @(posedge clk) begin
        if (rst) begin
            f_rows <= 16'd0;
            f_pend <= 16'd0;
        end else if (start) begin
            f_rb    <= row_bytes;
            f_sl    <= stride_lo;
            f_lesz  <= lesz;
            f_rows  <= (row_bytes == 32'd0) ? 16'd0 : nrows;
            f_left  <= row_bytes;
            f_off   <= off0;
            f_first <= 1'b1;
            f_pend  <= 16'd0;
        end else begin
            f_pend <= f_pend1 + (f_take ? f_nb[15:0] : 16'd0);
            if (f_take) begin
                if (f_left == f_nb) begin
                    f_rows  <= f_rows - 16'd1;
                    f_left  <= f_rb;
                    f_off   <= f_off + f_sl;
                    f_first <= 1'b1;
                end else begin
                    f_left  <= f_left - f_nb;
                    f_first <= 1'b0;
                end
            end
        end
    end

    always @(*) if (f_past && !start) begin
        if (busy) m_lesz_held: assume(lesz == f_lesz);
        if (f_rows > 16'd1) m_row_held: assume(row_bytes == f_rb && stride_lo == f_sl);
    end
    always @(*) if (f_past) begin
        m_lesz_range: assume(lesz <= LOG_EMAX && LESZ_SET[lesz]);
    end

    // the watched byte
    (* anyseq *) reg f_pick;
    (* anyseq *) reg [LOG_B-1:0] f_lane;
    reg        f_armed = 1'b0;
    reg [15:0] f_ahead = 16'd0;  // row bytes ahead of it not yet output
    reg [7:0]  f_val = 8'd0;
    wire f_lane_in = ({1'b0, f_lane} >= {1'b0, f_boff})
                     && ({{(32-LOG_B){1'b0}}, f_lane} < {{(32-LOG_B){1'b0}}, f_boff} + f_nb);
    always @(posedge clk) begin
        if (rst || start) f_armed <= 1'b0;
        else if (!f_armed && f_take && f_pick && f_lane_in) begin
            f_armed <= 1'b1;
            f_ahead <= f_pend1 + {{(16-LOG_B){1'b0}}, f_lane - f_boff};
            f_val   <= in_data[f_lane*8 +: 8];
        end else if (f_armed && f_pop) begin
            if (f_ahead < f_esz) f_armed <= 1'b0;
            else f_ahead <= f_ahead - f_esz;
        end
    end

    always @(*) if (f_past) begin
        a_room:      assert(f_pend <= CAP16);
        a_out_valid: assert(out_valid == (f_pend >= f_esz));
        a_busy:      assert(busy == (f_rows != 16'd0 || f_pend != 16'd0));
        if (f_rows == 16'd0) a_rows_done: assert(!in_ready);
        if (f_rows != 16'd0 && f_pend1 + B16 <= CAP16) a_ready: assert(in_ready);
        if (f_take) a_take_room: assert(f_pend1 + f_nb[15:0] <= CAP16);
        if (f_armed && out_valid && f_ahead < f_esz)
            a_order: assert(out_data[f_ahead[LOG_EMAX-1:0]*8 +: 8] == f_val);
    end

    // helper invariants: the registers are the shadow; the held bytes sit at the bottom
    // of the buffer with zeros above them; the watched byte is held at its position
    always @(*) if (f_past) begin
        h_regs:  assert(rows_left == f_rows && {{(16-CW){1'b0}}, cnt} == f_pend
                        && (f_rows == 16'd0 || (bytes_left == f_left && off == f_off
                                                && first == f_first && f_left != 32'd0
                                                && f_left <= f_rb)));
        if (f_armed) h_watch_held: assert(f_ahead < f_pend);
        // the element size taken at start is the access's (lesz is held while busy)
        if (busy) h_esz: assert(esz == ({{(CW-1){1'b0}}, 1'b1} << f_lesz));
    end
    // per byte (no wide shifts): bytes at and above cnt are zero; the watched byte is held
    reg     f_clean, f_watch;
    integer f_i;
    always @(*) begin
        f_clean = 1'b1;
        f_watch = 1'b1;
        for (f_i = 0; f_i < CAP; f_i = f_i + 1) begin
            if ({{(32-CW){1'b0}}, cnt} <= f_i && buf_q[f_i*8 +: 8] != 8'h00) f_clean = 1'b0;
            if ({16'd0, f_ahead} == f_i && buf_q[f_i*8 +: 8] != f_val) f_watch = 1'b0;
        end
    end
    always @(*) if (f_past) begin
        h_clean: assert(f_clean);
        if (f_armed) h_watch: assert(f_watch);
    end

    always @(posedge clk) if (f_past) begin
        c_full:    cover(f_rows != 16'd0 && in_valid && !in_ready && f_pend1 > CAP16 - B16);
        c_order:   cover(f_armed && f_pop && f_ahead < f_esz && f_ahead != 16'd0 && f_lesz != 4'd0);
        c_row2:    cover(f_take && f_left == f_nb && f_rows == 16'd2 && f_off != {LOG_B{1'b0}});
        c_done:    cover($past(busy) && !busy && !$past(start) && !$past(rst));
    end
`endif
endmodule
`default_nettype wire
