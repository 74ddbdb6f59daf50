`default_nettype none
// Test-only AXI4-Lite host of the fast testbench mode: register accesses run in the
// simulation, so Python wakes once per access instead of on every clock of it.
//
// Mailbox: the testbench sets op, addr, wdata, wstrb (and for a poll: mask and gap), then
// toggles `go`; the host raises no request while `ack` == `go`, and sets `ack` = `go` when
// the access is complete (`rdata` and `resp` then hold its result).
//   op 0 read, 1 write, 2 poll: read addr every `gap` cycles until (rdata & mask) != 0 or
//   `stop` is high (the poll then ends after the read in flight, with its value);
//   op 3 posted write: complete once address and data are accepted, its response collected
//   later (so the next write can be presented before it); op 4 sync: complete once every
//   posted write's response has arrived (`resp`: the worst of them, `rdata`: how many
//   arrived since the last sync or write).
// Write timing (tb/uvm/agents/host.py: HostTiming), held between accesses:
//   order  0 address and data together, 1 address first, 2 data first;
//   lag    cycles the second of address and data waits after the first is accepted;
//   bwait  cycles BREADY stays low once BVALID is up, and RREADY once RVALID is up (0: the
//          ready is up before the valid).
// While a valid is low its payload lines carry the complement of the access's values, so a
// slave that samples address or data before their valid shows it.
module vta_tb_host #(
    parameter integer AW = 16
) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          go,
    input  wire [2:0]    op,
    input  wire [AW-1:0] addr,
    input  wire [31:0]   wdata,
    input  wire [3:0]    wstrb,
    input  wire [1:0]    order,
    input  wire [1:0]    lag,
    input  wire [1:0]    bwait,
    input  wire [31:0]   mask,
    input  wire [15:0]   gap,
    input  wire          stop,
    output reg           ack,
    output reg  [31:0]   rdata,
    output reg  [1:0]    resp,
    output wire [AW-1:0] m_awaddr,
    output reg           m_awvalid,
    input  wire          m_awready,
    output wire [31:0]   m_wdata,
    output wire [3:0]    m_wstrb,
    output reg           m_wvalid,
    input  wire          m_wready,
    input  wire [1:0]    m_bresp,
    input  wire          m_bvalid,
    output reg           m_bready,
    output wire [AW-1:0] m_araddr,
    output reg           m_arvalid,
    input  wire          m_arready,
    input  wire [31:0]   m_rdata,
    input  wire [1:0]    m_rresp,
    input  wire          m_rvalid,
    output reg           m_rready
);
    localparam [2:0] IDLE = 3'd0, WRITE = 3'd1, WRESP = 3'd2, READ = 3'd3, RDATA = 3'd4, WAIT = 3'd5,
                     SYNC = 3'd6;
    localparam [2:0] OP_WRITE = 3'd1, OP_POLL = 3'd2, OP_POSTED = 3'd3, OP_SYNC = 3'd4;
    reg [2:0]  state;
    reg        aw_done, w_done;
    reg [15:0] wait_left;
    reg [1:0]  lag_left, bwait_left, rwait_left;
    reg [7:0]  b_owed;                  // writes issued whose response has not arrived
    reg [31:0] b_seen;                  // responses since the last sync
    reg [1:0]  b_last, b_worst;         // the last response; the worst since the last sync
    reg [AW-1:0] q_addr;                // the access in hand
    reg [31:0] q_wdata;
    reg [3:0]  q_wstrb;

    assign m_awaddr = m_awvalid ? q_addr : ~q_addr;
    assign m_araddr = m_arvalid ? q_addr : ~q_addr;
    assign m_wdata  = m_wvalid ? q_wdata : ~q_wdata;
    assign m_wstrb  = m_wvalid ? q_wstrb : ~q_wstrb;

    wire aw_now  = m_awvalid && m_awready;
    wire w_now   = m_wvalid && m_wready;
    wire aw_any  = aw_done || aw_now;
    wire w_any   = w_done || w_now;
    wire b_now   = m_bvalid && m_bready;
    wire issued  = state == WRITE && aw_any && w_any;  // this cycle the write leaves the host
    wire [7:0] owed_next = b_owed + {7'd0, issued} - {7'd0, b_now};

    always @(posedge clk) begin
        if (!rst_n) begin
            state <= IDLE; ack <= go;
            m_awvalid <= 1'b0; m_wvalid <= 1'b0; m_bready <= 1'b0; m_arvalid <= 1'b0; m_rready <= 1'b0;
            aw_done <= 1'b0; w_done <= 1'b0; wait_left <= 16'd0; lag_left <= 2'd0; bwait_left <= 2'd0;
            rwait_left <= 2'd0;
            b_owed <= 8'd0; b_seen <= 32'd0; b_last <= 2'd0; b_worst <= 2'd0;
            rdata <= 32'd0; resp <= 2'd0;
            q_addr <= {AW{1'b0}}; q_wdata <= 32'd0; q_wstrb <= 4'd0;
        end else begin
            // ---- write responses, for every write issued, in order ----
            b_owed <= owed_next;
            if (b_now) begin
                b_last  <= m_bresp;
                b_seen  <= b_seen + 32'd1;
                if (m_bresp > b_worst) b_worst <= m_bresp;
            end
            if (bwait == 2'd0) begin
                m_bready <= owed_next != 8'd0;
            end else if (b_now) begin
                m_bready   <= 1'b0;
                bwait_left <= bwait;
            end else if (m_bvalid && !m_bready && b_owed != 8'd0) begin
                if (bwait_left <= 2'd1) m_bready <= 1'b1;
                else bwait_left <= bwait_left - 2'd1;
            end else if (!m_bvalid) begin
                bwait_left <= bwait;
            end
            // ---- the access in hand ----
            case (state)
                IDLE: if (go != ack) begin
                    if (op == OP_WRITE || op == OP_POSTED) begin
                        q_addr    <= addr;
                        q_wdata   <= wdata;
                        q_wstrb   <= wstrb;
                        m_awvalid <= order != 2'd2;
                        m_wvalid  <= order != 2'd1;
                        aw_done   <= 1'b0;
                        w_done    <= 1'b0;
                        lag_left  <= lag;
                        state     <= WRITE;
                    end else if (op == OP_SYNC) begin
                        state <= SYNC;
                    end else begin
                        q_addr    <= addr;
                        m_arvalid <= 1'b1;
                        state     <= READ;
                    end
                end
                WRITE: begin
                    if (aw_now) begin m_awvalid <= 1'b0; aw_done <= 1'b1; end
                    if (w_now)  begin m_wvalid <= 1'b0;  w_done <= 1'b1; end
                    // the second of address and data follows `lag` cycles after the first
                    if ((order == 2'd1 && aw_any && !w_any && !m_wvalid)
                        || (order == 2'd2 && w_any && !aw_any && !m_awvalid)) begin
                        if (lag_left == 2'd0) begin
                            if (order == 2'd1) m_wvalid <= 1'b1;
                            else m_awvalid <= 1'b1;
                        end else begin
                            lag_left <= lag_left - 2'd1;
                        end
                    end
                    if (issued) begin
                        if (op == OP_POSTED) begin
                            ack   <= go;
                            state <= IDLE;
                        end else begin
                            state <= WRESP;
                        end
                    end
                end
                WRESP: if (owed_next == 8'd0) begin  // a sync's count starts after it
                    resp    <= b_now ? m_bresp : b_last;
                    b_worst <= 2'd0;
                    b_seen  <= 32'd0;
                    ack     <= go;
                    state   <= IDLE;
                end
                SYNC: if (owed_next == 8'd0) begin
                    resp    <= (b_now && m_bresp > b_worst) ? m_bresp : b_worst;
                    rdata   <= b_seen + {31'd0, b_now};
                    b_worst <= 2'd0;
                    b_seen  <= 32'd0;
                    ack     <= go;
                    state   <= IDLE;
                end
                READ: if (m_arvalid && m_arready) begin
                    m_arvalid  <= 1'b0;
                    m_rready   <= bwait == 2'd0;
                    rwait_left <= bwait;
                    state      <= RDATA;
                end
                RDATA: if (m_rvalid && !m_rready) begin
                    if (rwait_left <= 2'd1) m_rready <= 1'b1;
                    else rwait_left <= rwait_left - 2'd1;
                end else if (m_rvalid && m_rready) begin
                    m_rready <= 1'b0;
                    rdata    <= m_rdata;
                    resp     <= m_rresp;
                    if (op != OP_POLL || (m_rdata & mask) != 32'd0 || stop) begin
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
