"""Each test-only break of rtl/ (tb/breaks.py, rtl/README.md "Test-only defines") is caught by
its ``make sim`` check: the catching job alone, on Icarus in the fast mode, fails first with
the checker and the words the table names. (``make breaks`` runs the whole of ``make sim`` per define and
reports the figures in the README; the same jobs pass on the real RTL in
tb/tests/test_rtl_flows.py and test_uvm_directed.py.)"""
from __future__ import annotations

import re

import pytest

from tb.breaks import BREAKS, README, Break, Outcome, failed_jobs, readme_with_table, table
from tb.launch.launch import prepare_env, run_all
from tb.launch.simbuild import DEFINES_VAR
from tb.paths import rtl_sources
from tb.plan.jobs import Job
from tb.plan.registry import JobRequest, make_jobs
from tb.tests.test_make import make


def catching_jobs(brk: Break) -> list[tuple[str, Job]]:
    """The break's job and the jobs it is launched after without a reset (its chain)."""
    jobs = make_jobs(brk.test, JobRequest("icarus"))
    at = next(n for n, (_, job) in enumerate(jobs) if job.name == brk.job)
    first = at
    while not jobs[first][1].reset:
        first -= 1
    return jobs[first:at + 1]


@pytest.mark.sim
@pytest.mark.parametrize("brk", BREAKS, ids=lambda b: b.define.removeprefix("VTA_TEST_BREAK_"))
def test_each_break_is_caught_by_its_check(brk: Break, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DEFINES_VAR, brk.define)
    prepare_env()
    records = {r["job"]: r for r in run_all("icarus", catching_jobs(brk), 1, False, mode="fast")}
    record = records[brk.job]
    assert not record["passed"], f"{brk.define}: {brk.job} passed on the broken RTL"
    first = record["failures"][0]
    assert first["kind"] == brk.kind and brk.says in first["message"], first


def test_the_table_reads_a_run(tmp_path) -> None:  # noqa: ANN001 - pytest's tmp_path
    """The JUnit reader and the summary on a file written by hand: a failure and an error
    are failing jobs with their checker, a passed case is not."""
    junit = tmp_path / "r.xml"
    junit.write_text('<testsuite><testcase name="a"><failure message="[protocol] x"/></testcase>'
                     '<testcase name="b"/><testcase name="c"><error message="refused"/></testcase>'
                     '</testsuite>')
    assert failed_jobs(junit) == [("a", "protocol"), ("c", "refused")]
    assert failed_jobs(tmp_path / "none.xml") == []
    caught = Outcome(BREAKS[0], 1, [("a", "protocol")], 3.0)
    missed = Outcome(BREAKS[1], 0, [], 2.0)
    assert caught.caught and not missed.caught
    rows = table([caught, missed]).splitlines()
    assert "| yes | 1 | a: protocol |" in rows[2] and "| NO | 0 | - |" in rows[3]


def test_rtl_readme_table_is_current() -> None:
    """rtl/README.md's table is the one tb/breaks.py writes (``--write-readme``)."""
    text = README.read_text()
    assert readme_with_table(text) == text, "run: python -m tb.breaks --write-readme"


def test_every_define_of_rtl_is_in_the_table() -> None:
    """The defines rtl/ tests for are exactly the table's: none planted without a check."""
    found = set()
    for source in rtl_sources():
        found |= set(re.findall(r"`(?:ifdef|elsif|ifndef)\s+(VTA_TEST_BREAK_\w+)", source.read_text()))
    assert found == {b.define for b in BREAKS}


@pytest.mark.sim
def test_make_breaks_reports_the_catch() -> None:
    """``make breaks`` as the README writes it, on one define and its catching test only."""
    proc = make("breaks", "SIM=icarus", "DEFINES=VTA_TEST_BREAK_B_BOUND", "QUICK=1", timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "[breaks]   caught: 1 job(s) failed" in proc.stdout
    assert "| `VTA_TEST_BREAK_B_BOUND` | vta_store | yes | 1 | b-bound: liveness |" in proc.stdout
    assert proc.stdout.rstrip().endswith("1 of 1 caught")
