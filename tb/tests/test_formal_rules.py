"""One AXI property file for simulation and formal: tb/rtl/vta_axi_rules.vh holds every
protocol rule condition and its bookkeeping; the fast mode's checker (tb/rtl/vta_tb_axi_check.v)
and the formal port monitor of the whole-top BMC (tb/rtl/formal/vta_formal_axi.v, used by
tb/rtl/formal/vta_formal_top.v) include it, and the checker writes no rule of its own beyond
the simulation-only ones (1, 2: X/Z; 11: the injected response)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tb.formal.jobs import select
from tb.formal.sby import sby_text, sources
from tb.paths import ROOT
from tb.rules import hdl_codes

TB_RTL = ROOT / "tb" / "rtl"
RULES = TB_RTL / "vta_axi_rules.vh"
CHECKER = TB_RTL / "vta_tb_axi_check.v"
MONITOR = TB_RTL / "formal" / "vta_formal_axi.v"
FTOP = TB_RTL / "formal" / "vta_formal_top.v"
SIM_ONLY = {1, 2, 11}          # four-state X/Z rules and the test-injection rule
#: channels each side drives: the manager AW/W/AR, the subordinate B/R
MANAGER, SUBORDINATE = {"aw", "w", "ar"}, {"b", "r"}


def code(path: Path) -> str:
    """The file without comments."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def includes(path: Path) -> list[str]:
    return re.findall(r'^\s*`include\s+"([^"]+)"', code(path), re.M)


def rule_wires() -> dict[str, tuple[int, str]]:
    """Violation wires the rules file declares: name -> (rule, channel)."""
    found = re.findall(r"^\s*wire\s+(r(\d+)_(aw|w|b|ar|r))\s*=", code(RULES), re.M)
    return {name: (int(rule), ch) for name, rule, ch in found}


def rules_state() -> set[str]:
    """Registers the rules file declares (the bookkeeping)."""
    names: set[str] = set()
    for decl in re.findall(r"^\s*reg\b([^;]*);", code(RULES), re.M):
        decl = re.sub(r"\[[^\]]*\]", "", decl)
        names.update(n for n in re.findall(r"[A-Za-z_]\w*", decl))
    return names


def test_both_users_include_the_one_rules_file():
    assert includes(CHECKER) == ["vta_tb_codes.vh", "vta_axi_rules.vh"]  # the codes, then the rules
    assert includes(MONITOR) == ["vta_axi_rules.vh"]
    # the formal top watches both of vta_top's ports through the monitor, and the BMC script
    # reads exactly these files
    assert len(re.findall(r"^\s*vta_formal_axi\b", code(FTOP), re.M)) == 2
    # the whole-top job's generated script reads exactly these files
    job = select(["formal_top"])[0]
    sby = sby_text(job, sources(job, Path("/nonexistent"), None), ())
    listed = sby.split("\n[files]\n")[1].splitlines()
    for path in (RULES, MONITOR, FTOP, TB_RTL / "formal" / "vta_ram.v"):
        assert str(path) in listed, path.name
    assert str(ROOT / "rtl" / "vta_ram.v") not in listed  # the abstraction replaces it
    # no second copy of the rules anywhere in the testbench's Verilog
    for path in sorted(TB_RTL.rglob("*.v")) + sorted(TB_RTL.rglob("*.vh")):
        if path != RULES:
            assert "awq_beats" not in code(path).replace("vta_axi_rules.vh", ""), path


def test_the_rules_file_declares_every_shared_rule():
    wires = rule_wires()
    rules = {rule for rule, _ in wires.values()}
    assert rules == {3, 4, 5, 6, 7, 8, 9, 10, 12}
    for ch in ("aw", "w", "b", "ar", "r"):
        assert {f"r3_{ch}", f"r4_{ch}"} <= set(wires)
    assert {"r10_b", "r10_r", "r8_w", "r9_r"} <= set(wires)


def test_the_checker_writes_no_rule_condition():
    """Every finding of a shared rule is reported under exactly `if (r<N>_<ch>)`, with the
    rule number and channel code the wire names; the checker assigns none of the rules'
    state and declares none of it."""
    text = code(CHECKER)
    chan_code = {"aw": 0, "w": 1, "b": 2, "ar": 3, "r": 4}
    names = hdl_codes.codes()  # the generated header's names (tb/rtl/vta_tb_codes.vh)
    wires = rule_wires()
    flagged: set[str] = set()
    assert not re.search(r"flag\(\d", text), "a rule or channel written as a number"
    for m in re.finditer(r"flag\((AXI_RULE_\w+),\s*(AXI_CHAN_\w+)", text):
        rule, chan = names[m.group(1)], names[m.group(2)]
        line_start = text.rfind("\n", 0, m.start()) + 1
        guard = text[line_start:m.start()].strip()
        if rule in SIM_ONLY:
            continue
        g = re.fullmatch(r"if \((r\d+_\w+)\)", guard)
        assert g, f"rule {rule}: reported under {guard!r}, not a rules-file wire"
        assert g.group(1) in wires and wires[g.group(1)] == (rule, next(
            c for c, v in chan_code.items() if v == chan)), g.group(1)
        flagged.add(g.group(1))
    assert flagged == set(wires), f"not reported: {sorted(set(wires) - flagged)}"
    # the simulation-only rules are the only other findings
    others = {names[r] for r in re.findall(r"flag\((AXI_RULE_\w+)", text)} - {r for r, _ in wires.values()}
    assert others == SIM_ONLY
    state = rules_state()
    assigned = set(re.findall(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*<=", text))
    assert not assigned & state, f"the checker updates the rules' state: {sorted(assigned & state)}"
    declared = set(re.findall(r"^\s*(?:reg|wire)\b[^;]*?\b([A-Za-z_]\w*)\s*(?:=|;|\[)", text, re.M))
    assert not declared & (state | set(wires))


def test_formal_monitor_asserts_the_duts_side_and_assumes_the_other():
    """Each rule wire is asserted (a_) where the DUT drives the channel and assumed (m_)
    where its environment does, for both roles of the DUT."""
    text = code(MONITOR)
    manager, subordinate = text.split("dut_subordinate")
    for part, dut_drives in ((manager, MANAGER), (subordinate, SUBORDINATE)):
        stmts = re.findall(r"\b([am])_\w+:\s*(assert|assume)\(!(r\d+_(\w+))\)", part)
        seen = {wire for _, _, wire, _ in stmts}
        assert seen == set(rule_wires()), sorted(set(rule_wires()) ^ seen)
        for prefix, kind, wire, ch in stmts:
            want = ("a", "assert") if ch in dut_drives else ("m", "assume")
            assert (prefix, kind) == want, f"{wire}: {prefix}_ {kind}"


def test_rules_file_stays_in_the_common_subset():
    """No task, function or cast (Yosys read -formal, Icarus 11, Verilator 5 all accept it)."""
    text = code(RULES)
    assert not re.search(r"\b(task|function|initial|assert|assume)\b", text)
    assert not re.search(r"\d'\(|\w'\(", text)


def test_yosys_reads_the_formal_monitor():
    """Yosys (read -formal, as the BMC reads it) elaborates the monitor with the shared file."""
    from tb.formal.tools import BIN
    yosys = BIN / "yosys" if (BIN / "yosys").exists() else shutil.which("yosys")
    if not yosys:
        pytest.skip("yosys: run tb.formal.tools.formal_env() first")
    res = subprocess.run([str(yosys), "-q", "-p", f"read -formal -I{TB_RTL} {MONITOR}; "
                          "chparam -set QD 4 vta_formal_axi; prep -top vta_formal_axi"],
                         cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
