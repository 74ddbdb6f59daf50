`default_nettype none
// Simple dual-port SRAM: one synchronous write port, one synchronous read port.
// A read of the address being written in the same cycle returns the old data
// (read-before-write); the compute pipeline forwards around that case.
// Every entry reads as zero after reset or clr until it is first written (a
// flop per entry marks written entries), so each program starts from all-zero
// buffers as in the golden model.
module vta_ram #(
    parameter integer WIDTH     = 8,
    parameter integer LOG_DEPTH = 4
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 clr,
    input  wire                 we,
    input  wire [LOG_DEPTH-1:0] waddr,
    input  wire [WIDTH-1:0]     wdata,
    input  wire                 re,
    input  wire [LOG_DEPTH-1:0] raddr,
    output wire [WIDTH-1:0]     rdata
);
    reg [WIDTH-1:0]          mem [0:(1<<LOG_DEPTH)-1];
    reg [(1<<LOG_DEPTH)-1:0] written;
    reg [WIDTH-1:0]          q;
    reg                      q_ok;

    always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
        if (re) q <= mem[raddr];
    end

    always @(posedge clk) begin
        if (rst || clr) begin
            written <= {(1<<LOG_DEPTH){1'b0}};
            q_ok    <= 1'b0;
        end else begin
            if (we) written[waddr] <= 1'b1;
            if (re) q_ok <= written[raddr];
        end
    end

    assign rdata = q_ok ? q : {WIDTH{1'b0}};
endmodule
`default_nettype wire
