`default_nettype none
// LOAD engine shared by the load and compute modules (spec section 3, LOAD).
// Requests the y_size DRAM rows of x_size elements of 2^lesz bytes starting at
// byte address base + dram_base*2^lesz with a row pitch of x_stride elements,
// realigns them, and writes the padded tile to SRAM sequentially from
// sram_base: y_pad_0 zero rows, then per row x_pad_0 zeros, the x_size
// elements and x_pad_1 zeros, then y_pad_1 zero rows. x_size == 0 is a no-op.
// One SRAM write per cycle; busy stays high until the last write is issued.
module vta_ld_engine #(
    parameter integer LOG_B    = 3,
    parameter integer LOG_EMAX = 4,
    parameter [15:0]  LESZ_SET = 16'hffff   // bit l: lesz == l may come (vta_unpack)
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     start,
    input  wire [31:0]              base,
    input  wire [3:0]               lesz,
    input  wire [15:0]              sram_base,
    input  wire [31:0]              dram_base,
    input  wire [15:0]              y_size,
    input  wire [15:0]              x_size,
    input  wire [15:0]              x_stride,
    input  wire [3:0]               y_pad_0,
    input  wire [3:0]               y_pad_1,
    input  wire [3:0]               x_pad_0,
    input  wire [3:0]               x_pad_1,
    // AXI read client
    output wire                     ar_valid,
    input  wire                     ar_ready,
    output wire [31:0]              ar_addr,
    output wire [7:0]               ar_len,
    input  wire                     r_valid,
    output wire                     r_ready,
    input  wire [(8<<LOG_B)-1:0]    r_data,
    // SRAM write
    output reg                      we,
    output reg  [15:0]              waddr,
    output reg  [(8<<LOG_EMAX)-1:0] wdata,
    output wire                     busy
);
    localparam integer EBITS = 8 << LOG_EMAX;

    wire [31:0] addr0        = base + (dram_base << lesz);
    wire [31:0] row_bytes    = {16'd0, x_size} << lesz;
    wire [31:0] stride_bytes = {16'd0, x_stride} << lesz;
    wire [15:0] nrows        = (x_size == 16'd0) ? 16'd0 : y_size;

    wire gen_busy;
    wire unp_busy;
    wire el_valid;
    wire el_ready;
    wire [EBITS-1:0] el_data;

    vta_burst_gen #(.LOG_B(LOG_B), .MAXB(256)) u_gen (
        .clk(clk), .rst(rst), .start(start),
        .addr0(addr0), .row_bytes(row_bytes), .stride_bytes(stride_bytes), .nrows(nrows),
        .allow(1'b1),
        .req_valid(ar_valid), .req_ready(ar_ready), .req_addr(ar_addr), .req_len(ar_len),
        .busy(gen_busy)
    );

    vta_unpack #(.LOG_B(LOG_B), .LOG_EMAX(LOG_EMAX), .LESZ_SET(LESZ_SET)) u_unp (
        .clk(clk), .rst(rst), .start(start),
        .off0(addr0[LOG_B-1:0]), .stride_lo(stride_bytes[LOG_B-1:0]),
        .row_bytes(row_bytes), .nrows(nrows), .lesz(lesz),
        .in_valid(r_valid), .in_ready(r_ready), .in_data(r_data),
        .out_valid(el_valid), .out_ready(el_ready), .out_data(el_data),
        .busy(unp_busy)
    );

    // ---- SRAM writer: walks the padded tile in order ----
    reg        wact;
    reg [16:0] yy;
    reg [16:0] xx;
    reg [16:0] ylast;     // Y - 1
    reg [16:0] xlast;     // X - 1
    reg [16:0] ydat_lo;   // first data row
    reg [16:0] ydat_hi;   // one past the last data row
    reg [16:0] xdat_lo;
    reg [16:0] xdat_hi;

    // whether (yy, xx) is a data element, kept in two registers updated with yy and xx
    // (ydat: ydat_lo <= yy < ydat_hi, xdat: xdat_lo <= xx < xdat_hi) rather than compared
    // from them: el_ready is the gearbox's out_ready, which reaches the AXI rready through
    // its in_ready, so it is two flip-flops and a gate (the fmax-critical path, README
    // "Timing"); the same decision in the same cycle as the compares
    reg  ydat;
    reg  xdat;
    wire at_data = ydat && xdat;
    wire [16:0] yy_inc = yy + 17'd1;
    wire [16:0] xx_inc = xx + 17'd1;
    assign el_ready = wact && at_data;
    wire step = wact && (!at_data || el_valid);

    wire [16:0] ysum = {13'd0, y_pad_0} + {1'b0, y_size} + {13'd0, y_pad_1};
    wire [16:0] xsum = {13'd0, x_pad_0} + {1'b0, x_size} + {13'd0, x_pad_1};

`ifdef VTA_TEST_BREAK_PAD_ONLY_IDLE
    // test-only breakage (rtl/README.md): a LOAD without data rows (y_size 0, pads only)
    // reports idle while its padding rows are still being written
    assign busy = gen_busy || unp_busy || (wact && (ydat_hi != ydat_lo)) || we;
`else
    assign busy = gen_busy || unp_busy || wact || we;
`endif

    always @(posedge clk) begin
        if (rst) begin
            wact    <= 1'b0;
            yy      <= 17'd0;
            xx      <= 17'd0;
            ylast   <= 17'd0;
            xlast   <= 17'd0;
            ydat_lo <= 17'd0;
            ydat_hi <= 17'd0;
            xdat_lo <= 17'd0;
            xdat_hi <= 17'd0;
            ydat    <= 1'b0;
            xdat    <= 1'b0;
            we      <= 1'b0;
            waddr   <= 16'd0;
            wdata   <= {EBITS{1'b0}};
        end else if (start) begin
            wact    <= (x_size != 16'd0) && (ysum != 17'd0);  // Y = 0: nothing to write
            yy      <= 17'd0;
            xx      <= 17'd0;
            ylast   <= ysum - 17'd1;
            xlast   <= xsum - 17'd1;
            ydat_lo <= {13'd0, y_pad_0};
            ydat_hi <= {13'd0, y_pad_0} + {1'b0, y_size};
            xdat_lo <= {13'd0, x_pad_0};
            xdat_hi <= {13'd0, x_pad_0} + {1'b0, x_size};
            ydat    <= (y_pad_0 == 4'd0) && (y_size != 16'd0);   // yy = 0
            xdat    <= (x_pad_0 == 4'd0) && (x_size != 16'd0);   // xx = 0
            we      <= 1'b0;
            waddr   <= sram_base - 16'd1;
        end else begin
            we <= step;
            if (step) begin
                waddr <= waddr + 16'd1;
                wdata <= at_data ? el_data : {EBITS{1'b0}};
                if (xx == xlast) begin
                    xx   <= 17'd0;
                    yy   <= yy_inc;
                    xdat <= (xdat_lo == 17'd0) && (xdat_hi != 17'd0);
                    ydat <= (yy_inc >= ydat_lo) && (yy_inc < ydat_hi);
                    if (yy == ylast) wact <= 1'b0;
                end else begin
                    xx   <= xx_inc;
                    xdat <= (xx_inc >= xdat_lo) && (xx_inc < xdat_hi);
                end
            end
        end
    end
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_ld_engine) ----------------------------------------
    // Assumes (the neighbours vta_load / vta_compute with vta_phase and the host):
    //  - a reset in the first cycle;
    //  - start only once the engine has reported !busy since the previous start (vta_phase
    //    starts the next instruction only after leaving EXEC on !exec_busy);
    //  - base, lesz, dram_base, y_size, x_size, x_stride held from start while busy (also in
    //    a reset cycle)
    //    (vta_phase holds the instruction; the host does not write base registers while
    //    running, rtl/README.md); lesz <= LOG_EMAX and one of LESZ_SET's sizes (the element
    //    sizes of load/compute).
    //  Nothing is assumed of AR/R handshakes or of the R data. (In a parent's job, vta_load,
    //  the formal runner turns these assumptions into the parent's obligations.)
    // Guarantees, per LOAD since its start (f_* latched from the start-cycle inputs):
    //  - SRAM writes walk the window Y = y_pad_0+y_size+y_pad_1 rows by
    //    X = x_pad_0+x_size+x_pad_1 columns in row-major order, one write per element, at
    //    addresses sram_base, sram_base+1, ... (16-bit wrap); never a write beyond Y*X
    //    elements or outside a LOAD; x_size == 0 writes nothing;
    //  - a pad element is written as zero and takes no element of the unpack stream; a
    //    data element is the unpack stream's next element (popped in the cycle before the
    //    write), and every popped element is written;
    //  - busy stays high until every element of the window (pad-only LOADs included) has
    //    been written;
    //  - read requests tile the rows: the AR bursts accepted are, in order, the beat-aligned
    //    beats covering row 0, row 1, ... (row r at addr0 + r*stride bytes), each burst
    //    inside one row, never across 4 KiB, and all rows have been requested by !busy.
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    localparam integer FB = 1 << LOG_B;
    localparam [31:0] F_LE32 = LOG_EMAX;

    reg f_idle_seen = 1'b1;   // busy was low in some cycle since the last start
    always @(posedge clk)
        if (rst) f_idle_seen <= 1'b1;
        else if (start) f_idle_seen <= 1'b0;
        else if (!busy) f_idle_seen <= 1'b1;
    always @(*) if (f_past && !rst) begin
        if (start) m_start_idle: assume(f_idle_seen || !busy);
    end
    // lesz is a constant per memory type in both neighbours, also during reset
    always @(*) m_lesz: assume({28'd0, lesz} <= F_LE32 && LESZ_SET[lesz]);
    // (a reset cycle included: the neighbours' registers change only at its end)
    always @(posedge clk) if (f_past && !start && !$past(rst) && ($past(start) || $past(busy))) begin
        m_held: assume(base == $past(base) && lesz == $past(lesz) && dram_base == $past(dram_base)
                       && y_size == $past(y_size) && x_size == $past(x_size) && x_stride == $past(x_stride));
    end

    // ---- the window, latched at start ----
    reg [16:0] f_Y = 17'd0, f_X = 17'd0;         // rows to write (0 if x_size == 0), row length
    reg [16:0] f_yd0 = 17'd0, f_yd1 = 17'd0;     // data rows [f_yd0, f_yd1)
    reg [16:0] f_xd0 = 17'd0, f_xd1 = 17'd0;     // data columns
    reg [16:0] f_y = 17'd0, f_x = 17'd0;         // position of the next write to appear
    reg [15:0] f_addr = 16'd0;                   // its SRAM address
    wire f_data = (f_y >= f_yd0) && (f_y < f_yd1) && (f_x >= f_xd0) && (f_x < f_xd1);
    wire f_pop  = el_valid && el_ready;
    always @(posedge clk) begin
        if (rst) begin
            // (no LOAD yet: the writer's address register resets to 0 = f_addr - 1)
            f_Y <= 17'd0; f_X <= 17'd0; f_y <= 17'd0; f_x <= 17'd0; f_addr <= 16'd1;
            f_yd0 <= 17'd0; f_yd1 <= 17'd0; f_xd0 <= 17'd0; f_xd1 <= 17'd0;
        end else if (start) begin
            f_Y    <= (x_size == 16'd0) ? 17'd0
                      : {13'd0, y_pad_0} + {1'b0, y_size} + {13'd0, y_pad_1};
            f_X    <= {13'd0, x_pad_0} + {1'b0, x_size} + {13'd0, x_pad_1};
            f_yd0  <= {13'd0, y_pad_0};
            f_yd1  <= {13'd0, y_pad_0} + {1'b0, y_size};
            f_xd0  <= {13'd0, x_pad_0};
            f_xd1  <= {13'd0, x_pad_0} + {1'b0, x_size};
            f_y    <= 17'd0;
            f_x    <= 17'd0;
            f_addr <= sram_base;
        end else if (we) begin
            f_addr <= f_addr + 16'd1;
            if (f_x == f_X - 17'd1) begin
                f_x <= 17'd0;
                f_y <= f_y + 17'd1;
            end else begin
                f_x <= f_x + 17'd1;
            end
        end
    end

    always @(*) if (f_past && !rst) begin
        if (we) begin
            a_in_window: assert(f_y < f_Y && f_x < f_X);
            a_addr:      assert(waddr == f_addr);
            if (!f_data) a_pad_zero: assert(wdata == {EBITS{1'b0}});
        end
        a_done_all: assert(busy || (f_y == f_Y && f_x == 17'd0));
        // helper invariants: the writer's walk is the formal one
        h_idle:  assert(!f_idle_seen || (!busy && !gen_busy && !unp_busy && !wact && !we));
        h_pos:   assert(we ? ((f_x == f_X - 17'd1) ? (yy == f_y + 17'd1 && xx == 17'd0)
                                                    : (yy == f_y && xx == f_x + 17'd1))
                           : (yy == f_y && xx == f_x));
        h_wact:  assert(wact == (yy < f_Y));
        h_range: assert(f_y <= f_Y && (f_y == f_Y ? f_x == 17'd0 : f_x < f_X)
                        && (yy <= f_Y) && (yy == f_Y ? xx == 17'd0 : xx < f_X));
        h_waddr: assert(waddr == f_addr - (we ? 16'd0 : 16'd1));
        h_dat:   assert(ydat == ((yy >= ydat_lo) && (yy < ydat_hi))
                        && xdat == ((xx >= xdat_lo) && (xx < xdat_hi)));
        h_geom:  assert((f_Y == 17'd0 || (ylast == f_Y - 17'd1 && xlast == f_X - 17'd1 && f_X != 17'd0
                                          && ydat_lo == f_yd0 && ydat_hi == f_yd1
                                          && xdat_lo == f_xd0 && xdat_hi == f_xd1
                                          && f_yd0 <= f_yd1 && f_yd1 <= f_Y
                                          && f_xd0 < f_xd1 && f_xd1 <= f_X)));
    end
    // every data write is the element popped in the cycle before; pads pop nothing
    reg [EBITS-1:0] f_el;
    reg             f_popped = 1'b0;
    always @(posedge clk) begin
        f_popped <= !rst && !start && f_pop;
        f_el     <= el_data;
    end
    always @(*) if (f_past && !rst) begin
        if (we) a_pop_is_data: assert(f_popped == f_data);
        else    a_pop_written: assert(!f_popped);
        if (we && f_data) a_data: assert(wdata == f_el);
    end

    // ---- read requests: the beats covering each row, in order ----
    reg [15:0] f_rows = 16'd0;     // rows of the LOAD
    reg [15:0] f_rrow = 16'd0;     // rows completely requested
    reg [31:0] f_raddr = 32'd0;    // byte address of the row being requested
    reg [31:0] f_rnext = 32'd0;    // beat address of its next beat
    reg [31:0] f_rbeats = 32'd0;   // beats of the row not yet requested
    reg [31:0] f_rbytes = 32'd0, f_rstride = 32'd0;
    wire [32:0] f_nb_first = {1'b0, row_bytes} + {{(33-LOG_B){1'b0}}, addr0[LOG_B-1:0]} + FB - 1;
    wire [31:0] f_nrow     = f_raddr + f_rstride;
    wire [32:0] f_nb_next  = {1'b0, f_rbytes} + {{(33-LOG_B){1'b0}}, f_nrow[LOG_B-1:0]} + FB - 1;
    wire [31:0] f_ar_beats = {24'd0, ar_len} + 32'd1;
    wire        f_ar = ar_valid && ar_ready;
    always @(posedge clk) begin
        if (rst) begin
            f_rows <= 16'd0; f_rrow <= 16'd0; f_raddr <= 32'd0; f_rnext <= 32'd0; f_rbeats <= 32'd0;
            f_rbytes <= 32'd0; f_rstride <= 32'd0;
        end else if (start) begin
            f_rows    <= (x_size == 16'd0) ? 16'd0 : y_size;
            f_rrow    <= 16'd0;
            f_raddr   <= addr0;
            f_rnext   <= {addr0[31:LOG_B], {LOG_B{1'b0}}};
            f_rbeats  <= f_nb_first[32:LOG_B];
            f_rbytes  <= row_bytes;
            f_rstride <= stride_bytes;
        end else if (f_ar) begin
            if (f_ar_beats == f_rbeats) begin
                f_rrow   <= f_rrow + 16'd1;
                f_raddr  <= f_nrow;
                f_rnext  <= {f_nrow[31:LOG_B], {LOG_B{1'b0}}};
                f_rbeats <= f_nb_next[32:LOG_B];
            end else begin
                f_rnext  <= f_rnext + (f_ar_beats << LOG_B);
                f_rbeats <= f_rbeats - f_ar_beats;
            end
        end
    end
`ifdef VTA_FORMAL_AR_TILING
    // bounded check only (tb/formal/jobs.py): its induction would need burst_gen's internal
    // row/beat registers, which a contract cannot name (no hierarchical references in yosys)
    always @(*) if (f_past && !rst && !start) begin
        if (f_ar) begin
            a_ar_in_tile: assert(f_rrow < f_rows);
            a_ar_addr:    assert(ar_addr == f_rnext);
            a_ar_in_row:  assert(f_ar_beats <= f_rbeats);
            a_ar_4k:      assert({20'd0, ar_addr[11:0]} + (f_ar_beats << LOG_B) <= 32'h1000);
        end
        a_ar_done: assert(busy || f_rrow == f_rows);
    end
`endif

    always @(posedge clk) if (f_past && !rst) begin
        c_pad_only_done: cover($past(f_yd0 == f_yd1 && f_Y > 17'd1 && busy) && !busy);
        c_data_written:  cover(we && f_data && f_y == 17'd1 && f_x == 17'd1 && f_Y == 17'd3);
        c_two_rows_done: cover($past(busy) && !busy && f_rows == 16'd2 && f_X == 17'd3);
        c_split_burst:   cover(f_ar && f_ar_beats != f_rbeats && f_rrow == 16'd0);
    end
`endif
endmodule
`default_nettype wire
