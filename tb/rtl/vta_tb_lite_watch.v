`default_nettype none
// Test-only observer of the AXI4-Lite control port's write timing, bound in
// tb/rtl/vta_tb_top.v (both testbench modes): it counts how the host presented its writes,
// so the host-timing flow (tb/uvm/seq_lib/hostvar.py) can check that each timing it asked for is
// the one the DUT got. Counts since reset:
//   together   writes whose address and data were accepted in the same cycle
//   aw_first   writes whose address was accepted before their data
//   w_first    writes whose data was accepted before their address
//   overlapped addresses accepted while the previous write's response waited (BVALID up):
//              a write begun before the last one was answered
//   b_held     cycles BVALID waited for BREADY
module vta_tb_lite_watch (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        awvalid,
    input  wire        awready,
    input  wire        wvalid,
    input  wire        wready,
    input  wire        bvalid,
    input  wire        bready,
    output reg  [31:0] together,
    output reg  [31:0] aw_first,
    output reg  [31:0] w_first,
    output reg  [31:0] overlapped,
    output reg  [31:0] b_held
);
    reg aw_alone, w_alone;  // an address (data) accepted whose data (address) has not come

    wire aw = awvalid && awready;
    wire w  = wvalid && wready;

    always @(posedge clk) begin
        if (!rst_n) begin
            aw_alone <= 1'b0; w_alone <= 1'b0;
            together <= 32'd0; aw_first <= 32'd0; w_first <= 32'd0;
            overlapped <= 32'd0; b_held <= 32'd0;
        end else begin
            if (aw && w && !aw_alone && !w_alone) together <= together + 32'd1;
            if (w && aw_alone) aw_first <= aw_first + 32'd1;
            if (aw && w_alone) w_first <= w_first + 32'd1;
            if (aw && !w && !w_alone) aw_alone <= 1'b1;
            else if (w && aw_alone) aw_alone <= 1'b0;
            if (w && !aw && !aw_alone) w_alone <= 1'b1;
            else if (aw && w_alone) w_alone <= 1'b0;
            if (aw && bvalid) overlapped <= overlapped + 32'd1;
            if (bvalid && !bready) b_held <= b_held + 32'd1;
        end
    end
endmodule
`default_nettype wire
