"""`python -m tb.triage.rerun DIR [--waves]` (`make rerun`): a saved failure rerun with waves
prints a waveform file that exists and the same first-error cycle as the failure's record;
a failure that no longer happens exits 1; a directory that is not a saved failure is a
one-line error naming it (exit 2).

The failure is made the way a user's run makes one: the testbench's CLI with an injected
HDL fault on Icarus (the quickest build), saving under a private VTA_FAILURES_DIR.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tb.paths import ROOT
from tb.triage.rerun import main

#: counter-skew makes GEMM_UOPS read one too many; on gemm_basic the counter checker fires.
FAULT, VECTOR = "counter-skew", "vectors/gemm_basic"
SAVED = "icarus-fast-vec-gemm_basic-none"  # tb/uvm/seq_lib/vseq.py failure_dir of that job


def python(*args: str, failures: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, VTA_FAILURES_DIR=str(failures))
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


def make_failure(tmp_path: Path) -> Path:
    """Run one faulty job; the directory its failure was saved in."""
    proc = python("tb.run", "--sim", "icarus", "--vector", VECTOR, "--fault", FAULT,
                  failures=tmp_path / "failures")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    saved = tmp_path / "failures" / SAVED
    assert (saved / "tb_uvm.json").is_file() and (saved / "manifest.json").is_file()
    return saved


def first_cycle(saved: Path) -> int:
    return int(json.loads((saved / "tb_uvm.json").read_text())["failures"][0]["cycle"])


@pytest.mark.sim
def test_rerun_with_waves_prints_the_waveform_and_the_recorded_cycle(tmp_path: Path) -> None:
    saved = make_failure(tmp_path)
    proc = python("tb.triage.rerun", str(saved), "--waves", failures=tmp_path / "rerun")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert f"fault {FAULT}" in out and "mode fast" in out, out
    wave = re.search(r"^waveform: (\S+) \(the error is where vta_tb_fast\.u_tb\.tb_cycle = (\d+)\)$",
                     proc.stdout, re.M)
    assert wave, out
    path = Path(wave.group(1))
    assert path.suffix == ".fst" and path.is_file() and path.stat().st_size > 0, path
    assert path.parent.name.startswith("rerun-"), f"{path}: not in the rerun's own run directory"
    cycle = re.search(r"^first error: cycle (\d+) \[counter\] .*GEMM_UOPS reads", proc.stdout, re.M)
    assert cycle, out
    assert int(cycle.group(1)) == int(wave.group(2)) == first_cycle(saved)
    assert f"saved record: cycle {first_cycle(saved)} [counter]\n" in proc.stdout, out


@pytest.mark.sim
def test_a_failure_that_no_longer_happens_exits_1(tmp_path: Path) -> None:
    saved = make_failure(tmp_path)
    side = saved / "tb_uvm.json"
    record = json.loads(side.read_text())
    record["job"]["fault"] = "none"  # as if the bug had been fixed since
    side.write_text(json.dumps(record))
    proc = python("tb.triage.rerun", str(saved), failures=tmp_path / "rerun")
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "first error: none: the job passed this time" in proc.stdout
    assert "waveform:" not in proc.stdout


@pytest.mark.sim
def test_a_flow_failure_reruns_its_flow(tmp_path: Path) -> None:
    """A flow saves no program: its job reruns as recorded, on the recorded configuration."""
    saved = write_saved(tmp_path / "icarus-fast-regmap")
    proc = python("tb.triage.rerun", str(saved), failures=tmp_path / "rerun")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out[-3000:]  # the register map is right: nothing reproduces
    assert "rerun: icarus, mode fast, configuration small, job regmap-repro" in out, out
    assert re.search(r"^icarus +regmap-repro +small .* PASS", proc.stdout, re.M), out


def write_saved(d: Path, **changes: object) -> Path:
    """A hand-written saved failure of a flow job (no program), with ``changes`` applied."""
    d.mkdir(parents=True, exist_ok=True)
    record: dict[str, object] = {
        "sim": "icarus", "config": "small", "job": {"name": "regmap", "kind": "regmap"},
        "repro": "python -m tb.run --sim icarus --mode fast --config small --test regmap",
        "failures": [{"kind": "register", "message": "m", "cycle": 12}]}
    record.update(changes)
    (d / "tb_uvm.json").write_text(json.dumps(record))
    return d


def not_json(d: Path) -> Path:
    (d / "tb_uvm.json").write_text("{")
    return d


#: name -> (make the directory under tmp_path, text the one-line error must hold)
BAD = {
    "missing": (lambda t: t / "nope", "nope: no such directory"),
    "no-record": (lambda t: t, "no tb_uvm.json, so not a saved failure"),
    "not-json": (not_json, "tb_uvm.json: not valid JSON"),
    "bad-sim": (lambda t: write_saved(t, sim="modelsim"),
                "tb_uvm.json: sim must be one of icarus, verilator"),
    "bad-mode": (lambda t: write_saved(t, mode="turbo"),
                 "tb_uvm.json: mode must be one of full, fast, got 'turbo'"),
    "bad-cycle": (lambda t: write_saved(t, failures=[{"kind": "register", "message": "m", "cycle": "12"}]),
                  "tb_uvm.json: failures[0]: cycle must be an integer, got '12'"),
    "bad-kind": (lambda t: write_saved(t, failures=[{"kind": "oops", "message": "m", "cycle": 1}]),
                 "tb_uvm.json: failures[0]: kind must be one of scoreboard"),
    "bad-field": (lambda t: write_saved(t, failures=[{"kind": "register", "message": "m", "cycle": 1,
                                                      "rule": 3}]),
                  "tb_uvm.json: failures[0]: rule must be a string, got 3"),
    "no-sim": (lambda t: write_saved(t, sim=None), "tb_uvm.json: sim must be one of"),
    "bad-job": (lambda t: write_saved(t, job={"name": "x", "seed": -1}), "tb_uvm.json: job 'x': seed -1"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_directory_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           case: str) -> None:
    setup, text = BAD[case]
    directory = setup(tmp_path)
    assert main([str(directory)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and text in err, err
    assert "Traceback" not in err
