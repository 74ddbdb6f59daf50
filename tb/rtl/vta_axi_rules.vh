// tb/rtl/vta_axi_rules.vh: the AXI protocol rules of the testbench, written once and included
// by both of their users:
//   tb/rtl/vta_tb_axi_check.v          the fast testbench mode's checker (simulation: it turns
//                                      each violation wire into a latched, decoded finding)
//   tb/rtl/formal/vta_formal_axi.v     the formal top's port monitor (tb/rtl/formal/
//                                      vta_formal_top.v: each violation wire becomes an assert
//                                      on the side the DUT drives, an assume on the other)
// Nothing else may decide a violation: the checker keeps only reporting (first-violation
// latch, values, waivers) and the rules that exist only in a four-state simulation (1, 2: X/Z)
// or only in the testbench (11: the response the test injected). tb/tests/test_formal_rules.py
// checks that both users include this file and that the checker writes no rule condition.
//
// Included inside a module body after its ports. The includer provides:
//   parameters LITE (AXI4-Lite port: only rules 3, 4 and 10), DW, IDW, AW, QD (depth of the
//     outstanding-burst queues; a formal user must prove the counts never exceed it: awq_n,
//     wq_n, rq_n[k] <= QD), ATTR ({lock, cache, prot, qos} expected);
//   inputs clk, rst_n (bookkeeping reset while low; the rule wires are meaningful only while
//     rst_n is high) and the port's channels: awid awaddr awlen awsize awburst awattr awvalid
//     awready, wdata wstrb wlast wvalid wready, bid bresp bvalid bready, arid araddr arlen
//     arsize arburst arattr arvalid arready, rid rdata rresp rlast rvalid rready.
// It declares the bookkeeping state and one violation wire per (rule, channel):
//   r3_<ch>  valid-dropped        valid fell before ready                  (every channel)
//   r4_<ch>  payload-unstable     payload changed while valid and not ready (every channel)
//   r5_aw r5_ar    burst-type     AxBURST is not INCR                       (AXI4 only)
//   r6_aw r6_ar    burst-size     AxSIZE wider than the bus                 (AXI4 only)
//   r7_aw r7_ar    4k-crossing    the burst crosses a 4 KiB boundary        (AXI4 only)
//   r8_w           wlast          WLAST not exactly on beat AWLEN           (AXI4 only)
//   r9_r           rlast          RLAST not exactly on beat ARLEN           (AXI4 only)
//   r10_b r10_r    unexpected-response  B/R without a matching outstanding request
//   r12_aw r12_ar  attributes     {AxLOCK, AxCACHE, AxPROT, AxQOS} differ from ATTR (AXI4 only)
// plus the events and values reports need: b_take / r_take (a B / R handshake matched to an
// outstanding request), w_n / awq_head / wq_head_last (rule 8's beat number, the burst's
// length, the WLAST of the matched beat), r_n / r_head (rule 9's), lite_bmin (Lite: requests
// a B may answer). Manager-driven: AW, W, AR rules; subordinate-driven: B, R rules.
//
// Four-state note: handshakes are compared with === / !== exactly as a four-state simulator
// must see them (an X valid is not a handshake; an X-indexed outstanding count is neither zero
// nor a match), so Icarus reaches the verdicts it reached before these rules were shared; in
// two-state tools (Verilator, Yosys) === is ==. The subset used is the one accepted by Icarus
// 11 -g2012, Verilator 5 and Yosys read -formal alike (no tasks, no functions, no casts).
    localparam integer NB  = DW / 8;
    localparam integer QW  = $clog2(QD);
    localparam integer NID = 1 << IDW;

    // payloads per channel, in the order the signal codes count them
    wire [IDW+AW+8+3+2-1:0] aw_pl = {awburst, awsize, awlen, awaddr, awid};  // 0 id 1 addr 2 len 3 size 4 burst
    wire [IDW+AW+8+3+2-1:0] ar_pl = {arburst, arsize, arlen, araddr, arid};
    wire [DW+NB:0]          w_pl  = {wlast, wstrb, wdata};                   // 0 data 1 strb 2 last
    wire [IDW+2-1:0]        b_pl  = {bresp, bid};                            // 0 id 1 resp
    wire [IDW+DW+3-1:0]     r_pl  = {rlast, rresp, rdata, rid};              // 0 id 1 data 2 resp 3 last

    // --- stability: payload and valid held while waiting for ready ---------------------------
    reg                     aw_wait, w_wait, b_wait, ar_wait, r_wait;
    reg [IDW+AW+8+3+2-1:0]  aw_prev, ar_prev;
    reg [DW+NB:0]           w_prev;
    reg [IDW+2-1:0]         b_prev;
    reg [IDW+DW+3-1:0]      r_prev;

    wire r3_aw = aw_wait && awvalid !== 1'b1;
    wire r4_aw = aw_wait && awvalid === 1'b1 && aw_pl !== aw_prev;
    wire r3_w  = w_wait && wvalid !== 1'b1;
    wire r4_w  = w_wait && wvalid === 1'b1 && w_pl !== w_prev;
    wire r3_b  = b_wait && bvalid !== 1'b1;
    wire r4_b  = b_wait && bvalid === 1'b1 && b_pl !== b_prev;
    wire r3_ar = ar_wait && arvalid !== 1'b1;
    wire r4_ar = ar_wait && arvalid === 1'b1 && ar_pl !== ar_prev;
    wire r3_r  = r_wait && rvalid !== 1'b1;
    wire r4_r  = r_wait && rvalid === 1'b1 && r_pl !== r_prev;

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

    wire aw_hs = awvalid === 1'b1 && awready === 1'b1;
    wire w_hs  = wvalid === 1'b1 && wready === 1'b1;
    wire b_hs  = bvalid === 1'b1 && bready === 1'b1;
    wire ar_hs = arvalid === 1'b1 && arready === 1'b1;
    wire r_hs  = rvalid === 1'b1 && rready === 1'b1;

    // address rules of an accepted AW / AR: the burst's first and last byte
    wire [AW-1:0] aw_start = (awaddr >> awsize) << awsize;
    wire [AW-1:0] aw_last  = aw_start + (({{(AW-8){1'b0}}, awlen} + 1) << awsize) - 1;
    wire [AW-1:0] ar_start = (araddr >> arsize) << arsize;
    wire [AW-1:0] ar_last  = ar_start + (({{(AW-8){1'b0}}, arlen} + 1) << arsize) - 1;
    wire ax4_aw = LITE == 0 && aw_hs;
    wire ax4_ar = LITE == 0 && ar_hs;
    wire r5_aw  = ax4_aw && awburst != 2'd1;
    wire r6_aw  = ax4_aw && (32'd1 << awsize) > NB;
    wire r7_aw  = ax4_aw && (aw_start >> 12) != (aw_last >> 12);
    wire r12_aw = ax4_aw && awattr != ATTR;
    wire r5_ar  = ax4_ar && arburst != 2'd1;
    wire r6_ar  = ax4_ar && (32'd1 << arsize) > NB;
    wire r7_ar  = ax4_ar && (ar_start >> 12) != (ar_last >> 12);
    wire r12_ar = ax4_ar && arattr != ATTR;

    // W: the oldest queued beat is matched to the oldest AW; WLAST exactly on its last beat
    wire           w_match      = wq_n != 0 && awq_n != 0;
    wire [8:0]     w_n          = w_done + 9'd1;
    wire [8:0]     awq_head     = awq_beats[awq_rp];
    wire [IDW-1:0] awq_head_id  = awq_id[awq_rp];
    wire           wq_head_last = wq_last[wq_rp];
    wire           w_burst_end  = w_match && w_n == awq_head;
    wire r8_w = LITE == 0 && w_match && (wq_head_last ? w_n != awq_head : w_n == awq_head);

    // B: only for a completed write of that id (Lite: for a request with address and data)
    wire [31:0] lite_bmin = lite_aw < lite_w ? lite_aw : lite_w;
    wire r10_b  = LITE != 0 ? bvalid === 1'b1 && lite_bmin <= lite_b
                            : bvalid === 1'b1 && b_owed[bid] === 16'd0;
    wire b_take = LITE == 0 && bvalid === 1'b1 && b_owed[bid] !== 16'd0 && bready === 1'b1;

    // R: only for an outstanding read of that id (Lite: for an address); RLAST on its last beat
    wire [8:0] r_n    = r_done[rid] + 9'd1;
    wire [8:0] r_head = rq_beats[{rid, rq_rp[rid]}];
    wire r10_r  = LITE != 0 ? rvalid === 1'b1 && lite_ar <= lite_r
                            : rvalid === 1'b1 && rq_n[rid] === {(QW+1){1'b0}};
    wire r_take = LITE == 0 && rvalid === 1'b1 && rq_n[rid] !== {(QW+1){1'b0}} && rready === 1'b1;
    wire r9_r   = r_take && ((rlast === 1'b1) != (r_n == r_head));

    integer ax_k;
    always @(posedge clk) begin
        if (!rst_n) begin
            aw_wait <= 1'b0; w_wait <= 1'b0; b_wait <= 1'b0; ar_wait <= 1'b0; r_wait <= 1'b0;
            awq_wp <= {QW{1'b0}}; awq_rp <= {QW{1'b0}}; awq_n <= {(QW+1){1'b0}};
            wq_wp <= {QW{1'b0}}; wq_rp <= {QW{1'b0}}; wq_n <= {(QW+1){1'b0}}; w_done <= 9'd0;
            for (ax_k = 0; ax_k < NID; ax_k = ax_k + 1) begin
                b_owed[ax_k] <= 16'd0; rq_wp[ax_k] <= {QW{1'b0}}; rq_rp[ax_k] <= {QW{1'b0}};
                rq_n[ax_k] <= {(QW+1){1'b0}}; r_done[ax_k] <= 9'd0;
            end
            lite_aw <= 32'd0; lite_w <= 32'd0; lite_b <= 32'd0; lite_ar <= 32'd0; lite_r <= 32'd0;
        end else begin
            aw_wait <= awvalid === 1'b1 && awready !== 1'b1; aw_prev <= aw_pl;
            w_wait  <= wvalid === 1'b1 && wready !== 1'b1;   w_prev  <= w_pl;
            b_wait  <= bvalid === 1'b1 && bready !== 1'b1;   b_prev  <= b_pl;
            ar_wait <= arvalid === 1'b1 && arready !== 1'b1; ar_prev <= ar_pl;
            r_wait  <= rvalid === 1'b1 && rready !== 1'b1;   r_prev  <= r_pl;
            if (LITE != 0) begin
                lite_aw <= lite_aw + {31'd0, aw_hs};
                lite_w  <= lite_w + {31'd0, w_hs};
                lite_b  <= lite_b + {31'd0, b_hs};
                lite_ar <= lite_ar + {31'd0, ar_hs};
                lite_r  <= lite_r + {31'd0, r_hs};
            end else begin
                // AW: wait for its W beats
                if (aw_hs) begin
                    awq_beats[awq_wp] <= {1'b0, awlen} + 9'd1;
                    awq_id[awq_wp] <= awid;
                    awq_wp <= awq_wp + 1'b1;
                end
                // W: queue the beat; match the oldest queued beat to the oldest AW
                if (w_hs) begin
                    wq_last[wq_wp] <= wlast === 1'b1;
                    wq_wp <= wq_wp + 1'b1;
                end
                if (w_match) begin
                    if (w_n == awq_head) begin
                        awq_rp <= awq_rp + 1'b1;
                        w_done <= 9'd0;
                    end else begin
                        w_done <= w_n;
                    end
                    wq_rp <= wq_rp + 1'b1;
                end
                awq_n <= awq_n + {{QW{1'b0}}, aw_hs} - {{QW{1'b0}}, w_burst_end};
                wq_n <= wq_n + {{QW{1'b0}}, w_hs} - {{QW{1'b0}}, w_match};
                // B: a completed write is owed one, of its id
                for (ax_k = 0; ax_k < NID; ax_k = ax_k + 1)
                    b_owed[ax_k] <= b_owed[ax_k]
                                  + {15'd0, w_burst_end && awq_head_id == ax_k[IDW-1:0]}
                                  - {15'd0, b_hs && bid == ax_k[IDW-1:0] && b_owed[ax_k] != 16'd0};
                // AR: outstanding per id
                if (ar_hs) begin
                    rq_beats[{arid, rq_wp[arid]}] <= {1'b0, arlen} + 9'd1;
                    rq_wp[arid] <= rq_wp[arid] + 1'b1;
                end
                // R: the head read of its id advances; RLAST or its last beat ends it
                if (r_take) begin
                    if (rlast === 1'b1 || r_n == r_head) begin
                        rq_rp[rid] <= rq_rp[rid] + 1'b1;
                        r_done[rid] <= 9'd0;
                    end else begin
                        r_done[rid] <= r_n;
                    end
                end
                for (ax_k = 0; ax_k < NID; ax_k = ax_k + 1)
                    rq_n[ax_k] <= rq_n[ax_k]
                                + {{QW{1'b0}}, ar_hs && arid == ax_k[IDW-1:0]}
                                - {{QW{1'b0}}, r_hs && rid == ax_k[IDW-1:0] && rq_n[ax_k] != 0
                                                && (rlast === 1'b1 || r_done[ax_k] + 9'd1 == rq_beats[{ax_k[IDW-1:0], rq_rp[ax_k]}])};
            end
        end
    end
