"""Driver: the regression with coverage on, steered random programs, then the report.

    python -m tb.cov.regression [--count N] [--batch B] [--jobs J | --scheduler ADDRESS] [--seed S]
        [--out build/coverage] [--smoke]

1. The fixed suite on Verilator with coverage builds: every directed vector, the
   closure programs (tb/cov/closure.py), register map, mid-program reset, back-to-back
   launches; then the negative tests in processes of their own (their checkers must
   fire; the RTL still runs).
2. N random programs in batches of B: the first batch as the plain regression draws them
   (``tb.plan.makers.random_jobs``), each later program from knobs that aim at bins still
   unhit (tb/cov/steer.py; by the whole regression, else by the random programs alone),
   written as vectors under <out>/programs/.
3. ``tb.cov.report`` over the per-test data in <out>/data: index.html, summary.json.

The simulator processes run on Dask workers (tb/regress/engine.py): a LocalCluster of
``--jobs`` processes, or the cluster at ``--scheduler``. Each process leaves one functional
JSON and one Verilator coverage.dat on its worker; the worker sends both back and the driver
writes them into <out>/data as ``<test>.json`` and ``<test>.dat``, so the report merges
every worker's coverage, remote ones included. Exit status is the report's (1 if a target
is missed) or 1 if a job failed.

``--smoke`` (``make coverage SMOKE=1``) keeps every step but shrinks the fixed suite to
one directed vector, the closure programs of one placement, one flow (the register map)
and one negative test on one configuration: the whole pipeline, report included, in about a minute, for
the suite's own test of ``make coverage``. Its figures miss the targets by design.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from collections import Counter
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TypedDict

from distributed import Client

from models.argtypes import OneLineParser, positive_int
from models.argtypes import seed as seed_arg
from models.gen import GenKnobs, generate
from models.spec.configs import load_config
from models.vector import find_vectors, save_vector
from tb.cov import closure, report, steer, waivers
from tb.cov.testplan import job_prefix
from tb.launch.launch import print_failures
from tb.launch.simbuild import BuildError
from tb.paths import ROOT
from tb.plan import registry
from tb.plan.jobs import Job, draw_random
from tb.plan.makers import random_jobs, vector_jobs
from tb.plan.registry import JobRequest
from tb.regress import engine
from tb.regress.engine import EngineError
from tb.regress.plan import chunks_of
from tb.uvm.cov import data

SIM = "verilator"  # the simulator with code coverage
CLOSURE_CONFIGS = ("small", "default")  # the regression's main configuration and the largest
FLOW_CONFIG = "small"
#: Every HIGH_EVERY-th steered program places its data high, at non-zero and unaligned bases:
#: address bits that functional bins do not name still toggle (code coverage).
HIGH_EVERY = 4


class PlacementKnobs(TypedDict):
    """GenKnobs overrides for DRAM placement (a TypedDict, so replace() checks the names)."""

    high_addr_prob: float
    nonzero_bases_prob: float
    unaligned_bases_prob: float


HIGH_ADDRESSES: PlacementKnobs = {"high_addr_prob": 1.0, "nonzero_bases_prob": 1.0,
                                  "unaligned_bases_prob": 0.5}


#: ``--smoke``: the directed vector, closure placement, flow and negative test it keeps.
SMOKE_VECTOR, SMOKE_PLACEMENT, SMOKE_FLOW, SMOKE_FAULT = "gemm_basic", "low", "regmap", "fault-drop-wlast"


def fixed_jobs(out: Path, seed: int, smoke: bool = False) -> list[tuple[str, Job]]:
    """Directed vectors, closure programs and flows (a sample of each with ``smoke``)."""
    vectors = [ROOT / "vectors" / SMOKE_VECTOR] if smoke else find_vectors([ROOT / "vectors"])
    jobs = vector_jobs(vectors, None, seed)
    for config in CLOSURE_CONFIGS[:1] if smoke else CLOSURE_CONFIGS:
        prefix = "closure" if config == FLOW_CONFIG else f"closure-{config}"
        for d in closure.write_programs(load_config(config), out / "programs", prefix):
            if smoke and not d.name.endswith(f"-{SMOKE_PLACEMENT}"):
                continue
            jobs.append((config, Job(d.name, vector=str(d.resolve()), seed=seed, profile="light")))
    for flow in registry.group("flow"):
        if not smoke or flow.name == SMOKE_FLOW:
            jobs += flow.make_jobs(JobRequest(SIM, FLOW_CONFIG, seed))
    return jobs


def steered_jobs(out: Path, seeds: range, unhit: list[tuple[str, str]], rng: random.Random
                 ) -> list[tuple[str, Job]]:
    """One program per seed from knobs aimed at unhit bins (plain draws if none is reachable);
    a bin whose program is costly (an ``alone`` rule) is aimed at once per batch, and with
    it every bin the same knobs aim at."""
    jobs = []
    for s in seeds:
        config, profile = draw_random(s)
        knobs, steered_profile, aimed = steer.pick(unhit, rng)
        config = steer.config_for(aimed) or config
        if steer.alone(aimed):
            alike = steer.aimed_alike(aimed[0], unhit)
            unhit = [b for b in unhit if b not in alike]
        if s % HIGH_EVERY == 0:
            knobs = replace(knobs or GenKnobs(), **HIGH_ADDRESSES)
        vector = generate(s, load_config(config), knobs)
        d = save_vector(vector, out / "programs" / f"steer-s{s}")
        prof = steered_profile or profile
        jobs.append((config, Job(f"steer-s{s}-{prof}", vector=str(d.resolve()), seed=s, profile=prof)))
    return jobs


def run_jobs(client: Client, data_dir: Path, jobs: list[tuple[str, Job]], parts: int,
             name: str) -> list[dict]:
    """Jobs with coverage on the Dask workers, ``parts`` simulator processes per configuration
    (back-to-back chains kept whole); every process's coverage files land in ``data_dir``."""
    results = []
    for res in engine.run_dask(client, chunks_of(SIM, jobs, "full", parts, name, coverage=True)):
        for file, content in res.coverage.items():
            (data_dir / file).write_bytes(content)
        results += res.records
    return results


def tests(data_dir: Path) -> set[Path]:
    return {p for p in data_dir.glob("*.json") if p.name != "run.json"}


def targets(data_dir: Path, fixed: set[Path], waived: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """Bins to steer at: unhit by the whole regression, else unhit by the random programs alone.

    Once directed and closure programs have hit a bin, random programs still aim at it, so
    the random regression closes coverage on its own and keeps doing so if directed tests change.
    """
    overall = [b for b in data.unhit(data.merge_files(tests(data_dir))) if b not in waived]
    if any(steer.rule_for(b) for b in overall):
        return overall
    return [b for b in data.unhit(data.merge_files(tests(data_dir) - fixed)) if b not in waived]


def point(programs: int, data_dir: Path, fixed: set[Path]) -> dict:
    """One point of the coverage plot: bins hit by everything so far, and by random programs alone."""
    random_only = report.functional_summary(data.merge_files(tests(data_dir) - fixed), {})
    return {"programs": programs, **report.functional_summary(data.merge_files(tests(data_dir)), {}),
            "random_percent_hit": random_only["percent_hit"]}


def run_regression(client: Client, args: argparse.Namespace, data_dir: Path
                   ) -> tuple[list[dict], list[dict]]:
    """Steps 1 and 2 on the cluster: every job's result and the coverage history."""
    run = partial(run_jobs, client, data_dir)
    waived = set(waivers.load())
    rng = random.Random(args.seed)
    results = run(fixed_jobs(args.out, args.seed, args.smoke), args.jobs, "fixed")
    # Negative tests on their own: a fault may end its simulator process, and Verilator
    # writes coverage.dat only at a normal exit, so no other job shares that process.
    negative = [pair for test in registry.group("negative")
                for pair in test.make_jobs(JobRequest(SIM, seed=args.seed))]
    if args.smoke:
        negative = [(c, j) for c, j in negative if j.name == SMOKE_FAULT]
    results += run(negative, args.jobs, "negative")
    fixed = tests(data_dir)
    history = [point(0, data_dir, fixed)]
    base = args.seed + 1000  # random seeds distinct from the fixed suite's
    done = 0
    while done < args.count:
        n = min(args.batch, args.count - done)
        seeds = range(base + done, base + done + n)
        if done == 0:
            jobs = random_jobs(seeds.start, n, FLOW_CONFIG if args.smoke else None, None)
        else:
            jobs = steered_jobs(args.out, seeds, targets(data_dir, fixed, waived), rng)
        results += run(jobs, args.jobs, f"batch{done}")
        done += n
        history.append(point(done, data_dir, fixed))
        print(f"[cov] {done} random programs: {history[-1]['percent_hit']:.1f} % of bins hit "
              f"({history[-1]['random_percent_hit']:.1f} % by random programs alone)", flush=True)
    return results, history


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="python -m tb.cov.regression", description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=positive_int, default=40, help="random programs (default 40)")
    p.add_argument("--batch", type=positive_int, default=10, help="programs between coverage updates")
    p.add_argument("--seed", type=seed_arg, default=1)
    p.add_argument("--jobs", type=positive_int, default=2,
                   help="simulator processes in parallel: the LocalCluster's worker processes")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on the Dask cluster of this scheduler (tcp://host:8786); its workers "
                        "must see --out (the driver writes programs there)")
    p.add_argument("--out", type=Path, default=ROOT / "build" / "coverage")
    p.add_argument("--smoke", action="store_true",
                   help="a sample of the fixed suite on one configuration (tests of this command)")
    args = p.parse_args(argv)
    if not shutil.which("genhtml"):
        print("error: genhtml not found: install lcov (Debian: apt-get install -y lcov); "
              "the report's code coverage pages need it", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    data_dir = args.out / "data"
    shutil.rmtree(args.out, ignore_errors=True)
    data_dir.mkdir(parents=True)
    try:
        with engine.cluster(args.jobs, args.scheduler) as client:
            results, history = run_regression(client, args, data_dir)
    except (EngineError, BuildError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    tests: Counter[tuple[str, bool]] = Counter((job_prefix(r["job"]), r["passed"]) for r in results)
    per_test = {k: (tests[k, True], tests[k, False]) for k in sorted({k for k, _ in tests})}
    (data_dir / "run.json").write_text(json.dumps({"results": per_test, "history": history}, indent=1))
    failed = [r for r in results if not r["passed"]]
    print_failures(failed)
    print("[cov] jobs passed/failed per test: "
          + ", ".join(f"{k} {p}/{n}" for k, (p, n) in per_test.items()), flush=True)
    status = report.main(["--data", str(data_dir), "--out", str(args.out)])
    print(f"[cov] {len(results)} jobs, {len(failed)} failed, {time.perf_counter() - t0:.0f} s")
    return 1 if failed else status


if __name__ == "__main__":
    sys.exit(main())
