`default_nettype none
// Formal-only replacement of rtl/vta_ram.v (read instead of it by the whole-top BMC,
// tb/rtl/formal/vta_formal_top.v): same module name and ports, no storage. The read data
// is free, but it changes only where the real RAM's may: at a clock edge with a read (re).
// Every value the real RAM can show at every cycle is one of this model's, so the port rules proven around it hold around the
// real RAM; what it loses is only data. It replaces every instance (vta_top's INP, WGT and
// OUT buffers, vta_compute's micro-op and accumulator RAMs): free micro-ops are any a program
// could have loaded, free buffer contents any it could have computed.
module vta_ram #(
    parameter integer WIDTH     = 8,
    parameter integer LOG_DEPTH = 4
) (
    input  wire                 clk,
    input  wire                 we,
    input  wire [LOG_DEPTH-1:0] waddr,
    input  wire [WIDTH-1:0]     wdata,
    input  wire                 re,
    input  wire [LOG_DEPTH-1:0] raddr,
    output wire [WIDTH-1:0]     rdata
);
    (* anyseq *) reg [WIDTH-1:0] f_data;
    reg [WIDTH-1:0] q;

    always @(posedge clk)
        if (re) q <= f_data;

    assign rdata = q;

    wire unused_ram = &{1'b0, we, waddr, wdata, raddr};
endmodule
`default_nettype wire
