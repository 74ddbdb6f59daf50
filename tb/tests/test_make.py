"""The documented `make` commands work: every target the READMEs name has a recipe, the knobs
reject bad values in one line, and lint, vectors and coverage run end to end.

A target whose recipe was lost prints "Nothing to be done" and exits 0, which once shipped
unnoticed; these tests run the real commands the way a user types them.
"""
from __future__ import annotations

import filecmp
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tb.cov.report import TARGETS
from tb.paths import ROOT
from tb.tests.test_rerun import first_cycle, make_failure

#: keys of build/coverage/summary.json that tb/cov/README.md documents.
SUMMARY_KEYS = {"functional", "line", "toggle", "branch", "toggle_before_exclusions",
                "functional_detail", "code_detail", "unhit", "testplan", "history"}
#: targets for the Makefile's own use, not for users.
INTERNAL_TARGETS = {"sysdeps"}
#: knobs a target refuses to run without (even `make -n`).
REQUIRED_KNOBS = {"rerun": ("FAILURE=build/failures/x",)}


def make(*args: str, timeout: int = 900) -> subprocess.CompletedProcess[str]:
    """`make ARGS` at the repository root, as a user would type it (no inherited make state)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(["make", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def documented_targets() -> set[str]:
    """Every `make TARGET` written in a tracked Markdown file."""
    files = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    found: set[str] = set()
    for name in files:
        found |= set(re.findall(r"(?:^|`)make ([a-z][a-z0-9_-]*)", (ROOT / name).read_text(),
                                re.M))
    return found


def phony_targets() -> set[str]:
    match = re.search(r"^\.PHONY:(.*)$", (ROOT / "Makefile").read_text(), re.M)
    assert match, "the Makefile declares its targets .PHONY"
    return set(match.group(1).split())


@pytest.mark.sim
def test_every_documented_target_has_a_recipe() -> None:
    targets = documented_targets()
    assert {"sim", "test", "lint", "vectors", "coverage", "regress", "bench"} <= targets
    for target in sorted(targets):
        proc = make("-n", target, *REQUIRED_KNOBS.get(target, ()), timeout=60)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, f"make -n {target}: {out}"
        assert "Nothing to be done" not in out and out.strip(), \
            f"README documents 'make {target}' but the Makefile has no recipe for it: {out}"


@pytest.mark.sim
def test_every_user_target_is_documented() -> None:
    undocumented = phony_targets() - INTERNAL_TARGETS - documented_targets()
    assert not undocumented, f"Makefile targets the README never mentions: {sorted(undocumented)}"


@pytest.mark.sim
def test_make_lint_runs_every_linter_clean() -> None:
    proc = make("lint", timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "verilator --lint-only -Wall" in out
    assert "iverilog -g2012 -Wall: clean" in out
    assert "synthesis lint (small): clean" in out  # tb/synth/lint.py
    assert "All checks passed!" in out  # ruff
    assert re.search(r"Success: no issues found in \d+ source files", out)  # mypy
    assert "actionlint -shellcheck= -pyflakes= .github/workflows/*.yml" in out  # silent when clean


@pytest.mark.sim
def test_make_vectors_reproduces_the_committed_vectors(tmp_path: Path) -> None:
    proc = make("vectors", f"OUT={tmp_path}", timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    committed = ROOT / "vectors"
    names = sorted(p.parent.name for p in committed.glob("*/manifest.json"))
    assert sorted(p.parent.name for p in tmp_path.glob("*/manifest.json")) == names
    assert filecmp.cmp(committed / "README.md", tmp_path / "README.md", shallow=False)
    for name in names:
        cmp = filecmp.dircmp(committed / name, tmp_path / name)
        assert not (cmp.left_only or cmp.right_only), (name, cmp.left_only, cmp.right_only)
        same, diff, bad = filecmp.cmpfiles(committed / name, tmp_path / name, cmp.common_files,
                                           shallow=False)
        assert not diff and not bad, f"vectors/{name}: {diff + bad} differ from `make vectors`"


@pytest.mark.sim
def test_make_coverage_writes_the_report(tmp_path: Path) -> None:
    out = tmp_path / "coverage"
    # one Dask worker: each worker compiles its own Verilator coverage build, and the smoke
    # run is too small to pay for a second one within make test's budget
    proc = make("coverage", "COUNT=2", "SMOKE=1", "JOBS=1", f"OUT={out}", timeout=900)
    text = proc.stdout + proc.stderr
    assert re.search(r"\[cov\] \d+ jobs, 0 failed", text), text[-4000:]
    assert (out / "index.html").is_file() and (out / "code" / "code" / "index.html").is_file()
    summary = json.loads((out / "summary.json").read_text())
    assert SUMMARY_KEYS <= set(summary), SUMMARY_KEYS - set(summary)
    for key in ("functional", "line", "toggle", "branch"):
        assert 0 < summary[key] <= 100, (key, summary[key])
    met = all(summary[k] >= t for k, t in TARGETS.items())
    if met:
        assert proc.returncode == 0, text[-2000:]
    else:  # the driver exits 1 when a target is missed, which make reports as its error 2
        assert proc.returncode == 2 and "coverage] Error 1" in text, text[-2000:]


@pytest.mark.sim
def test_make_workloads_writes_the_report(tmp_path: Path) -> None:
    """Two scaled-down layers through `make workloads` as documented; the figures' meaning
    is tested in tb/tests/test_workloads_rtl.py."""
    proc = make("workloads", "SCALE=small", "LAYERS=C4,dense", "VT=1,2", f"OUT={tmp_path}", timeout=600)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "4 of 4 passed" in text, text[-3000:]
    report = json.loads((tmp_path / "report.json").read_text())
    assert [(c["layer"], c["vt"], c["passed"]) for c in report["cases"]] == [
        ("C4", 1, True), ("C4", 2, True), ("dense", 1, True), ("dense", 2, True)]
    assert (tmp_path / "report.md").is_file() and (tmp_path / "roofline.png").is_file()


@pytest.mark.parametrize("knob, rule", [("SCALE=huge", "SCALE=huge: must be full or small"),
                                         ("VT=3", "VT=3: must be 1, 2 or 1,2")])
def test_workloads_knobs_are_checked(knob: str, rule: str) -> None:
    proc = make("workloads", knob, "-n")
    assert proc.returncode == 2 and rule in proc.stderr, proc.stderr


def test_regress_knobs_reach_the_engine() -> None:
    """`make regress`'s knobs as README lists them reach `python -m tb.regress`, once per simulator."""
    proc = make("-n", "regress", "SIM=all", "MODE=full", "SEED=3", "COUNT=5", "CONFIG=random",
                "RANDOM_CONFIGS=2", "PROFILE=heavy", "JOBS=3", "SCHEDULER=tcp://10.0.0.1:8786", "RESUME=1")
    assert proc.returncode == 0, proc.stderr
    cmd = " ".join(proc.stdout.replace("\\\n", " ").split())
    assert "for s in icarus verilator; do" in cmd, cmd
    assert ("-m tb.regress --sim $s --mode full --seed 3 --count 5 --config random --profile heavy "
            "--random-configs 2 --jobs 3 --scheduler tcp://10.0.0.1:8786 --resume "
            "--junit build/regress-$s.xml") in cmd, cmd
    proc = make("-n", "regress", "RESUME=build/regress/run")
    assert "--resume build/regress/run --junit" in " ".join(proc.stdout.replace("\\\n", " ").split()), \
        proc.stdout


def test_rerun_needs_failure() -> None:
    proc = make("rerun", "-n")
    assert proc.returncode == 2 and "FAILURE is missing: make rerun FAILURE=DIR" in proc.stderr, \
        proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@pytest.mark.sim
def test_make_rerun_prints_the_waveform_and_the_first_error(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """README's `make rerun FAILURE=DIR WAVES=1` on a failure saved by an injected fault."""
    saved = make_failure(tmp_path)
    monkeypatch.setenv("VTA_FAILURES_DIR", str(tmp_path / "rerun"))
    proc = make("rerun", f"FAILURE={saved}", "WAVES=1", timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    wave = re.search(r"^waveform: (\S+) ", proc.stdout, re.M)
    assert wave and Path(wave.group(1)).is_file(), out[-3000:]
    assert f"first error: cycle {first_cycle(saved)} [counter]" in proc.stdout, out[-3000:]
    proc = make("rerun", f"FAILURE={tmp_path / 'nope'}", timeout=120)
    assert proc.returncode == 2 and f"error: {tmp_path / 'nope'}: no such directory" in proc.stderr, \
        proc.stderr
