"""Synthesis (tb/synth): the resource parser on a hand-written `stat -json`, the cache, the
lint on rtl/ (clean) and on broken copies of it (each rule catches its break), and README's
`make synth` command as written."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tb.synth.__main__ as synth_cli
from tb.paths import ROOT
from tb.synth.lint import BRAM_MIN_BITS, Locator, lint, memories
from tb.synth.parts import PARTS, fit_lines, parts_of
from tb.synth.report import document, table
from tb.synth.stat import module_name, parse_stat
from tb.synth.targets import TARGETS
from tb.tests.test_make import make

FIFO_A = "$paramod$0123abcd\\vta_fifo"
FIFO_B = "$paramod\\vta_fifo\\DEPTH=s32'00000000000000000000000000000101"

#: vta_top holds two FIFO_A, one FIFO_B and one vta_ram; FIFO_B holds another vta_ram.
STAT: dict[str, Any] = {"modules": {
    "\\vta_top": {"num_cells_by_type": {"LUT6": 10, "FDRE": 5, "CARRY4": 1, "IBUF": 3,
                                        FIFO_A: 2, FIFO_B: 1, "\\vta_ram": 1}},
    FIFO_A: {"num_cells_by_type": {"LUT2": 3, "FDRE": 4, "RAM32M": 2}},
    FIFO_B: {"num_cells_by_type": {"LUT3": 1, "FDSE": 2, "\\vta_ram": 1}},
    "\\vta_ram": {"num_cells_by_type": {"RAMB36E1": 1, "RAMB18E1": 1, "LUT1": 1, "DSP48E1": 1}},
}}


def test_module_names_merge_parameterisations() -> None:
    assert [module_name(n) for n in ("\\vta_top", FIFO_A, FIFO_B, "vta_top")] == \
        ["vta_top", "vta_fifo", "vta_fifo", "vta_top"]


def test_stat_gives_the_hand_computed_resources() -> None:
    rows, total = parse_stat(STAT, "vta_top", TARGETS["xilinx"])
    assert list(rows) == ["vta_fifo", "vta_ram", "vta_top"]
    # FIFO: 2 x (3 LUT, 4 FF, 2 RAM32M) + 1 x (1 LUT, 2 FF); RAM: 2 instances (top, FIFO_B)
    assert (rows["vta_fifo"].instances, dict(rows["vta_fifo"].resources)) == \
        (3, {"lut": 7, "ff": 10, "lutram": 4})
    assert (rows["vta_ram"].instances, dict(rows["vta_ram"].resources)) == \
        (2, {"bram": 4, "lut": 2, "dsp": 2})
    assert dict(rows["vta_top"].resources) == {"lut": 10, "ff": 5, "carry": 1}
    assert dict(total.resources) == {"lut": 19, "ff": 15, "carry": 1, "bram": 4, "dsp": 2, "lutram": 4}
    assert total.cells["IBUF"] == 3 and total.cells["RAMB36E1"] == 2


def test_table_and_document() -> None:
    rows, total = parse_stat(STAT, "vta_top", TARGETS["xilinx"])
    doc = document("k", "small", {}, TARGETS["xilinx"], 1.0, rows, total)
    assert doc["total"]["resources"] == {"lut": 19, "ff": 15, "carry": 1, "bram": 4, "dsp": 2, "lutram": 4}
    text = table(doc)
    assert text.splitlines()[-5].split() == ["total", "19", "15", "1", "4", "2", "4"]
    assert text.splitlines()[-1].startswith("fits xc7z020 (Zynq-7020): yes (LUT ")
    assert "BRAM: 2 RAMB18E1, 2 RAMB36E1" in text and "DSP: 2 DSP48E1" in text
    # the generic netlist has no carry, block RAM or DSP primitives: "-", not 0
    generic = {"modules": {"\\vta_top": {"num_cells_by_type": {"$lut": 4, "$_DFF_P_": 2, "$mem_v2": 1}}}}
    rows, total = parse_stat(generic, "vta_top", TARGETS["generic"])
    doc = document("k", "small", {}, TARGETS["generic"], 1.0, rows, total)
    assert doc["total"]["resources"] == {"lut": 4, "ff": 2, "carry": None, "bram": None, "dsp": None,
                                         "memory": 1}
    assert table(doc).splitlines()[-2].split() == ["total", "4", "2", "-", "-", "-", "1"]


def test_a_second_run_is_cached_until_a_source_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    rtl = tmp_path / "rtl"
    shutil.copytree(ROOT / "rtl", rtl)
    runs: list[Path] = []

    def fake_yosys(script: str, run_dir: Path, echo: object = None) -> Path:
        runs.append(run_dir)
        (run_dir / "stat.json").write_text(json.dumps(STAT))
        return run_dir / "yosys.log"

    monkeypatch.setattr(synth_cli, "run_yosys", fake_yosys)
    first = synth_cli.synthesize("small", "xilinx", rtl, tmp_path / "out")
    second = synth_cli.synthesize("small", "xilinx", rtl, tmp_path / "out")
    assert len(runs) == 1 and second == first and "cached" in capsys.readouterr().out
    assert json.loads((tmp_path / "out" / "small-xilinx" / "resources.json").read_text()) == first
    synth_cli.synthesize("small", "ecp5", rtl, tmp_path / "out")          # another target
    with (rtl / "vta_ram.v").open("a") as f:
        f.write("// an edit\n")
    synth_cli.synthesize("small", "xilinx", rtl, tmp_path / "out")        # another design
    assert len(runs) == 3


def test_memory_rule_on_a_hand_written_netlist() -> None:
    """The write-port clause (an array cleared in a loop has one write port per entry): a
    broken copy of rtl/ takes Yosys a minute, so it is held to a netlist written by hand."""
    def mem(size: int, width: int, writes: int, clocked: str) -> dict[str, Any]:
        return {"type": "$mem_v2", "attributes": {"src": "rtl/vta_ram.v:22.30-22.33"},
                "parameters": {"SIZE": size, "WIDTH": format(width, "032b"), "MEMID": "\\mem",
                               "RD_PORTS": len(clocked), "WR_PORTS": writes, "RD_CLK_ENABLE": clocked}}
    netlist = {"modules": {"$paramod$1\\vta_ram": {"cells": {
        "a": mem(256, 32, 257, "1"),                     # too many write ports
        "b": mem(8, 160, 1, "0"),                        # asynchronous, but below the threshold
        "c": mem(BRAM_MIN_BITS // 16, 16, 1, "10"),      # one of two read ports asynchronous
    }}}}
    found, judged = memories(Locator(ROOT / "rtl", netlist), netlist)
    assert judged == 1   # a and c are the same Verilog array
    assert sorted(f.detail.split(": ")[0] for f in found) == \
        ["256 x 16 bits, 1 of 2 read ports asynchronous", "256 x 32 bits, 257 write ports"]
    assert {(f.file, f.line, f.rule, f.signal, f.module) for f in found} == \
        {("rtl/vta_ram.v", 22, "memory-not-bram", "mem", "vta_ram")}


@pytest.mark.sim
def test_lint_is_clean_on_rtl() -> None:
    findings, judged = lint()
    assert findings == [], "\n".join(map(str, findings))
    assert judged >= 1   # the vta_ram buffers


#: One broken copy per rule: (file, line as written, its replacement, rule, signal named).
BREAKS = [
    ("vta_ctrl.v", "        rmux = 32'd0;\n", "", "latch", "rmux"),
    ("vta_ctrl.v", "    assign arready = !rvalid;\n",
     "    assign arready = !rvalid; assign arready = !rready;\n", "multiple-drivers", "arready"),
    ("vta_ctrl.v", "    assign arready = !rvalid;\n",
     "    assign arready = !rvalid && !(arvalid && arready);\n", "comb-loop", "u_ctrl.arready"),
    ("vta_ram.v", "    assign rdata = q;\n", "    assign rdata = mem[raddr];\n", "memory-not-bram", "mem"),
]


@pytest.mark.sim
@pytest.mark.parametrize("name, line, replacement, rule, signal", BREAKS, ids=[b[3] for b in BREAKS])
def test_lint_catches_a_broken_copy(tmp_path: Path, name: str, line: str, replacement: str,
                                    rule: str, signal: str) -> None:
    shutil.copytree(ROOT / "rtl", tmp_path, dirs_exist_ok=True)
    text = (tmp_path / name).read_text()
    assert text.count(line) == 1, f"rtl/{name} no longer has the line this break edits: {line!r}"
    (tmp_path / name).write_text(text.replace(line, replacement))
    findings, _ = lint(tmp_path)
    assert findings, f"{rule}: the broken copy was not caught"
    assert {f.rule for f in findings} == {rule}, "\n".join(map(str, findings))
    assert any(f.signal == signal and f.file == str(tmp_path / name) and f.line > 0 for f in findings), \
        "\n".join(map(str, findings))


@pytest.mark.sim
def test_make_synth_as_documented() -> None:
    """README's `make synth CONFIG=small TARGET=xilinx` (about a minute when not cached),
    then the same synthesis again: cached, in under a second."""
    assert "make synth CONFIG=small TARGET=xilinx" in (ROOT / "README.md").read_text()
    proc = make("synth", "CONFIG=small", "TARGET=xilinx", timeout=900)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    doc = json.loads((ROOT / "build" / "synth" / "small-xilinx" / "resources.json").read_text())
    assert all(doc["total"]["resources"][r] > 0 for r in ("lut", "ff", "carry", "bram", "dsp", "lutram"))
    assert "total" in proc.stdout and "vta_gemm_alu" in doc["modules"]
    again = subprocess.run([sys.executable, "-m", "tb.synth", "--config", "small", "--target", "xilinx"],
                           cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0
    assert "cached" in again.stdout and again.stdout.count("total") == 1


def _doc(target: str, resources: dict[str, int], cells: dict[str, int]) -> dict[str, Any]:
    """A resources.json document with only what a fit verdict reads."""
    return {"target": target, "total": {"resources": resources, "cells": cells}}


def test_zynq_budget_counts_ramb18_as_half_and_lutram_as_luts() -> None:
    """Hand-computed: 65 RAMB36 + 87 RAMB18 = 108.5 of 140 (77.5 %, budget 90 %); LUTs
    42,520 + 10 RAM32M x 4 = 42,560, exactly 80 % of 53,200; 220 DSPs, exactly 100 %."""
    part = PARTS["xc7z020"]
    doc = _doc("xilinx", {"lut": 42_520, "ff": 9_000, "bram": 152, "dsp": 220},
               {"RAMB36E1": 65, "RAMB18E1": 87, "RAM32M": 10, "DSP48E1": 220, "LUT6": 42_520})
    v = part.verdict(doc)
    assert v["rows"]["bram"]["used"] == 108.5 and v["rows"]["lut"]["used"] == 42_560
    assert v["fits"]
    over = _doc("xilinx", {"lut": 42_521, "ff": 9_000, "bram": 152, "dsp": 220},
                {"RAMB36E1": 65, "RAMB18E1": 87, "RAM32M": 10, "DSP48E1": 220})
    assert not part.verdict(over)["fits"]   # one LUT past 80 %
    line = fit_lines(over)[0]
    assert line.startswith("fits xc7z020 (Zynq-7020): NO") and "RAMB36 108.5/140 (77.5 % of 90 %)" in line


def test_each_target_is_judged_on_its_own_parts() -> None:
    assert [p.name for p in parts_of("xilinx")] == ["xc7z020 (Zynq-7020)"]
    assert [p.name for p in parts_of("ecp5")] == ["LFE5UM5G-85F (ECP5-85)"]
    assert parts_of("generic") == [] and fit_lines(_doc("generic", {}, {})) == []
    # 157 MULT18X18D: one more than the ECP5-85 has
    doc = _doc("ecp5", {"lut": 1, "ff": 1, "bram": 208, "dsp": 157}, {"DP16KD": 208, "MULT18X18D": 157})
    v = PARTS["LFE5UM5G-85F"].verdict(doc)
    assert v["rows"]["bram"]["share"] == 1.0 and not v["fits"]
