"""`make formal DUT=NAME` (tb/formal/foreign.py): the port rules as a BMC on a foreign DUT's
wrapper. The upstream Chisel netlist builds under the whole-top harness and a short BMC finds
its known 4 KiB read crossing (FINDINGS.md, "Formal"), named as the profile's difference; an
unknown DUT is one line and status 2."""
from __future__ import annotations

from pathlib import Path

import pytest

from tb.duts.profile import load
from tb.formal import foreign
from tb.formal.tools import formal_env
from tb.tests.test_duts import need_netlist
from tb.tests.test_make import make


@pytest.mark.sim
def test_upstream_short_bmc_finds_the_4k_read_crossing(tmp_path: Path) -> None:
    """One run to depth 9 (about 30 s of CPU: the netlist's build dominates): fetch's first
    burst crosses 4 KiB at step 8 when the host's INSN_ADDR is not 2 KiB aligned."""
    need_netlist()
    logs: list[str] = []
    result = foreign.run(load("upstream-chisel"), tmp_path / "f", formal_env(), budget=300, depth=9,
                         log=logs.append, max_runs=1)
    assert [r.status for r in result.runs] == ["FAIL"], logs
    first = result.findings[0]
    assert (first.label, first.difference) == ("a_ar_4k", "protocol.4k-boundary"), logs
    assert first.step is not None and first.step <= 9
    assert "assertion a_ar_4k fails at cycle" in first.trace
    assert "DUT side of AR" in first.trace and "arlen=ff" in first.trace
    # the netlist stays outside the tree: only the build directory has the stripped copy
    assert (tmp_path / "f" / "src" / "VTAShell.v").exists()
    assert "$fwrite" not in (tmp_path / "f" / "src" / "VTAShell.v").read_text()


@pytest.mark.sim
def test_make_formal_unknown_dut_is_one_line() -> None:
    proc = make("formal", "DUT=nosuch", timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    # one line of the runner's; make's own trailer ("make: *** [Makefile:N: formal] Error 2") aside
    lines = [ln for ln in (proc.stdout + proc.stderr).splitlines()
             if ln.strip() and not ln.startswith("make: ***")]
    assert len(lines) == 1 and "DUT=nosuch" in lines[0] and "no such profile" in lines[0], lines
