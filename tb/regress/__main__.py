"""Command line of ``make regress``: random programs in chunks on Dask workers.

    python -m tb.regress --sim icarus|verilator [--mode fast|full] [--seed S] [--count N]
        [--config C|random] [--random-configs K] [--profile P] [--chunk K]
        [--jobs J | --scheduler tcp://HOST:8786 | --inline] [--resume [DIR]] [--run-dir DIR]
        [--junit FILE]

Program k uses seed S+k; its configuration and bus profile are drawn from its seed unless
given (``--config random``: one of K random configurations of the run). Programs are grouped
by configuration and cut into chunks of ``--chunk``; each chunk runs in one simulator
process on a worker of a LocalCluster of ``--jobs`` processes, or of the cluster at
``--scheduler``. Each finished chunk prints a progress line and is appended to
``results.jsonl`` in the run directory (build/regress/<parameters>/), so ``--resume`` runs
only the chunks an interrupted run did not finish. The end is the per-program table, the
failures with their repro commands, JUnit XML with one case per program; exit status 1
if any program failed, 2 for an unusable argument, cluster or run directory (one line).
"""
from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from models.argtypes import OneLineParser, positive_float, positive_int
from models.argtypes import seed as seed_arg
from models.config import ConfigError
from models.spec.configs import load_config
from tb.launch.simbuild import BuildError
from tb.paths import SIMS
from tb.plan.backpressure import PROFILES
from tb.plan.jobs import DEFAULT_RANDOM_POOL, RANDOM
from tb.plan.testbench import MODES
from tb.regress import engine, plan
from tb.regress.engine import ChunkResult, EngineError
from tb.regress.plan import Chunk, Params, PlanError
from tb.regress.report import report
from tb.regress.store import ResultsFile

EXIT_INTERRUPTED = 130


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = OneLineParser(prog="python -m tb.regress", description=__doc__.split("\n\n")[0])
    p.add_argument("--sim", choices=SIMS, default="verilator")
    p.add_argument("--mode", choices=MODES, default="fast", help="testbench mode (README, Testbench modes)")
    p.add_argument("--seed", type=seed_arg, default=1, help="program k uses seed SEED+k")
    p.add_argument("--count", type=positive_int, default=100, help="random programs")
    p.add_argument("--config", help="force a configuration (default: drawn per seed; random: "
                                    "each program's one of --random-configs random ones)")
    p.add_argument("--random-configs", type=positive_int, default=DEFAULT_RANDOM_POOL,
                   help="distinct configurations (builds) of a --config random run")
    p.add_argument("--profile", choices=PROFILES, help="force a bus profile (default: drawn per seed)")
    p.add_argument("--chunk", type=positive_int, default=plan.DEFAULT_CHUNK,
                   help="programs per simulator process (one Dask task)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on the Dask cluster of this scheduler (tcp://host:8786) instead "
                            "of a LocalCluster")
    where.add_argument("--inline", action="store_true",
                       help="no Dask: the chunks one after the other in this process")
    p.add_argument("--jobs", type=positive_int, default=2, help="worker processes of the LocalCluster")
    p.add_argument("--connect-timeout", type=positive_float, default=10.0,
                   help="seconds to reach --scheduler")
    p.add_argument("--run-dir", type=Path, help=f"run directory (default {plan.RUNS}/<parameters>)")
    p.add_argument("--resume", nargs="?", const="", metavar="DIR",
                   help="run only the chunks missing from a run's results: that of these "
                        "parameters, or DIR (its parameters must be these)")
    p.add_argument("--junit", type=Path, help="JUnit XML, one test case per program")
    return p.parse_args(argv)


def run_directory(args: argparse.Namespace, params: Params) -> Path:
    """The run directory: a fresh one for these parameters, or the one to resume."""
    default = args.run_dir or plan.RUNS / params.dir_name()
    if args.resume is not None:
        if args.resume:
            return plan.resume_dir(params, Path(args.resume))
        if not (default / plan.PARAMS_FILE).is_file():
            raise PlanError(f"--resume: no earlier run with these parameters ({default})")
        return plan.resume_dir(params, default)
    if default.exists():
        if any(default.iterdir()) and not (default / plan.PARAMS_FILE).is_file():
            raise PlanError(f"--run-dir {default}: not empty and not a regression run directory")
        shutil.rmtree(default)
    plan.save_params(default, params)
    return default


def results(args: argparse.Namespace, todo: list[Chunk]) -> Iterator[ChunkResult]:
    """Results of the chunks as they finish, on the engine the arguments ask for."""
    if not todo:
        return
    if args.inline:
        yield from engine.run_inline(todo)
        return
    with engine.cluster(min(args.jobs, len(todo)), args.scheduler, args.connect_timeout) as client:
        yield from engine.run_dask(client, todo)


def where(args: argparse.Namespace, todo: list[Chunk]) -> str:
    if args.inline:
        return "in this process"
    if args.scheduler:
        return f"on the cluster at {args.scheduler}"
    return f"on a LocalCluster of {min(args.jobs, len(todo))} worker processes"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    params = Params(args.sim, args.mode, args.seed, args.count, args.config, args.profile,
                    args.random_configs, args.chunk)
    t0 = time.perf_counter()
    lost: list[dict] = []
    store: ResultsFile | None = None
    try:
        if args.config not in (None, RANDOM):
            load_config(args.config)
        run_dir = run_directory(args, params)
        chunks = plan.chunks(params)
        for config in {c.config for c in chunks}:
            load_config(config)
        store = ResultsFile(run_dir / plan.RESULTS_FILE)
        todo = [c for c in chunks if c.id not in store.done]
        by_id = {c.id: c for c in chunks}
        if args.resume is not None:
            print(f"[regress] resuming {run_dir}: {len(chunks) - len(todo)} of {len(chunks)} chunks "
                  f"done, {len(todo)} to run", flush=True)
        print(f"[regress] {args.sim} {args.mode}: {sum(len(c.jobs) for c in todo)} programs in "
              f"{len(todo)} chunks {where(args, todo)}; results: {store.path}", flush=True)
        finished = len(chunks) - len(todo)
        for res in results(args, todo):
            chunk = by_id[res.chunk]
            bad = sum(not r["passed"] for r in res.records)
            if res.lost:
                lost += res.records
            elif not store.add(res.chunk, res.worker, res.records):
                print(f"[regress] chunk {res.chunk} came back twice; kept once", flush=True)
                continue
            finished += 1
            print(f"[regress] {finished}/{len(chunks)} chunks: {res.chunk} {Path(chunk.config).stem} "
                  f"({len(chunk.jobs)} program{'s' if len(chunk.jobs) != 1 else ''}) on worker {res.worker}: "
                  f"{len(res.records) - bad} passed, {bad} failed, {res.wall:.1f} s", flush=True)
    except (ConfigError, PlanError, EngineError, BuildError) as exc:  # one line, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        saved = f"{len(store.done)} chunks saved in {store.path}" if store else "nothing saved"
        print(f"\ninterrupted: {saved}; --resume (make regress ... RESUME=1) runs the rest",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    records = sorted(store.records() + lost, key=lambda r: (r["job_spec"]["seed"], r["job"]))
    bad = report(records, args.sim, args.count, time.perf_counter() - t0, args.junit, store.path.parent)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
