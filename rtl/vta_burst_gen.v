`default_nettype none
// AXI burst address generator for a 2-D access: nrows rows of row_bytes bytes,
// row r starting at byte address addr0 + r*stride_bytes (any byte alignment).
// Each row is covered by the bus-aligned beats that contain its bytes, split
// into INCR bursts of at most MAXB beats that never cross a 4 KiB boundary.
// The request is a registered valid/addr/len held stable until req_ready;
// a new burst is computed only while `allow` is high (credit gating).
module vta_burst_gen #(
    parameter integer LOG_B = 3,    // log2(bus bytes)
    parameter integer MAXB  = 256   // maximum beats per burst (1..256)
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    input  wire [31:0] addr0,
    input  wire [31:0] row_bytes,
    input  wire [31:0] stride_bytes,
    input  wire [15:0] nrows,
    input  wire        allow,
    output reg         req_valid,
    input  wire        req_ready,
    output reg  [31:0] req_addr,
    output reg  [7:0]  req_len,
    output wire        busy
);
    localparam [32:0] BM1 = (1 << LOG_B) - 1;
    localparam [31:0] MAXB32 = MAXB;

    reg [31:0] row_addr;   // byte address of the current row
    reg [31:0] cur;        // beat-aligned address of the next beat to request
    reg [31:0] beats_left; // beats of the current row not yet requested
    reg [15:0] rows_left;  // rows not completely requested (incl. current)

    // Beats that cover [a, a+row_bytes).
    wire [31:0] next_row = row_addr + stride_bytes;
    wire [32:0] s_first  = {1'b0, row_bytes} + {{(33-LOG_B){1'b0}}, addr0[LOG_B-1:0]} + BM1;
    wire [32:0] s_next   = {1'b0, row_bytes} + {{(33-LOG_B){1'b0}}, next_row[LOG_B-1:0]} + BM1;
    wire [31:0] beats_first = {{(LOG_B-1){1'b0}}, s_first[32:LOG_B]};
    wire [31:0] beats_next  = {{(LOG_B-1){1'b0}}, s_next[32:LOG_B]};
    wire unused_s = &{1'b0, s_first[LOG_B-1:0], s_next[LOG_B-1:0]};

    // Length of the next burst: min(beats_left, MAXB, beats to the 4 KiB edge).
`ifdef VTA_TEST_BREAK_4K_DISTANCE
    // test-only breakage (rtl/README.md): the distance to the 4 KiB edge from an address
    // with its lowest beat bit dropped
    wire [11:0] cur_lo = cur[11:0] & ~(12'd1 << LOG_B);
    wire [12:0] to_edge_bytes = 13'h1000 - {1'b0, cur_lo};
`else
    wire [12:0] to_edge_bytes = 13'h1000 - {1'b0, cur[11:0]};
`endif
    wire [31:0] to_edge = {19'd0, to_edge_bytes} >> LOG_B;
    // n = min(beats_left, MAXB, to_edge) as two independent compares: the row's last burst
    // (n == beats_left) is beats_left <= MAXB and beats_left <= to_edge, each from the
    // registers; otherwise n is cap = min(MAXB, to_edge), which depends on cur alone. So the
    // row-end decision (rows_left's enable) is a compare and an AND, not min, min and an
    // equality in series (issue 24, point 4: that chain was small's critical path).
    wire [31:0] cap = (MAXB32 < to_edge) ? MAXB32 : to_edge;
    wire        last_of_row = (beats_left <= MAXB32) && (beats_left <= to_edge);
    wire [31:0] n = last_of_row ? beats_left : cap;

    wire can_load = (!req_valid || req_ready);
    wire load = can_load && allow && (rows_left != 16'd0);

    assign busy = req_valid || (rows_left != 16'd0);

    always @(posedge clk) begin
        if (rst) begin
            req_valid  <= 1'b0;
            req_addr   <= 32'd0;
            req_len    <= 8'd0;
            row_addr   <= 32'd0;
            cur        <= 32'd0;
            beats_left <= 32'd0;
            rows_left  <= 16'd0;
        end else if (start) begin
            req_valid  <= 1'b0;
            row_addr   <= addr0;
            cur        <= {addr0[31:LOG_B], {LOG_B{1'b0}}};
            beats_left <= beats_first;
            rows_left  <= (row_bytes == 32'd0) ? 16'd0 : nrows;
        end else begin
            if (req_valid && req_ready && !load) req_valid <= 1'b0;
            if (load) begin
                req_valid <= 1'b1;
                req_addr  <= cur;
                req_len   <= n[7:0] - 8'd1;
                if (last_of_row) begin
                    rows_left  <= rows_left - 16'd1;
                    row_addr   <= next_row;
                    cur        <= {next_row[31:LOG_B], {LOG_B{1'b0}}};
                    beats_left <= beats_next;
                end else begin
                    cur        <= cur + {n[31-LOG_B:0], {LOG_B{1'b0}}};
                    beats_left <= beats_left - n;
                end
            end
        end
    end
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_burst_gen) ---------------------------------------
    // Assumes: a reset in the first cycle; row_bytes and stride_bytes keep their values
    // from start while a row after the one being requested remains (vta_ld_engine and
    // vta_store hold the instruction for its whole execution; fetch requests one row, so
    // INSN_COUNT may be rewritten meanwhile). start may come at any time; req_ready and
    // allow are free.
    // Guarantees, for every request: address aligned to the bus width, 1..MAXB beats,
    // never across a 4 KiB boundary; the payload holds while valid and not ready; a new
    // request appears only after a cycle with allow high, and in the cycle after one
    // with allow high, the register free and beats left to request. The requests taken
    // (valid && ready) tile the access exactly: row r's beats are the bus-aligned beats
    // of [addr0 + r*stride_bytes, ... + row_bytes), requested in address order, none
    // missed, none twice, none beyond the row, the rows in order; busy is high exactly
    // while beats remain to be handed over. The shadow below follows the access from the
    // requests taken (f_*); h_* tie the internal registers to it for induction.
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    // beats that cover [a, a + rb) for a byte offset a (mod bus width)
    function [31:0] f_beats(input [LOG_B-1:0] off, input [31:0] rb);
        reg [32:0] s;
        begin
            s = {1'b0, rb} + {{(33-LOG_B){1'b0}}, off} + BM1;
            f_beats = {{(LOG_B-1){1'b0}}, s[32:LOG_B]};
        end
    endfunction
    function [31:0] f_align(input [31:0] a);
        f_align = {a[31:LOG_B], {LOG_B{1'b0}}};
    endfunction

    reg [31:0] f_rb = 32'd0;        // the access's row_bytes and stride_bytes (from start)
    reg [31:0] f_st = 32'd0;
    reg [31:0] f_row = 32'd0;       // byte address of the row being handed over
    reg [31:0] f_next = 32'd0;      // beat address the next request taken must start at
    reg [31:0] f_rem = 32'd0;       // beats of that row not yet handed over
    reg [15:0] f_rows = 16'd0;      // rows not completely handed over
    wire        f_take = req_valid && req_ready;
    wire [31:0] f_n    = {24'd0, req_len} + 32'd1;             // beats of the request
    wire [31:0] f_nb   = f_n << LOG_B;                         // its bytes
    wire [31:0] f_nrow = f_row + f_st;
    always @(posedge clk) begin
        if (rst) begin
            f_rows <= 16'd0;
        end else if (start) begin
            f_rb   <= row_bytes;
            f_st   <= stride_bytes;
            f_row  <= addr0;
            f_next <= f_align(addr0);
            f_rem  <= f_beats(addr0[LOG_B-1:0], row_bytes);
            f_rows <= (row_bytes == 32'd0) ? 16'd0 : nrows;
        end else if (f_take) begin
            if (f_n == f_rem) begin
                f_rows <= f_rows - 16'd1;
                f_row  <= f_nrow;
                f_next <= f_align(f_nrow);
                f_rem  <= f_beats(f_nrow[LOG_B-1:0], f_rb);
            end else begin
                f_next <= f_next + f_nb;
                f_rem  <= f_rem - f_n;
            end
        end
    end

    always @(*) if (f_past && !start && f_rows > 16'd1) begin
        m_row_bytes_held: assume(row_bytes == f_rb);
        m_stride_held:    assume(stride_bytes == f_st);
    end

    always @(*) if (f_past && req_valid) begin
        a_aligned:  assert(req_addr[LOG_B-1:0] == {LOG_B{1'b0}});
        a_max_beats: assert(f_n <= MAXB32);
        a_4k:       assert({20'd0, req_addr[11:0]} + f_nb <= 32'h1000);
        a_in_order: assert(req_addr == f_next);
        a_in_row:   assert(f_rows != 16'd0 && f_n <= f_rem);
    end
    always @(*) if (f_past) begin
        a_busy: assert(busy == (f_rows != 16'd0));
    end
    always @(posedge clk) if (f_past && !$past(rst) && !$past(start)) begin
        if ($past(req_valid && !req_ready))
            a_stable: assert(req_valid && req_addr == $past(req_addr) && req_len == $past(req_len));
        if (req_valid && !$past(req_valid && !req_ready))
            a_gated:  assert($past(allow));
        if ($past(allow && (!req_valid || req_ready)) && f_rows != 16'd0)
            a_issue:  assert(req_valid);
    end
    always @(posedge clk) if (f_past && $past(rst || start)) a_start_idle: assert(!req_valid);

    // helper invariants: the registers are the shadow, one request ahead while valid
    always @(*) if (f_past) begin
        h_cur_aligned: assert(cur[LOG_B-1:0] == {LOG_B{1'b0}});
        h_rb_nonzero:  assert(f_rows == 16'd0 || (f_rb != 32'd0 && f_rem != 32'd0));
        h_rem_bound:   assert(f_rem <= f_beats(f_row[LOG_B-1:0], f_rb));
        if (!req_valid) begin
            h_idle: assert(rows_left == f_rows && (f_rows == 16'd0
                           || (cur == f_next && beats_left == f_rem && row_addr == f_row)));
        end else if (f_n != f_rem) begin
            h_mid:  assert(cur == f_next + f_nb && beats_left == f_rem - f_n
                           && rows_left == f_rows && row_addr == f_row);
        end else begin
            h_end:  assert(rows_left == f_rows - 16'd1 && (rows_left == 16'd0
                           || (row_addr == f_nrow && cur == f_align(f_nrow)
                               && beats_left == f_beats(f_nrow[LOG_B-1:0], f_rb))));
        end
    end

    always @(posedge clk) if (f_past) begin
        c_4k_split: cover(req_valid && req_addr[11:0] + f_nb[11:0] == 12'd0 && f_n < f_rem);
        c_max:      cover(req_valid && f_n == MAXB32);
        c_row_next: cover(f_take && f_n == f_rem && f_rows == 16'd2);
        c_done:     cover($past(busy) && !busy && !$past(start) && !$past(rst));
    end
`endif
endmodule
`default_nettype wire
