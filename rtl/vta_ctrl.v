`default_nettype none
// AXI4-Lite control slave and register file (spec section 5).
//   0x00 CTRL   bit0: write 1 = START; reads 1 while a program runs.
//               bit1: DONE (read only), set when FINISH completes, cleared by START.
//               bit2: ERROR (read only), an AXI read or write response was not OKAY
//               since the last START (AXI_STATUS[31:30] say which).
//   0x04 CYCLES clock cycles from launch to DONE
//   0x08 INSN_COUNT, 0x0C INSN_ADDR, 0x10..0x20 UOP/INP/WGT/ACC/OUT_BASE (R/W)
//   0x24 ...    NSTAT read-only words from stat (counters and status)
// START is accepted only while the accelerator is quiescent (no instruction
// anywhere in fetch, queues or modules, no AXI transfer in flight); a START
// written while busy is ignored. Unmapped reads return 0, unmapped writes are
// ignored; every response is OKAY.
module vta_ctrl #(
    parameter integer NSTAT = 1
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              awvalid,
    output wire              awready,
    input  wire [15:0]       awaddr,
    input  wire              wvalid,
    output wire              wready,
    input  wire [31:0]       wdata,
    input  wire [3:0]        wstrb,
    output reg               bvalid,
    input  wire              bready,
    output wire [1:0]        bresp,
    input  wire              arvalid,
    output wire              arready,
    input  wire [15:0]       araddr,
    output reg               rvalid,
    input  wire              rready,
    output reg  [31:0]       rdata,
    output wire [1:0]        rresp,
    // control
    input  wire              quiescent,
    input  wire              finish,
    input  wire              bus_error,
    output reg               launch,
    output reg               running,
    output reg               done,
    output reg  [31:0]       insn_count,
    output reg  [31:0]       insn_addr,
    output reg  [31:0]       uop_base,
    output reg  [31:0]       inp_base,
    output reg  [31:0]       wgt_base,
    output reg  [31:0]       acc_base,
    output reg  [31:0]       out_base,
    input  wire [NSTAT*32-1:0] stat
);
    localparam integer NREG = 9 + NSTAT;

    reg        aw_ok;
    reg [13:0] aw_word;
    reg        w_ok;
    reg [31:0] w_data;
    reg [3:0]  w_strb;
    reg [31:0] cycles;

    assign awready = !aw_ok;
    assign wready  = !w_ok;
    assign bresp   = 2'b00;
    assign rresp   = 2'b00;
    assign arready = !rvalid;

    function [31:0] merge(input [31:0] old, input [31:0] d, input [3:0] s);
        merge = {s[3] ? d[31:24] : old[31:24], s[2] ? d[23:16] : old[23:16],
                 s[1] ? d[15:8] : old[15:8], s[0] ? d[7:0] : old[7:0]};
    endfunction

    wire commit = aw_ok && w_ok && !bvalid;
    wire start  = commit && (aw_word == 14'd0) && w_strb[0] && w_data[0] && quiescent && !launch;

    always @(posedge clk) begin
        if (rst) begin
            aw_ok      <= 1'b0;
            aw_word    <= 14'd0;
            w_ok       <= 1'b0;
            w_data     <= 32'd0;
            w_strb     <= 4'd0;
            bvalid     <= 1'b0;
            launch     <= 1'b0;
            running    <= 1'b0;
            done       <= 1'b0;
            cycles     <= 32'd0;
            insn_count <= 32'd0;
            insn_addr  <= 32'd0;
            uop_base   <= 32'd0;
            inp_base   <= 32'd0;
            wgt_base   <= 32'd0;
            acc_base   <= 32'd0;
            out_base   <= 32'd0;
        end else begin
            if (awvalid && awready) begin
                aw_ok   <= 1'b1;
                aw_word <= awaddr[15:2];
            end
            if (wvalid && wready) begin
                w_ok   <= 1'b1;
                w_data <= wdata;
                w_strb <= wstrb;
            end
            if (bvalid && bready) bvalid <= 1'b0;
            if (commit) begin
                aw_ok  <= 1'b0;
                w_ok   <= 1'b0;
                bvalid <= 1'b1;
                case (aw_word)
                    14'd2: insn_count <= merge(insn_count, w_data, w_strb);
                    14'd3: insn_addr  <= merge(insn_addr, w_data, w_strb);
                    14'd4: uop_base   <= merge(uop_base, w_data, w_strb);
                    14'd5: inp_base   <= merge(inp_base, w_data, w_strb);
                    14'd6: wgt_base   <= merge(wgt_base, w_data, w_strb);
                    14'd7: acc_base   <= merge(acc_base, w_data, w_strb);
                    14'd8: out_base   <= merge(out_base, w_data, w_strb);
                    default: ;
                endcase
            end
            launch <= start;
            if (start) begin
                running <= 1'b1;
                done    <= 1'b0;
                cycles  <= 32'd0;
            end else begin
                if (running) cycles <= cycles + 32'd1;
                if (finish && running) begin
                    running <= 1'b0;
                    done    <= 1'b1;
                end
            end
        end
    end

    // read mux; the stat loop (words 9 and up) runs on every path: run only in the case's
    // default, its index was assigned on some paths only, a latch to synthesis
    reg [31:0] rmux;
    integer    i;
    always @* begin
        rmux = 32'd0;
        for (i = 9; i < NREG; i = i + 1)
            if ({18'd0, araddr[15:2]} == i) rmux = stat[(i - 9) * 32 +: 32];
        case (araddr[15:2])
            14'd0: rmux = {29'd0, bus_error, done, running};
            14'd1: rmux = cycles;
            14'd2: rmux = insn_count;
            14'd3: rmux = insn_addr;
            14'd4: rmux = uop_base;
            14'd5: rmux = inp_base;
            14'd6: rmux = wgt_base;
            14'd7: rmux = acc_base;
            14'd8: rmux = out_base;
            default: ;
        endcase
    end

    always @(posedge clk) begin
        if (rst) begin
            rvalid <= 1'b0;
            rdata  <= 32'd0;
        end else begin
            if (rvalid && rready) rvalid <= 1'b0;
            if (arvalid && arready) begin
                rvalid <= 1'b1;
                rdata  <= rmux;
            end
        end
    end

    wire unused_ctrl = &{1'b0, awaddr[1:0], araddr[1:0]};
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_ctrl) -------------------------------------------
    // Assumes: a reset in the first cycle. Nothing of the AXI-Lite master is needed beyond
    // what it drives (the generic handshake rules, both ways, are tb/rtl/vta_axi_rules.vh's),
    // nor of quiescent/finish/bus_error/stat. The write seen on the interface is the address
    // of an AW handshake paired with the data/strobes of a W handshake, in order.
    // Guarantees (spec section 5, rtl/README.md "Register map", "Launch semantics"):
    //  - requests: one write address and one write data are stored at a time (awready /
    //    wready low exactly while one is stored); a stored pair is answered by one B at once
    //    when the B channel is free, and a B rises only for such a pair; a read is answered
    //    by one R in the next cycle (rvalid exactly while a read is unanswered); every
    //    response is OKAY.
    //  - registers: INSN_COUNT, INSN_ADDR and the five bases hold exactly the strobed bytes
    //    of the writes to them (all 32 bits, INSN_COUNT's 31:28 included: they read back as
    //    written) and change at nothing else; writes elsewhere (CTRL's other bits, CYCLES,
    //    the read-only words, unmapped offsets) change no register.
    //  - a read returns, at its AR handshake: CTRL = {bus_error, DONE, RUNNING}, CYCLES, the
    //    R/W registers, stat word i at 0x24 + 4i, 0 at any other offset.
    //  - START (a CTRL write with WSTRB[0] and WDATA[0]) launches (one-cycle `launch` in the
    //    next cycle, as its B rises) exactly when quiescent; nothing else
    //    launches. An accepted START makes RUNNING 1, DONE 0, CYCLES 0; CYCLES then counts
    //    the cycles RUNNING is 1; `finish` while RUNNING ends it: RUNNING 0, DONE 1, held
    //    until the next accepted START.
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    // the write and read requests seen on the interface, not yet answered
    reg        f_aw = 1'b0, f_w = 1'b0, f_ar = 1'b0;
    reg [13:0] f_awo;
    reg [31:0] f_wd;
    reg [3:0]  f_ws;
    wire f_pair  = f_aw && f_w && !bvalid;   // a complete write the B channel can answer
    wire f_start = f_pair && (f_awo == 14'd0) && f_ws[0] && f_wd[0];
    // the R/W registers (words 2..8) as the writes made them
    reg [31:0] f_reg [2:8];
    integer f_k;
    always @(posedge clk) begin
        if (rst) begin
            f_aw <= 1'b0; f_w <= 1'b0; f_ar <= 1'b0;
            for (f_k = 2; f_k <= 8; f_k = f_k + 1) f_reg[f_k] <= 32'd0;
        end else begin
            if (awvalid && awready) begin f_aw <= 1'b1; f_awo <= awaddr[15:2]; end
            if (wvalid && wready) begin f_w <= 1'b1; f_wd <= wdata; f_ws <= wstrb; end
            if (f_pair) begin
                f_aw <= 1'b0; f_w <= 1'b0;
                for (f_k = 2; f_k <= 8; f_k = f_k + 1)
                    if ({18'd0, f_awo} == f_k) f_reg[f_k] <= merge(f_reg[f_k], f_wd, f_ws);
            end
            if (arvalid && arready) f_ar <= 1'b1;
            else if (rvalid && rready) f_ar <= 1'b0;
        end
    end
    // what a read of the word at araddr returns
    wire [13:0] f_ra = araddr[15:2];
    reg  [31:0] f_word;
    always @(*) begin
        if (f_ra == 14'd0) f_word = {29'd0, bus_error, done, running};
        else if (f_ra == 14'd1) f_word = cycles;
        else if (f_ra <= 14'd8) f_word = f_reg[f_ra[3:0]];
        else if ({18'd0, f_ra} < NREG) f_word = stat[({18'd0, f_ra} - 32'd9) * 32 +: 32];
        else f_word = 32'd0;
    end

    always @(*) if (f_past && !rst) begin
        a_aw_one:     assert(awready == !f_aw);
        a_w_one:      assert(wready == !f_w);
        a_r_one:      assert(rvalid == f_ar);
        a_okay:       assert(bresp == 2'b00 && rresp == 2'b00);
        a_insn_count: assert(insn_count == f_reg[2]);
        a_insn_addr:  assert(insn_addr == f_reg[3]);
        a_uop_base:   assert(uop_base == f_reg[4]);
        a_inp_base:   assert(inp_base == f_reg[5]);
        a_wgt_base:   assert(wgt_base == f_reg[6]);
        a_acc_base:   assert(acc_base == f_reg[7]);
        a_out_base:   assert(out_base == f_reg[8]);
        a_done_idle:  assert(!(running && done));
        h_launch_b:   assert(!launch || bvalid);
        // helper invariants: the stored request is the interface's
        h_aw:         assert(aw_ok == f_aw && (!f_aw || aw_word == f_awo));
        h_w:          assert(w_ok == f_w && (!f_w || (w_data == f_wd && w_strb == f_ws)));
    end
    always @(posedge clk) if (f_past && !rst && !$past(rst)) begin
        // B: at once for a complete pair on a free channel, and only then
        a_b_answer:   assert((bvalid && !$past(bvalid)) == $past(f_pair));
        // R: the word at the address of the AR handshake, taken in that cycle
        if ($past(arvalid && arready)) a_rdata: assert(rdata == $past(f_word));
        // START: accepted exactly when quiescent (the RTL's extra `!launch` never matters:
        // a START's B is still pending in its launch cycle, so no write completes there)
        a_launch:     assert(launch == $past(f_start && quiescent));
        if (launch) a_start_clears: assert(running && !done && cycles == 32'd0);
        else begin
            a_cycles:  assert(cycles == $past(cycles) + {31'd0, $past(running)});
            a_running: assert(running == ($past(running) && !$past(finish)));
            a_done:    assert(done == ($past(done) || ($past(running) && $past(finish))));
        end
    end
    always @(posedge clk) if (f_past && $past(rst)) a_reset: assert(!running && !done && !launch
        && cycles == 32'd0 && !bvalid && !rvalid && insn_count == 32'd0 && insn_addr == 32'd0);

    always @(posedge clk) if (f_past && !rst) begin
        c_start_busy:  cover(f_start && !quiescent);
        c_start_b_wait: cover(launch && !bready);
        c_done_read:   cover(rvalid && rdata == 32'd2 && $past(araddr[15:2] == 14'd0));
        c_write_wait:  cover(bvalid && !bready && f_aw && f_w);
        c_stat_read:   cover(rvalid && $past(arvalid && araddr[15:2] == NREG[13:0] - 14'd1));
        c_count_high:  cover(insn_count[31:28] != 4'd0 && insn_count[27:0] == 28'd1);
    end
`endif
endmodule
`default_nettype wire
