"""Throughput of the testbench against the simulator's own limit (`make bench`).

    python -m tb.bench.throughput --sim icarus|verilator [--programs gemm,dma,random] [--count N]

For each benchmark program -- GEMM-bound (tb/sweep_programs.py: perf_blocked_gemm, the
blocked GEMM 256x256x256 on two virtual threads), DMA-bound (perf_dma) and a long random
program (models/gen.py with large knobs) -- on the default configuration with no
backpressure, it measures simulated cycles per second of wall time in three runs of the
same program, one after the other in the same invocation:

* plain: the plain-Verilog bench (tb/bench/plain.py), no Python in the loop: the
  simulator's own speed with this memory and host, the reference;
* fast and full: the testbench's two modes (README, "Testbench modes"): the wall time of the
  job (prediction, loading, simulation, read-back and comparison) of the program's second
  run in one simulator process (the first also pays Python's imports and warm-up).

Each testbench figure is also given as a percentage of the plain bench's. Then the
programs per minute of N small random programs per mode (simulator start-up included).
Builds are made before timing. Nothing here is asserted: figures depend on the machine;
README.md reports them with this command.
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from models.argtypes import OneLineParser, positive_int
from models.config import VtaConfig
from models.gen import GenKnobs, generate
from models.spec.configs import load_config
from models.vector import Vector, save_vector
from tb import sweep_programs
from tb.bench.plain import run as run_plain
from tb.launch.launch import prepare_env, run_all
from tb.paths import SIMS
from tb.plan.jobs import Job
from tb.plan.makers import random_jobs, vector_jobs
from tb.plan.testbench import MODES

CONFIG = "default"
#: Knobs of the long random program: 60 tiles, loops of up to thousands of micro-ops.
LONG_RANDOM = GenKnobs(tiles=(60, 60), max_loop_work=2000, iter_out=(1, 40), iter_in=(1, 20),
                       uops=(1, 32))
PROGRAMS = {
    "gemm": ("GEMM-bound: blocked GEMM 256x256x256, 2 virtual threads",
             lambda cfg: sweep_programs.perf_blocked_gemm(cfg)),
    "dma": ("DMA-bound: 32 rounds of LOAD and STORE of half buffers",
            lambda cfg: sweep_programs.perf_dma(cfg, rounds=32)),
    "random": ("long random program: 60 tiles (models/gen.py, seed 77)",
               lambda cfg: generate(77, cfg, LONG_RANDOM)),
}


def program_rates(sim: str, vector: Vector, workdir: Path) -> dict[str, tuple[int, float]]:
    """(cycles, wall seconds) of the program on the plain bench and in each mode."""
    out: dict[str, tuple[int, float]] = {}
    plain = run_plain(sim, vector, workdir / "plain")
    if not plain.ok:
        raise RuntimeError(f"the plain bench failed on {vector.description}: {plain.message}")
    out["plain"] = (plain.cycles, plain.wall)
    assert vector.path is not None
    for mode in MODES:
        [(cfg, job)] = vector_jobs([vector.path], "none", 1)
        warm = Job(f"{job.name}-again", vector=job.vector, profile="none")
        first, again = run_all(sim, [(cfg, job), (cfg, warm)], 1, False, mode=mode)
        for record in (first, again):
            if not record["passed"]:
                raise RuntimeError(f"{mode} mode failed on {vector.description}: {record['failures']}")
        out[mode] = (again["sim_cycles"], again["wall"])
    return out


def random_throughput(sim: str, count: int) -> dict[str, float]:
    """Programs per minute of ``count`` small random programs, per mode (start-up included)."""
    out = {}
    for mode in MODES:
        jobs = random_jobs(5000, count, "small", "none")
        run_all(sim, jobs[:1], 1, False, mode=mode)  # build and warm up outside the timing
        t0 = time.perf_counter()
        results = run_all(sim, jobs, 1, False, mode=mode)
        out[mode] = 60 * len(results) / (time.perf_counter() - t0)
        failed = [r["job"] for r in results if not r["passed"]]
        if failed:
            raise RuntimeError(f"{mode} mode failed random programs: {failed}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="python -m tb.bench.throughput", description=__doc__.splitlines()[0])
    p.add_argument("--sim", choices=SIMS, default="verilator")
    p.add_argument("--programs", default=",".join(PROGRAMS),
                   help=f"comma-separated, among {', '.join(PROGRAMS)}")
    p.add_argument("--count", type=positive_int, default=20, help="small random programs per mode")
    args = p.parse_args(argv)
    names = [n for n in args.programs.split(",") if n]
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown:
        p.error(f"argument --programs: unknown program(s) {', '.join(unknown)} "
                f"(among {', '.join(PROGRAMS)})")
    prepare_env()
    cfg: VtaConfig = load_config(CONFIG)
    print(f"{args.sim}, configuration {CONFIG}, profile none: simulated cycles per second", flush=True)
    print(f"  {'program':58s} {'cycles':>8s} {'plain':>10s} {'fast':>17s} {'full':>17s}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            what, make = PROGRAMS[name]
            vector = make(cfg)
            save_vector(vector, Path(tmp) / name)
            rates = program_rates(args.sim, vector, Path(tmp) / f"{name}-runs")
            speed = {run: cycles / wall for run, (cycles, wall) in rates.items()}
            cols = {m: f"{speed[m]:>9,.0f} ({100 * speed[m] / speed['plain']:3.0f} %)" for m in MODES}
            print(f"  {what:58s} {rates['plain'][0]:>8,d} {speed['plain']:>10,.0f} {cols['fast']:>17s} "
                  f"{cols['full']:>17s}", flush=True)
    rates_pm = random_throughput(args.sim, args.count)
    print(f"  {args.count} small random programs: "
          + ", ".join(f"{mode} {rate:,.0f} programs/min" for mode, rate in rates_pm.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
