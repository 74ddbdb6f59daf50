"""tb/rtl/vta_tb_codes.vh, the codes the test-only Verilog shares with the testbench's Python,
is what tb/rules/hdl_codes.py generates from their owners (tb/rules/faults.py, axi_codes.py,
ordering.py, liveness.py), and the Verilog uses its names, not the numbers."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tb.paths import ROOT
from tb.rules import hdl_codes
from tb.rules.axi_codes import AXI_RULES, CHANNELS
from tb.rules.faults import FAULTS
from tb.rules.liveness import LIVE_RULES
from tb.rules.ordering import ORDER_RULES

TB_RTL = ROOT / "tb" / "rtl"
#: each user of the header, and the group of names it must use every one of
USERS = {"vta_axi_fault.v": "FAULT_", "vta_tb_axi_check.v": "AXI_", "vta_tb_order_check.v": "ORDER_RULE_",
         "vta_tb_live_check.v": "LIVE_RULE_"}


def code(path: Path) -> str:
    """The file without comments."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def test_header_is_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    assert hdl_codes.HEADER == TB_RTL / "vta_tb_codes.vh"
    assert hdl_codes.HEADER.read_text() == hdl_codes.render()
    assert "do not edit" in hdl_codes.render().splitlines()[2]
    assert hdl_codes.main(["--check"]) == 0
    capsys.readouterr()
    # a copy with one code changed (as if faults.py had moved on) is stale
    stale = tmp_path / "vta_tb_codes.vh"
    stale.write_text(hdl_codes.render().replace("FAULT_DROP_WLAST = 4'd2;", "FAULT_DROP_WLAST = 4'd3;"))
    assert stale.read_text() != hdl_codes.render()
    monkeypatch.setattr(hdl_codes, "HEADER", stale)
    monkeypatch.setattr(hdl_codes, "ROOT", tmp_path)
    assert hdl_codes.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "vta_tb_codes.vh is stale" in err, err
    # so is a missing one; writing makes it current again
    stale.unlink()
    assert hdl_codes.main(["--check"]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert hdl_codes.main([]) == 0 and stale.read_text() == hdl_codes.render()
    assert hdl_codes.main(["--check"]) == 0


def test_every_owner_code_has_its_name() -> None:
    names = hdl_codes.codes()
    assert {n: c for n, c in names.items() if n.startswith("FAULT_")} == {
        hdl_codes.hdl_name("FAULT", f): v.code for f, v in FAULTS.items() if v.code or f == "none"}
    assert names["FAULT_DROP_WLAST"] == FAULTS["drop-wlast"].code
    assert names["AXI_RULE_4K_CROSSING"] == AXI_RULES["4k-crossing"]
    assert [names[f"AXI_CHAN_{ch}"] for ch in CHANNELS] == list(range(len(CHANNELS)))
    assert {names[hdl_codes.hdl_name("ORDER_RULE", r)] for r in ORDER_RULES.values()} == set(ORDER_RULES)
    assert {names[hdl_codes.hdl_name("LIVE_RULE", r)] for r in LIVE_RULES.values()} == set(LIVE_RULES)
    # two HDL faults never share a code (memory faults drive 0)
    hdl = [f.code for f in FAULTS.values() if f.code]
    assert len(hdl) == len(set(hdl))


def test_the_verilog_uses_the_names() -> None:
    """Each user includes the header, names every code of its group (FAULT_NONE aside: 0
    is the absence of a fault) and writes no fault, rule or channel as a number."""
    names = hdl_codes.codes()
    for file, prefix in USERS.items():
        text = code(TB_RTL / file)
        assert re.findall(r'^\s*`include\s+"vta_tb_codes.vh"', text, re.M), file
        used = set(re.findall(r"\b([A-Z]+_[A-Z0-9_]+)\b", text)) & set(names)
        want = {n for n in names if n.startswith(prefix) and n != "FAULT_NONE"}
        assert used == want, f"{file}: unused {sorted(want - used)}, foreign {sorted(used - want)}"
        assert not re.search(r"tb_fault\s*==\s*\d", text), file
        assert not re.search(r"\bflag\(\s*\d", text), f"{file}: a code written as a number"


@pytest.mark.sim
def test_icarus_reads_the_values(tmp_path: Path) -> None:
    """Icarus elaborates the header inside a module and prints the values the tables hold."""
    names = hdl_codes.codes()
    src = tmp_path / "codes_probe.v"
    src.write_text("\n".join(["module codes_probe;", '`include "vta_tb_codes.vh"', "    initial begin",
                              *[f'        $display("{n} %0d", {n});' for n in names],
                              "    end", "endmodule", ""]))
    vvp = tmp_path / "codes_probe.vvp"
    res = subprocess.run(["iverilog", "-g2012", "-Wall", "-I", str(TB_RTL), "-s", "codes_probe",
                          "-o", str(vvp), str(src)], capture_output=True, text=True)
    assert res.returncode == 0 and not res.stdout + res.stderr, res.stdout + res.stderr
    out = subprocess.run(["vvp", "-n", str(vvp)], capture_output=True, text=True, check=True).stdout
    assert {n: int(v) for n, v in (line.split() for line in out.splitlines())} == names
