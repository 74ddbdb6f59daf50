"""One test per chunk of random programs; see conftest.py for the options and report."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tb.regress.conftest import RUN_DIR_VAR
from tb.uvm.api import explain
from tb.uvm.pytest_support import run
from tb.uvm.run import random_jobs, resolve_random


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    count, chunk = metafunc.config.getoption("count"), metafunc.config.getoption("chunk")
    pool = metafunc.config.getoption("random_configs")
    if count < 1 or chunk < 1 or pool < 1:
        raise pytest.UsageError(f"--count ({count}), --chunk ({chunk}) and --random-configs "
                                f"({pool}) must be at least 1")
    metafunc.parametrize("first", range(0, count, chunk), ids=lambda f: f"programs-{f}")


@pytest.mark.sim
def test_random_chunk(first: int, pytestconfig: pytest.Config) -> None:
    """Programs first..first+chunk-1 of the regression, in one simulator process per config."""
    opt = pytestconfig.getoption
    n = min(opt("chunk"), opt("count") - first)
    jobs = resolve_random(random_jobs(opt("seed") + first, n, opt("config"), opt("profile")),
                          opt("seed"), opt("random_configs"))
    results = run(opt("sim"), jobs, opt("mode"))
    records = [results[job.name] for _, job in jobs]
    out = Path(os.environ[RUN_DIR_VAR]) / f"chunk-{first}.json"
    out.write_text(json.dumps(records))
    assert len(records) == n
    bad = {r["job"]: explain(r) for r in records if not r["passed"]}
    assert not bad, "\n\n".join(f"{name}: {msg[:2000]}" for name, msg in bad.items())
