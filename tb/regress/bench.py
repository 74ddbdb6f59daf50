"""Throughput of the regression engine: random programs per minute on this machine.

    python -m tb.regress.bench [--sim icarus|verilator] [--count N] [--chunk K]   (make regress-bench)

The same regression (``--count`` programs from seed 1, configuration ``small``, bus
profiles drawn per seed, fast mode) run four ways, each timed as a user waits for it
(cluster start included, builds made beforehand by an untimed warm-up run of each):

1. in one process, chunks one after the other (``python -m tb.regress --inline``);
2. a LocalCluster of one worker process, then of two (``--jobs 1``, ``--jobs 2``);
3. a cluster of separate ``dask scheduler`` and two ``dask worker`` processes on
   localhost (``--scheduler``), as remote workers would be started.

It prints a progress line per run and a table: programs per minute and the ratio to the
single process (the scaling). Every run must pass all its programs.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time

from models.argtypes import OneLineParser, positive_int
from tb.paths import ROOT, SIMS
from tb.regress.localhost import localhost_cluster

WORK = ROOT / "build" / "regress-bench"


def run(label: str, sim: str, count: int, chunk: int, engine: list[str]) -> float:
    """One regression through the CLI; its wall seconds (the program fails loudly)."""
    run_dir = WORK / label.replace(" ", "-")
    cmd = [sys.executable, "-m", "tb.regress", "--sim", sim, "--seed", "1", "--count", str(count),
           "--config", "small", "--chunk", str(chunk), "--run-dir", str(run_dir), *engine]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"error: {label} failed ({' '.join(cmd[1:])}):\n"
                         f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    entries = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    assert sum(len(e["records"]) for e in entries) == count
    return wall


def measure(label: str, sim: str, count: int, chunk: int, engine: list[str], warm: int) -> float:
    print(f"[bench] {label}: warm-up ({warm} program{'s' if warm > 1 else ''}: builds) ...", flush=True)
    run(f"{label} warm-up", sim, warm, 1, engine)
    print(f"[bench] {label}: {count} programs ...", flush=True)
    wall = run(label, sim, count, chunk, engine)
    rate = 60.0 * count / wall
    print(f"[bench] {label}: {count} programs in {wall:.1f} s = {rate:.1f} programs/min", flush=True)
    return rate


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="python -m tb.regress.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--sim", choices=SIMS, default="icarus")
    p.add_argument("--count", type=positive_int, default=40, help="programs per timed run")
    p.add_argument("--chunk", type=positive_int, default=5, help="programs per simulator process")
    args = p.parse_args(argv)
    common = (args.sim, args.count, args.chunk)
    rates = {"one process (--inline)": measure("inline", *common, ["--inline"], 1)}
    for jobs in (1, 2):
        rates[f"LocalCluster, {jobs} worker process{'es' if jobs > 1 else ''}"] = measure(
            f"local{jobs}", *common, ["--jobs", str(jobs)], 2 * jobs)
    with localhost_cluster(["bench-a", "bench-b"], WORK / "cluster") as cluster:
        rates["dask scheduler + 2 dask worker processes"] = measure(
            "scheduler2", *common, ["--scheduler", cluster.address], 4)
    base = next(iter(rates.values()))
    print(f"\n{args.sim}, fast mode, config small, {args.count} programs, chunks of {args.chunk}:")
    print("| engine | programs per minute | vs one process |\n|---|---|---|")
    for label, rate in rates.items():
        print(f"| {label} | {rate:.1f} | {rate / base:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
