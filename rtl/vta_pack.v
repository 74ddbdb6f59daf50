`default_nettype none
// Write data path: packs a stream of E-byte elements (nrows rows of xsize
// elements, row r starting at byte offset off0 + r*stride within its first
// beat) into bus beats with exact byte strobes, matching the beats that
// vta_burst_gen requests for the same access. The last beat of a row is
// flushed with only the row's bytes enabled. The output is a registered
// valid/data/strb held stable until out_ready.
module vta_pack #(
    parameter integer LOG_B = 3,  // log2(bus bytes)
    parameter integer LOG_E = 4   // log2(element bytes)
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire                   start,
    input  wire [LOG_B-1:0]       off0,
    input  wire [LOG_B-1:0]       stride_lo,
    input  wire [15:0]            xsize,
    input  wire [15:0]            nrows,
    input  wire                   in_valid,
    output wire                   in_ready,
    input  wire [(8<<LOG_E)-1:0]  in_data,
    output reg                    out_valid,
    input  wire                   out_ready,
    output reg  [(8<<LOG_B)-1:0]  out_data,
    output reg  [(1<<LOG_B)-1:0]  out_strb,
    output wire                   busy
);
    localparam integer B   = 1 << LOG_B;
    localparam integer E   = 1 << LOG_E;
    localparam integer CAP = E + B;
    localparam integer CW  = $clog2(CAP + 1);
    localparam [31:0]   B32 = B;
    localparam [31:0]   E32 = E;
    localparam [CW-1:0] B_C = B32[CW-1:0];
    localparam [CW-1:0] E_C = E32[CW-1:0];

    reg [CAP*8-1:0] buf_q;
    reg [CAP-1:0]   sb_q;
    reg [CW-1:0]    cnt;
    reg [15:0]      rows_left;
    reg [15:0]      elems_left;
    reg [LOG_B-1:0] off;

    wire active   = (rows_left != 16'd0);
    wire row_in   = (elems_left != 16'd0);
    wire can_emit = active && ((cnt >= B_C) || (!row_in && cnt != {CW{1'b0}}));
    wire emit     = can_emit && (!out_valid || out_ready);

    wire [CW-1:0]    cnt1 = emit ? ((cnt >= B_C) ? cnt - B_C : {CW{1'b0}}) : cnt;
    wire [CAP*8-1:0] buf1 = emit ? (buf_q >> (B * 8)) : buf_q;
    wire [CAP-1:0]   sb1  = emit ? (sb_q >> B) : sb_q;

    assign in_ready = active && row_in && (cnt1 <= B_C);
    wire accept = in_valid && in_ready;

    wire row_done = active && !row_in && (cnt == {CW{1'b0}});

    assign busy = active || out_valid;

    always @(posedge clk) begin
        if (rst) begin
            buf_q      <= {CAP{8'h00}};
            sb_q       <= {CAP{1'b0}};
            cnt        <= {CW{1'b0}};
            rows_left  <= 16'd0;
            elems_left <= 16'd0;
            off        <= {LOG_B{1'b0}};
            out_valid  <= 1'b0;
            out_data   <= {(B*8){1'b0}};
            out_strb   <= {B{1'b0}};
        end else if (start) begin
            buf_q      <= {CAP{8'h00}};
            sb_q       <= {CAP{1'b0}};
            cnt        <= {{(CW-LOG_B){1'b0}}, off0};
            rows_left  <= (xsize == 16'd0) ? 16'd0 : nrows;
            elems_left <= xsize;
            off        <= off0;
        end else begin
            if (out_valid && out_ready) out_valid <= 1'b0;
            if (emit) begin
                out_valid <= 1'b1;
                out_data  <= buf_q[B*8-1:0];
                out_strb  <= sb_q[B-1:0];
            end
            if (row_done) begin
                // start the next row (or finish): its first bytes sit at its offset
                rows_left  <= rows_left - 16'd1;
                elems_left <= xsize;
                off        <= off + stride_lo;
                cnt        <= {{(CW-LOG_B){1'b0}}, off + stride_lo};
                buf_q      <= {CAP{8'h00}};
                sb_q       <= {CAP{1'b0}};
            end else if (accept) begin
                buf_q      <= buf1 | ({{(B*8){1'b0}}, in_data} << {cnt1, 3'b000});
                sb_q       <= sb1 | ({{B{1'b0}}, {E{1'b1}}} << cnt1);
                cnt        <= cnt1 + E_C;
                elems_left <= elems_left - 16'd1;
            end else begin
                buf_q <= buf1;
                sb_q  <= sb1;
                cnt   <= cnt1;
            end
        end
    end
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_pack) --------------------------------------------
    // Assumes: a reset in the first cycle; start only while idle (vta_store starts an
    // instruction once the previous one has drained, pack included); xsize and stride_lo
    // keep their values from start while a row after the current one remains (the store
    // module holds the instruction). The elements (in_valid, in_data) and out_ready are free.
    // Guarantees: the beats handed over (valid && ready) are, row after row, the beats of
    // each row: row r's xsize*E bytes start at lane off0 + r*stride_lo (mod B) of its first
    // beat and run on through its beats, whose strobes are exactly the row's bytes (never
    // an empty beat); the strobed bytes are the elements' bytes in order, none lost or
    // repeated (a watched byte, picked by the solver at an element and lane, leaves in the
    // beat and lane its stream position says); valid/data/strb hold until ready; no element
    // is taken once every row is complete; busy exactly while beats remain to be handed
    // over, and then no byte is left behind. f_* follow the access from the handshakes;
    // e_* are that position advanced by the beat in the output register (the buffer's).
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    reg [15:0]      f_xs = 16'd0;      // xsize and stride_lo of the access
    reg [LOG_B-1:0] f_sl = {LOG_B{1'b0}};
    reg [15:0]      f_rows = 16'd0;    // rows not completely handed over
    reg [LOG_B-1:0] f_off = {LOG_B{1'b0}};   // lane of the current row's first byte
    reg [31:0]      f_out = 32'd0;     // bytes of the current row handed over
    reg [15:0]      f_pend = 16'd0;    // element bytes taken and not yet handed over
    reg             f_later = 1'b0;    // a row of the access has been handed over
    localparam [CW-1:0] CAP_C = CAP;
    wire        f_hs   = out_valid && out_ready;
    wire        f_take = in_valid && in_ready;
    wire [31:0] f_len  = {16'd0, f_xs} << LOG_E;               // bytes of a row
    wire [31:0] f_lo   = (f_out == 32'd0) ? {{(32-LOG_B){1'b0}}, f_off} : 32'd0;
    wire [31:0] f_fit  = B32 - f_lo;
    wire [31:0] f_n    = (f_len - f_out < f_fit) ? f_len - f_out : f_fit;  // bytes of the next beat
    wire [2*B-1:0] f_ones = ~({(2*B){1'b1}} << f_n);
    wire [B-1:0]   f_mask = f_ones[B-1:0] << f_lo;
    wire        f_end  = (f_out + f_n == f_len);               // the next beat ends its row
    // the position after the beat in the output register
    wire [15:0]      e_rows = (out_valid && f_end) ? f_rows - 16'd1 : f_rows;
    wire [LOG_B-1:0] e_off  = (out_valid && f_end) ? f_off + f_sl : f_off;
    wire [31:0]      e_out  = out_valid ? (f_end ? 32'd0 : f_out + f_n) : f_out;
    wire [31:0]      e_lo   = (e_out == 32'd0) ? {{(32-LOG_B){1'b0}}, e_off} : 32'd0;
    wire [31:0]      f_acc  = {16'd0, f_xs - elems_left} << LOG_E;  // bytes of the row taken
    wire             f_rd   = active && !row_in && (cnt == {CW{1'b0}});  // row_done pending

    always @(posedge clk) begin
        if (rst) begin
            f_rows <= 16'd0;
            f_pend <= 16'd0;
        end else if (start) begin
            f_xs   <= xsize;
            f_sl   <= stride_lo;
            f_rows <= (xsize == 16'd0) ? 16'd0 : nrows;
            f_off  <= off0;
            f_out  <= 32'd0;
            f_pend <= 16'd0;
            f_later <= 1'b0;
        end else begin
            f_pend <= f_pend + (f_take ? E32[15:0] : 16'd0) - (f_hs ? f_n[15:0] : 16'd0);
            if (f_hs) begin
                if (f_end) begin
                    f_later <= 1'b1;
                    f_rows <= f_rows - 16'd1;
                    f_off  <= f_off + f_sl;
                    f_out  <= 32'd0;
                end else begin
                    f_out  <= f_out + f_n;
                end
            end
        end
    end

    always @(*) if (f_past) begin
        if (start) m_start_idle: assume(!busy);
        if (!start && f_rows > 16'd1) m_row_held: assume(xsize == f_xs && stride_lo == f_sl);
    end

    // the watched byte
    (* anyseq *) reg f_pick;
    (* anyseq *) reg [LOG_E-1:0] f_lane;
    reg        f_armed = 1'b0;
    reg [15:0] f_ahead = 16'd0;   // element bytes ahead of it not yet handed over
    reg [7:0]  f_val = 8'd0;
    wire [31:0] f_olane = f_lo + {16'd0, f_ahead};              // its lane in the output beat
    always @(posedge clk) begin
        if (rst || start) f_armed <= 1'b0;
        else if (!f_armed && f_take && f_pick) begin
            f_armed <= 1'b1;
            f_ahead <= f_pend - (f_hs ? f_n[15:0] : 16'd0) + {{(16-LOG_E){1'b0}}, f_lane};
            f_val   <= in_data[f_lane*8 +: 8];
        end else if (f_armed && f_hs) begin
            if ({16'd0, f_ahead} < f_n) f_armed <= 1'b0;
            else f_ahead <= f_ahead - f_n[15:0];
        end
    end

    always @(*) if (f_past) begin
        a_busy: assert(busy == (f_rows != 16'd0));
        if (f_rows == 16'd0) a_drained: assert(f_pend == 16'd0 && !in_ready);
        if (out_valid) a_strb: assert(f_rows != 16'd0 && f_out < f_len && out_strb == f_mask);
        if (out_valid && f_armed && {16'd0, f_ahead} < f_n)
            a_order: assert(out_data[f_olane[LOG_B-1:0]*8 +: 8] == f_val);
    end
    always @(posedge clk) if (f_past && !$past(rst) && !$past(start) && $past(out_valid && !out_ready))
        a_stable: assert(out_valid && out_data == $past(out_data) && out_strb == $past(out_strb));

    // helper invariants: the buffer holds the bytes after the output register's beat,
    // lane e_lo upwards, strobes set exactly there, zero elsewhere; the watched byte
    // is in the output register or at its lane in the buffer
    wire [31:0] f_bl = {16'd0, f_ahead} - (out_valid ? f_n : 32'd0) + e_lo;  // its buffer lane
    reg     f_sb_ok, f_zero_ok, f_watch_ok;
    integer f_i;
    always @(*) begin
        f_sb_ok = 1'b1;
        f_zero_ok = 1'b1;
        f_watch_ok = 1'b1;
        for (f_i = 0; f_i < CAP; f_i = f_i + 1) begin
            if (sb_q[f_i] != (e_rows != 16'd0 && !f_rd && f_i >= e_lo && f_i < {{(32-CW){1'b0}}, cnt}))
                f_sb_ok = 1'b0;
            if (!sb_q[f_i] && buf_q[f_i*8 +: 8] != 8'h00) f_zero_ok = 1'b0;
            if (f_bl == f_i && buf_q[f_i*8 +: 8] != f_val) f_watch_ok = 1'b0;
        end
    end
    always @(*) if (f_past) begin
        h_rows:  assert(rows_left == e_rows + {15'd0, f_rd} && f_rows >= e_rows && cnt <= CAP_C
                        && (f_rows == 16'd0 || (f_out < f_len && f_xs != 16'd0)));
        if (f_rd) h_row_done: assert(f_pend == (out_valid ? f_n[15:0] : 16'd0)
                                     && (e_rows == 16'd0 || (off + f_sl == e_off && e_out == 32'd0)));
        else if (e_rows != 16'd0) h_row: assert(off == e_off && elems_left <= f_xs
                                     && e_out <= f_acc && e_out < f_len
                                     && {{(32-CW){1'b0}}, cnt} == e_lo + f_acc - e_out
                                     && f_pend == (out_valid ? f_n[15:0] : 16'd0) + cnt - e_lo[15:0]);
        else h_idle: assert(!active && f_pend == (out_valid ? f_n[15:0] : 16'd0));
        h_strobes: assert(f_sb_ok && f_zero_ok);
        if (f_armed) h_watch: assert(f_ahead < f_pend
                                     && ((out_valid && {16'd0, f_ahead} < f_n) || f_watch_ok));
    end

    always @(posedge clk) if (f_past) begin
        c_partial: cover(f_hs && f_end && !f_mask[B-1] && f_rows == 16'd2);
        c_offset:  cover(f_hs && f_lo != 32'd0 && f_later);  // a later row starts mid-beat
        c_order:   cover(f_armed && f_hs && {16'd0, f_ahead} < f_n && f_olane != 32'd0 && f_out != 32'd0);
        c_stall:   cover(out_valid && !out_ready && in_valid && !in_ready && active);
        c_done:    cover($past(busy) && !busy && !$past(start) && !$past(rst));
    end
`endif
endmodule
`default_nettype wire
