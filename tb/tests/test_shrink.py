"""The shrinker (tb/triage/shrink.py) and its program edits (tb/triage/progedit.py).

Without a simulator: every edit the shrinker makes keeps a program well-formed or is
rejected, the data trim keeps the model's result, and bad input is a one-line error.
With one (marker ``sim``): a random program of 50-100 instructions fails on the RTL built
with the test-only VTA_TEST_BREAK_ALU_MAX (ALU MAX returns the smaller operand); the
shrinker reduces it to at most a handful of instructions that still fails with the same
signature on the broken RTL and passes on the real one, and a failure that does not
reproduce is a one-line error. Icarus, fast mode, one simulator process for the whole
shrink, a private failures directory.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from models.checker import check_vector
from models.gen import generate
from models.spec.configs import load_config
from tb.launch.simbuild import DEFINES_VAR, BuildError, rtl_defines
from tb.paths import ROOT
from tb.rules.signature import signature
from tb.triage.progedit import Program, apply_edits, candidate, drop, field_edits, partners, trim
from tb.triage.shrink import main
from tb.triage.shrinkdemo import BREAK

MAX_INSNS = 6


def test_edits_keep_programs_well_formed_or_are_refused() -> None:
    prog = Program.from_vector(generate(8, load_config("small")))
    whole = candidate(prog)
    assert whole is not None and whole.size.insns == len(prog.insns)
    kept = 0
    for k in range(len(prog.insns) - 1):
        smaller = drop(prog, [k])
        assert smaller.insns[-1]["opcode"] == 3 and len(smaller.insns) == len(prog.insns) - 1
        c = candidate(smaller)
        if c is not None:
            kept += 1
            assert check_vector(c.vector).ok and c.vector.expect and c.size < whole.size
            flags = partners(smaller.insns)
            assert all((n, f) in flags for n, i in enumerate(smaller.insns)
                       for f in ("pop_prev_dep", "pop_next_dep", "push_prev_dep", "push_next_dep")
                       if i.get(f))
    assert kept > len(prog.insns) // 3  # most single drops can be repaired
    edits = field_edits(prog, halve=False)
    assert edits and any(candidate(apply_edits(prog, [e])) for e in edits)
    trimmed = candidate(trim(prog))
    assert trimmed is not None and trimmed.size.bytes < whole.size.bytes
    assert [(i.addr, i.data) for i in trimmed.vector.expect or []] == \
        [(i.addr, i.data) for i in whole.vector.expect or []]


def test_defines_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DEFINES_VAR, f"{BREAK}, X=2")
    assert rtl_defines() == {BREAK: "1", "X": "2"}
    monkeypatch.setenv(DEFINES_VAR, "1BAD")
    with pytest.raises(BuildError, match="1BAD"):
        rtl_defines()


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(capsys, [str(tmp_path / "nope")], str(tmp_path / "nope"), "no such directory")
    one_line_error(capsys, [str(tmp_path)], str(tmp_path), "no tb_uvm.json")
    flow = tmp_path / "flow"
    flow.mkdir()
    (flow / "tb_uvm.json").write_text(json.dumps({
        "sim": "icarus", "config": "small", "repro": "python -m tb.run --sim icarus --mode fast",
        "job": {"name": "regmap", "kind": "regmap"}, "failures": []}))
    one_line_error(capsys, [str(flow)], str(flow), "holds no program")


@pytest.mark.sim
def test_shrinks_a_broken_alu_max_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    failures = tmp_path / "failures"
    env = dict(os.environ, VTA_FAILURES_DIR=str(failures))
    env.pop(DEFINES_VAR, None)
    proc = subprocess.run([sys.executable, "-m", "tb.triage.shrink", "--demo"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "[shrink] drop instructions" in proc.stdout  # progress per step
    [original] = [d for d in failures.iterdir() if (d / "shrunk").is_dir()]
    shrunk = original / "shrunk"
    report = json.loads((shrunk / "shrink.json").read_text())
    before, after = report["before"], report["after"]
    assert 50 <= before["instructions"] <= 100
    assert after["instructions"] <= MAX_INSNS and after["bytes"] < before["bytes"]
    assert after["cycles"] < before["cycles"]
    target = signature(json.loads((original / "tb_uvm.json").read_text()))
    assert report["signature"] == target.to_json()

    def rerun(defines: str) -> subprocess.CompletedProcess[str]:
        again = dict(env, VTA_FAILURES_DIR=str(tmp_path / f"again{len(defines)}"))
        again.update({DEFINES_VAR: defines} if defines else {})
        # on Icarus, as the demo's failure: the break needs no C++ build of its own
        return subprocess.run([sys.executable, "-m", "tb.run", "--sim", "icarus", "--vector", str(shrunk)],
                              cwd=ROOT, env=again, capture_output=True, text=True, timeout=600)

    broken = rerun(BREAK)
    assert broken.returncode == 1, broken.stdout[-2000:]
    [saved] = (tmp_path / f"again{len(BREAK)}").iterdir()
    assert signature(json.loads((saved / "tb_uvm.json").read_text())) == target
    clean = rerun("")
    assert clean.returncode == 0, clean.stdout[-2000:] + clean.stderr[-2000:]

    monkeypatch.delenv(DEFINES_VAR, raising=False)  # the real RTL: the failure is gone
    one_line_error(capsys, [str(shrunk)], str(shrunk), "passes")
    # a saved failure whose program now fails otherwise is not shrunk towards the new failure
    side = saved / "tb_uvm.json"
    raw = json.loads(side.read_text())
    raw["failures"][0].update(kind="protocol", message="protocol violation at cycle 9 [aw-hold]: x")
    side.write_text(json.dumps(raw))
    monkeypatch.setenv(DEFINES_VAR, BREAK)
    one_line_error(capsys, [str(saved)], str(saved), "fails differently")
