"""Rerun one saved failure on its own, with waveforms if asked, and say where to look.

    python -m tb.triage.rerun DIR [--waves]          (make rerun FAILURE=DIR [WAVES=1])

A failing job leaves DIR under build/failures/ (tb/run.py): its program as a vector and
tb_uvm.json, the saved record of tb/plan/saved.py (simulator, configuration, DUT, testbench
mode, job, repro command, failure records). The repro command reruns the job, but a user
then still has to find the waveform file (its place differs by simulator) and the moment of
the failure in it. This reruns exactly that job, alone in its simulator process so that its cycle count is the
waveform's from time 0, and prints the waveform's path and the cycle of the first error,
which the waveform's ``tb_cycle`` counter shows.

Exit status: 0 when the job failed again (reproduced), 1 when it passed this time, 2 for a
directory that is not a saved failure or a build that cannot be made (one line naming it).
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

from models.argtypes import OneLineParser
from models.config import ConfigError
from models.spec.configs import load_config
from models.vector import VectorError
from tb.duts.schema import ProfileError
from tb.launch.launch import prepare_env, run_plan
from tb.launch.simbuild import BuildError, build
from tb.launch.summary import summary_table
from tb.plan.dutmap import is_native, profile_of
from tb.plan.jobs import Job
from tb.plan.makers import vector_jobs
from tb.plan.saved import SavedError, SavedFailure
from tb.plan.testbench import TOPLEVELS

#: The testbench's cycle counter in each mode's waveform: failure cycles are its values.
CYCLE_SIGNAL = {"full": "vta_tb_top.tb_cycle", "fast": "vta_tb_fast.u_tb.tb_cycle"}


class RerunError(ValueError):
    """A directory that cannot be rerun; the message is the one-line error."""


def load_saved(d: Path) -> SavedFailure:
    """The saved failure in directory ``d``, every field checked; errors name the file."""
    if not d.is_dir():
        raise RerunError(f"{d}: no such directory (FAILURE names a saved failure, a directory "
                         f"under build/failures/)")
    try:
        return SavedFailure.read(d)
    except SavedError as exc:
        raise RerunError(str(exc)) from None


def rerun_job(d: Path, saved: SavedFailure) -> tuple[str, Job]:
    """The job to run and its configuration: a saved program runs from ``d`` on the vector's
    own configuration, as its repro command does; a flow (no program saved) as it ran."""
    if (d / "manifest.json").is_file():
        config, job = vector_jobs([d], None, saved.job.seed)[0]
        if not is_native(saved.dut):  # a foreign DUT runs every vector on its profile's
            config = profile_of(saved.dut).config_name  # configuration (tb/plan/applicable.py)
        return config, job
    return saved.config, replace(saved.job, name=f"{saved.job.name}-repro")


def wave_file(sim: str, mode: str, run_dir: Path) -> Path:
    """The rerun's waveform, in its own run directory: Verilator writes dump.vcd there; Icarus
    would write into the build directory, which parallel runs share, so a plusarg
    (:func:`wave_plusargs`) names this file instead."""
    return run_dir / (f"{TOPLEVELS[mode]}.fst" if sim == "icarus" else "dump.vcd")


def wave_plusargs(sim: str, wave: Path) -> tuple[str, ...]:
    """Plusargs that put the waveform at ``wave`` (cocotb's Icarus dump module reads
    ``dumpfile_path``; Verilator's place is fixed)."""
    return (f"+dumpfile_path={wave}",) if sim == "icarus" else ()


def report(saved: SavedFailure, result: dict, wave: Path | None) -> int:
    """Print the first error against the saved record and the waveform; the exit status."""
    first = result["failures"][0] if result["failures"] else None
    if first is None:
        print("first error: none: the job passed this time (the saved failure did not reproduce)")
        return 1
    print(f"first error: cycle {first['cycle']} [{first['kind']}] {first['message'].splitlines()[0]}")
    if saved.first is not None:
        note = "" if saved.first.cycle == first["cycle"] else (
            " (differs: the job first ran after others in its simulator process, whose cycles "
            "its count includes)")
        print(f"saved record: cycle {saved.first.cycle} [{saved.first.kind}]{note}")
    if wave is None:
        print("waveform: none (rerun with --waves, or make rerun FAILURE=... WAVES=1)")
    else:
        print(f"waveform: {wave} (the error is where {CYCLE_SIGNAL[saved.mode]} = {first['cycle']})")
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = OneLineParser(prog="python -m tb.triage.rerun", description=__doc__.split("\n\n")[0])
    p.add_argument("dir", type=Path, help="a saved failure: a directory under build/failures/")
    p.add_argument("--waves", action="store_true", default=os.environ.get("WAVES") == "1",
                   help="dump waveforms (Icarus: FST, Verilator: VCD) and print the file")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    prepare_env()
    try:
        saved = load_saved(args.dir)
        config, job = rerun_job(args.dir, saved)
        fault = f", fault {job.fault}" if job.fault != "none" else ""
        on = "" if is_native(saved.dut) else f", DUT {saved.dut}"
        print(f"rerun: {saved.sim}, mode {saved.mode}, configuration {config}, job {job.name}{fault}{on}",
              flush=True)
        tag = f"rerun-{os.getpid()}"
        bdir = build(saved.sim, load_config(config), args.waves, saved.mode, saved.dut)
        wave = wave_file(saved.sim, saved.mode, bdir / f"{tag}-0") if args.waves else None
        if wave is not None:
            wave.unlink(missing_ok=True)  # the file printed must be this run's
        [result] = run_plan(saved.sim, config, [job], tag, args.waves, mode=saved.mode,
                            plusargs=wave_plusargs(saved.sim, wave) if wave else (), dut=saved.dut)
    except (RerunError, ConfigError, VectorError, BuildError, ProfileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(summary_table([result]))
    if wave is not None and not wave.is_file():
        print(f"error: {wave}: the simulator wrote no waveform there", file=sys.stderr)
        return 2
    return report(saved, result, wave)


if __name__ == "__main__":
    sys.exit(main())
