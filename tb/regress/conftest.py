"""Options, per-worker build directories and the closing report of ``make regress``.

``pytest -n JOBS tb/regress --sim S --seed S --count N [--config C] [--profile P]`` runs
N random programs (program k uses seed S+k; configuration and bus profile drawn from the
seed unless given; ``--config random`` draws each program's from ``--random-configs``
random configurations of the run) in chunks, one simulator process per configuration of a
chunk, spread over the xdist workers. Each worker builds into its own directories
(VTA_BUILD_SUFFIX = worker id), so workers never share a build. Each chunk writes its
per-program records to a run directory; the controller then prints the summary table
(seed, configuration, profile, result, cycles, wall time), the failures with their repro
commands, and writes JUnit XML with one test case per program.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tb.runner import BUILD_ROOT
from tb.uvm.buckets import write_bucket_report
from tb.uvm.jobs import DEFAULT_RANDOM_POOL
from tb.uvm.run import print_failures
from tb.uvm.simbuild import BUILD_SUFFIX_VAR, MODES
from tb.uvm.summary import junit_xml, summary_table

#: Where a session's chunks write their records; set by the controller, inherited by workers.
RUN_DIR_VAR = "VTA_REGRESS_DIR"
#: When the controller started, for the closing line's wall time.
_START = pytest.StashKey[float]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("vta regression")
    group.addoption("--sim", choices=("icarus", "verilator"), default="verilator")
    group.addoption("--mode", choices=MODES, default="fast",
                    help="testbench mode (fast: checkers in the simulation, the regression's default)")
    group.addoption("--seed", type=int, default=1, help="program k uses seed SEED+k")
    group.addoption("--count", type=int, default=100, help="random programs")
    group.addoption("--chunk", type=int, default=10, help="programs per simulator process")
    group.addoption("--config", default=None,
                    help="force a configuration (default: drawn per seed; random: random "
                         "configurations, see --random-configs)")
    group.addoption("--random-configs", type=int, default=DEFAULT_RANDOM_POOL,
                    help="distinct configurations (builds) of a --config random regression")
    group.addoption("--profile", default=None, help="force a bus profile (default: drawn per seed)")
    group.addoption("--regress-junit", default=None, help="JUnit XML, one test case per program")


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    if _is_worker(config):
        # pytest-xdist adds workerinput to a worker's Config at runtime; pytest's types do not
        # declare it (xdist's own remote.py ignores the same error)
        os.environ[BUILD_SUFFIX_VAR] = config.workerinput["workerid"]  # type: ignore[attr-defined]
        return
    run_dir = BUILD_ROOT.parent / "regress" / f"{config.getoption('sim')}-{os.getpid()}-{int(time.time())}"
    run_dir.mkdir(parents=True)
    os.environ[RUN_DIR_VAR] = str(run_dir)  # xdist workers start later and inherit it
    config.stash[_START] = time.perf_counter()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if _is_worker(config) or RUN_DIR_VAR not in os.environ:
        return
    records = [r for f in sorted(Path(os.environ[RUN_DIR_VAR]).glob("chunk-*.json"),
                                 key=lambda p: int(p.stem.split("-")[1]))
               for r in json.loads(f.read_text())]
    write = terminalreporter.write_line
    write("")
    for line in summary_table(records).splitlines():
        write(line)
    print_failures(records)
    junit = config.getoption("regress_junit")
    text = write_bucket_report(records, Path(junit).parent if junit else os.environ[RUN_DIR_VAR],
                               f"{Path(junit).stem}-buckets.html" if junit else "buckets.html")
    for line in text.splitlines():
        write(line)
    bad = sum(not r["passed"] for r in records)
    write(f"\nregression: {len(records) - bad} passed, {bad} failed of "
          f"{config.getoption('count')} programs in {time.perf_counter() - config.stash[_START]:.1f} s")
    if junit:
        Path(junit).parent.mkdir(parents=True, exist_ok=True)
        Path(junit).write_text(junit_xml(records, suite=f"vta-regress-{config.getoption('sim')}"))
        write(f"JUnit XML: {junit}")
