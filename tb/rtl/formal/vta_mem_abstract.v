`default_nettype none
// Formal-only techmap of Yosys's $mem_v2 cell: a memory without storage, for a foreign DUT's
// whole-top BMC (tb/formal/foreign.py; the analogue of tb/rtl/formal/vta_ram.v, which replaces
// rtl/'s own RAM module by name). `techmap -map` of this file after `memory -nomap` turns every
// inferred memory into its read ports alone: each port's data is free, but it changes only
// where the real memory's may, so every value the real memory can show at every cycle is one
// of this model's (the port rules proven around it hold around the real memory; only data is
// lost: a program's buffers and queues hold whatever a program could have put there).
//   clocked read port (RD_CLK_ENABLE): its data register takes a new free value at an edge
//     with its synchronous reset, or with RD_EN where the real one may read another value
//     than it holds: another address than the last read's, or the same after a write to it
//     (at that edge or since); it keeps its value otherwise (initial values are free too:
//     the contents before the first read are any);
//   combinational read port: a new free value in a cycle whose address differs from the
//     previous cycle's, or after a clock edge at which a write port wrote that address (any
//     enabled bit); else the previous value.
// The write ports' data is read by nothing. Which memories are abstracted is the script's
// choice (tb/formal/foreign.py: the large ones; small ones, such as command queues whose
// contents are addresses, are mapped to registers and keep their contents).
module \$mem_v2 (RD_CLK, RD_EN, RD_ARST, RD_SRST, RD_ADDR, RD_DATA, WR_CLK, WR_EN, WR_ADDR, WR_DATA);
    parameter MEMID = "";
    parameter signed SIZE = 4;
    parameter signed OFFSET = 0;
    parameter signed ABITS = 2;
    parameter signed WIDTH = 8;
    parameter signed INIT = 1'bx;
    parameter signed RD_PORTS = 1;
    parameter RD_CLK_ENABLE = 1'b1;
    parameter RD_CLK_POLARITY = 1'b1;
    parameter RD_TRANSPARENCY_MASK = 1'b0;
    parameter RD_COLLISION_X_MASK = 1'b0;
    parameter RD_WIDE_CONTINUATION = 1'b0;
    parameter RD_CE_OVER_SRST = 1'b0;
    parameter RD_ARST_VALUE = 1'b0;
    parameter RD_SRST_VALUE = 1'b0;
    parameter RD_INIT_VALUE = 1'b0;
    parameter signed WR_PORTS = 1;
    parameter WR_CLK_ENABLE = 1'b1;
    parameter WR_CLK_POLARITY = 1'b1;
    parameter WR_PRIORITY_MASK = 1'b0;
    parameter WR_WIDE_CONTINUATION = 1'b0;

    input  wire [RD_PORTS-1:0]       RD_CLK;
    input  wire [RD_PORTS-1:0]       RD_EN;
    input  wire [RD_PORTS-1:0]       RD_ARST;
    input  wire [RD_PORTS-1:0]       RD_SRST;
    input  wire [RD_PORTS*ABITS-1:0] RD_ADDR;
    output wire [RD_PORTS*WIDTH-1:0] RD_DATA;
    input  wire [WR_PORTS-1:0]       WR_CLK;
    input  wire [WR_PORTS*WIDTH-1:0] WR_EN;
    input  wire [WR_PORTS*ABITS-1:0] WR_ADDR;
    input  wire [WR_PORTS*WIDTH-1:0] WR_DATA;

    wire wclk = WR_PORTS > 0 ? WR_CLK[0] : 1'b0;

    genvar p;
    generate
        for (p = 0; p < RD_PORTS; p = p + 1) begin : port
            wire [WIDTH-1:0] fresh;
            \$anyseq #(.WIDTH(WIDTH)) u_fresh (.Y(fresh));
            reg [WIDTH-1:0] q;
            if (RD_CLK_ENABLE[p]) begin : sync
                reg [ABITS-1:0] last;       // the address q was read from
                reg             known;      // q is mem[last] as it is now
                reg             w_rd, w_last;
                integer         k;
                always @(*) begin
                    w_rd = 1'b0;
                    w_last = 1'b0;
                    for (k = 0; k < WR_PORTS; k = k + 1) begin
                        if (|WR_EN[k*WIDTH +: WIDTH] && WR_ADDR[k*ABITS +: ABITS] == RD_ADDR[p*ABITS +: ABITS])
                            w_rd = 1'b1;
                        if (|WR_EN[k*WIDTH +: WIDTH] && WR_ADDR[k*ABITS +: ABITS] == last)
                            w_last = 1'b1;
                    end
                end
                always @(posedge RD_CLK[p]) begin
                    if (RD_SRST[p]) begin
                        q <= fresh;
                        known <= 1'b0;
                    end else if (RD_EN[p]) begin
                        if (!known || w_rd || RD_ADDR[p*ABITS +: ABITS] != last) q <= fresh;
                        last <= RD_ADDR[p*ABITS +: ABITS];
                        known <= !w_rd;
                    end else if (w_last) begin
                        known <= 1'b0;
                    end
                end
                assign RD_DATA[p*WIDTH +: WIDTH] = q;
            end else begin : comb
                reg [ABITS-1:0] a_prev;
                reg             w_prev;
                reg             w_hit;
                integer         k;
                always @(*) begin
                    w_hit = 1'b0;
                    for (k = 0; k < WR_PORTS; k = k + 1)
                        if (|WR_EN[k*WIDTH +: WIDTH] && WR_ADDR[k*ABITS +: ABITS] == RD_ADDR[p*ABITS +: ABITS])
                            w_hit = 1'b1;
                end
                wire            moved = RD_ADDR[p*ABITS +: ABITS] != a_prev || w_prev;
                wire [WIDTH-1:0] value = moved ? fresh : q;
                always @(posedge wclk) begin
                    q <= value;
                    a_prev <= RD_ADDR[p*ABITS +: ABITS];
                    w_prev <= w_hit;
                end
                assign RD_DATA[p*WIDTH +: WIDTH] = value;
            end
        end
    endgenerate
endmodule
`default_nettype wire
