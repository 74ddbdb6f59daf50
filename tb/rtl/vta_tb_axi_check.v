`default_nettype none
// Test-only AXI protocol checker of the fast testbench mode: the rules of tb/uvm/protocol.py
// (the full mode's Python checker) in the simulation, on one port. It latches the first
// violation -- rule, channel, signal, cycle and two values -- which the testbench reads and
// turns into the same message as the Python checker (tb/uvm/fastcheck.py decodes the codes).
//
//   rule 1 x-on-handshake       valid or ready is X/Z (four-state simulators only)
//        2 x-on-payload         a payload signal is X/Z while valid (write data: strobed lanes)
//        3 valid-dropped        valid fell before ready
//        4 payload-unstable     the payload changed while valid high and ready low
//        5 burst-type           AxBURST is not INCR                      (AXI4 only)
//        6 burst-size           AxSIZE wider than the bus                (AXI4 only)
//        7 4k-crossing          a burst crosses a 4 KiB boundary         (AXI4 only)
//        8 wlast                WLAST not exactly on beat AWLEN          (AXI4 only)
//        9 rlast                RLAST not exactly on beat ARLEN          (AXI4 only)
//       10 unexpected-response  B/R without a matching outstanding request
//       11 unexpected-response  an R/B response other than the one the test injected
//                               (r_inj/b_inj, from the fast memory)
//       12 attributes           {AxLOCK, AxCACHE, AxPROT, AxQOS} differ from ATTR  (AXI4 only)
//   channel 0 AW, 1 W, 2 B, 3 AR, 4 R. signal: index in the channel's payload list below.
// W beats may come before their AW: they wait in a queue and are matched in order.
// WAIVE (bit r: rule r) names rules a DUT profile states the DUT breaks (tb/duts: e.g.
// protocol.4k-boundary waives rule 7): a waived finding does not latch `violation`; it is
// counted in `waived_n` and the first one kept (waived_rule, _chan, _sig, _cycle, _value0/1), so the
// run reports it while every other rule is still checked.
module vta_tb_axi_check #(
    parameter integer LITE = 0,
    parameter integer DW   = 64,
    parameter integer IDW  = 1,
    parameter integer AW   = 32,
    parameter integer QD   = 256,
    parameter [11:0]  ATTR = 12'h180,  // {lock, cache, prot, qos} rtl/README.md documents
    parameter [15:0]  WAIVE = 16'h0
) (
    input  wire            clk,
    input  wire            rst_n,
    input  wire [63:0]     cycle,
    input  wire [IDW-1:0]  awid,
    input  wire [AW-1:0]   awaddr,
    input  wire [7:0]      awlen,
    input  wire [2:0]      awsize,
    input  wire [1:0]      awburst,
    input  wire [11:0]     awattr,
    input  wire            awvalid,
    input  wire            awready,
    input  wire [DW-1:0]   wdata,
    input  wire [DW/8-1:0] wstrb,
    input  wire            wlast,
    input  wire            wvalid,
    input  wire            wready,
    input  wire [IDW-1:0]  bid,
    input  wire [1:0]      bresp,
    input  wire            bvalid,
    input  wire            bready,
    input  wire [1:0]      b_inj,
    input  wire [IDW-1:0]  arid,
    input  wire [AW-1:0]   araddr,
    input  wire [7:0]      arlen,
    input  wire [2:0]      arsize,
    input  wire [1:0]      arburst,
    input  wire [11:0]     arattr,
    input  wire            arvalid,
    input  wire            arready,
    input  wire [IDW-1:0]  rid,
    input  wire [DW-1:0]   rdata,
    input  wire [1:0]      rresp,
    input  wire            rlast,
    input  wire            rvalid,
    input  wire            rready,
    input  wire [1:0]      r_inj,
    output reg             violation,
    output reg  [3:0]      rule,
    output reg  [2:0]      chan,
    output reg  [2:0]      sig,
    output reg  [63:0]     vcycle,
    output reg  [63:0]     value0,
    output reg  [63:0]     value1
);
    localparam integer NB = DW / 8;
    localparam integer QW = $clog2(QD);
    localparam integer NID = 1 << IDW;
    localparam integer LB = $clog2(NB);

    // payloads per channel, in the order the signal codes count them
    wire [IDW+AW+8+3+2-1:0] aw_pl = {awburst, awsize, awlen, awaddr, awid};  // 0 id 1 addr 2 len 3 size 4 burst
    wire [IDW+AW+8+3+2-1:0] ar_pl = {arburst, arsize, arlen, araddr, arid};
    wire [DW-1:0]           w_strobed;
    genvar g;
    generate
        for (g = 0; g < NB; g = g + 1) begin : lanes
            assign w_strobed[8*g +: 8] = wstrb[g] ? wdata[8*g +: 8] : 8'd0;
        end
    endgenerate
    wire [DW+NB:0]          w_pl = {wlast, wstrb, wdata};                   // 0 data 1 strb 2 last
    wire [IDW+2-1:0]        b_pl = {bresp, bid};                            // 0 id 1 resp
    wire [IDW+DW+3-1:0]     r_pl = {rlast, rresp, rdata, rid};              // 0 id 1 data 2 resp 3 last

    // --- reporting: the first violation only ----------------------------------------------
    reg        fire_now;
    reg [3:0]  f_rule;
    reg [2:0]  f_chan, f_sig;
    reg [63:0] f_v0, f_v1;
    reg        waive_now;
    reg [3:0]  w_rule;
    reg [2:0]  w_chan, w_sig;
    reg [63:0] w_v0, w_v1;
    task automatic flag(input [3:0] r, input [2:0] c, input [2:0] s, input [63:0] v0, input [63:0] v1);
        if (WAIVE[r]) begin
            if (!waive_now) begin
                waive_now = 1'b1;
                w_rule = r; w_chan = c; w_sig = s; w_v0 = v0; w_v1 = v1;
            end
        end else if (!fire_now) begin
            fire_now = 1'b1;
            f_rule = r; f_chan = c; f_sig = s; f_v0 = v0; f_v1 = v1;
        end
    endtask

    // the waived findings: how many cycles had one, and the first (read by tb/uvm/fast.py
    // through the hierarchy, so nothing in the design reads the first one's fields)
    reg [31:0] waived_n;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [3:0]  waived_rule;
    reg [2:0]  waived_chan, waived_sig;
    reg [63:0] waived_cycle, waived_value0, waived_value1;
    /* verilator lint_on UNUSEDSIGNAL */

    // X/Z: the reduction of a vector with an X or Z bit is X
    function automatic has_x_aw(input [IDW+AW+8+3+2-1:0] v); has_x_aw = ^v === 1'bx; endfunction
    /* verilator lint_off UNUSEDSIGNAL */  // the last field is what is left
    function automatic [2:0] x_sig_addr(input [IDW+AW+8+3+2-1:0] v);
        begin
            x_sig_addr = (^v[IDW-1:0] === 1'bx) ? 3'd0 : (^v[IDW +: AW] === 1'bx) ? 3'd1
                       : (^v[IDW+AW +: 8] === 1'bx) ? 3'd2 : (^v[IDW+AW+8 +: 3] === 1'bx) ? 3'd3 : 3'd4;
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // --- stability: payload and valid held while waiting for ready ---------------------------
    reg                     aw_wait, w_wait, b_wait, ar_wait, r_wait;
    reg [IDW+AW+8+3+2-1:0]  aw_prev, ar_prev;
    reg [DW+NB:0]           w_prev;
    reg [IDW+2-1:0]         b_prev;
    reg [IDW+DW+3-1:0]      r_prev;

    // the low 64 bits of data words, for the latched values (any bus width)
    wire [DW+63:0] w_prev_x = {64'd0, w_prev[DW-1:0]};
    wire [DW+63:0] wdata_x  = {64'd0, wdata};
    wire [DW+63:0] r_prev_x = {64'd0, r_prev[IDW +: DW]};
    wire [DW+63:0] rdata_x  = {64'd0, rdata};
    wire [63:0] w_prev_lo = w_prev_x[63:0], wdata_lo = wdata_x[63:0];
    wire [63:0] r_prev_lo = r_prev_x[63:0], rdata_lo = rdata_x[63:0];

    // --- AXI4 bookkeeping -------------------------------------------------------------------------
    reg [8:0]      awq_beats [0:QD-1];                      // AW bursts awaiting W beats
    reg [IDW-1:0]  awq_id    [0:QD-1];
    reg [QW-1:0]   awq_wp, awq_rp;
    reg [QW:0]     awq_n;
    reg [8:0]      w_done;                                  // beats matched to the head AW
    reg            wq_last  [0:QD-1];                       // W beats not yet matched
    reg [QW-1:0]   wq_wp, wq_rp;
    reg [QW:0]     wq_n;
    reg [15:0]     b_owed [0:NID-1];                        // writes complete, B not yet given
    reg [8:0]      rq_beats [0:NID*QD-1];                   // per id: outstanding reads
    reg [QW-1:0]   rq_wp [0:NID-1];
    reg [QW-1:0]   rq_rp [0:NID-1];
    reg [QW:0]     rq_n  [0:NID-1];
    reg [8:0]      r_done [0:NID-1];                        // beats of the head read received
    reg [31:0]     lite_aw, lite_w, lite_b, lite_ar, lite_r;

    task automatic check_addr(input [2:0] c, input [AW-1:0] a, input [7:0] len, input [2:0] size,
                              input [1:0] burst, input [11:0] attr);
        reg [AW-1:0] start, last;
        begin
            start = (a >> size) << size;
            last = start + (({{(AW-8){1'b0}}, len} + 1) << size) - 1;
            if (burst != 2'd1) flag(4'd5, c, 3'd4, {62'd0, burst}, 64'd0);
            if ((32'd1 << size) > NB) flag(4'd6, c, 3'd3, {61'd0, size}, 64'(NB));
            if ((start >> 12) != (last >> 12)) flag(4'd7, c, 3'd1, {{(64-AW){1'b0}}, a}, {53'd0, size, len});
            if (attr != ATTR) flag(4'd12, c, 3'd5, {52'd0, attr}, {52'd0, ATTR});
        end
    endtask

    integer k;
    reg [IDW-1:0] id;
    reg [8:0] n;
    /* verilator lint_off BLKSEQ */  // fire_now, n, id: this cycle's scratch values
    always @(posedge clk) begin
        fire_now = 1'b0;
        waive_now = 1'b0;
        if (!rst_n) begin
            violation <= 1'b0;
            waived_n <= 32'd0;
            aw_wait <= 1'b0; w_wait <= 1'b0; b_wait <= 1'b0; ar_wait <= 1'b0; r_wait <= 1'b0;
            awq_wp <= {QW{1'b0}}; awq_rp <= {QW{1'b0}}; awq_n <= {(QW+1){1'b0}};
            wq_wp <= {QW{1'b0}}; wq_rp <= {QW{1'b0}}; wq_n <= {(QW+1){1'b0}}; w_done <= 9'd0;
            for (k = 0; k < NID; k = k + 1) begin
                b_owed[k] <= 16'd0; rq_wp[k] <= {QW{1'b0}}; rq_rp[k] <= {QW{1'b0}};
                rq_n[k] <= {(QW+1){1'b0}}; r_done[k] <= 9'd0;
            end
            lite_aw <= 32'd0; lite_w <= 32'd0; lite_b <= 32'd0; lite_ar <= 32'd0; lite_r <= 32'd0;
        end else begin
            // handshake and payload X/Z
            if (^{awvalid, awready} === 1'bx) flag(4'd1, 3'd0, 3'd0, {63'd0, awvalid}, {63'd0, awready});
            if (^{wvalid, wready} === 1'bx)   flag(4'd1, 3'd1, 3'd0, {63'd0, wvalid}, {63'd0, wready});
            if (^{bvalid, bready} === 1'bx)   flag(4'd1, 3'd2, 3'd0, {63'd0, bvalid}, {63'd0, bready});
            if (^{arvalid, arready} === 1'bx) flag(4'd1, 3'd3, 3'd0, {63'd0, arvalid}, {63'd0, arready});
            if (^{rvalid, rready} === 1'bx)   flag(4'd1, 3'd4, 3'd0, {63'd0, rvalid}, {63'd0, rready});
            if (awvalid === 1'b1 && has_x_aw(aw_pl)) flag(4'd2, 3'd0, x_sig_addr(aw_pl), 64'd0, 64'd0);
            if (arvalid === 1'b1 && has_x_aw(ar_pl)) flag(4'd2, 3'd3, x_sig_addr(ar_pl), 64'd0, 64'd0);
            if (wvalid === 1'b1 && (^{w_strobed, wstrb, LITE != 0 ? 1'b0 : wlast} === 1'bx))
                flag(4'd2, 3'd1, (^w_strobed === 1'bx) ? 3'd0 : (^wstrb === 1'bx) ? 3'd1 : 3'd2, 64'd0, 64'd0);
            if (bvalid === 1'b1 && (^b_pl === 1'bx)) flag(4'd2, 3'd2, (^bid === 1'bx) ? 3'd0 : 3'd1, 64'd0, 64'd0);
            if (rvalid === 1'b1 && (^r_pl === 1'bx))
                flag(4'd2, 3'd4, (^rid === 1'bx) ? 3'd0 : (^rdata === 1'bx) ? 3'd1 : (^rresp === 1'bx) ? 3'd2 : 3'd3, 64'd0, 64'd0);
            // stability while waiting
            if (aw_wait && awvalid !== 1'b1) flag(4'd3, 3'd0, 3'd0, {{(64-AW){1'b0}}, aw_prev[IDW +: AW]}, 64'd0);
            else if (aw_wait && aw_pl !== aw_prev) flag(4'd4, 3'd0, 3'd1, {{(64-AW){1'b0}}, aw_prev[IDW +: AW]}, {{(64-AW){1'b0}}, awaddr});
            if (ar_wait && arvalid !== 1'b1) flag(4'd3, 3'd3, 3'd0, {{(64-AW){1'b0}}, ar_prev[IDW +: AW]}, 64'd0);
            else if (ar_wait && ar_pl !== ar_prev) flag(4'd4, 3'd3, 3'd1, {{(64-AW){1'b0}}, ar_prev[IDW +: AW]}, {{(64-AW){1'b0}}, araddr});
            if (w_wait && wvalid !== 1'b1) flag(4'd3, 3'd1, 3'd0, 64'd0, 64'd0);
            else if (w_wait && w_pl !== w_prev)
                flag(4'd4, 3'd1, (w_pl[DW-1:0] !== w_prev[DW-1:0]) ? 3'd0 : (w_pl[DW +: NB] !== w_prev[DW +: NB]) ? 3'd1 : 3'd2,
                     w_prev_lo, wdata_lo);
            if (b_wait && bvalid !== 1'b1) flag(4'd3, 3'd2, 3'd0, 64'd0, 64'd0);
            else if (b_wait && b_pl !== b_prev) flag(4'd4, 3'd2, 3'd1, {62'd0, b_prev[IDW +: 2]}, {62'd0, bresp});
            if (r_wait && rvalid !== 1'b1) flag(4'd3, 3'd4, 3'd0, 64'd0, 64'd0);
            else if (r_wait && r_pl !== r_prev) flag(4'd4, 3'd4, 3'd1, r_prev_lo, rdata_lo);
            aw_wait <= awvalid === 1'b1 && awready !== 1'b1; aw_prev <= aw_pl;
            w_wait  <= wvalid === 1'b1 && wready !== 1'b1;   w_prev  <= w_pl;
            b_wait  <= bvalid === 1'b1 && bready !== 1'b1;   b_prev  <= b_pl;
            ar_wait <= arvalid === 1'b1 && arready !== 1'b1; ar_prev <= ar_pl;
            r_wait  <= rvalid === 1'b1 && rready !== 1'b1;   r_prev  <= r_pl;

            if (LITE != 0) begin
                // responses only for requests: B needs address and data, R an address
                if (bvalid === 1'b1 && (lite_aw < lite_w ? lite_aw : lite_w) <= lite_b)
                    flag(4'd10, 3'd2, 3'd0, {32'd0, lite_aw < lite_w ? lite_aw : lite_w}, {32'd0, lite_b});
                if (rvalid === 1'b1 && lite_ar <= lite_r) flag(4'd10, 3'd4, 3'd0, {32'd0, lite_ar}, {32'd0, lite_r});
                lite_aw <= lite_aw + {31'd0, awvalid === 1'b1 && awready === 1'b1};
                lite_w  <= lite_w + {31'd0, wvalid === 1'b1 && wready === 1'b1};
                lite_b  <= lite_b + {31'd0, bvalid === 1'b1 && bready === 1'b1};
                lite_ar <= lite_ar + {31'd0, arvalid === 1'b1 && arready === 1'b1};
                lite_r  <= lite_r + {31'd0, rvalid === 1'b1 && rready === 1'b1};
            end else begin
                // AW: address rules, then wait for its W beats
                if (awvalid === 1'b1 && awready === 1'b1) begin
                    check_addr(3'd0, awaddr, awlen, awsize, awburst, awattr);
                    awq_beats[awq_wp] <= {1'b0, awlen} + 9'd1;
                    awq_id[awq_wp] <= awid;
                    awq_wp <= awq_wp + 1'b1;
                end
                // W: queue the beat; match the oldest queued beat to the oldest AW
                if (wvalid === 1'b1 && wready === 1'b1) begin
                    wq_last[wq_wp] <= wlast === 1'b1;
                    wq_wp <= wq_wp + 1'b1;
                end
                if (wq_n != 0 && awq_n != 0) begin
                    n = w_done + 9'd1;
                    if (wq_last[wq_rp] && n != awq_beats[awq_rp])
                        flag(4'd8, 3'd1, 3'd2, {55'd0, n}, {55'd0, awq_beats[awq_rp]});
                    if (!wq_last[wq_rp] && n == awq_beats[awq_rp])
                        flag(4'd8, 3'd1, 3'd2, {55'd0, n}, {55'd0, awq_beats[awq_rp]} | 64'h1_0000_0000);
                    if (n == awq_beats[awq_rp]) begin
                        awq_rp <= awq_rp + 1'b1;
                        w_done <= 9'd0;
                    end else begin
                        w_done <= n;
                    end
                    wq_rp <= wq_rp + 1'b1;
                end
                awq_n <= awq_n + {{QW{1'b0}}, awvalid === 1'b1 && awready === 1'b1}
                               - {{QW{1'b0}}, wq_n != 0 && awq_n != 0 && w_done + 9'd1 == awq_beats[awq_rp]};
                wq_n <= wq_n + {{QW{1'b0}}, wvalid === 1'b1 && wready === 1'b1}
                             - {{QW{1'b0}}, wq_n != 0 && awq_n != 0};
                // B: only for a completed write of that id; the response the test injected
                if (bvalid === 1'b1) begin
                    if (b_owed[bid] == 16'd0) flag(4'd10, 3'd2, 3'd0, {{(64-IDW){1'b0}}, bid}, 64'd0);
                    else if (bready === 1'b1 && bresp !== b_inj)
                        flag(4'd11, 3'd2, 3'd1, {62'd0, bresp}, {62'd0, b_inj});
                end
                id = awq_id[awq_rp];
                for (k = 0; k < NID; k = k + 1)
                    b_owed[k] <= b_owed[k]
                               + {15'd0, wq_n != 0 && awq_n != 0 && w_done + 9'd1 == awq_beats[awq_rp]
                                         && id == k[IDW-1:0]}
                               - {15'd0, bvalid === 1'b1 && bready === 1'b1 && bid == k[IDW-1:0]
                                         && b_owed[k] != 16'd0};
                // AR: address rules, then outstanding per id
                if (arvalid === 1'b1 && arready === 1'b1) begin
                    check_addr(3'd3, araddr, arlen, arsize, arburst, arattr);
                    rq_beats[{arid, rq_wp[arid]}] <= {1'b0, arlen} + 9'd1;
                    rq_wp[arid] <= rq_wp[arid] + 1'b1;
                end
                // R: only for an outstanding read of that id; RLAST exactly on its last beat
                if (rvalid === 1'b1) begin
                    if (rq_n[rid] == 0) flag(4'd10, 3'd4, 3'd0, {{(64-IDW){1'b0}}, rid}, 64'd0);
                    else if (rready === 1'b1) begin
                        if (rresp !== r_inj) flag(4'd11, 3'd4, 3'd2, {62'd0, rresp}, {62'd0, r_inj});
                        n = r_done[rid] + 9'd1;
                        if ((rlast === 1'b1) != (n == rq_beats[{rid, rq_rp[rid]}]))
                            flag(4'd9, 3'd4, 3'd3, {55'd0, n}, {55'd0, rq_beats[{rid, rq_rp[rid]}]});
                        if (rlast === 1'b1 || n == rq_beats[{rid, rq_rp[rid]}]) begin
                            rq_rp[rid] <= rq_rp[rid] + 1'b1;
                            r_done[rid] <= 9'd0;
                        end else begin
                            r_done[rid] <= n;
                        end
                    end
                end
                for (k = 0; k < NID; k = k + 1)
                    rq_n[k] <= rq_n[k]
                             + {{QW{1'b0}}, arvalid === 1'b1 && arready === 1'b1 && arid == k[IDW-1:0]}
                             - {{QW{1'b0}}, rvalid === 1'b1 && rready === 1'b1 && rid == k[IDW-1:0]
                                             && rq_n[k] != 0
                                             && (rlast === 1'b1 || r_done[k] + 9'd1 == rq_beats[{k[IDW-1:0], rq_rp[k]}])};
            end
            if (fire_now && !violation) begin
                violation <= 1'b1;
                rule <= f_rule; chan <= f_chan; sig <= f_sig; vcycle <= cycle;
                value0 <= f_v0; value1 <= f_v1;
            end
            if (waive_now) begin
                waived_n <= waived_n + 32'd1;
                if (waived_n == 32'd0) begin
                    waived_rule <= w_rule; waived_chan <= w_chan; waived_sig <= w_sig; waived_cycle <= cycle;
                    waived_value0 <= w_v0; waived_value1 <= w_v1;
                end
            end
        end
    end
    /* verilator lint_on BLKSEQ */

    wire unused = &{1'b0, LB, w_prev_x[DW+63:64], wdata_x[DW+63:64],
                    r_prev_x[DW+63:64], rdata_x[DW+63:64]};
endmodule
`default_nettype wire
