"""The liveness and fairness checks that comparing the final DRAM cannot do
(tb/rtl/vta_tb_live_check.v; bounds in rtl/README.md, "Arbitration and liveness bounds").

On its own, each rule must fire on a stimulus that breaks it, and a stimulus that reaches
every bound without breaking one must stay quiet. On the RTL, in both testbench modes, the
contention program (tb/sweep_programs.py) must put the read arbiter under full contention
-- a client waiting through the round robin's two grants to others -- and fill the read
table and the write-length FIFO to their limits (fast mode: the full mode's cocotbext-axi
memory takes fewer bursts at once), with the checker silent. And the one wait the arbiter
does not bound: a LOAD writing its padding rows holds the in-order R channel for about as
many cycles as it has padding elements.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from models.config import load_config
from models.vector import save_vector
from tb.runner import ROOT
from tb.sweep_programs import contention, padded_head, padded_head_row
from tb.uvm.jobs import Job
from tb.uvm.liveness import LIVE_RULES, READ_CLIENTS, READ_TABLE
from tb.uvm.pytest_support import MODES, SIMS, run

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
#: The design's limits on the memory port (rtl/README.md): writes ahead of W, awaiting B.
WR_AHEAD, WR_OUTSTANDING = 8, 255


@pytest.mark.sim
def test_each_rule_fires_on_its_own_breach(tmp_path: Path) -> None:
    vvp = tmp_path / "live.vvp"
    subprocess.run(["iverilog", "-g2012", "-o", str(vvp), "-s", "vta_tb_live_check_tb",
                    str(CHECKER), str(STIMULUS)], check=True, capture_output=True)
    out = subprocess.run(["vvp", "-n", str(vvp)], capture_output=True, text=True, check=True).stdout
    seen = {m[0]: m[1:] for m in re.findall(r"SCENARIO (\S+) (\S+) (\S+) (\S+)", out)}
    assert seen == SCENARIOS, out
    assert tuple(re.findall(r"FIGURES (\S+) (\S+) (\S+) (\S+) (\S+)", out)[0]) == CLEAN_FIGURES, out


@pytest.mark.sim
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sim", SIMS)
def test_contention_reaches_every_bound_and_breaks_none(sim: str, mode: str, tmp_path: Path) -> None:
    vector = save_vector(contention(load_config("small")), tmp_path / "contention")
    [record] = run(sim, [("small", Job("contention", vector=str(vector), profile="bursty",
                                       seed=3))], mode).values()
    assert record["passed"], record["failures"]
    seen = record["contention"]
    others = seen["ar_others_max"]
    assert set(others) == set(READ_CLIENTS)
    assert max(others.values()) == len(READ_CLIENTS) - 1, seen  # round robin's bound, reached
    assert 0 < seen["rd_outstanding_max"] <= READ_TABLE, seen
    assert 0 < seen["wr_ahead_max"] <= WR_AHEAD, seen
    assert 0 < seen["wr_outstanding_max"] <= WR_OUTSTANDING, seen
    if mode == "fast":  # the Verilog memory takes as many bursts as the DUT offers
        assert (seen["rd_outstanding_max"], seen["wr_ahead_max"]) == (READ_TABLE, WR_AHEAD), seen


@pytest.mark.sim
def test_padding_holds_the_read_channel_for_its_length(tmp_path: Path) -> None:
    """The R channel's head-of-line wait is bounded by the LOAD's padding, not by the
    arbiter: RREADY stays low while the engine writes the 15 padding rows (one element per
    cycle) with the first data beats already waiting."""
    cfg = load_config("small")
    vector = save_vector(padded_head(cfg), tmp_path / "padded")
    [record] = run("verilator", [("small", Job("padded", vector=str(vector)))], "fast").values()
    assert record["passed"], record["failures"]
    padding = 15 * padded_head_row(cfg)
    assert padding // 2 < record["contention"]["r_held_max"] <= padding, record["contention"]
