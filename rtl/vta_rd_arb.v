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
`ifdef FORMAL
    // ---- contract (rtl/README.md, vta_rd_arb) ------------------------------------------
    // Assumes: a reset in the first cycle; the memory sends R beats only while a burst it
    // accepted on AR has not ended (RLAST), in AR order (all IDs 0). The clients' requests
    // and r_ready and the memory's ARREADY are free.
    // Guarantees: at most one grant per cycle and only to a requesting client; a grant in
    // every cycle in which a client requests, the AR register is free and fewer than OUTST
    // bursts are outstanding (work conserving); the granted client's address and length go
    // out on AR in the next cycle and hold until ARREADY; a client requesting throughout
    // sees at most NC-1 grants to others before its own; `outstanding` counts the bursts
    // granted and not ended, never above OUTST, and at most the AR register's burst is
    // granted but not yet accepted; every R beat goes to the client whose burst it
    // belongs to (the oldest not ended): a watched burst, picked by the solver at its
    // grant, gets its beats' valid routed to its client alone, RREADY from that client.
    reg f_past = 1'b0;
    always @(posedge clk) f_past <= 1'b1;
    always @(*) if (!f_past) assume(rst);

    localparam [7:0] OUTST8 = OUTST;
    wire       f_ar   = m_arvalid && m_arready;
    wire       f_done = m_rvalid && m_rready && m_rlast;
    wire       f_gnt  = |c_arready;
    reg  [7:0] f_out  = 8'd0;   // bursts granted, not ended
    reg  [7:0] f_port = 8'd0;   // bursts accepted on AR, not ended
    always @(posedge clk) begin
        if (rst) begin
            f_out  <= 8'd0;
            f_port <= 8'd0;
        end else begin
            f_out  <= f_out + {7'd0, f_gnt} - {7'd0, f_done};
            f_port <= f_port + {7'd0, f_ar} - {7'd0, f_done};
        end
    end
    always @(*) if (f_past && m_rvalid) m_r_after_ar: assume(f_port != 8'd0);

    // the granted client, from the grant lines
    reg [IW-1:0] f_g;
    integer f_k;
    always @(*) begin
        f_g = {IW{1'b0}};
        for (f_k = 0; f_k < NC; f_k = f_k + 1) if (c_arready[f_k]) f_g = f_k[IW-1:0];
    end

    // fairness: grants to others while a client requests without a grant
    reg [7:0] f_wait [0:NC-1];
    reg       f_fair, f_fair_dist;
    reg [31:0] f_d;
    integer f_i, f_j, f_c;   // one loop variable per block: one shared by the clocked and
                             // the combinational loop is driven by both (Yosys warns)
    initial for (f_i = 0; f_i < NC; f_i = f_i + 1) f_wait[f_i] = 8'd0;
    always @(posedge clk)
        for (f_j = 0; f_j < NC; f_j = f_j + 1)
            if (rst || !c_arvalid[f_j] || c_arready[f_j]) f_wait[f_j] <= 8'd0;
            else if (f_gnt && f_wait[f_j] != 8'hFF) f_wait[f_j] <= f_wait[f_j] + 8'd1;
    // each grant to another moves a waiting client's distance from the priority pointer
    // down by at least one: waits + distance <= NC-1
    always @(*) begin
        f_fair = 1'b1;
        f_fair_dist = 1'b1;
        for (f_c = 0; f_c < NC; f_c = f_c + 1) begin
            f_d = f_c + NC - {{(32-IW){1'b0}}, rr};
            if (f_d >= NC) f_d = f_d - NC;
            if (f_wait[f_c] > LASTC[7:0]) f_fair = 1'b0;
            if ({24'd0, f_wait[f_c]} + f_d > LASTC) f_fair_dist = 1'b0;
        end
    end

    // the watched burst
    (* anyseq *) reg f_pick;
    reg          f_armed = 1'b0;
    reg [7:0]    f_ahead = 8'd0;     // bursts ahead of it, not ended
    reg [IW-1:0] f_cl = {IW{1'b0}};  // its client
    always @(posedge clk) begin
        if (rst) f_armed <= 1'b0;
        else if (!f_armed && f_gnt && f_pick) begin
            f_armed <= 1'b1;
            f_ahead <= f_out - {7'd0, f_done};
            f_cl    <= f_g;
        end else if (f_armed && f_done) begin
            if (f_ahead == 8'd0) f_armed <= 1'b0;
            else f_ahead <= f_ahead - 8'd1;
        end
    end
    wire [NC-1:0] f_cl_hot = {{(NC-1){1'b0}}, 1'b1} << f_cl;

    always @(*) if (f_past) begin
        a_one_grant:  assert((c_arready & (c_arready - 1'b1)) == {NC{1'b0}});
        a_grant_req:  assert((c_arready & ~c_arvalid) == {NC{1'b0}});
        a_work:       assert(f_gnt == ((|c_arvalid) && outstanding < OUTST8 && (!m_arvalid || m_arready)));
        a_outst:      assert(outstanding == f_out && f_out <= OUTST8
                             && f_out == f_port + {7'd0, m_arvalid});
        a_fair:       assert(f_fair);
        a_rvalid_one: assert((c_rvalid & (c_rvalid - 1'b1)) == {NC{1'b0}} && (m_rvalid || c_rvalid == {NC{1'b0}}));
        if (f_out == 8'd0) a_idle_r: assert(c_rvalid == {NC{1'b0}} && !m_rready);
        // routing by composition with vta_fifo's contract (values leave in the order they
        // entered): the table takes exactly the grants, with the granted client, drops
        // exactly the ended bursts, and R is routed by its head alone
        a_tab_in:      assert(take == f_gnt && (!f_gnt || gnt == f_g) && (!take || !tab_full));
        a_tab_out:     assert(r_done == f_done && (!f_done || !tab_empty));
        a_r_from_head: assert(c_rvalid == ((m_rvalid && !tab_empty) ? ({{(NC-1){1'b0}}, 1'b1} << head)
                                                                     : {NC{1'b0}})
                              && m_rready == (!tab_empty && c_rready[head]));
`ifndef VTA_FORMAL_AR_ONLY
        // (not inductive: the table's entries behind its head are not visible here; the
        // job with VTA_FORMAL_AR_ONLY proves the rest, a_tab_in/a_tab_out/a_r_from_head
        // included, which with vta_fifo's a_order give it; bounded jobs check it whole)
        if (f_armed && f_ahead == 8'd0)
            a_route: assert(c_rvalid == (m_rvalid ? f_cl_hot : {NC{1'b0}}) && m_rready == c_rready[f_cl]);
`endif
        if (f_armed) h_watch_out: assert(f_ahead < f_out);
        h_fair:       assert(f_fair_dist && {{(32-IW){1'b0}}, rr} <= LASTC);
    end
    always @(posedge clk) if (f_past && !$past(rst)) begin
        if ($past(f_gnt))
            a_ar_payload: assert(m_arvalid && m_araddr == $past(c_araddr[f_g*32 +: 32])
                                 && m_arlen == $past(c_arlen[f_g*8 +: 8]));
        else if ($past(m_arvalid && !m_arready))
            a_ar_stable:  assert(m_arvalid && m_araddr == $past(m_araddr) && m_arlen == $past(m_arlen));
    end

    always @(posedge clk) if (f_past) begin
        c_full:     cover(outstanding == OUTST8 && c_arvalid != {NC{1'b0}} && m_rvalid);
        c_route:    cover(f_armed && f_ahead == 8'd0 && f_done && f_cl == LASTC[IW-1:0] && $past(f_ahead) == 8'd1);
        c_wait:     cover(f_wait[0] == LASTC[7:0] && c_arready[0]);
    end
`endif
endmodule
`default_nettype wire
