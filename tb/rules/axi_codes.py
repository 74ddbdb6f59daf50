"""The codes of the fast mode's AXI protocol checker (tb/rtl/vta_tb_axi_check.v), written once.

The checker latches its first finding as numbers: a rule, a channel, a signal. The rule and
channel codes are defined here and generated into tb/rtl/vta_tb_codes.vh
(``python -m tb.rules.hdl_codes``) as ``AXI_RULE_<RULE>`` and ``AXI_CHAN_<CHANNEL>``, which
the checker uses; tb/uvm/env/fast.py turns a latched finding back into the full mode's message
through the same tables, and tb/plan/dutmap.py names the rules a DUT profile waives by them.
No cocotb import: the generator and the DUT profiles read these tables outside a simulator.
"""
from __future__ import annotations

#: Rule -> code (vta_tb_axi_check.v's ``rule`` output, and bit of its WAIVE mask). Rules
#: 3-10 and 12 are conditions of the shared rules file tb/rtl/vta_axi_rules.vh (its wire
#: ``r<code>_<channel>``); 1, 2 (X/Z) exist only in a four-state simulation, 11 only in the
#: testbench (the response the test injected).
AXI_RULES: dict[str, int] = {
    "x-on-handshake": 1, "x-on-payload": 2, "valid-dropped": 3, "payload-unstable": 4,
    "burst-type": 5, "burst-size": 6, "4k-crossing": 7, "wlast": 8, "rlast": 9,
    "unexpected-response": 10, "injected-response": 11, "attributes": 12,
}
#: Code -> rule.
AXI_RULE_NAMES: dict[int, str] = {code: name for name, code in AXI_RULES.items()}
#: The rule a message names where it is not the rule's own name: the full mode's checker
#: (tb/plan/bus_errors.py) calls a response other than the injected one an unexpected response.
REPORTED_AS: dict[str, str] = {"injected-response": "unexpected-response"}
#: Channels in the order of their codes (vta_tb_axi_check.v's ``chan`` output).
CHANNELS = ("AW", "W", "B", "AR", "R")
#: Payload signal names per channel code, in the order of vta_tb_axi_check.v's signal codes.
SIGNALS = {0: ("awid", "awaddr", "awlen", "awsize", "awburst", "awattr"), 1: ("wdata", "wstrb", "wlast"),
           2: ("bid", "bresp"), 3: ("arid", "araddr", "arlen", "arsize", "arburst", "arattr"),
           4: ("rid", "rdata", "rresp", "rlast")}
