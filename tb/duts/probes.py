"""The testbench's checks that read rtl/'s internal nets, which a netlist of rtl/ does not keep.

Most of what the testbench checks goes through vta_top's ports: the scoreboard compares DRAM,
the protocol checkers watch both AXI ports, the register flows read the control port. Three
checks look inside instead (tb/rtl/vta_tb_top.v binds them to vta_top's nets by hierarchical
name, ``u_vta.s2c_push``, ``u_vta.u_compute.wb_valid``, ...). A synthesized netlist of rtl/ is
flattened and its multi-bit nets split into bits, so those names are gone or renamed: the
checks cannot be bound, and a netlist's profile must say so (tb/duts/profile.py refuses one
that leaves any of them out), so that every run names them as not checked with the reason.
"""
from __future__ import annotations

#: check -> what it is (the profile's ``netlist.not_checked`` gives, per check, why not)
PROBE_CHECKS: dict[str, str] = {
    "ordering": "the ordering checker (tb/rtl/vta_tb_order_check.v): DONE only after every "
                "write response and read beat, no token or queued instruction lost or invented, "
                "no module executing before its pops, no counter above its capacity",
    "liveness": "the liveness checker (tb/rtl/vta_tb_live_check.v): the read arbiter's round "
                "robin and work conservation, bursts in flight against the design's limits, idle "
                "modules taking their queue heads and owed tokens at once",
    "reach": "the contract-edge flows' reach verdict (tb/rules/reach.py), read from the two "
             "checkers' records: whether a flow's program reached the edge it exists for",
}
