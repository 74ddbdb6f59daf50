"""Command line of the testbench: `python -m tb.run` errors (`make regress`: test_regress.py)
and the vectors it refuses while the others run."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from models.spec.configs import load_config
from tb.paths import ROOT
from tb.plan.makers import runnable_vector_jobs
from tb.plan.negative_programs import write_deadlock_vector

GOOD = ("load_acc_store", "store_reset_acc")  # two short directed vectors of one configuration


def test_runner_rejects_a_bad_vector_path_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "tb.run", "--sim", "icarus", "--vector",
                           str(tmp_path / "missing")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: {tmp_path / 'missing'}: neither a vector (no manifest.json) " \
                                  f"nor a directory of vectors"


def _insn_count(vector: Path, count: int) -> None:
    path = vector / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["insn_count"] = count
    path.write_text(json.dumps(manifest))


@pytest.mark.sim
def test_a_refused_vector_is_one_error_row_and_the_others_run(tmp_path: Path) -> None:
    """A directory of two good vectors and one whose insn_count (18) runs beyond its
    instruction image (alu_add's insns.bin holds 17): the good ones run and pass, the bad one
    is an ERROR row with its reason, counted in the totals and the JUnit file; exit 1."""
    run_dir = tmp_path / "vectors"
    for name in GOOD:
        shutil.copytree(ROOT / "vectors" / name, run_dir / name)
    bad = shutil.copytree(ROOT / "vectors" / "alu_add", run_dir / "bad")
    _insn_count(bad, 18)
    junit = tmp_path / "results.xml"
    proc = subprocess.run([sys.executable, "-m", "tb.run", "--sim", "icarus", "--mode", "fast",
                           "--vector", str(run_dir), "--junit", str(junit)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    rows = {line.split()[1]: line.split(None, 5)[5]  # job: result and what follows
            for line in out.splitlines() if line.startswith("icarus ")}
    good = {f"vec-{name}-none" for name in GOOD}
    assert set(rows) == good | {"vec-bad-none"}
    assert all(rows[name].startswith("PASS ") for name in good), out
    assert rows["vec-bad-none"].startswith("ERROR (refused, not run)"), out
    reason = (f"{bad / 'manifest.json'}: insn_count 18: the instructions are [0x2000, 0x2120) "
              f"(insn_addr 0x2000 + 16 * 18) but they run beyond the end of init[3] ('insns.bin', "
              f"[0x2000, 0x2110))")
    assert f"refused before running (ERROR):\n  vec-bad-none: {reason}" in out
    assert "\n2 passed, 0 failed, 1 refused (ERROR) in " in out
    suite = ET.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "0", "1")
    cases = {case.get("name"): list(case) for case in suite}
    assert set(cases) == good | {"vec-bad-none"}
    assert all(cases[name] == [] for name in good)
    [error] = cases["vec-bad-none"]
    assert error.tag == "error" and (error.get("message") or "").startswith(reason)


def test_the_checker_refuses_an_ill_formed_vector_unless_its_job_is_meant_to_deadlock(
        tmp_path: Path) -> None:
    """The deadlock program (a STORE pops a token nobody pushes) is refused as a plain vector;
    saved with a tb_uvm.json whose job is the watchdog's negative test, it runs."""
    plain = write_deadlock_vector(load_config("small"), tmp_path / "plain")
    saved = write_deadlock_vector(load_config("small"), tmp_path / "saved")
    (saved / "tb_uvm.json").write_text(json.dumps({"job": {"name": "deadlock", "deadlock": True}}))
    jobs, refused = runnable_vector_jobs([plain, saved], None, 1)
    assert [(cfg, job.name, job.deadlock) for cfg, job in jobs] == [("small", "deadlock-repro", True)]
    [record] = refused
    assert (record["job"], record["config"], record["passed"]) == ("vec-plain-none", "small", False)
    assert record["refused"].startswith(f"{plain}: the program is not well-formed, so it has no single "
                                        f"defined result (")
    assert "; the first: insn 1 [store] STORE " in record["refused"]
    assert ": token-imbalance: queue C2S" in record["refused"] and "\n" not in record["refused"]


@pytest.mark.sim
def test_a_relative_profile_path_reaches_the_simulator() -> None:
    """`--dut tb/duts/vta/profile.yaml` (rtl/ through its own profile file, relative to the
    working directory) runs: the simulator process, started in its build directory, is
    handed the absolute path. It used to end the job with no result."""
    proc = subprocess.run([sys.executable, "-m", "tb.run", "--sim", "icarus", "--dut",
                           "tb/duts/vta/profile.yaml", "--vector", "vectors/default_pipeline_tokens"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "1 passed, 0 failed" in proc.stdout, proc.stdout[-3000:] + proc.stderr
