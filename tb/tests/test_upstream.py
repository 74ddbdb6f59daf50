"""The upstream Chisel VTA through the real testbench (`make upstream` in small): a passing
directed vector, vectors its profile rules out (each named with its difference), the waived
4 KiB rule reported, and random programs generated within its limits that reach a verdict of
the checkers (pass, or a failure a checker names: tb/duts/upstream-chisel/FINDINGS.md), never
a testbench or model error. Verilator, fast mode; the netlist's build is shared with
`make upstream` (about 50 s the first time)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tb.runner import ROOT
from tb.tests.test_duts import need_netlist
from tb.uvm import run

VECTORS = ROOT / "vectors"
#: directed vectors and what the upstream profile makes of each
PASSES = "default_vthread_blocked_gemm"
EXCLUDED = {"default_alu_overlap_in_order": "isa.alu-mul", "default_layer": "isa.load-acc8",
            "gemm_basic": "configuration"}


def run_upstream(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, list]:
    junit = tmp_path / "junit.xml"
    status = run.main(["--sim", "verilator", "--dut", "upstream-chisel", "--junit", str(junit), *args])
    return status, capsys.readouterr().out, list(ET.parse(junit).getroot())


def test_upstream_directed(tmp_path, capsys, monkeypatch):
    need_netlist()
    monkeypatch.setattr(run, "FAILURES", tmp_path / "failures")
    vectors = [str(VECTORS / name) for name in (PASSES, *EXCLUDED)]
    status, out, cases = run_upstream(tmp_path, capsys, "--vector", *vectors)
    assert status == 0, out
    assert f"vec-{PASSES}-none" in out and "1 passed, 0 failed, 3 excluded" in out
    for name, why in EXCLUDED.items():
        assert f"  vec-{name}-none: {why}" in out, out
    assert sum(c.find("skipped") is not None for c in cases) == 3
    assert "finding (upstream-chisel, waived protocol.4k-boundary)" in out


def test_upstream_random_programs_reach_a_verdict(tmp_path, capsys, monkeypatch):
    need_netlist()
    monkeypatch.setattr(run, "FAILURES", tmp_path / "failures")
    status, out, cases = run_upstream(tmp_path, capsys, "--test", "random", "--seed", "1", "--count", "3",
                                      "--profile", "none")
    assert len(cases) == 3, out
    saved = sorted((tmp_path / "failures").glob("*/tb_uvm.json"))
    kinds = {json.loads(p.read_text())["failures"][0]["kind"] for p in saved}
    assert kinds <= {"scoreboard", "protocol", "watchdog"}, out
    assert status == (1 if saved else 0)
