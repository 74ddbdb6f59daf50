`default_nettype none
// AXI4 read-channel arbiter for NC clients (round robin on AR). Every granted
// burst is recorded in an in-order table; R beats (all with ID 0, so they
// return in request order) are routed to the client at the head of the table,
// whose r_ready drives RREADY. Clients only request bursts whose data they can
// always accept, so the shared R channel cannot deadlock.
module vta_rd_arb #(
    parameter integer NC     = 3,
    parameter integer OUTST  = 8   // bursts in flight (2..255)
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [NC-1:0]    c_arvalid,
    output wire [NC-1:0]    c_arready,
    input  wire [NC*32-1:0] c_araddr,
    input  wire [NC*8-1:0]  c_arlen,
    output wire [NC-1:0]    c_rvalid,
    input  wire [NC-1:0]    c_rready,
    output reg              m_arvalid,
    input  wire             m_arready,
    output reg  [31:0]      m_araddr,
    output reg  [7:0]       m_arlen,
    input  wire             m_rvalid,
    output wire             m_rready,
    input  wire             m_rlast,
    output wire [7:0]       outstanding
);
    localparam integer IW = (NC > 1) ? $clog2(NC) : 1;
    localparam [31:0]  LASTC = NC - 1;

    reg  [IW-1:0] rr;  // client with the highest priority
    wire          tab_full;
    wire          tab_empty;
    wire [IW-1:0] head;

    // round-robin choice starting at rr
    reg          found;
    reg [IW-1:0] gnt;
    reg [31:0]   c;
    integer      k;
    always @* begin
        found = 1'b0;
        gnt   = {IW{1'b0}};
        c     = 32'd0;
        for (k = 0; k < NC; k = k + 1) begin
            c = k + {{(32-IW){1'b0}}, rr};
            if (c >= NC) c = c - NC;
            if (!found && c_arvalid[c[IW-1:0]]) begin
                found = 1'b1;
                gnt   = c[IW-1:0];
            end
        end
    end
    wire unused_c = &{1'b0, c};

    wire take = found && !tab_full && (!m_arvalid || m_arready);

    genvar g;
    generate
        for (g = 0; g < NC; g = g + 1) begin : g_cl
            localparam [31:0] G32 = g;
            assign c_arready[g] = take && (gnt == G32[IW-1:0]);
            assign c_rvalid[g]  = m_rvalid && !tab_empty && (head == G32[IW-1:0]);
        end
    endgenerate

    assign m_rready = !tab_empty && c_rready[head];
    wire r_done = m_rvalid && m_rready && m_rlast;

    vta_fifo #(.WIDTH(IW), .DEPTH(OUTST)) u_tab (
        .clk(clk), .rst(rst), .clr(1'b0),
        .push(take), .din(gnt), .full(tab_full),
        .pop(r_done), .dout(head), .empty(tab_empty), .count(outstanding)
    );

    always @(posedge clk) begin
        if (rst) begin
            rr        <= {IW{1'b0}};
            m_arvalid <= 1'b0;
            m_araddr  <= 32'd0;
            m_arlen   <= 8'd0;
        end else begin
            if (m_arvalid && m_arready && !take) m_arvalid <= 1'b0;
            if (take) begin
                m_arvalid <= 1'b1;
                m_araddr  <= c_araddr[gnt*32 +: 32];
                m_arlen   <= c_arlen[gnt*8 +: 8];
                rr        <= (gnt == LASTC[IW-1:0]) ? {IW{1'b0}} : gnt + 1'b1;
            end
        end
    end
endmodule
`default_nettype wire
