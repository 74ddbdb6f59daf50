"""Command line of the testbench: `python -m tb.uvm.run` errors (`make regress`: test_regress.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tb.runner import ROOT


def test_runner_rejects_a_bad_vector_path_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "tb.uvm.run", "--sim", "icarus", "--vector",
                           str(tmp_path / "missing")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: {tmp_path / 'missing'}: neither a vector (no manifest.json) " \
                                  f"nor a directory of vectors"
