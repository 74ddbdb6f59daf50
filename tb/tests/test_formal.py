"""`make formal` (tb/formal/): the quick module contracts are proven, every broken copy is
refused with its expected assertion, and a failing or vacuous contract is reported as such
(exit 1, the assertion, a text trace with its source line, the waveform, index.html).

Expectations come from the contracts' own labels and from edits made here, not from the
runner's output: a copy of rtl/ (VTA_RTL_DIR) with one line changed must fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tb.formal.jobs import FormalJob, jobs
from tb.formal.negatives import NEGATIVES, Negative
from tb.formal.sby import run_job
from tb.formal.tools import formal_env
from tb.paths import ROOT
from tb.tests.test_make import make

QUICK = [j for j in jobs() if j.quick]
BY_NAME = {j.name: j for j in jobs()}


def _one_per_module() -> list[Negative]:
    """The first broken copy of each module, and of each module under the shared AXI rules
    (make test's share; `make formal` runs them all):
    a bounded search that stops at its first failure, seconds even where the module's proof
    takes minutes. The whole top's copies take minutes; its counterexample is replayed from a
    recorded trace by test_formal_cex.py instead."""
    seen: set[tuple[str, bool]] = set()
    out: list[Negative] = []
    for n in NEGATIVES:
        job = BY_NAME[n.job]
        key = (job.top, bool(job.wrapper))   # a module alone, and under the shared AXI rules
        if not job.harness and not n.proof and key not in seen:
            seen.add(key)
            out.append(n)
    return out


SAMPLE = _one_per_module()


@pytest.mark.sim
@pytest.mark.parametrize("job", QUICK, ids=[j.name for j in QUICK])
def test_quick_contract_holds(job: FormalJob, tmp_path: Path) -> None:
    result = run_job(job, tmp_path / "run", formal_env())
    assert result.status == ("proven" if job.sby_mode == "prove" else "bounded"), (
        f"{job.name}: {result.status} {result.detail} (log {result.log})"
    )
    asserts = [c for c in result.checks if c.kind == "assert"]
    assert asserts, f"{job.name}: the contract states no assertion"
    assert not result.unreached, f"{job.name}: triggers never reached: {result.unreached}"


@pytest.mark.sim
@pytest.mark.parametrize("neg", SAMPLE, ids=[n.name for n in SAMPLE])
def test_broken_copy_is_refused(neg: Negative, tmp_path: Path) -> None:
    result = run_job(BY_NAME[neg.job], tmp_path / "run", formal_env(), neg)
    assert result.status == "FAILED", f"{neg.name} ({neg.what}): {result.status} {result.detail}"
    assert neg.expect in [c.label for c in result.failed], (
        f"{neg.name}: failed {[c.label for c in result.failed]}, expected {neg.expect}"
    )
    assert result.trace_yw is not None and result.trace_yw.exists()


def test_every_module_with_a_contract_has_a_broken_copy_in_make_test() -> None:
    assert {BY_NAME[n.job].top for n in SAMPLE} == {j.top for j in jobs() if not j.harness}


def test_every_module_with_a_contract_has_a_job_and_a_broken_copy() -> None:
    tops = {j.top for j in jobs()}
    with_contract = {p.stem for p in (ROOT / "rtl").glob("*.v") if "`ifdef FORMAL" in p.read_text()}
    assert with_contract <= tops, f"contracts with no job in tb/formal/jobs.py: {with_contract - tops}"
    refused = {BY_NAME[n.job].top for n in NEGATIVES}
    assert tops <= refused, f"modules with no broken copy in tb/formal/negatives.py: {tops - refused}"


def _rtl_copy(tmp_path: Path, module: str, find: str, replace: str) -> Path:
    rtl = tmp_path / "rtl"
    shutil.copytree(ROOT / "rtl", rtl)
    path = rtl / f"{module}.v"
    text = path.read_text()
    assert text.count(find) == 1
    path.write_text(text.replace(find, replace))
    return rtl


def _formal(rtl: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, VTA_RTL_DIR=str(rtl))
    return subprocess.run(
        [sys.executable, "-m", "tb.formal", "--no-negatives", "--out", str(out), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.sim
def test_a_failing_contract_is_reported_with_its_trace(tmp_path: Path) -> None:
    rtl = _rtl_copy(
        tmp_path, "vta_token", "assign can_pop  = (cnt != 8'd0);", "assign can_pop  = (cnt > 8'd1);"
    )
    proc = _formal(rtl, tmp_path / "out", "--modules", "token")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "FAILED a_can_pop" in out and "make formal: FAILED: token/default" in out
    trace = (tmp_path / "out" / "token_default" / "trace.txt").read_text()
    assert trace.startswith("cycle   0:") and "rst=1" in trace.splitlines()[0]
    line = next(
        n
        for n, t in enumerate((ROOT / "rtl" / "vta_token.v").read_text().splitlines(), 1)
        if "a_can_pop:" in t
    )
    assert "assertion a_can_pop fails at cycle " in trace and f"vta_token.v:{line}: a_can_pop:" in trace
    page = (tmp_path / "out" / "index.html").read_text()
    assert "FAILED a_can_pop" in page and "trace.txt" in page and ".vcd" in page


@pytest.mark.sim
def test_an_assertion_whose_trigger_is_unreachable_is_vacuous(tmp_path: Path) -> None:
    rtl = _rtl_copy(
        tmp_path,
        "vta_token",
        "        a_capacity: assert(cnt <= DEPTH8);",
        "        a_capacity: assert(cnt <= DEPTH8);\n        if (cnt > DEPTH8) a_never: assert(cnt == 8'd0);",
    )
    proc = _formal(rtl, tmp_path / "out", "--modules", "token")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "VACUOUS a_never" in out


@pytest.mark.sim
def test_make_formal_as_documented() -> None:
    proc = make("formal", "MODULES=fifo,token", timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "contracts hold" in out and "broken copies refused" in out
    assert (ROOT / "build" / "formal" / "index.html").exists()


@pytest.mark.sim
def test_bad_knobs_are_one_line() -> None:
    proc = make("formal", "DEPTH=0", timeout=60)
    assert proc.returncode != 0 and "DEPTH=0: must be a positive number of steps" in proc.stderr
    proc = make("formal", "MODULES=nosuch", timeout=120)
    assert proc.returncode != 0 and "MODULES: no contract for vta_nosuch" in proc.stderr
