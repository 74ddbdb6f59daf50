"""Saved failures: where a failing job leaves its program and settings.

The simulator process (tb/uvm/plan_test.py), the launcher after a crash (tb/uvm/launch.py)
and the regression's report all name the same directory for one job, so the name is made
here, with no testbench import (the regression and the launcher run outside cocotb).
"""
from __future__ import annotations

import re
from pathlib import Path

from tb.uvm.jobs import Job


def safe_name(text: str) -> str:
    """A job name usable as a directory name."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")[:120]


def failure_dir(root: Path, sim: str, job: Job, mode: str = "full", dut: str = "vta") -> Path:
    """Where a failing job's program and settings are saved (one directory per simulator,
    mode, DUT and job, so that the two modes' failures of one job, or rtl/'s and a foreign
    DUT's failures of one vector, do not overwrite each other; rtl/'s names are unchanged)."""
    design = "" if dut == "vta" else f"-{Path(dut).stem if dut.endswith(('.yaml', '.yml')) else dut}"
    return root / safe_name(f"{sim}{'-fast' if mode == 'fast' else ''}{design}-{job.name}")
