"""Simulated cycles per second of a netlist against rtl/ on the same program (README figure).

    python -m tb.bench.gate [--sim icarus|verilator|all] [--config small] [--script abc] [--outer 64]

One program (:func:`program`: a long GEMM of tb/sweep_programs.py on the configuration, about
12,500 cycles on `small` with the default 64 outer iterations; ``--outer`` scales it, so that
Verilator's run is long against the per-job work around it) runs through the testbench in the
fast mode on rtl/ and on the netlist (built first if needed, and its simulator build made
before timing), twice in one simulator process each; the second run's job wall time
(prediction, loading, simulation, read-back, comparison) gives the cycles per second, as
tb/bench/throughput.py measures the testbench's modes. Both runs must pass, with equal CYCLES.
Nothing is asserted about speed: README reports the figures with this command, which takes
minutes (the netlist's synthesis and Verilator build alone), so no test runs it.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from models.argtypes import OneLineParser, positive_int
from models.spec.configs import load_config
from models.vector import Vector, save_vector
from tb import sweep_programs
from tb.duts.netlist import DEFAULT_CONFIG, DEFAULT_SCRIPT, SCRIPTS, NetlistError, NetlistSpec
from tb.duts.schema import ProfileError
from tb.launch.launch import prepare_env, run_all
from tb.launch.simbuild import BuildError, build
from tb.paths import SIMS
from tb.plan.dutmap import NATIVE, profile_of
from tb.plan.jobs import Job

#: The benchmark program's shape: a GEMM of N_OUT x N_IN micro-op iterations (tb/sweep_programs.py);
#: N_IN + 1 accumulator entries must fit every configuration's buffer, N_OUT is --outer.
N_OUT, N_IN = 64, 64


def program(config: str, outer: int = N_OUT) -> Vector:
    """The program both designs run: a long GEMM (one accumulator entry a cycle on rtl/)."""
    return sweep_programs.perf_gemm(load_config(config), outer, N_IN)


def rate(sim: str, config: str, vector_dir: Path, dut: str) -> tuple[int, int, float]:
    """(the DUT's CYCLES, simulated cycles of the job, its wall seconds) of the program's
    second run in one simulator process."""
    jobs = [(config, Job(f"bench-{n}", vector=str(vector_dir))) for n in (1, 2)]
    build(sim, load_config(config), False, "fast", dut)
    results = run_all(sim, jobs, 1, False, None, "fast", dut)
    bad = [r for r in results if not r["passed"]]
    if bad:
        raise RuntimeError(f"{dut} on {sim}: {bad[0]['job']} failed: {bad[0]['failures'][:1]}")
    second = next(r for r in results if r["job"] == "bench-2")
    return int(second["cycles"]), int(second["sim_cycles"]), float(second["wall"])


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m tb.bench.gate", description=__doc__.splitlines()[0])
    parser.add_argument("--sim", choices=(*SIMS, "all"), default="all")
    parser.add_argument("--config", default=DEFAULT_CONFIG)
    parser.add_argument("--script", choices=SCRIPTS, default=DEFAULT_SCRIPT)
    parser.add_argument("--outer", type=positive_int, default=N_OUT,
                        help=f"the GEMM's outer iterations (default {N_OUT}): cycles grow with it")
    args = parser.parse_args(argv)
    prepare_env()
    netlist = NetlistSpec(args.config, args.script).name
    sims = SIMS if args.sim == "all" else (args.sim,)
    rows = []
    try:
        profile_of(netlist)   # the netlist, built now if needed
        with tempfile.TemporaryDirectory() as tmp:
            vector_dir = Path(tmp) / "bench"
            save_vector(program(args.config, args.outer), vector_dir)
            for sim in sims:
                t0 = time.perf_counter()
                rtl_cycles, rtl_sim, rtl_wall = rate(sim, args.config, vector_dir, NATIVE)
                gate_cycles, gate_sim, gate_wall = rate(sim, args.config, vector_dir, netlist)
                if gate_cycles != rtl_cycles:
                    raise RuntimeError(f"{sim}: CYCLES {gate_cycles} on the netlist, {rtl_cycles} on rtl/")
                rows.append((sim, rtl_cycles, rtl_sim / rtl_wall, gate_sim / gate_wall,
                             time.perf_counter() - t0))
    except (ProfileError, NetlistError, BuildError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"\nperf_gemm({args.outer}x{N_IN}) on {args.config}, fast mode; {netlist}: "
          f"{profile_of(netlist).description}")
    print(f"{'sim':10s} {'CYCLES':>8s} {'rtl/ cycles/s':>14s} {'netlist cycles/s':>17s} "
          f"{'netlist/rtl':>12s} {'wall s':>7s}")
    for sim, cycles, rtl, gate, wall in rows:
        print(f"{sim:10s} {cycles:8,d} {rtl:14,.0f} {gate:17,.0f} {gate / rtl:12.2%} {wall:7.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
