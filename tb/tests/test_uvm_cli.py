"""Command lines of the testbench: `make regress` (tb/regress) and `python -m tb.uvm.run` errors."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tb.runner import ROOT


@pytest.mark.sim
def test_regression_reports_every_program(tmp_path: Path) -> None:
    junit = tmp_path / "regress.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tb/regress", "--sim", "icarus",
         "--seed", "60000", "--count", "3", "--chunk", "2", "--config", "small",
         "--regress-junit", str(junit)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    # Two chunks (programs 0-1 and 2), one table row per program, seeds 60000..60002.
    assert "2 passed" in proc.stdout
    for seed in (60000, 60001, 60002):
        assert f"random-s{seed}-" in proc.stdout
    assert "regression: 3 passed, 0 failed of 3 programs" in proc.stdout
    suite = ElementTree.parse(junit).getroot()
    assert suite.get("tests") == "3" and suite.get("failures") == "0"
    assert sorted(c.attrib["name"].split("-")[1]
                  for c in suite.iter("testcase")) == ["s60000", "s60001", "s60002"]


def test_runner_rejects_a_bad_vector_path_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "tb.uvm.run", "--sim", "icarus", "--vector",
                           str(tmp_path / "missing")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: {tmp_path / 'missing'}: neither a vector (no manifest.json) " \
                                  f"nor a directory of vectors"
