"""`make mutate TESTS=formal` and `formal+quick`: the formal stage checks only the contracts a
mutant's file takes part in, kills on a counterexample, and tb.mutate.compare sets two runs
of the same sample side by side.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tb.formal.jobs import jobs_touching
from tb.mutate.compare import compare
from tb.mutate.testsets import FORMAL, stages
from tb.paths import ROOT
from tb.tests.test_make import make
from tb.tests.test_mutate_sim import seed_baseline


def test_formal_test_sets_put_the_formal_stage_first() -> None:
    assert stages("formal", "icarus") == [FORMAL]
    combined = stages("formal+quick", "verilator")
    assert combined[0] == FORMAL and combined[1:] == stages("quick", "verilator")
    assert FORMAL.command().startswith("python -m tb.formal --mutant")


def test_only_the_contracts_of_a_changed_file_run(tmp_path: Path) -> None:
    rtl = tmp_path / "rtl"
    rtl.mkdir()
    for f in (ROOT / "rtl").glob("*.v*"):
        (rtl / f.name).write_bytes(f.read_bytes())
    assert jobs_touching(rtl, ROOT / "rtl") == []  # unmutated: nothing to check again
    (rtl / "vta_token.v").write_text((rtl / "vta_token.v").read_text() + "\n// changed\n")
    touched = jobs_touching(rtl, ROOT / "rtl")
    assert touched and all(j.top == "vta_token" for j in touched)


def _report(statuses: dict[str, tuple[str, str]]) -> dict:
    return {"tests": "t", "mutants": [{"id": i, "module": m, "status": s, "description": i, "job": "j"}
                                      for i, (m, s) in statuses.items()]}


def test_compare_counts_each_run_and_the_union() -> None:
    a = _report({"x1": ("vta_fifo", "killed"), "x2": ("vta_fifo", "survived"),
                 "x3": ("vta_token", "timeout"), "x4": ("vta_token", "equivalent")})
    b = _report({"x1": ("vta_fifo", "survived"), "x2": ("vta_fifo", "killed"),
                 "x3": ("vta_token", "killed"), "x4": ("vta_token", "survived")})
    result = compare(a, b)
    assert result["rows"]["all"] == {"scored": 3, "a": 2, "b": 2, "either": 3}
    assert result["rows"]["vta_fifo"] == {"scored": 2, "a": 1, "b": 1, "either": 2}
    assert [m["id"] for m in result["only_a"]] == ["x1"]
    assert [m["id"] for m in result["only_b"]] == ["x2"]
    with pytest.raises(SystemExit, match="different mutants"):
        compare(a, _report({"y": ("vta_fifo", "killed")}))


@pytest.mark.sim
def test_make_mutate_tests_formal_as_documented(tmp_path: Path) -> None:
    out = tmp_path / "mut"
    # the unmutated run (every contract job, ~35 s) is cached as held: test_formal.py proves
    # the contracts on the real RTL; this test is about the mutants' stage
    seed_baseline(out, "formal", "icarus", {"formal": 60.0})
    proc = make("mutate", "N=3", "SEED=1", "MODULES=vta_token", "TESTS=formal", f"OUT={out}", timeout=600)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    report = json.loads((out / "report.json").read_text())
    assert report["tests"] == "formal" and len(report["mutants"]) == 3
    for m in report["mutants"]:
        if m["status"] == "killed":
            assert m["stage"] == "formal" and m["job"].startswith("token/")
