"""The RTL's performance figures against their targets, measured from its own counters.

The figures say whether the design keeps its datapath busy: GEMM micro-ops per cycle, bus
utilisation of LOAD and STORE, and how well a double-buffered program overlaps load and
compute (rtl/README.md, Performance).

``python -m tb.bench_rtl [--sim verilator|icarus] [--config NAME]`` runs three programs
(tb/sweep_programs.py: perf_gemm, perf_load_store, perf_overlap) through the pyuvm testbench
(tb/launch/api.py, profile none: the memory answers as fast as cocotbext-axi's slave goes)
and prints each figure next to its target. The figures come from the RTL's performance
registers (rtl/README.md), read by the testbench after DONE, so they count cycles, not
wall time, and are the same on either simulator. The testbench also checks every result
against the golden model, so a fast but wrong design reports FAIL rather than a figure.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from models.argtypes import OneLineParser
from models.predict import predict
from models.spec.configs import load_config
from models.vector import load_vector, save_vector
from tb import sweep_programs as P
from tb.launch.api import explain, program_jobs, run_jobs
from tb.paths import SIMS
from tb.plan.flow_jobs import PERF_PROGRAMS

PROGRAMS = PERF_PROGRAMS


def run_programs(sim: str, config: str, workdir: Path) -> dict[str, dict]:
    """Write the PROGRAMS as vectors under workdir and run them: result records by name."""
    cfg = load_config(config)
    vecs = [save_vector(getattr(P, name)(cfg), workdir / name) for name in PROGRAMS]
    return dict(zip(PROGRAMS, run_jobs(sim, config, program_jobs(vecs), mode="full"), strict=True))


def measure(sim: str, config: str, workdir: Path) -> list[tuple[str, float, str, str]]:
    """(figure, value, target, how it is computed) rows; raises if a program fails."""
    cfg = load_config(config)
    res = run_programs(sim, config, workdir)
    failed = [f"{name}: {explain(r)}" for name, r in res.items() if not r["passed"]]
    if failed:
        raise RuntimeError("benchmark programs failed:\n" + "\n".join(failed))
    bus = cfg.bus_bytes
    gemm, ls, ov = (res[n]["counters"] for n in PROGRAMS)
    compute = ov["GEMM_EXEC"] + ov["ALU_EXEC"] + ov["CLOAD_EXEC"]
    return [
        ("GEMM micro-ops per cycle", gemm["GEMM_UOPS"] / gemm["GEMM_EXEC"], ">= 0.95",
         "GEMM_UOPS / GEMM_EXEC (long GEMMs, data on chip)"),
        ("LOAD bus utilisation",
         _load_module_bytes(Path(res["perf_load_store"]["job_spec"]["vector"])) / (ls["LOAD_EXEC"] * bus),
         ">= 0.90",
         "bytes of the LOAD INP/WGT rows / (LOAD_EXEC x bus bytes)"),
        ("STORE bus utilisation", ls["WR_BYTES"] / (ls["STORE_EXEC"] * bus), ">= 0.90",
         "WR_BYTES / (STORE_EXEC x bus bytes), one long OUT row"),
        ("double-buffered GEMM: cycles / max(compute, load)",
         res["perf_overlap"]["cycles"] / max(compute, ov["LOAD_EXEC"]), "<= 1.2",
         f"CYCLES / max(compute exec {compute}, load exec {ov['LOAD_EXEC']})"),
    ]


def _load_module_bytes(vector_dir: Path) -> int:
    """DRAM bytes the load module's LOADs move, from the model's prediction of the program.

    RD_BYTES also counts instruction fetch and micro-op loads, which share the read
    channel but are not the load module's work.
    """
    prediction = predict(load_vector(vector_dir))
    return sum(cost.dram_read for module, cost in
               zip(prediction.program.modules, prediction.costs, strict=True) if module == "load")


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m tb.bench_rtl", description=__doc__.splitlines()[0])
    parser.add_argument("--sim", default="verilator", choices=SIMS)
    parser.add_argument("--config", default="default", help="shipped name or JSON path")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            rows = measure(args.sim, args.config, Path(tmp))
        except RuntimeError as exc:
            print(f"FAIL: {exc}", file=sys.stderr)
            return 1
    print(f"RTL figures on {args.sim}, configuration {args.config}:")
    for name, value, target, how in rows:
        print(f"  {name:52s} {value:7.3f}  (target {target}; {how})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
