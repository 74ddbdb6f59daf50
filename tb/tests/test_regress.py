"""`make regress` on Dask (tb/regress): README's remote-worker commands as written, every
program once when a worker process is killed, resume of an interrupted run, the report, and
one-line errors.

The reference is the same regression run in one process (``--inline``); runs on a cluster
must give the same per-program rows (seed, configuration, profile, verdict, cycles; not
wall time, nor ``sim cycles``, which count the simulator's start-up).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from xml.etree import ElementTree

import pytest
from distributed import Client

from tb.paths import ROOT
from tb.regress.localhost import START_TIMEOUT, LocalhostCluster, localhost_cluster

SEED, COUNT = 71000, 4
COMMON = ["--sim", "icarus", "--mode", "fast", "--seed", str(SEED), "--count", str(COUNT),
          "--config", "small"]
Row = tuple[int, str, str, bool, str, int]
#: Programs of README's remote-worker `make regress` (seed 1: one chunk of configuration small).
RECIPE_COUNT = 1
DASK = str(ROOT / ".venv" / "bin" / "dask")
#: sitecustomize.py that makes the generator refuse one seed as it refuses a program its
#: checker rejects (models/gen.py: GenError), which no shipped configuration makes it do;
#: every Python process of a run with it on PYTHONPATH imports it, the simulator's too.
REFUSE = """import models.gen

real = models.gen.generate


def generate(seed, cfg, *args, **kwargs):
    if seed == {seed}:
        raise models.gen.GenError({message!r})
    return real(seed, cfg, *args, **kwargs)


models.gen.generate = generate
"""


def regress(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tb.regress", *COMMON, *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)


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
    """The regression in one process, chunks of 2 (2 chunks): its run directory."""
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
    with the missing chunk alone, and ends with the full run's rows and report."""
    run_dir = tmp_path / "run"
    shutil.copytree(reference, run_dir)
    first, second = (run_dir / "results.jsonl").read_text().splitlines()[:2]
    (run_dir / "results.jsonl").write_text(first + "\n" + second[:40])  # a crash mid-line
    kept = json.loads(first)["chunk"]
    proc = regress("--inline", "--chunk", "2", "--resume", run_dir)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert f"resuming {run_dir}: 1 of 2 chunks done, 1 to run" in proc.stdout
    ran = re.findall(r"^\[regress\] \d/2 chunks: (c\d+) ", proc.stdout, re.M)
    assert len(ran) == 1 and kept not in ran, proc.stdout
    assert f"regression: {COUNT} passed, 0 failed of {COUNT} programs" in proc.stdout
    assert rows(run_dir) == rows(reference)


@pytest.mark.sim
def test_a_program_the_generator_refuses_is_its_own_failed_row(tmp_path: Path) -> None:
    """The generator refuses the second of three programs: that program alone fails, as a
    FAIL (model) row whose reason is one line (the table, the failure list, the JUnit
    message), counted in the totals and the JUnit file; the third still runs and passes."""
    refused = SEED + 1
    reason = f"GenError: seed {refused}: the checker rejected 4 attempt(s):"
    message = reason.removeprefix("GenError: ") + "\nattempt 0: forced finding"
    (tmp_path / "sitecustomize.py").write_text(REFUSE.format(seed=refused, message=message))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(tmp_path), str(ROOT))),
               VTA_FAILURES_DIR=str(tmp_path / "failures"))
    junit = tmp_path / "regress.xml"
    proc = regress("--inline", "--count", "3", "--run-dir", tmp_path / "run", "--junit", junit, env=env)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "regression: 2 passed, 1 failed of 3 programs" in proc.stdout
    for seed, result in ((SEED, "PASS"), (refused, r"FAIL \(model\)"), (SEED + 2, "PASS")):
        assert re.search(rf"^icarus +random-s{seed}-\S+ +small .* {result} ", proc.stdout, re.M), proc.stdout
    assert f"\nFAILED icarus random-s{refused}-" in proc.stdout and f": [model] {reason}\n" in proc.stdout
    suite = ElementTree.parse(junit).getroot()
    assert suite.get("tests") == "3" and suite.get("failures") == "1"
    assert [f.get("message") for f in suite.iter("failure")] == [f"[model] {reason}"]


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
    one_line_error(proc, f"error: --resume {reference}: that run has other parameters: count=4 "
                         f"(this run: 5)")


def recipe() -> list[str]:
    """The commands of README's "Remote workers" block (scheduler, workers, regression)."""
    bullet = (ROOT / "README.md").read_text().split("- **Remote workers.**", 1)[1]
    block = re.search(r"```sh\n(.*?)```", bullet, re.S)
    assert block, "README's Remote workers bullet has no sh block"
    lines = [line.split("  #", 1)[0].strip() for line in block.group(1).splitlines() if line.strip()]
    assert len(lines) == 3, lines
    return lines


def fill(line: str, values: dict[str, str]) -> str:
    """A README command with its placeholders replaced; each must be in it (else the README
    and this test drifted apart)."""
    for old, new in values.items():
        assert old in line, f"README's command {line!r} lost {old!r}"
        line = line.replace(old, new)
    return line


def user_env() -> dict[str, str]:
    """The environment a user types README's commands in: no PYTHONPATH, no make state."""
    drop = ("PYTHONPATH", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")
    return {k: v for k, v in os.environ.items() if k not in drop}


def shell(line: str, cwd: Path, log: Path) -> subprocess.Popen[bytes]:
    """A command line run by sh in ``cwd``, in its own process group (LocalhostCluster.close)."""
    with log.open("wb") as out:
        return subprocess.Popen(["sh", "-c", line], cwd=cwd, env=user_env(), stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return int(s.getsockname()[1])


@contextmanager
def recipe_scheduler(work: Path) -> Iterator[LocalhostCluster]:
    """README's scheduler command on a free port, run from a directory outside the checkout
    without PYTHONPATH (it needs no code of the suite); it and every worker added to the
    cluster are ended on exit."""
    outside = work / "elsewhere"
    outside.mkdir()
    line = fill(recipe()[0], {".venv/bin/dask": DASK, "--port 8786": f"--port {free_port()}"})
    log = work / "scheduler.log"
    cluster = LocalhostCluster("", shell(line, outside, log))
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not (printed := re.search(r"Scheduler at:\s+(tcp://\S+)", log.read_text())):
            assert cluster.scheduler.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        cluster.address = printed.group(1)
        yield cluster
    finally:
        cluster.close()


def wait_for_workers(cluster: LocalhostCluster, count: int) -> None:
    with Client(cluster.address, timeout=START_TIMEOUT) as client:
        client.wait_for_workers(count, timeout=START_TIMEOUT)


@pytest.mark.sim
def test_readme_remote_workers_recipe(tmp_path: Path) -> None:
    """README's three commands as written: the scheduler outside the checkout, two workers
    from its root with PYTHONPATH=$PWD, `make regress` on them (COUNT small): every program
    passes, on those workers, into the JUnit file."""
    _, workers, regress_line = recipe()
    with recipe_scheduler(tmp_path) as cluster:
        host = {"tcp://HOST:8786": cluster.address}
        cluster.workers["readme"] = shell(fill(workers, host), ROOT, tmp_path / "workers.log")
        wait_for_workers(cluster, 2)
        line = fill(regress_line, {**host, "COUNT=1000": f"COUNT={RECIPE_COUNT}"})
        proc = subprocess.run(["sh", "-c", line], cwd=ROOT, env=user_env(), capture_output=True, text=True,
                              timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert f"regression: {RECIPE_COUNT} passed, 0 failed of {RECIPE_COUNT} programs" in proc.stdout
    results = re.search(r"; results: (\S+)$", proc.stdout, re.M)
    assert results, proc.stdout
    ran_on = {e["worker"] for e in entries(Path(results.group(1)).parent)}
    assert ran_on <= {f"{socket.gethostname()}-{n}" for n in range(2)} and ran_on, ran_on
    suite = ElementTree.parse(ROOT / "build" / "regress-icarus.xml").getroot()
    assert suite.get("tests") == str(RECIPE_COUNT) and suite.get("failures") == "0"


def test_a_worker_that_cannot_import_the_suite_is_a_one_line_error(tmp_path: Path) -> None:
    """README's worker command without PYTHONPATH=$PWD, run outside the checkout, joins
    README's scheduler: the run ends at the first chunk with one line naming the worker and
    the fix."""
    with recipe_scheduler(tmp_path) as cluster:
        line = fill(recipe()[1], {"PYTHONPATH=$PWD .venv/bin/dask": DASK, "tcp://HOST:8786": cluster.address})
        cluster.workers["elsewhere"] = shell(line, tmp_path / "elsewhere", tmp_path / "workers.log")
        wait_for_workers(cluster, 2)
        proc = regress("--scheduler", cluster.address, "--run-dir", tmp_path / "run")
    one_line_error(proc, "error: worker ")
    assert re.fullmatch(rf"error: worker {re.escape(socket.gethostname())}-[01] at tcp://\S+: cannot import "
                        rf"the suite's modules \(No module named 'tb'\): start it from the checkout's root "
                        rf"with PYTHONPATH=\$PWD\n", proc.stderr), proc.stderr


def test_a_worker_of_an_older_commit_is_a_one_line_error(tmp_path: Path) -> None:
    """README's worker command in a copy of the checkout whose engine lacks the task's
    function (an older commit): the run ends with one line naming the worker and the fix,
    before the chunk's source digest could be compared."""
    old = tmp_path / "older"
    for top in ("rtl", "models", "tb"):
        shutil.copytree(ROOT / top, old / top, ignore=shutil.ignore_patterns("__pycache__"))
    engine = old / "tb" / "regress" / "engine.py"
    engine.write_text(fill(engine.read_text(), {"def run_on_worker(": "def run_chunk_on_worker("}))
    with recipe_scheduler(tmp_path) as cluster:
        line = fill(recipe()[1], {".venv/bin/dask": DASK, "tcp://HOST:8786": cluster.address})
        cluster.workers["older"] = shell(line, old, tmp_path / "workers.log")
        wait_for_workers(cluster, 2)
        proc = regress("--scheduler", cluster.address, "--run-dir", tmp_path / "run")
    one_line_error(proc, "error: worker ")
    assert re.fullmatch(rf"error: worker {re.escape(socket.gethostname())}-[01] at tcp://\S+: runs other "
                        rf"sources than the client \(Can't get attribute 'run_on_worker' on <module "
                        rf"'tb.regress.engine' from '{re.escape(str(engine))}'>\): check out the same commit "
                        rf"there\n", proc.stderr), proc.stderr
