"""`make workloads`: ResNet-18 layers lowered by models/workloads, run on the RTL through
the testbench (fast mode, every checker on), reported against the roofline.

    python -m tb.workloads.run [--layers C2,C5|all] [--scale full|small] [--config LIST]
                               [--sim verilator|icarus] [--vt 1,2] [--jobs N] [--out DIR]
                               [--dut NAME|PATH] [--hw 1|0|cached]

For each configuration it lowers every (layer, vt), saves the vectors under
OUT/vectors/<config>/, predicts each program's counters (models.predict) and cycles
(models.timing), runs the vectors on one build of the RTL and writes OUT/report.md,
report.json and roofline.png (tb/workloads/report.py). A layer whose lowering fails or
whose vector the model refuses (malformed, ill-formed, or beyond the executor) never runs:
it is one ERROR row with the reason, and the other layers run. It exits 1 when any layer
is such an error or fails to verify, and prints the repro command of each failure.

With ``--dut`` another design runs the layers through its profile (tb/duts), on the
profile's configuration: a program its documented differences rule out is left out with
the reason (tb/plan/applicable.py), as ``make sim DUT=...`` does. Such a design has none
of rtl/'s work counters, so its roofline figures put the model's work (micro-ops, bytes)
over the design's own CYCLES register, and the report has no "where the cycles go".

With several configurations (``--config designs``) the report adds the design space's
hardware figures (tb/workloads/hardware.py): per design point its synthesis results, whether
they fit the Zynq-7020 and the LFE5UM5G-85F, fmax where it fits the ECP5, the time and GOPS
of a ResNet-18 pass, and OUT/pareto.png. ``--hw 1`` (the default) makes every result the
caches lack (minutes to hours: synthesis and place and route, with progress), ``--hw cached``
uses only cached results, ``--hw 0`` leaves them out (the report says so). A figure that
cannot be had is one line naming the design point and the file; the exit status stays the
simulation's.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from models.argtypes import OneLineParser, positive_int
from models.config import ConfigError, VtaConfig
from models.predict import predict
from models.spec.configs import load_config
from models.timing import estimate
from models.vector import VectorError, save_vector
from models.workloads import WorkloadError, workload
from models.workloads.designs import resolve
from models.workloads.layers import SCALES, select
from tb.duts.schema import ProfileError
from tb.launch.api import explain, run_jobs
from tb.paths import SIMS
from tb.plan.applicable import job_reasons
from tb.plan.dutmap import NATIVE, dut_argument, is_native, profile_of
from tb.plan.jobs import Job
from tb.workloads import hardware
from tb.workloads.case import Case
from tb.workloads.figures import extra_uop_cycles, figures, losses
from tb.workloads.report import network_cycles, write_report

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "build" / "workloads"


def parse_vts(text: str) -> list[int]:
    """``1``, ``2`` or ``1,2``."""
    vts = sorted({int(v) for v in text.split(",") if v.strip().isdigit()})
    if not vts or any(v not in (1, 2) for v in vts) or len(text.split(",")) != len(vts):
        raise WorkloadError(f"--vt {text!r}: give 1, 2 or 1,2")
    return vts


def lower_all(name: str, cfg: VtaConfig, layers: list[str], scale: str, vts: list[int],
              out: Path, dut: str = NATIVE) -> tuple[list[Case], dict[str, tuple[Case, Job]]]:
    """Lower and predict every (layer, vt) of one configuration; a job for each that lowered
    and that DUT ``dut`` can run."""
    cases: list[Case] = []
    jobs: dict[str, tuple[Case, Job]] = {}
    for layer in layers:
        for vt in vts:
            case = Case(name, layer, vt, dut=dut)
            cases.append(case)
            job = lower_one(case, cfg, scale, out)
            if job is None:
                print(f"  {name} {layer} vt={vt}: ERROR {case.error}", flush=True)
                continue
            if not is_native(dut) and (reasons := job_reasons(job, profile_of(dut).config_name, dut)):
                case.excluded = "; ".join(reasons)
                print(f"  {name} {layer} vt={vt}: EXCLUDED on {dut}: {case.excluded}", flush=True)
                continue
            jobs[job.name] = (case, job)
            print(f"  lowered {name} {layer} vt={vt}: {case.insns} instructions, "
                  f"{case.predicted['counters']['GEMM_UOPS']:,} GEMM micro-ops, predicted "
                  f"{case.predicted['cycles']:,} cycles", flush=True)
    return cases, jobs


def lower_one(case: Case, cfg: VtaConfig, scale: str, out: Path) -> Job | None:
    """Lower, save and predict one case and fill in its prediction; its job, or None when it
    cannot run (``case.error`` says why in one line: the others still run)."""
    try:
        w = workload(case.layer, scale, cfg, case.vt)
        vdir = save_vector(w.vector, out / "vectors" / case.config / f"{case.layer}-vt{case.vt}")
        case.vector = str(vdir)
        pred = predict(w.vector)
    except WorkloadError as exc:
        case.error = f"not lowered: {exc}"
        return None
    except VectorError as exc:
        case.error = f"the lowered vector is refused: {exc}"
        return None
    if pred.counters is None or pred.error is not None:
        first = pred.report.findings[0] if pred.report.findings else pred.error
        case.error = f"the model rejects the lowered program: {first}"
        return None
    est = estimate(cfg, pred.program, w.vector.bases)
    case.description = w.layer.describe()
    case.tiling = {"rows": w.tiling.rows, "cols": w.tiling.cols,
                   "oc_blocks": w.tiling.oc_blocks, "ic_blocks": w.tiling.ic_blocks}
    case.insns = w.vector.insn_count
    counters = dict(pred.counters, **est.exec_cycles, **est.busy, **est.stall)
    case.extra_cycles = extra_uop_cycles(pred.program, pred.costs, cfg.pipe_stages)
    case.predicted = {**figures(cfg.bus_bytes, counters, est.cycles, case.extra_cycles),
                      "counters": counters}
    return Job(f"{case.config}-{case.layer}-vt{case.vt}", vector=str(vdir.resolve()))


def run_config(sim: str, arg: str, cfg: VtaConfig, jobs: dict[str, tuple[Case, Job]],
               parallel: int, dut: str = NATIVE) -> None:
    """Run one configuration's jobs on the RTL (or DUT ``dut``) and fill in the measured
    figures: a foreign DUT's from the model's work counters and the DUT's CYCLES."""
    if not jobs:
        return
    records = run_jobs(sim, arg, [job for _, job in jobs.values()], mode="fast", parallel=parallel,
                       dut=dut)
    for (case, _), record in zip(jobs.values(), records, strict=True):
        case.wall = float(record.get("wall", 0.0))
        case.passed = bool(record["passed"])
        if not case.passed:
            case.failure = explain(record)
        counters = record.get("counters")
        if counters and record.get("cycles") and is_native(dut):
            case.measured = {**figures(cfg.bus_bytes, counters, record["cycles"], case.extra_cycles),
                             "losses": losses(counters, record["cycles"]), "counters": counters}
        elif record.get("cycles"):
            work = case.predicted["counters"]
            case.measured = {**figures(cfg.bus_bytes, work, record["cycles"], case.extra_cycles),
                             "counters": work}
        state = "PASS" if case.passed else "FAIL"
        cycles = f"{record['cycles']:,} cycles" if record.get("cycles") else "no DONE"
        print(f"  {state} {case.config} {case.layer} vt={case.vt}: {cycles}, {case.wall:.1f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m tb.workloads.run", description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default="all", help="C1..C11, dense, comma-separated, or all")
    parser.add_argument("--scale", default="full", choices=SCALES)
    parser.add_argument("--config", default=None,
                        help="comma-separated shipped names, design points or JSON files; "
                             "'designs' = the design-space set (default: default, or the --dut "
                             "profile's configuration)")
    parser.add_argument("--sim", default="verilator", choices=SIMS)
    parser.add_argument("--vt", default="1,2", help="virtual threads: 1, 2 or 1,2")
    parser.add_argument("--jobs", type=positive_int, default=1, help="simulator processes")
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--dut", type=dut_argument, default=os.environ.get("DUT") or NATIVE,
                        help="DUT profile: a name under tb/duts/ (vta: rtl/, upstream-chisel) or a YAML path")
    parser.add_argument("--hw", default="1", choices=hardware.SETTINGS,
                        help="with several configurations, their synthesis, fmax and time per pass: "
                             "1 makes what the caches lack (default), cached uses only cached results, "
                             "0 leaves them out")
    args = parser.parse_args(argv)
    try:
        own = None if is_native(args.dut) else profile_of(args.dut).config_name
        if own is not None and args.config not in (None, own):
            raise WorkloadError(f"--config {args.config}: --dut {args.dut} is built for {own}")
        layers, vts = select(args.layers), parse_vts(args.vt)
        configs = resolve(args.config or own or "default")
        loaded = {name: load_config(arg) for name, arg in configs.items()}
    except (WorkloadError, ConfigError, ProfileError) as exc:
        parser.error(str(exc))
    out = Path(args.out)
    t0 = time.perf_counter()
    cases: list[Case] = []
    for name, arg in configs.items():
        print(f"{name}: lowering {len(layers)} layer(s) x vt {args.vt} ({args.scale})", flush=True)
        mine, jobs = lower_all(name, loaded[name], layers, args.scale, vts, out, args.dut)
        print(f"{name}: running {len(jobs)} program(s) on {args.sim}", flush=True)
        run_config(args.sim, arg, loaded[name], jobs, args.jobs, args.dut)
        cases.extend(mine)
    hw = None
    if len(configs) > 1:
        vt = max(vts)
        run = hardware.Run(args.scale, vt, layers,
                           {name: (arg, network_cycles(cases, name, vt)) for name, arg in configs.items()})
        print(f"hardware figures of {len(configs)} configurations and upstream's (HW={args.hw})", flush=True)
        hw = hardware.collect(run, args.hw, hardware.UPSTREAM, hardware.default_upstream_report(out))
    wall = time.perf_counter() - t0
    command = " ".join(["python -m tb.workloads.run"] + (argv if argv is not None else sys.argv[1:]))
    arguments = {name: hardware.argument_of(arg) for name, arg in configs.items()}
    paths = write_report(out, cases, loaded, args.sim, args.scale, command, wall, args.dut, hw, arguments)
    failed = [c for c in cases if not c.passed and not c.excluded and not c.error]
    errors = [c for c in cases if c.error]
    left = sum(bool(c.excluded) for c in cases)
    refused = f", {len(errors)} refused (ERROR)" if errors else ""
    print(f"{len(cases) - len(failed) - len(errors) - left} of {len(cases)} passed, {left} excluded"
          f"{refused}, in {wall:.0f} s; report: {', '.join(str(p) for p in paths)}")
    for c in errors:
        print(f"ERROR {c.config} {c.layer} vt={c.vt}: {c.error}"
              + (f"\n  check: python -m models check {c.vector}" if c.vector else ""))
    for c in failed:
        print(f"FAIL {c.config} {c.layer} vt={c.vt}: {c.failure.splitlines()[0] if c.failure else ''}"
              + (f"\n  repro: {c.repro(args.sim)}" if c.vector else ""))
    if hw is not None and hw["setting"] == "0":
        print(f"hardware: {hw['note']}")
    for line in (hw or {}).get("missing", []):
        print(f"hardware missing: {line}")
    return 1 if failed or errors else 0


if __name__ == "__main__":
    sys.exit(main())
