"""`make formal`: every module contract of rtl/ checked with SymbiYosys, and each broken copy refused.

    python -m tb.formal [--modules fifo,token] [--depth N] [--quick] [--jobs 2] [--out build/formal]
    python -m tb.formal --mutant        # a changed copy of rtl/ (VTA_RTL_DIR): tb/mutate's formal stage
    python -m tb.formal --dut NAME [--depth N] [--budget S]   # a foreign DUT's ports (tb/formal/foreign.py)

Prints a line as each job starts and ends, then the table (tb/formal/report.py); writes
build/formal/index.html and report.json, and per failure the waveform, the witness and a
text trace. Exit status 1 if a contract fails, is not proven where it should be, has an
assertion whose trigger is never reached, or passes one of its broken copies; 2 if a job
cannot run (the message names it). Each failing job also prints one line
`FAILED <job>: [formal] <assertion> ...`, the form tb/mutate reads.

--mutant checks a mutant (tb/mutate, `TESTS=formal`): only the contract jobs of the modules
whose files differ from rtl/'s (when none differs, the unmutated baseline, the quick jobs:
a check that the tools run), without the broken copies, and only a counterexample counts: a
proof that no longer closes, a job that runs out of time or a trigger no longer reached is
printed as UNPROVEN and does not kill the mutant (it shows no bug).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from models.argtypes import OneLineParser
from tb.formal.cex import CexError, translate
from tb.formal.jobs import FormalJob, jobs_touching, select
from tb.formal.negatives import NEGATIVES, Negative
from tb.formal.report import NegativeResult, result_cell, table, write_html
from tb.formal.sby import FormalError, JobResult, run_job
from tb.formal.tools import ToolMissing, formal_env
from tb.formal.trace import text_trace
from tb.paths import ROOT, RTL_DIR

OUT = ROOT / "build" / "formal"


def _dir(out: Path, name: str) -> Path:
    return out / name.replace("/", "_").replace(":", "_")


def plan(modules: list[str] | None, depth: int | None, quick: bool) -> tuple[list[FormalJob], list[Negative]]:
    """The jobs and broken copies to run."""
    jobs = [j for j in select(modules) if j.quick or not quick]
    if depth is not None:
        jobs = [replace(j, depth=depth) if j.sby_mode == "bmc" else j for j in jobs]
    names = {j.name for j in jobs}
    unknown = [n.name for n in NEGATIVES if n.job not in {j.name for j in select(None)}]
    if unknown:
        raise FormalError(f"tb/formal/negatives.py: {', '.join(unknown)} name no job of tb/formal/jobs.py")
    return jobs, [n for n in NEGATIVES if n.job in names]


def _job_of(name: str) -> str:
    """The job a result belongs to: a broken copy's name is `<job>:<define or edit>`."""
    return name.split(":", 1)[0]


def replay(r: JobResult) -> str:
    """A whole-top counterexample as a vector next to its trace (tb/formal/cex.py): the line
    that says where and how `make sim` replays it, or why it cannot."""
    assert r.trace_vcd is not None
    try:
        t = translate(r.trace_vcd, r.trace_vcd.parent / "vector")
    except CexError as exc:
        return f"no vector of the counterexample: {exc}"
    expect = f" (expect {t.checker})" if t.checker else ""
    return f"counterexample as a vector: {t.shown}{expect}\n  reproduce: {t.command()}"


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="make formal", description=__doc__.splitlines()[0])
    p.add_argument("--modules", help="comma-separated modules (fifo or vta_fifo); default all")
    p.add_argument("--depth", type=int, help="bound of the BMC jobs (default: each job's own)")
    p.add_argument("--quick", action="store_true", help="only the jobs of a few seconds (make test)")
    p.add_argument("--jobs", type=int, default=2, help="jobs run at once")
    p.add_argument("--no-negatives", action="store_true", help="skip the broken copies")
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--mutant", action="store_true", help="the contracts a changed rtl/ copy touches")
    p.add_argument("--dut", help="a DUT profile (tb/duts/NAME or a YAML path): only the port rules, "
                   "BMC on its wrapper (tb/formal/foreign.py); vta: rtl/'s contracts")
    p.add_argument("--budget", type=int, help="--dut: wall-time budget of the whole iteration, seconds "
                   "(default 600)")
    args = p.parse_args(argv)
    if args.depth is not None and args.depth < 1:
        p.error(f"--depth {args.depth}: must be a positive number of steps")
    if args.budget is not None and args.budget < 1:
        p.error(f"--budget {args.budget}: must be a positive number of seconds")
    if args.dut and args.dut != "vta":
        return foreign_main(args)
    try:
        env = formal_env()
        jobs, negatives = plan(args.modules.split(",") if args.modules else None, args.depth, args.quick)
    except (ToolMissing, FormalError, ValueError) as exc:
        print(f"make formal: {exc}", file=sys.stderr)
        return 2
    if args.mutant:
        touched = jobs_touching(RTL_DIR, ROOT / "rtl") or [j for j in select(None) if j.quick]
        jobs, negatives = [j for j in touched if j.mutation], []
    if args.no_negatives:
        negatives = []
    by_name = {j.name: j for j in select(None)}
    work: list[tuple[str, FormalJob, Negative | None]] = [(j.name, j, None) for j in jobs]
    work += [(n.name, by_name[n.job], n) for n in negatives]
    total, done, t0 = len(work), 0, time.perf_counter()
    print(
        f"make formal: {len(jobs)} contract jobs, {len(negatives)} broken copies, {args.jobs} at once "
        f"(results in {args.out})",
        flush=True,
    )

    def one(item: tuple[str, FormalJob, Negative | None]) -> JobResult:
        nonlocal done
        name, job, neg = item
        what = "broken copy, BMC" if neg else f"{job.sby_mode}, {job.engine}"
        print(f"  start {name} ({what})", flush=True)
        result = run_job(job, _dir(args.out / ("broken" if neg else ""), name), env, neg)
        result.name = name
        done += 1
        print(
            f"  [{done}/{total}] {name}: {result.status} ({result.detail}) {result.seconds:.1f} s", flush=True
        )
        return result

    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(one, work))
    except FormalError as exc:
        print(f"make formal: {exc}", file=sys.stderr)
        return 2
    job_results = results[: len(jobs)]
    neg_results = [
        NegativeResult(n.name, n.what, n.expect, r, n.proof)
        for n, r in zip(negatives, results[len(jobs) :], strict=True)
    ]
    traces: dict[str, Path] = {}
    for r in job_results + [n.result for n in neg_results]:
        if r.trace_yw is not None and r.failed:
            path = r.log.parent / "trace.txt" if r.log else args.out / "trace.txt"
            path.write_text(text_trace(r.trace_yw, r.failed, r.sources, env))
            traces[r.name] = path
    vectors = {r.name: replay(r) for r in job_results + [n.result for n in neg_results]
               if r.failed and r.trace_vcd is not None and by_name[_job_of(r.name)].harness}
    print()
    print(table(job_results, neg_results))
    for r in job_results:
        if r.name in traces:
            print(f"\n{r.name}: counterexample {r.trace_vcd}\n{traces[r.name].read_text()}", end="")
    for name, line in vectors.items():
        print(f"\n{name}: {line}")
    page = write_html(args.out, job_results, neg_results, traces)
    for r in job_results:
        if r.status == "FAILED":
            print(f"FAILED {r.name}: [formal] {result_cell(r)}")
        elif not r.ok:
            print(f"UNPROVEN {r.name}: {result_cell(r)}")
    if args.mutant:
        bad = [r.name for r in job_results if r.status == "FAILED"]
    else:
        bad = [r.name for r in job_results if not r.ok] + [n.name for n in neg_results if not n.refused]
    print(
        f"\n{len(job_results) - sum(not r.ok for r in job_results)}/{len(job_results)} contracts hold, "
        f"{sum(n.refused for n in neg_results)}/{len(neg_results)} broken copies refused, "
        f"{time.perf_counter() - t0:.0f} s; report {page}"
    )
    if bad:
        print(f"make formal: FAILED: {', '.join(bad)}", file=sys.stderr)
    return 1 if bad else 0


def foreign_main(args: argparse.Namespace) -> int:
    """`make formal DUT=NAME`: the port rules on a foreign DUT (tb/formal/foreign.py)."""
    from tb.duts.profile import load
    from tb.duts.schema import ProfileError
    from tb.formal import foreign

    if args.modules or args.quick or args.mutant:
        print("make formal: DUT= runs only the port rules; MODULES, QUICK and --mutant are rtl/'s",
              file=sys.stderr)
        return 2
    try:
        profile = load(args.dut)
        env = formal_env()
    except (ProfileError, ToolMissing) as exc:
        print(f"make formal: DUT={args.dut}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    out = args.out if args.out != OUT else ROOT / "build" / f"formal-{profile.name}"
    budget = args.budget or foreign.BUDGET
    depth = args.depth or foreign.DEPTH
    print(f"make formal DUT={profile.name}: the port rules (tb/rtl/vta_axi_rules.vh) on {profile.top} "
          f"through its wrapper, abc bmc3 to depth {depth}, {budget} s budget (results in {out})", flush=True)
    try:
        result = foreign.run(profile, out, env, budget=budget, depth=depth,
                             log=lambda line: print(line, flush=True))
    except FormalError as exc:
        print(f"make formal: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    text = foreign.report(result)
    (out / "findings.txt").write_text(text)
    print(text, end="")
    print(f"findings: {out / 'findings.txt'}, {out / 'findings.json'}")
    return 1 if result.findings else 0


if __name__ == "__main__":
    sys.exit(main())
