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

    // read mux
    reg [31:0] rmux;
    integer    i;
    always @* begin
        rmux = 32'd0;
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
            default: begin
                for (i = 9; i < NREG; i = i + 1)
                    if ({18'd0, araddr[15:2]} == i) rmux = stat[(i - 9) * 32 +: 32];
            end
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
endmodule
`default_nettype wire
