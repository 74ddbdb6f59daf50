`default_nettype none
// Simple dual-port SRAM: one synchronous write port, one synchronous read port.
// A read of the address being written in the same cycle returns the old data
// (read-before-write); the compute pipeline forwards around that case.
// Neither reset nor START clears it: an entry holds what was last written to it, and
// one never written since power-up reads an undefined value. A program that reads an
// entry before writing it is ill-formed (the checker's rule uninitialized-read), as in
// upstream VTA, so no hardware is spent on clearing (rtl/README.md, "On-chip buffers").
// The read register has no reset either, so the array and its output register map to one
// block RAM (or distributed RAM) primitive.
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
    reg [WIDTH-1:0] mem [0:(1<<LOG_DEPTH)-1];
    reg [WIDTH-1:0] q;

    always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
        if (re) q <= mem[raddr];
    end

    assign rdata = q;
endmodule
`default_nettype wire
