"""Command line: run the pyuvm testbench on a simulator, summarise, and triage failures.

    python -m tb.run --sim icarus|verilator [--config C] [--vector DIR ...]
        [--test all|NAME] [--seed S] [--count N] [--dut NAME|PATH [--ignore-differences]]
        [--profile P] [--fault F] [--waves] [--jobs N] [--junit FILE]

The tests (NAME) are those of tb/plan/registry.py. Without --vector and --test it runs the
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
reason (tb/plan/applicable.py), the protocol rules it waives reported as findings;
--ignore-differences runs those jobs too, to see what each difference does. A design that
prints Chisel-style "Assertion failed" messages fails the job with its own diagnosis
(tb/uvm/checkers/dutlog.py).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from models.argtypes import OneLineParser, positive_float, positive_int
from models.argtypes import seed as seed_arg
from models.config import ConfigError
from models.spec.configs import load_config
from models.vector import VectorError, find_vectors
from tb.duts.netlist import NetlistError
from tb.duts.schema import ProfileError
from tb.launch.launch import prepare_env, print_failures, run_all
from tb.launch.simbuild import DEFINES_VAR, BuildError, rtl_defines
from tb.launch.summary import junit_xml, summary_table
from tb.paths import SIMS
from tb.plan.applicable import dut_report, select
from tb.plan.backpressure import PROFILES
from tb.plan.dutmap import NATIVE, NETLIST, dut_argument, is_native, profile_of
from tb.plan.jobs import DEFAULT_RANDOM_POOL, Job
from tb.plan.makers import WORK, JobRequest, UsageError, resolve_random, runnable_vector_jobs
from tb.plan.registry import DEFAULT, ENTRIES, for_kind, make_jobs
from tb.plan.testbench import MODES
from tb.rules.faults import FAULTS
from tb.triage.buckets import buckets, insn_count, print_bucket_report
from tb.triage.shrink import SHRINK_ERRORS, shrink_dir

TESTS = ("all", *(e.name for e in ENTRIES))


def choose_jobs(args: argparse.Namespace) -> tuple[list[tuple[str, Job]], list[dict]]:
    """The jobs of the command line, and a refused record for each vector of ``--vector``
    that cannot run (:func:`runnable_vector_jobs`)."""
    jobs, refused = (resolve_random(tests_jobs(args), args.seed, args.random_configs), []) \
        if not args.vector else runnable_vector_jobs(find_vectors(args.vector), args.profile,
                                                     args.seed, args.config)
    if args.fault:
        for _, job in jobs:
            if for_kind(job.kind).program:  # a flow's own program (regmap's) is never faulted
                job.fault = args.fault
    return jobs, refused


def tests_jobs(args: argparse.Namespace) -> list[tuple[str, Job]]:
    """The jobs of --test (those of registry.DEFAULT without it, or with "all"); a foreign
    DUT's on its profile's configuration, so that the flows build their programs for it."""
    tests = [args.test] if args.test and args.test != "all" else DEFAULT
    config = args.config or (None if is_native(args.dut) else profile_of(args.dut).config_name)
    request = JobRequest(args.sim, config, args.seed, args.count, args.profile)
    return [pair for test in tests for pair in make_jobs(test, request)]


def shrink_buckets(results: list[dict]) -> None:
    """Shrink one saved program of each failure bucket (--shrink, SHRINK=1): the one with the
    fewest instructions, which the shrinker reduces fastest."""
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
    p = OneLineParser(prog="python -m tb.run", description=__doc__.split("\n\n")[0])
    p.add_argument("--sim", choices=SIMS, default=os.environ.get("SIM", "icarus"))
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
    p.add_argument("--dut", type=dut_argument, default=os.environ.get("DUT") or NATIVE,
                   help="DUT profile: a name under tb/duts/ (vta: rtl/, upstream-chisel), a YAML path, "
                        "or netlist:CONFIG[:SCRIPT], the gate-level netlist of rtl/ (tb/gate)")
    p.add_argument("--ignore-differences", action="store_true",
                   help="with --dut: run the jobs the profile's differences rule out as well, to see "
                        "what each does on the DUT (their failures are the documented differences)")
    p.add_argument("--shrink", action="store_true", default=os.environ.get("SHRINK") == "1",
                   help="shrink the first failure of each failure bucket (tb/triage/shrink.py)")
    return p.parse_args(argv)


def check_dut(args: argparse.Namespace) -> None:
    """A foreign DUT runs in the fast mode (cocotbext-axi's memory of the full mode refuses
    bursts across 4 KiB), every job on its profile's configuration (tb/plan/applicable.py). A
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
