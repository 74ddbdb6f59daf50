`default_nettype none
// Test-only: the backpressure / response-latency generator of one channel of the fast
// memory (vta_tb_mem.v). It has the intent of the cocotbext-axi pause generators of
// tb/plan/backpressure.py, driven by a 32-bit xorshift generator seeded by the test (seed XOR
// SALT, one SALT per channel), so a run replays cycle for cycle:
//   profile 0 none:   never stalls
//   profile 1 light:  stalls on ~10 % of cycles, independently
//   profile 2 heavy:  ready channels (RESP = 0) stall on ~50 % of cycles; response
//                     channels (RESP = 1) hold back in runs of 0..24 cycles between free
//                     runs of 1..12
//   profile 3 bursty: stall windows of 8..64 cycles between free windows of 16..96
// reseed restarts the sequence (at the start of every job); reset gives it a known state
// before the first reseed.
module vta_tb_stall #(
    parameter integer RESP = 0,
    parameter [31:0]  SALT = 32'h9E37_79B9
) (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        reseed,
    input  wire [1:0]  profile,
    input  wire [31:0] seed,
    output wire        stall
);
    reg  [31:0] x;
    wire [31:0] x1 = x ^ (x << 13);
    wire [31:0] x2 = x1 ^ (x1 >> 17);
    wire [31:0] nx = x2 ^ (x2 << 5);
    wire [31:0] start = seed ^ SALT;

    reg       in_stall;  // the current run is a stall run
    reg [7:0] left;      // cycles left in it, this one included

    wire       heavy     = profile == 2'd2;
    wire [7:0] stall_len = heavy ? {3'd0, x[12:8]} % 8'd25 : 8'd8 + {2'd0, x[13:8]} % 8'd57;
    wire [7:0] free_len  = heavy ? 8'd1 + {4'd0, x[19:16]} % 8'd12 : 8'd16 + {1'd0, x[22:16]} % 8'd81;

    always @(posedge clk) begin
        if (!rst_n) begin
            x        <= 32'd1;
            in_stall <= 1'b0;
            left     <= 8'd0;
        end else if (reseed) begin
            x        <= (start == 32'd0) ? 32'd1 : start;
            in_stall <= 1'b0;
            left     <= 8'd0;
        end else begin
            x <= nx;
            if (left > 8'd1) begin
                left <= left - 8'd1;
            end else begin
                in_stall <= !in_stall;
                left     <= in_stall ? free_len : stall_len;
            end
        end
    end

    wire runs = in_stall && left != 8'd0;
    assign stall = (profile == 2'd1) ? (x[7:0] < 8'd26)
                 : (profile == 2'd2) ? (RESP != 0 ? runs : x[24])
                 : (profile == 2'd3) ? runs
                 : 1'b0;
endmodule
`default_nettype wire
