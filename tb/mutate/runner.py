"""The mutation run: sample, measure the unmutated design, run the mutants in parallel,
check the survivors for equivalence, report.

    OUT/baseline/         the unmutated design's copy and its run (reused while rtl/, the
                          test set and the simulator are unchanged: baseline.json)
    OUT/NNN-module-op/    one mutant: rtl/ (the mutated copy), the stages' logs, failures/,
                          equiv/ (Yosys script and log), result.json
    OUT/report.json, OUT/report.html

The unmutated run must pass (else nothing a mutant does means anything); its wall time per
stage sets each mutant's limit per stage (3x + 60 s) and its slowest job the testbench's
per-job --timeout (3x + 30 s). Builds of a finished mutant are deleted unless keep_builds.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.spec import SHIPPED_CONFIGS
from models.spec.configs import load_config
from tb.mutate import equiv, history, report
from tb.mutate.execute import STOPPING, Limits, Outcome, run_design
from tb.mutate.mutant import copy_design, directory_name, unified_diff, write_mutant
from tb.mutate.sample import pick, sample
from tb.mutate.sites import Site, find_sites
from tb.mutate.source import Design, load, parameter_sets
from tb.mutate.testsets import Stage, stages
from tb.paths import ROOT

STAGE_FACTOR, STAGE_MARGIN = 3.0, 60.0
JOB_FACTOR, JOB_MARGIN = 3.0, 30.0


class MutateError(RuntimeError):
    """The run cannot go on (the unmutated design fails, a tool is missing): one line."""


@dataclass
class Options:
    n: int = 100
    seed: int = 1
    modules: list[str] | None = None
    ids: list[str] | None = None
    tests: str = "quick"
    sim: str = "icarus"
    jobs: int = 2
    out: Path = ROOT / "build" / "mutate"
    rtl: Path = ROOT / "rtl"
    equiv_timeout: float = equiv.DEFAULT_TIMEOUT
    keep_builds: bool = False
    command: str = ""
    history: Path = history.HISTORY


def say(text: str) -> None:
    print(f"[mutate] {text}", flush=True)


def rel(path: Path) -> str:
    """A path as the report shows it: relative to the repository when inside it."""
    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def choose(design: Design, opts: Options) -> list[Site]:
    sites = find_sites(design)
    return pick(sites, opts.ids) if opts.ids else sample(sites, opts.n, opts.seed, opts.modules)


# --- the unmutated run -------------------------------------------------------------------
def baseline_key(rtl: Path, plan: list[Stage], sim: str) -> str:
    h = hashlib.sha1(json.dumps([sim, [s.command() for s in plan]]).encode())
    for path in sorted(rtl.glob("*.v*")):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()


def baseline(opts: Options, plan: list[Stage]) -> Outcome:
    """The unmutated design's run (from the cache when rtl/ and the stages are the same)."""
    cache = opts.out / "baseline.json"
    key = baseline_key(opts.rtl, plan, opts.sim)
    if cache.exists():
        saved = json.loads(cache.read_text())
        if saved.get("key") == key:
            say(f"unmutated run: reused {rel(cache)} ({sum(saved['stage_walls'].values()):.0f} s)")
            return Outcome("survived", stage_walls=saved["stage_walls"], job_walls=saved["job_walls"])
    work = opts.out / "baseline"
    if work.exists():
        shutil.rmtree(work)
    rtl = copy_design(opts.rtl, work / "rtl")  # a copy, so its builds are as fresh as a mutant's
    say(f"unmutated run: {', '.join(s.name for s in plan)} on {opts.sim} (sets the time limits)")
    outcome = run_design(rtl, work, plan, Limits())
    if outcome.status != "survived":
        raise MutateError(f"the unmutated design fails {outcome.stage or 'lint'}: {outcome.job} "
                          f"[{outcome.kind}] {outcome.message} (see {rel(work)})")
    cache.write_text(json.dumps({"key": key, "stage_walls": outcome.stage_walls,
                                 "job_walls": outcome.job_walls}, indent=1))
    if not opts.keep_builds:
        shutil.rmtree(work / "sim", ignore_errors=True)
    say(f"unmutated run passed in {outcome.seconds:.0f} s")
    return outcome


def limits_from(base: Outcome) -> Limits:
    stage = {k: STAGE_FACTOR * v + STAGE_MARGIN for k, v in base.stage_walls.items()}
    job = JOB_FACTOR * max(base.job_walls, default=10.0) + JOB_MARGIN
    return Limits(stage, job)


# --- mutants -----------------------------------------------------------------------------
class Progress:
    """One line per finished mutant: count, status, what killed it, time left."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.t0 = total, 0, time.monotonic()
        self.lock = threading.Lock()

    def finished(self, record: dict[str, Any]) -> None:
        with self.lock:
            self.done += 1
            spent = time.monotonic() - self.t0
            left = spent / self.done * (self.total - self.done)
            what = {"killed": f"by {record['stage']} {record['job']} [{record['kind']}]",
                    "timeout": f"by {record['stage']} {record['job'] or ''} (time-out)",
                    "invalid": record["message"][:100], "error": record["message"][:100],
                    "survived": "every stage passed"}.get(record["status"], "")
            say(f"{self.done}/{self.total} {record['status']:<8} {record['id']} {what} "
                f"after {record['seconds']:.1f} s (elapsed {spent:.0f} s, ~{left:.0f} s left)")


def run_mutant(number: int, site: Site, opts: Options, plan: list[Stage], limits: Limits) -> dict[str, Any]:
    """One mutant from its copy to its record (also saved as result.json in its directory)."""
    mdir = opts.out / directory_name(number, site)
    rtl = mdir / "rtl"
    say(f"start {number:03d} {site.id}: {site.describe()}")
    errors = write_mutant(opts.rtl, site, rtl)
    if errors:
        outcome = Outcome("invalid", "parse", message=f"the mutant does not parse: {errors[0]}")
    else:
        outcome = run_design(rtl, mdir, plan, limits)
    if not opts.keep_builds:
        shutil.rmtree(mdir / "sim", ignore_errors=True)
    record: dict[str, Any] = {**site.to_json(), "number": number, "dir": rel(mdir),
                              "description": site.describe(), "diff": unified_diff(opts.rtl, site),
                              **outcome.to_json()}
    stage = next((s for s in plan if s.name == outcome.stage), None)
    if stage is not None and outcome.status in ("killed", "timeout"):
        record["repro"] = f"VTA_RTL_DIR={rel(rtl)} {stage.command()}"
    (mdir / "result.json").write_text(json.dumps(record, indent=1) + "\n")
    return record


def check_survivors(design: Design, records: list[dict[str, Any]], opts: Options) -> None:
    """The equivalence check of every survivor; a proven one becomes 'equivalent'."""
    survivors = [r for r in records if r["status"] == "survived"]
    if not survivors:
        return
    say(f"equivalence check of {len(survivors)} survivor(s) with Yosys")
    params = parameter_sets(design, [dict(load_config(name).values) for name in SHIPPED_CONFIGS])

    def one(r: dict[str, Any]) -> None:
        mdir = opts.out / Path(r["dir"]).name
        result = equiv.check(design, r["module"], opts.rtl.resolve(), (mdir / "rtl").resolve(),
                             mdir / "equiv", params.get(r["module"], []), opts.equiv_timeout)
        r["equivalence"] = result.to_json()
        if result.status == "equivalent":
            r["status"] = "equivalent"
        (mdir / "result.json").write_text(json.dumps(r, indent=1) + "\n")
        say(f"  {r['id']}: {result.status}: {result.reason} ({result.seconds:.0f} s)")

    with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        list(pool.map(one, survivors))


def run(opts: Options) -> dict[str, Any]:
    """The whole run; returns the report (also written to OUT/report.json and .html)."""
    t0 = time.monotonic()
    design = load(opts.rtl)
    chosen = choose(design, opts)
    plan = stages(opts.tests, opts.sim)
    opts.out.mkdir(parents=True, exist_ok=True)
    say(f"{len(chosen)} mutant(s) of {len({s.module for s in chosen})} module(s), tests {opts.tests} "
        f"on {opts.sim}, {opts.jobs} at a time; output {rel(opts.out)}")
    base = baseline(opts, plan)
    limits = limits_from(base)
    say(f"limits: per stage {', '.join(f'{k} {v:.0f} s' for k, v in limits.stage.items())}; "
        f"per job {limits.job:.0f} s")
    progress = Progress(len(chosen))

    def task(item: tuple[int, Site]) -> dict[str, Any]:
        record = run_mutant(item[0] + 1, item[1], opts, plan, limits)
        progress.finished(record)
        return record

    with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        try:
            records = list(pool.map(task, enumerate(chosen)))
        except BaseException:  # Ctrl-C or SIGTERM: stop the running mutants, start no more
            STOPPING.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    check_survivors(design, records, opts)
    entries = history.load_history(opts.history)
    history.apply(records, entries)
    meta = {"command": opts.command, "tests": opts.tests, "sim": opts.sim, "n": len(chosen),
            "seed": opts.seed, "modules": ",".join(opts.modules or []) or "all",
            "stages": [s.command() for s in plan],
            "baseline": {"stage_walls": {k: round(v, 1) for k, v in base.stage_walls.items()},
                         "stage_limits": {k: round(v) for k, v in limits.stage.items()},
                         "job_timeout": round(limits.job or 0)},
            "wall": round(time.monotonic() - t0, 1)}
    data = report.build(meta, records, entries)
    paths = report.write(opts.out, data)
    s = data["score"]
    say(f"score {report.pct(s['score'])}: {s['killed'] + s['timeout']} killed ({s['timeout']} by "
        f"time-out), {s['survived']} survived, {s['equivalent']} equivalent, {s['invalid']} invalid, "
        f"{s['error']} errors, in {data['wall']:.0f} s; {', '.join(rel(p) for p in paths)}")
    return data
