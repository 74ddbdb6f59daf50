"""`make regress` on Dask (tb/regress): every program once when a worker process is killed,
resume of an interrupted run, the report, and one-line errors.

The reference is the same regression run in one process (``--inline``); runs on a cluster
must give the same per-program rows (seed, configuration, profile, verdict, cycles; not
wall time, nor ``sim cycles``, which count the simulator's start-up).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from distributed import Client

from tb.regress.localhost import localhost_cluster
from tb.runner import ROOT

SEED, COUNT = 71000, 6
COMMON = ["--sim", "icarus", "--mode", "fast", "--seed", str(SEED), "--count", str(COUNT),
          "--config", "small"]
Row = tuple[int, str, str, bool, str, int]


def regress(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tb.regress", *COMMON, *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def entries(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]


def rows(run_dir: Path) -> list[Row]:
    """One row per program, in seed order; every program exactly once."""
    out = sorted((r["job_spec"]["seed"], r["config"], r["job_spec"]["profile"], r["passed"],
                  r["failures"][0]["kind"] if r["failures"] else "", r["cycles"])
                 for e in entries(run_dir) for r in e["records"])
    assert [r[0] for r in out] == list(range(SEED, SEED + COUNT)), out
    return out


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The regression in one process, chunks of 2 (3 chunks): its run directory."""
    run_dir = tmp_path_factory.mktemp("regress") / "reference"
    junit = run_dir.parent / "regress.xml"
    proc = regress("--inline", "--chunk", "2", "--run-dir", run_dir, "--junit", junit)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert f"regression: {COUNT} passed, 0 failed of {COUNT} programs" in proc.stdout
    for seed in range(SEED, SEED + COUNT):
        assert re.search(rf"^icarus +random-s{seed}-\S+ +small .* PASS ", proc.stdout, re.M), proc.stdout
    suite = ElementTree.parse(junit).getroot()
    assert suite.get("tests") == str(COUNT) and suite.get("failures") == "0"
    assert sorted(c.attrib["name"].split("-")[1] for c in suite.iter("testcase")) == \
        [f"s{s}" for s in range(SEED, SEED + COUNT)]
    return run_dir


@pytest.mark.sim
def test_a_killed_worker_loses_no_program(reference: Path, tmp_path: Path) -> None:
    """Two `dask worker` processes; once the first chunk is back, the worker that is running
    one is SIGKILLed with its simulator: its chunk runs again on the other, each program is
    reported once, and the rows are the single process's."""
    run_dir = tmp_path / "run"
    with localhost_cluster(["kill-a", "kill-b"], tmp_path / "cluster") as cluster, \
            Client(cluster.address) as client:
        proc = subprocess.Popen([sys.executable, "-m", "tb.regress", *COMMON, "--chunk", "1",
                                 "--scheduler", cluster.address, "--run-dir", str(run_dir)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        out, lost, killed = [], [], ""
        for line in proc.stdout:
            out.append(line)
            if not killed and " chunks: c" in line:
                names = {a: w["name"] for a, w in client.scheduler_info()["workers"].items()}
                busy = [(names[a], keys) for a, keys in client.processing().items() if keys]
                assert busy, "no worker is running a chunk after the first result"
                killed, keys = busy[0]
                lost = [re.sub(r"^vta-(c\d+)-.*", r"\1", str(k)) for k in keys]
                cluster.kill(killed)
        assert proc.wait(timeout=300) == 0, "".join(out)[-4000:]
    assert killed and lost
    done = entries(run_dir)
    assert sorted(e["chunk"] for e in done) == [f"c{n:04d}" for n in range(COUNT)]  # each once
    survivor = {"kill-a": "kill-b", "kill-b": "kill-a"}[killed]
    assert all(e["worker"] == survivor for e in done if e["chunk"] in lost), (lost, done)
    assert rows(run_dir) == rows(reference)


@pytest.mark.sim
def test_resume_runs_only_the_missing_chunks(reference: Path, tmp_path: Path) -> None:
    """A run interrupted after one chunk (and cut in the middle of writing the next) resumes
    with the two missing chunks alone, and ends with the full run's rows and report."""
    run_dir = tmp_path / "run"
    shutil.copytree(reference, run_dir)
    first, second = (run_dir / "results.jsonl").read_text().splitlines()[:2]
    (run_dir / "results.jsonl").write_text(first + "\n" + second[:40])  # a crash mid-line
    kept = json.loads(first)["chunk"]
    proc = regress("--inline", "--chunk", "2", "--resume", run_dir)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert f"resuming {run_dir}: 1 of 3 chunks done, 2 to run" in proc.stdout
    ran = re.findall(r"^\[regress\] \d/3 chunks: (c\d+) ", proc.stdout, re.M)
    assert len(ran) == 2 and kept not in ran, proc.stdout
    assert f"regression: {COUNT} passed, 0 failed of {COUNT} programs" in proc.stdout
    assert rows(run_dir) == rows(reference)


def one_line_error(proc: subprocess.CompletedProcess[str], text: str) -> None:
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert len(proc.stderr.strip().splitlines()) == 1 and text in proc.stderr, proc.stderr


def test_unreachable_scheduler_is_a_one_line_error(tmp_path: Path) -> None:
    proc = regress("--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "1", "--run-dir", tmp_path / "r")
    one_line_error(proc, "error: cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")


def test_bad_resume_is_a_one_line_error(tmp_path: Path) -> None:
    one_line_error(regress("--resume", tmp_path / "nope"), f"error: --resume {tmp_path / 'nope'}: no such "
                                                            f"run directory")
    one_line_error(regress("--resume", tmp_path), f"error: --resume {tmp_path}: not a regression run "
                                                   f"directory (no params.json)")
    one_line_error(regress("--resume", "--run-dir", tmp_path / "none"),
                   f"error: --resume: no earlier run with these parameters ({tmp_path / 'none'})")


@pytest.mark.sim
def test_resume_with_other_parameters_is_a_one_line_error(reference: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "tb.regress", *COMMON[:-4], "--count", "5", "--config",
                           "small", "--chunk", "2", "--resume", str(reference)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    one_line_error(proc, f"error: --resume {reference}: that run has other parameters: count=6 "
                         f"(this run: 5)")
