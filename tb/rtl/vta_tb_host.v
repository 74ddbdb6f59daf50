`default_nettype none
// Test-only AXI4-Lite host of the fast testbench mode: register accesses run in the
// simulation, so Python wakes once per access instead of on every clock of it.
//
// Mailbox: the testbench sets op, addr, wdata, wstrb (and for a poll: mask and gap), then
// toggles `go`; the host raises no request while `ack` == `go`, and sets `ack` = `go` when
// the access is complete (`rdata` and `resp` then hold its result).
//   op 0 read, 1 write, 2 poll: read addr every `gap` cycles until (rdata & mask) != 0 or
//   `stop` is high (the poll then ends after the read in flight, with its value).
// Writes present address and data in the order `order` says: 0 together, 1 address first
// (data after AWREADY), 2 data first (address after WREADY).
module vta_tb_host #(
    parameter integer AW = 16
) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          go,
    input  wire [1:0]    op,
    input  wire [AW-1:0] addr,
    input  wire [31:0]   wdata,
    input  wire [3:0]    wstrb,
    input  wire [1:0]    order,
    input  wire [31:0]   mask,
    input  wire [15:0]   gap,
    input  wire          stop,
    output reg           ack,
    output reg  [31:0]   rdata,
    output reg  [1:0]    resp,
    output reg  [AW-1:0] m_awaddr,
    output reg           m_awvalid,
    input  wire          m_awready,
    output reg  [31:0]   m_wdata,
    output reg  [3:0]    m_wstrb,
    output reg           m_wvalid,
    input  wire          m_wready,
    input  wire [1:0]    m_bresp,
    input  wire          m_bvalid,
    output reg           m_bready,
    output reg  [AW-1:0] m_araddr,
    output reg           m_arvalid,
    input  wire          m_arready,
    input  wire [31:0]   m_rdata,
    input  wire [1:0]    m_rresp,
    input  wire          m_rvalid,
    output reg           m_rready
);
    localparam [2:0] IDLE = 3'd0, WRITE = 3'd1, WRESP = 3'd2, READ = 3'd3, RDATA = 3'd4, WAIT = 3'd5;
    reg [2:0]  state;
    reg        aw_done, w_done;
    reg [15:0] wait_left;

    always @(posedge clk) begin
        if (!rst_n) begin
            state <= IDLE; ack <= go;
            m_awvalid <= 1'b0; m_wvalid <= 1'b0; m_bready <= 1'b0; m_arvalid <= 1'b0; m_rready <= 1'b0;
            aw_done <= 1'b0; w_done <= 1'b0; wait_left <= 16'd0;
            rdata <= 32'd0; resp <= 2'd0;
            m_awaddr <= {AW{1'b0}}; m_araddr <= {AW{1'b0}}; m_wdata <= 32'd0; m_wstrb <= 4'd0;
        end else begin
            case (state)
                IDLE: if (go != ack) begin
                    if (op == 2'd1) begin
                        m_awaddr  <= addr;
                        m_wdata   <= wdata;
                        m_wstrb   <= wstrb;
                        m_awvalid <= order != 2'd2;
                        m_wvalid  <= order != 2'd1;
                        aw_done   <= 1'b0;
                        w_done    <= 1'b0;
                        state     <= WRITE;
                    end else begin
                        m_araddr  <= addr;
                        m_arvalid <= 1'b1;
                        state     <= READ;
                    end
                end
                WRITE: begin
                    if (m_awvalid && m_awready) begin
                        m_awvalid <= 1'b0;
                        aw_done   <= 1'b1;
                        if (!w_done && !m_wvalid) m_wvalid <= 1'b1;
                    end
                    if (m_wvalid && m_wready) begin
                        m_wvalid <= 1'b0;
                        w_done   <= 1'b1;
                        if (!aw_done && !m_awvalid) m_awvalid <= 1'b1;
                    end
                    if ((aw_done || (m_awvalid && m_awready)) && (w_done || (m_wvalid && m_wready))) begin
                        m_bready <= 1'b1;
                        state    <= WRESP;
                    end
                end
                WRESP: if (m_bvalid && m_bready) begin
                    m_bready <= 1'b0;
                    resp     <= m_bresp;
                    ack      <= go;
                    state    <= IDLE;
                end
                READ: if (m_arvalid && m_arready) begin
                    m_arvalid <= 1'b0;
                    m_rready  <= 1'b1;
                    state     <= RDATA;
                end
                RDATA: if (m_rvalid && m_rready) begin
                    m_rready <= 1'b0;
                    rdata    <= m_rdata;
                    resp     <= m_rresp;
                    if (op != 2'd2 || (m_rdata & mask) != 32'd0 || stop) begin
                        ack   <= go;
                        state <= IDLE;
                    end else begin
                        wait_left <= gap;
                        state     <= WAIT;
                    end
                end
                WAIT: if (stop) begin
                    ack   <= go;
                    state <= IDLE;
                end else if (wait_left <= 16'd1) begin
                    m_arvalid <= 1'b1;
                    state     <= READ;
                end else begin
                    wait_left <= wait_left - 16'd1;
                end
                default: state <= IDLE;
            endcase
        end
    end
endmodule
`default_nettype wire
