"""The ordering checks that comparing the final DRAM cannot do (tb/rtl/vta_tb_order_check.v).

On its own, each rule must fire on a stimulus that breaks it and stay quiet on one that
does not. On the RTL, the flows capacity and push-pop of ``make sim`` (tb/plan/flow_jobs.py,
launched by tb/tests/test_rtl_flows.py) drive every token counter and command queue to
full capacity and meet pops with pushes at every count, with the checker silent.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tb.paths import ROOT
from tb.rules.ordering import ORDER_RULES

CHECKER = ROOT / "tb" / "rtl" / "vta_tb_order_check.v"
STIMULUS = ROOT / "tb" / "rtl" / "bench" / "vta_tb_order_check_tb.v"
#: scenario -> (latched, rule, which) the checker must show (vta_tb_order_check.v's codes)
#: (the rule's code from tb/rules/ordering.py's ORDER_RULES, which the checker includes through
#: the generated tb/rtl/vta_tb_codes.vh)
WHICH = {"done-early": 0, "token-lost": 2, "early-exec": 1, "queue-lost": 2, "over-capacity": 2}
SCENARIOS = {"clean": ("0", "x", "x"),
             **{name: ("1", str(rule), str(WHICH[name])) for rule, name in ORDER_RULES.items()}}


@pytest.mark.sim
def test_each_rule_fires_on_its_own_breach(tmp_path: Path) -> None:
    vvp = tmp_path / "order.vvp"
    subprocess.run(["iverilog", "-g2012", "-I", str(CHECKER.parent), "-o", str(vvp),
                    "-s", "vta_tb_order_check_tb",
                    str(CHECKER), str(STIMULUS)], check=True, capture_output=True)
    out = subprocess.run(["vvp", "-n", str(vvp)], capture_output=True, text=True, check=True).stdout
    seen = {m[0]: m[1:] for m in re.findall(r"SCENARIO (\S+) (\S+) (\S+) (\S+)", out)}
    assert seen == SCENARIOS, out
