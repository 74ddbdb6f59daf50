"""Throughput figures for the README: simulated cycles per second and programs per minute.

    python -m tb.uvm.bench --sim icarus|verilator [--count N] [--seed S] [--directed]

Runs N random programs of the small configuration with no backpressure (or every
directed vector) in one simulator process, after building, and reports both figures;
the build is excluded, simulator start-up is included in programs per minute.
Nothing here is asserted: timing depends on the machine.
"""
from __future__ import annotations

import time

from models.argtypes import OneLineParser, positive_int
from models.argtypes import seed as seed_arg
from models.vector import find_vectors
from tb.runner import ROOT
from tb.uvm.run import prepare_env, random_jobs, run_all, vector_jobs


def main(argv: list[str] | None = None) -> None:
    p = OneLineParser(prog="python -m tb.uvm.bench")
    p.add_argument("--sim", choices=("icarus", "verilator"), default="icarus")
    p.add_argument("--count", type=positive_int, default=20)
    p.add_argument("--seed", type=seed_arg, default=5000)
    p.add_argument("--directed", action="store_true", help="run the directed vectors instead")
    args = p.parse_args(argv)
    prepare_env()
    jobs = (vector_jobs(find_vectors([ROOT / "vectors"]), "none", 1) if args.directed
            else random_jobs(args.seed, args.count, "small", "none"))
    run_all(args.sim, jobs[:1], 1, False)  # build (and warm up) outside the measurement
    t0 = time.perf_counter()
    results = run_all(args.sim, jobs, 1, False)
    wall = time.perf_counter() - t0
    cycles = sum(r.get("sim_cycles", 0) for r in results)
    in_jobs = sum(r.get("wall", 0) for r in results)
    failed = sum(not r["passed"] for r in results)
    print(f"{args.sim}: {len(results)} programs ({failed} failed), {cycles} simulated cycles")
    print(f"  simulated cycles per second (inside jobs): {cycles / max(in_jobs, 1e-9):,.0f}")
    print(f"  programs per minute (start-up included):   {60 * len(results) / wall:,.1f}")


if __name__ == "__main__":
    main()
