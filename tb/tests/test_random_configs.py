"""``--config random``: each job's configuration drawn from a bounded pool per run, named in
the summary and in the repro command, which reproduces the failure on that configuration."""
from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from models.gen import generate
from models.spec.configs import load_config
from models.vector import save_vector
from tb.launch.launch import print_failures, repro_command
from tb.launch.pytest_support import run
from tb.launch.summary import summary_table
from tb.paths import ROOT
from tb.plan.jobs import Job, random_config
from tb.plan.makers import UsageError, random_jobs, resolve_random, vector_jobs
from tb.run import choose_jobs, parse_args

#: A run seed whose pool of two holds small GEMM cores (4x4 and 4x4x4): quick builds.
RUN_SEED = 5


def _pool(seed: int, count: int, run_seed: int, pool: int) -> list[tuple[str, Job]]:
    return resolve_random(random_jobs(seed, count, "random", None), run_seed, pool)


def test_a_run_draws_at_most_its_pool_and_each_job_from_its_seed() -> None:
    jobs = _pool(100, 60, 100, 3)
    configs = {cfg for cfg, _ in jobs}
    assert len(configs) == 3 and all(c.startswith("random:") for c in configs)
    assert jobs == _pool(100, 60, 100, 3)
    again = {job.seed: cfg for cfg, job in _pool(130, 10, 100, 3)}   # a later chunk of the run
    assert all(again[job.seed] == cfg for cfg, job in jobs if job.seed in again)
    assert {cfg for cfg, _ in _pool(100, 60, 101, 3)}.isdisjoint(configs)
    assert {cfg for cfg, _ in _pool(1, 40, 1, 1)} == {random_config(1, 1, 1)}
    for cfg in configs:
        load_config(cfg)


def test_cli_resolves_random_for_every_test_and_names_it_in_repro() -> None:
    args = parse_args(["--sim", "verilator", "--test", "back2back", "--config", "random", "--seed", "9"])
    jobs, refused = choose_jobs(args)
    assert all(cfg.startswith("random:") for cfg, _ in jobs) and refused == []
    cfg, job = _pool(7, 1, 7, 2)[0]
    assert f"--config {cfg} --vector build/failures/" in repro_command("verilator", cfg, job, "fast")
    assert "--config" not in repro_command("verilator", "small", job, "fast")


def test_vector_with_a_config_must_be_that_configuration(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    vec = save_vector(generate(3, load_config("random:3")), tmp_path / "v")
    assert vector_jobs([vec], None, 1, "random:3")[0][0] == "random:3"
    with pytest.raises(UsageError, match="has another configuration"):
        vector_jobs([vec], None, 1, "small")
    with pytest.raises(UsageError, match="draws configurations for random programs"):
        vector_jobs([vec], None, 1, "random")
    with pytest.raises(SystemExit):
        parse_args(["--random-configs", "0"])
    assert "--random-configs: 0 must be 1 or more" in capsys.readouterr().err


@pytest.mark.sim
def test_random_programs_on_two_random_configurations(capsys: pytest.CaptureFixture[str]) -> None:
    """Three programs on the pool of two, one of them failing on purpose (a flipped write
    address caught by the stray-write checker, while the job expects a protocol failure):
    the summary names the configurations, the failure prints its values and a repro
    command naming it, and that command fails again the same way."""
    jobs = resolve_random(random_jobs(RUN_SEED, 3, "random", "none"), RUN_SEED, 2)
    assert len({cfg for cfg, _ in jobs}) == 2
    bad_cfg, bad = jobs[-1]
    bad.fault, bad.expect_kind = "aw-flip", "protocol"
    results = run("icarus", jobs, "fast")   # Icarus: no C++ build per configuration
    records = [results[job.name] for _, job in jobs]
    assert [r["passed"] for r in records] == [True, True, False]
    assert records[-1]["failures"][0]["kind"] == "stray-write"
    table = summary_table(records)
    assert all(cfg in table for cfg, _ in jobs)
    print_failures(records)
    out = capsys.readouterr().out
    command = next(line.split("reproduce: ", 1)[1] for line in out.splitlines() if "reproduce: " in line)
    assert f"--config {bad_cfg} --vector build/failures/" in command
    assert f"configuration {bad_cfg}: LOG_BATCH=" in out or f"configuration {bad_cfg}: LOG_BLOCK=" in out
    argv = shlex.split(command)
    proc = subprocess.run([sys.executable, *argv[1:]], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert bad_cfg in proc.stdout and "stray-write" in proc.stdout
    assert Job(**records[-1]["job_spec"]).fault == "aw-flip"
