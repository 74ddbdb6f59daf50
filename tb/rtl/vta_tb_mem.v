`default_nettype none
// Test-only AXI4 slave memory of the fast testbench mode (tb/rtl/vta_tb_fast.v): the DRAM
// the DUT reads and writes lives in the simulation, so Python is not woken on every clock.
//
// Storage. The 4 GiB address space is mapped in 64 KiB pages onto 2^LOG_PAGES physical
// pages through a directory (one entry per virtual page: valid + physical page). The
// testbench writes three $readmemh files into the simulator's working directory and raises
// `load` for one cycle: vta_tb_dir.hex (directory entries), vta_tb_mem.hex (the job's init
// images, by physical word) and vta_tb_allow.hex (per word, the byte lanes a STORE of the
// program may write). `load` first zeroes the `pages_used` physical pages the job uses
// (every other byte of DRAM reads as zero, as in the model) and the directory. `dump`
// writes words [dump_lo, dump_hi] to vta_tb_dump.hex, which the testbench reads back.
//
// Behaviour. Bursts of any length and size (beats delimited by AxLEN, as a memory must;
// WLAST/RLAST rules are the protocol checker's), reads in order from a queue of QD
// accepted bursts, writes with byte strobes, B after the last W beat. Each channel has a
// vta_tb_stall generator (profile + seed): ready channels drop ready, response channels
// delay presenting the next beat (a presented R/B stays valid until accepted). Unmapped
// reads return zeros.
//
// Faults and observations (all re-armed by `load`):
//   * error responses: up to NERR ranges [lo, last] of kind 1 = read beats, 2 = write
//     bursts, each answering resp (2 SLVERR, 3 DECERR), and a random rate (err_rate/65536
//     per read beat and per write burst, SLVERR or DECERR, seeded); an errored read beat
//     returns zeros and an errored burst writes nothing. r_inj/b_inj carry, with each
//     presented beat, the response the test asked for;
//   * rogue: the first read beat touching [rogue_lo, rogue_last] answers SLVERR although
//     the test injected OKAY (the response checker must say so);
//   * corrupt: the first read beat touching [corrupt_lo, corrupt_last] has bit 4 of the
//     first byte in range flipped (corrupted_at latches that byte's address);
//   * stray: a write strobe on a byte the allow file does not permit (or on an unmapped
//     page) latches the first one (byte address, cycle, burst) and counts the bytes;
//   * the first error response accepted by the DUT is latched (channel, response, burst,
//     beat, byte address, cycle) with a count.
module vta_tb_mem #(
    parameter integer DW        = 64,
    parameter integer IDW       = 1,
    parameter integer AW        = 32,
    parameter integer LOG_PAGES = 9,
    parameter integer QD        = 64,
    parameter integer NERR      = 4
) (
    input  wire                clk,
    input  wire                rst_n,
    input  wire [63:0]         cycle,
    // AXI4 slave
    input  wire [IDW-1:0]      awid,
    input  wire [AW-1:0]       awaddr,
    input  wire [7:0]          awlen,
    input  wire [2:0]          awsize,
    input  wire                awvalid,
    output wire                awready,
    input  wire [DW-1:0]       wdata,
    input  wire [DW/8-1:0]     wstrb,
    input  wire                wvalid,
    output wire                wready,
    output reg  [IDW-1:0]      bid,
    output reg  [1:0]          bresp,
    output reg                 bvalid,
    input  wire                bready,
    input  wire [IDW-1:0]      arid,
    input  wire [AW-1:0]       araddr,
    input  wire [7:0]          arlen,
    input  wire [2:0]          arsize,
    input  wire                arvalid,
    output wire                arready,
    output reg  [IDW-1:0]      rid,
    output reg  [DW-1:0]       rdata,
    output reg  [1:0]          rresp,
    output reg                 rlast,
    output reg                 rvalid,
    input  wire                rready,
    // job set-up
    input  wire                load,
    input  wire [15:0]         pages_used,
    input  wire [1:0]          profile,
    input  wire [31:0]         seed,
    input  wire [NERR*2-1:0]   err_kind,
    input  wire [NERR*32-1:0]  err_lo,
    input  wire [NERR*32-1:0]  err_last,
    input  wire [NERR*2-1:0]   err_resp,
    input  wire [15:0]         err_rate,
    input  wire                rogue_en,
    input  wire [31:0]         rogue_lo,
    input  wire [31:0]         rogue_last,
    input  wire                corrupt_en,
    input  wire [31:0]         corrupt_lo,
    input  wire [31:0]         corrupt_last,
    input  wire                dump,
    input  wire [31:0]         dump_lo,
    input  wire [31:0]         dump_hi,
    // observations
    output reg  [1:0]          r_inj,
    output reg  [1:0]          b_inj,
    output reg                 stray,
    output reg  [AW-1:0]       stray_addr,
    output reg  [63:0]         stray_cycle,
    output reg  [AW-1:0]       stray_burst_addr,
    output reg  [7:0]          stray_burst_len,
    output reg  [31:0]         stray_bytes,
    output reg                 corrupted,
    output reg  [AW-1:0]       corrupted_at,
    output reg                 err_seen,
    output reg                 err_chan,       // 0: R, 1: B
    output reg  [1:0]          err_first_resp,
    output reg  [AW-1:0]       err_burst_addr,
    output reg  [7:0]          err_burst_len,
    output reg  [7:0]          err_beat,
    output reg  [AW-1:0]       err_addr,
    output reg  [63:0]         err_cycle,
    output reg  [31:0]         err_count
);
    localparam integer NB        = DW / 8;
    localparam integer LB        = $clog2(NB);
    localparam integer PW        = 16 - LB;                 // word index bits within a page
    localparam integer WORDS     = 1 << (LOG_PAGES + PW);
    localparam integer QW        = $clog2(QD);
    localparam [1:0]   OKAY      = 2'd0;
    localparam [1:0]   SLVERR    = 2'd2;
    localparam [1:0]   DECERR    = 2'd3;

    reg [DW-1:0]        mem   [0:WORDS-1];
    reg [NB-1:0]        allow [0:WORDS-1];
    reg [LOG_PAGES:0]   dir   [0:65535];                    // {valid, physical page}

    // --- address translation ------------------------------------------------------------
    // The directory entry is an argument, read by the caller's continuous assignment: a
    // function that read `dir` itself would not be re-evaluated by Icarus when `load`
    // rewrites the directory under an unchanged address (a stale translation).
    function automatic [LOG_PAGES+PW:0] phys(input [AW-1:0] a, input [LOG_PAGES:0] e);  // {mapped, word index}
        phys = {e[LOG_PAGES] && (a >> 32) == 0, e[LOG_PAGES-1:0], a[15:LB]};
    endfunction

    function automatic [AW-1:0] beat_addr(input [AW-1:0] a, input [2:0] size, input [7:0] n);
        beat_addr = (n == 8'd0) ? a : ((a >> size) << size) + ({{(AW-8){1'b0}}, n} << size);
    endfunction

    function automatic hits(input [AW-1:0] lo, input [AW-1:0] last, input [31:0] range_lo,
                            input [31:0] range_last);
        hits = lo <= {{(AW-32){1'b0}}, range_last} && {{(AW-32){1'b0}}, range_lo} <= last;
    endfunction

    function automatic [1:0] range_resp(input [1:0] kind, input [AW-1:0] lo, input [AW-1:0] last);
        integer k;
        begin
            range_resp = OKAY;
            for (k = NERR - 1; k >= 0; k = k - 1)
                if (err_kind[2*k +: 2] == kind && hits(lo, last, err_lo[32*k +: 32], err_last[32*k +: 32]))
                    range_resp = err_resp[2*k +: 2];
        end
    endfunction

    // --- random draws for error rates ---------------------------------------------------
    function automatic [31:0] xorshift(input [31:0] v);
        reg [31:0] a, b;
        begin
            a = v ^ (v << 13);
            b = a ^ (a >> 17);
            xorshift = b ^ (b << 5);
        end
    endfunction
    reg [31:0] rnd_r, rnd_w;
    wire [1:0] rnd_r_resp = (rnd_r[15:0] < err_rate) ? (rnd_r[16] ? DECERR : SLVERR) : OKAY;
    wire [1:0] rnd_w_resp = (rnd_w[15:0] < err_rate) ? (rnd_w[16] ? DECERR : SLVERR) : OKAY;

    // --- backpressure ---------------------------------------------------------------------
    wire st_aw, st_w, st_b, st_ar, st_r;
    vta_tb_stall #(.RESP(0), .SALT(32'h1B87_3593)) u_st_aw (.clk(clk), .rst_n(rst_n), .reseed(load), .profile(profile), .seed(seed), .stall(st_aw));
    vta_tb_stall #(.RESP(0), .SALT(32'hCC9E_2D51)) u_st_w  (.clk(clk), .rst_n(rst_n), .reseed(load), .profile(profile), .seed(seed), .stall(st_w));
    vta_tb_stall #(.RESP(1), .SALT(32'h85EB_CA6B)) u_st_b  (.clk(clk), .rst_n(rst_n), .reseed(load), .profile(profile), .seed(seed), .stall(st_b));
    vta_tb_stall #(.RESP(0), .SALT(32'hC2B2_AE35)) u_st_ar (.clk(clk), .rst_n(rst_n), .reseed(load), .profile(profile), .seed(seed), .stall(st_ar));
    vta_tb_stall #(.RESP(1), .SALT(32'h27D4_EB2F)) u_st_r  (.clk(clk), .rst_n(rst_n), .reseed(load), .profile(profile), .seed(seed), .stall(st_r));

    // --- queues -----------------------------------------------------------------------------
    reg [AW-1:0]  ar_addr [0:QD-1];
    reg [7:0]     ar_len  [0:QD-1];
    reg [2:0]     ar_size [0:QD-1];
    reg [IDW-1:0] ar_id   [0:QD-1];
    reg [QW-1:0]  ar_wp, ar_rp;
    reg [QW:0]    ar_n;
    reg [7:0]     r_next;                                   // next beat to present

    reg [AW-1:0]  aw_addr [0:QD-1];
    reg [7:0]     aw_len  [0:QD-1];
    reg [2:0]     aw_size [0:QD-1];
    reg [IDW-1:0] aw_id   [0:QD-1];
    reg [1:0]     aw_resp [0:QD-1];
    reg [QW-1:0]  aw_wp, aw_rp;
    reg [QW:0]    aw_n;
    reg [7:0]     w_beat;

    reg [IDW-1:0] b_id   [0:QD-1];
    reg [1:0]     b_resp [0:QD-1];
    reg [AW-1:0]  b_addr [0:QD-1];
    reg [7:0]     b_len  [0:QD-1];
    reg [QW-1:0]  b_wp, b_rp;
    reg [QW:0]    b_n;
    reg [AW-1:0]  bv_addr;                                  // burst of the presented B
    reg [7:0]     bv_len;
    reg [AW-1:0]  r_burst_addr, r_beat_addr;                // the presented R beat's burst
    reg [7:0]     r_burst_len, r_beat_no;

    assign arready = rst_n && ar_n != QD[QW:0] && !st_ar;
    assign awready = rst_n && aw_n != QD[QW:0] && !st_aw;
    assign wready  = rst_n && aw_n != 0 && b_n != QD[QW:0] && !st_w;

    // the beat the R channel presents next
    wire [AW-1:0]        hr_addr = ar_addr[ar_rp];
    wire [2:0]           hr_size = ar_size[ar_rp];
    wire [AW-1:0]        rb_addr = beat_addr(hr_addr, hr_size, r_next);
    wire [AW-1:0]        rb_word = (rb_addr >> LB) << LB;
    wire [AW-1:0]        rb_lastb = rb_word + NB - 1;
    wire [LOG_PAGES+PW:0] rb_phys = phys(rb_addr, dir[rb_addr[31:16]]);
    wire [1:0]           rb_range = range_resp(2'd1, rb_word, rb_lastb);
    wire [1:0]           rb_inj = (rb_range != OKAY) ? rb_range : rnd_r_resp;
    wire                 rb_rogue = rogue_armed && hits(rb_word, rb_lastb, rogue_lo, rogue_last);
    wire                 rb_corrupt = corrupt_armed && hits(rb_word, rb_lastb, corrupt_lo, corrupt_last);
    wire [AW-1:0]        rb_cbyte = ({{(AW-32){1'b0}}, corrupt_lo} > rb_word) ? {{(AW-32){1'b0}}, corrupt_lo} : rb_word;
    wire [DW-1:0]        rb_flip = {{(DW-1){1'b0}}, 1'b1} << (8 * (rb_cbyte - rb_word) + 4);
    wire [1:0]           rb_resp = rb_rogue ? SLVERR : rb_inj;
    wire                 r_take = (!rvalid || rready) && ar_n != 0 && !st_r;

    // the W beat being accepted
    wire [AW-1:0]        hw_addr = aw_addr[aw_rp];
    wire [AW-1:0]        wb_addr = beat_addr(hw_addr, aw_size[aw_rp], w_beat);
    wire [AW-1:0]        wb_word = (wb_addr >> LB) << LB;
    wire [LOG_PAGES+PW:0] wb_phys = phys(wb_addr, dir[wb_addr[31:16]]);
    wire                 w_fire = wvalid && wready;
    wire [NB-1:0]        wb_allow = wb_phys[LOG_PAGES+PW] ? allow[wb_phys[LOG_PAGES+PW-1:0]] : {NB{1'b0}};
    wire [NB-1:0]        wb_bad = wstrb & ~wb_allow;
    reg  [DW-1:0]        wb_mask;
    reg  [LB:0]          wb_first;
    reg  [31:0]          wb_nbad;
    integer              lane;
    always @* begin
        wb_mask = {DW{1'b0}};
        wb_first = NB[LB:0];
        wb_nbad = 32'd0;
        for (lane = NB - 1; lane >= 0; lane = lane - 1) begin
            wb_mask[8*lane +: 8] = {8{wstrb[lane]}};
            if (wb_bad[lane]) begin
                wb_first = lane[LB:0];
                wb_nbad = wb_nbad + 32'd1;
            end
        end
    end

    wire [AW-1:0] aw_lo = (awaddr >> awsize) << awsize;
    wire [AW-1:0] aw_last = aw_lo + (({{(AW-8){1'b0}}, awlen} + 1) << awsize) - 1;
    wire [1:0]    aw_range = range_resp(2'd2, aw_lo, aw_last);

    reg rogue_armed, corrupt_armed;
    reg [15:0] clr_pages;
    reg [DW-1:0] rb_mem;
    integer i;

    // mem is read and written in this block only, with blocking assignments in program
    // order: the R beat below reads the word before this cycle's W beat writes it, as a
    // flop would, and $readmemh/$writememh see the same array.
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        rb_mem = rb_phys[LOG_PAGES+PW] ? mem[rb_phys[LOG_PAGES+PW-1:0]] : {DW{1'b0}};
        if (load) begin
            for (i = 0; i < 65536; i = i + 1) dir[i] = {(LOG_PAGES+1){1'b0}};
            clr_pages = (pages_used > (16'd1 << LOG_PAGES)) ? (16'd1 << LOG_PAGES) : pages_used;
            for (i = 0; i < ({16'd0, clr_pages} << PW); i = i + 1) begin
                mem[i] = {DW{1'b0}};
                allow[i] = {NB{1'b0}};
            end
            $readmemh("vta_tb_dir.hex", dir);
            $readmemh("vta_tb_mem.hex", mem);
            $readmemh("vta_tb_allow.hex", allow);
            rogue_armed      <= rogue_en;
            corrupt_armed    <= corrupt_en;
            corrupted        <= 1'b0;
            corrupted_at     <= {AW{1'b0}};
            stray            <= 1'b0;
            stray_addr       <= {AW{1'b0}};
            stray_cycle      <= 64'd0;
            stray_burst_addr <= {AW{1'b0}};
            stray_burst_len  <= 8'd0;
            stray_bytes      <= 32'd0;
            err_seen         <= 1'b0;
            err_chan         <= 1'b0;
            err_first_resp   <= OKAY;
            err_burst_addr   <= {AW{1'b0}};
            err_burst_len    <= 8'd0;
            err_beat         <= 8'd0;
            err_addr         <= {AW{1'b0}};
            err_cycle        <= 64'd0;
            err_count        <= 32'd0;
            rnd_r            <= (seed ^ 32'h6A09_E667) | 32'd1;
            rnd_w            <= (seed ^ 32'hBB67_AE85) | 32'd1;
        end
        if (dump) $writememh("vta_tb_dump.hex", mem, dump_lo, dump_hi);
        if (!rst_n) begin
            ar_wp <= {QW{1'b0}}; ar_rp <= {QW{1'b0}}; ar_n <= {(QW+1){1'b0}}; r_next <= 8'd0;
            aw_wp <= {QW{1'b0}}; aw_rp <= {QW{1'b0}}; aw_n <= {(QW+1){1'b0}}; w_beat <= 8'd0;
            b_wp <= {QW{1'b0}}; b_rp <= {QW{1'b0}}; b_n <= {(QW+1){1'b0}};
            rvalid <= 1'b0;
            bvalid <= 1'b0;
        end else if (!load) begin
            // AR: queue the burst
            if (arvalid && arready) begin
                ar_addr[ar_wp] <= araddr;
                ar_len[ar_wp]  <= arlen;
                ar_size[ar_wp] <= arsize;
                ar_id[ar_wp]   <= arid;
                ar_wp          <= ar_wp + 1'b1;
            end
            // R: an accepted beat is counted; the next one is presented when the generator allows
            if (rvalid && rready && rresp != OKAY) begin
                if (!err_seen) begin
                    err_seen       <= 1'b1;
                    err_chan       <= 1'b0;
                    err_first_resp <= rresp;
                    err_burst_addr <= r_burst_addr;
                    err_burst_len  <= r_burst_len;
                    err_beat       <= r_beat_no;
                    err_addr       <= r_beat_addr;
                    err_cycle      <= cycle;
                end
                err_count <= err_count + 32'd1;
            end
            if (rvalid && rready) rvalid <= 1'b0;
            if (r_take) begin
                rvalid      <= 1'b1;
                rid         <= ar_id[ar_rp];
                rlast       <= r_next == ar_len[ar_rp];
                rresp       <= rb_resp;
                r_inj       <= rb_inj;
                rdata       <= (rb_resp != OKAY) ? {DW{1'b0}} : (rb_corrupt ? rb_mem ^ rb_flip : rb_mem);
                r_burst_addr <= hr_addr;
                r_burst_len <= ar_len[ar_rp];
                r_beat_no   <= r_next;
                r_beat_addr <= rb_addr;
                rnd_r       <= xorshift(rnd_r);
                if (rb_rogue) rogue_armed <= 1'b0;
                if (rb_corrupt && rb_resp == OKAY) begin
                    corrupt_armed <= 1'b0;
                    corrupted     <= 1'b1;
                    corrupted_at  <= rb_cbyte;
                end
                if (r_next == ar_len[ar_rp]) begin
                    r_next <= 8'd0;
                    ar_rp  <= ar_rp + 1'b1;
                end else begin
                    r_next <= r_next + 8'd1;
                end
            end
            ar_n <= ar_n + {{QW{1'b0}}, arvalid && arready} - {{QW{1'b0}}, r_take && r_next == ar_len[ar_rp]};
            // AW: queue the burst with its response
            if (awvalid && awready) begin
                aw_addr[aw_wp] <= awaddr;
                aw_len[aw_wp]  <= awlen;
                aw_size[aw_wp] <= awsize;
                aw_id[aw_wp]   <= awid;
                aw_resp[aw_wp] <= (aw_range != OKAY) ? aw_range : rnd_w_resp;
                aw_wp          <= aw_wp + 1'b1;
                rnd_w          <= xorshift(rnd_w);
            end
            // W: write the beat (unless the burst answers an error), judge its strobes
            if (w_fire) begin
                if (aw_resp[aw_rp] == OKAY && wb_phys[LOG_PAGES+PW])
                    mem[wb_phys[LOG_PAGES+PW-1:0]] = (mem[wb_phys[LOG_PAGES+PW-1:0]] & ~wb_mask) | (wdata & wb_mask);
                if (wb_bad != {NB{1'b0}}) begin
                    if (!stray) begin
                        stray            <= 1'b1;
                        stray_addr       <= wb_word + {{(AW-LB-1){1'b0}}, wb_first};
                        stray_cycle      <= cycle;
                        stray_burst_addr <= hw_addr;
                        stray_burst_len  <= aw_len[aw_rp];
                    end
                    stray_bytes <= stray_bytes + wb_nbad;
                end
                if (w_beat == aw_len[aw_rp]) begin
                    w_beat         <= 8'd0;
                    aw_rp          <= aw_rp + 1'b1;
                    b_id[b_wp]     <= aw_id[aw_rp];
                    b_resp[b_wp]   <= aw_resp[aw_rp];
                    b_addr[b_wp]   <= hw_addr;
                    b_len[b_wp]    <= aw_len[aw_rp];
                    b_wp           <= b_wp + 1'b1;
                end else begin
                    w_beat <= w_beat + 8'd1;
                end
            end
            aw_n <= aw_n + {{QW{1'b0}}, awvalid && awready} - {{QW{1'b0}}, w_fire && w_beat == aw_len[aw_rp]};
            // B
            if (bvalid && bready && bresp != OKAY) begin
                if (!err_seen) begin
                    err_seen       <= 1'b1;
                    err_chan       <= 1'b1;
                    err_first_resp <= bresp;
                    err_burst_addr <= bv_addr;
                    err_burst_len  <= bv_len;
                    err_beat       <= 8'd0;
                    err_addr       <= bv_addr;
                    err_cycle      <= cycle;
                end
                err_count <= err_count + 32'd1;
            end
            if (bvalid && bready) bvalid <= 1'b0;
            if ((!bvalid || bready) && b_n != 0 && !st_b) begin
                bvalid  <= 1'b1;
                bid     <= b_id[b_rp];
                bresp   <= b_resp[b_rp];
                b_inj   <= b_resp[b_rp];
                bv_addr <= b_addr[b_rp];
                bv_len  <= b_len[b_rp];
                b_rp    <= b_rp + 1'b1;
            end
            b_n <= b_n + {{QW{1'b0}}, w_fire && w_beat == aw_len[aw_rp]}
                       - {{QW{1'b0}}, (!bvalid || bready) && b_n != 0 && !st_b};
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
`default_nettype wire
