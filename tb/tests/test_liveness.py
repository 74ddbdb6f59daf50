"""The liveness and fairness checks that comparing the final DRAM cannot do
(tb/rtl/vta_tb_live_check.v; bounds in rtl/README.md, "Arbitration and liveness bounds").

On its own, each rule must fire on a stimulus that breaks it, and a stimulus that reaches
every bound without breaking one must stay quiet. On the RTL, the flows contention, padding
and b-bound of ``make sim`` (tb/plan/flow_jobs.py, tb/rules/reach.py; launched by
tb/tests/test_rtl_flows.py) reach the round robin's bound, the port's limits, the padding's
hold of the R channel and the bound of write bursts awaiting B, with the checker silent.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tb.paths import ROOT
from tb.rules.liveness import LIVE_RULES

CHECKER = ROOT / "tb" / "rtl" / "vta_tb_live_check.v"
STIMULUS = ROOT / "tb" / "rtl" / "bench" / "vta_tb_live_check_tb.v"
#: scenario -> (latched, rule, which): the rule of the same name; which names the read
#: client, module or token of the stimulus (vta_tb_live_check.v's codes)
WHICH = {"ar-unfair": 2, "ar-withheld": 1, "queue-stuck": 2, "token-not-popped": 3,
         "token-not-pushed": 1, "acc-port-conflict": 1}
SCENARIOS = {"clean": ("0", "x", "x"),
             **{name: ("1", str(rule), str(WHICH.get(name, 0))) for rule, name in LIVE_RULES.items()},
             "fetch-overcommit": ("1", "10", "1")}
#: the clean stimulus's figures: client 2 saw 2 grants to others over a 3-cycle wait; 2 read
#: bursts in flight, 2 writes ahead of W, 3 awaiting B (each the stimulus's limit)
CLEAN_FIGURES = ("2", "3", "2", "2", "3")


@pytest.mark.sim
def test_each_rule_fires_on_its_own_breach(tmp_path: Path) -> None:
    vvp = tmp_path / "live.vvp"
    subprocess.run(["iverilog", "-g2012", "-I", str(CHECKER.parent), "-o", str(vvp),
                    "-s", "vta_tb_live_check_tb",
                    str(CHECKER), str(STIMULUS)], check=True, capture_output=True)
    out = subprocess.run(["vvp", "-n", str(vvp)], capture_output=True, text=True, check=True).stdout
    seen = {m[0]: m[1:] for m in re.findall(r"SCENARIO (\S+) (\S+) (\S+) (\S+)", out)}
    assert seen == SCENARIOS, out
    assert tuple(re.findall(r"FIGURES (\S+) (\S+) (\S+) (\S+) (\S+)", out)[0]) == CLEAN_FIGURES, out
