"""Shrink a saved failure to a small program that still fails the same way.

    python -m tb.triage.shrink FAILURE_DIR [--sim S] [--mode M] [--rounds N] [--timeout S]
    python -m tb.triage.shrink --demo [--seed S]     # the README's figure: broken ALU MAX

A random program that trips an RTL bug has tens of instructions, most of them beside the
point. This reduces the program a saved failure directory holds (what ``make rerun``
reruns) while it still fails with the same signature (tb/rules/signature.py): it drops
instructions, shrinks loops, sizes, padding and micro-op ranges, and zeroes data, greedily
in the manner of delta debugging (large chunks first, halving them when none can go). Every
candidate is well-formed (tb/triage/progedit.py: tokens balanced, FINISH last, the models'
checker clean) and its expected output comes from the golden model, never from the RTL;
the candidates of a step run as one batch in a simulator process that stays up for the
whole shrink (tb/launch/session.py). The result is a vector in FAILURE_DIR/shrunk/ with a
tb_uvm.json (so ``make rerun FAILURE=FAILURE_DIR/shrunk`` reruns it) and shrink.json with
the sizes before and after.

The RTL is built as the environment says, VTA_DEFINES included (the failure's repro
command names them). A failure of a foreign DUT (``--dut``, tb/duts) shrinks on that DUT,
and every candidate stays clear of its profile's differences (tb/plan/applicable.py), so
the result is not explained by a documented one. Exit status 0 when shrunk, 2 for bad
input (one line naming it).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence, TypeVar

from models.argtypes import OneLineParser, positive_float, positive_int
from models.config import ConfigError
from models.vector import Vector, VectorError, load_vector, save_vector
from tb.launch.launch import prepare_env
from tb.launch.session import SimSession
from tb.launch.simbuild import DEFINES_VAR, BuildError
from tb.paths import ROOT, SIMS
from tb.plan.applicable import program_reasons
from tb.plan.dutmap import NATIVE, is_native
from tb.plan.jobs import Job
from tb.plan.saved import SavedFailure
from tb.plan.testbench import MODES
from tb.rules.failure import Failure
from tb.rules.signature import Signature, of_failure, signature
from tb.triage.progedit import (
    Candidate,
    EditError,
    Program,
    Size,
    apply_edits,
    candidate,
    data_spans,
    drop,
    field_edits,
    trim,
    zero,
)
from tb.triage.rerun import RerunError, load_saved, rerun_job
from tb.triage.shrinkdemo import DemoError, demo_failure

T = TypeVar("T")
WORK = ROOT / "build" / "uvm" / "shrink"
DEFAULT_ROUNDS = 4
#: Pieces each data image is cut into when zeroing (ddmin refines from one piece to these).
DATA_PIECES = 16
#: Lengths of the runs of consecutive instructions :meth:`Shrinker.drop_runs` tries to drop.
RUNS = (3, 2)


class ShrinkError(ValueError):
    """A failure that cannot be shrunk (the message is the one-line error)."""


#: Everything a bad failure directory or build raises: one line, no traceback.
SHRINK_ERRORS = (ShrinkError, RerunError, EditError, ConfigError, VectorError, BuildError)


@dataclass
class Outcome:
    """What a shrink did: the result's directory, sizes and cycles before and after."""

    out: Path
    signature: Signature
    before: Size
    after: Size
    cycles: tuple[int, int]
    seconds: float
    runs: int
    batches: int
    steps: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"signature": self.signature.to_json(), "seconds": round(self.seconds, 1),
                "candidates run": self.runs, "batches": self.batches,
                "before": {**self.before.to_json(), "cycles": self.cycles[0]},
                "after": {**self.after.to_json(), "cycles": self.cycles[1]}, "steps": self.steps}

    def line(self) -> str:
        b, a = self.before, self.after
        return (f"shrunk in {self.seconds:.1f} s ({self.runs} candidates in {self.batches} "
                f"batches): instructions {b.insns} -> {a.insns}, micro-ops {b.uops} -> {a.uops}, "
                f"bytes {b.bytes} -> {a.bytes}, cycles {self.cycles[0]} -> {self.cycles[1]}; {self.out}")


def chunks(items: Sequence[T], n: int) -> list[list[T]]:
    """``items`` in ``n`` contiguous pieces of near-equal length."""
    k, extra = divmod(len(items), n)
    out, at = [], 0
    for i in range(n):
        step = k + (i < extra)
        out.append(list(items[at:at + step]))
        at += step
    return [c for c in out if c]


def cycles_of(record: dict) -> int:
    """CYCLES after DONE, else the simulated cycles of the job (a hang never reaches DONE)."""
    return int(record.get("cycles") or record.get("sim_cycles") or 0)


class Shrinker:
    """The greedy loop: each step runs a batch of smaller candidates and keeps the smallest
    one that still fails with the target signature."""

    def __init__(self, session: SimSession, job: Job, target: Signature, best: Candidate,
                 cycles: int, work: Path, log: Callable[[str], None]) -> None:
        self.session, self.job, self.target = session, job, target
        self.dut = session.dut
        self.best, self.cycles = best, cycles
        self.record: dict | None = None  # the best candidate's result record
        self.work, self.log = work, log
        self.runs = self.batches = 0
        self.steps: list[str] = []

    def try_batch(self, what: str, programs: list[Program]) -> list[int]:
        """Run the well-formed, smaller ones of ``programs`` as one batch and keep the
        smallest that fails alike; the indices (into ``programs``) of all that did."""
        seen, cands = set(), []
        for n, prog in enumerate(programs):
            c = candidate(prog)
            key = tuple((img.addr, img.data) for img in c.vector.init) if c else None
            if c is not None and c.size < self.best.size and key not in seen and self.applies(c):
                seen.add(key)
                cands.append((n, c))
        if not cands:
            return []
        records = self.run([c.vector for _, c in cands], self.job)
        hits = sorted((c.size, k) for k, ((_, c), r) in enumerate(zip(cands, records, strict=True))
                      if self.alike(r))
        text = f"[shrink] {what}: {len(cands)} candidate(s), {len(hits)} still fail alike"
        if hits:
            k = hits[0][1]
            self.best, self.cycles, self.record = cands[k][1], cycles_of(records[k]), records[k]
            s = self.best.size
            text += (f" -> {s.insns} instructions, {s.uops} micro-ops, {s.bytes} bytes, "
                     f"{self.cycles} cycles")
        self.log(text)
        self.steps.append(text.removeprefix("[shrink] "))
        return sorted(cands[k][0] for _, k in hits)

    def applies(self, c: Candidate) -> bool:
        """A foreign DUT's candidate must stay clear of its profile's differences (what a run
        would exclude, tb/plan/applicable.py): else the shrinker could trade the failure for a
        documented one with the same signature. rtl/ has none."""
        return is_native(self.dut) or not program_reasons(c.vector, self.dut)

    def run(self, vectors: list[Vector], job: Job) -> list[dict]:
        """One batch: each vector as ``job`` (its profile, seed and fault) under a new name."""
        jobs = []
        for v in vectors:
            name = f"c{self.runs}"
            self.runs += 1
            save_vector(v, self.work / "cand" / name)
            jobs.append(replace(job, name=name, vector=str(self.work / "cand" / name)))
        self.batches += 1
        try:
            return self.session.run(jobs)
        finally:
            shutil.rmtree(self.work / "cand", ignore_errors=True)

    def alike(self, record: dict) -> bool:
        """Whether a candidate's record fails with the target signature."""
        return not record["passed"] and signature(record) == self.target

    def quiet_bus(self) -> None:
        """Backpressure only slows a failure that does not need it: drop it if it can go."""
        if self.job.profile == "none":
            return
        quiet = replace(self.job, profile="none")
        [record] = self.run([self.best.vector], quiet)
        ok = self.alike(record)
        self.log(f"[shrink] profile {self.job.profile} -> none: "
                 f"{'still fails alike' if ok else 'the failure needs it; kept'}")
        if ok:
            self.job, self.cycles, self.record = quiet, cycles_of(record), record

    def ddmin(self, what: str, changes: Callable[[Program], list[T]],
              apply: Callable[[Program, list[T]], Program]) -> bool:
        """Apply chunks of ``changes`` (recomputed after each success), from halves down to
        single ones; after a batch with several successes, first try all of them at once."""
        n, progress = 2, False
        while True:
            items = changes(self.best.program)
            if not items:
                return progress
            n = min(n, len(items))
            parts = chunks(items, n)
            base = self.best.program
            hits = self.try_batch(f"{what}, {n} piece(s) of {len(items)}",
                                  [apply(base, p) for p in parts])
            if len(hits) > 1:  # the pieces that could go one at a time may go together
                self.try_batch(f"{what}, {len(hits)} pieces together",
                               [apply(base, [x for k in hits for x in parts[k]])])
            if hits:
                progress = True
                n = max(n - 1, 2)
                continue
            if n >= len(items):
                return progress
            n = min(2 * n, len(items))

    def drop_runs(self) -> bool:
        """Drop runs of RUNS consecutive instructions at every offset: a producer and its
        consumers (a LOAD UOP, its GEMM and the STORE of the result) can only go together,
        and ddmin's pieces need not line up with them."""
        progress = False
        for k in RUNS:
            while True:
                p = self.best.program
                tries = [drop(p, range(i, i + k)) for i in range(len(p.insns) - k)]
                if not self.try_batch(f"drop runs of {k} instructions", tries):
                    break
                progress = True
        return progress

    def round(self) -> bool:
        """One pass of every kind of reduction, the cheapest to simulate first; True if any
        made the program smaller."""
        last = lambda p: len(p.insns) - 1  # noqa: E731 - FINISH stays
        steps = [
            self.ddmin("drop instructions", lambda p: list(range(last(p))), drop),
            self.drop_runs(),
            bool(self.try_batch("trim unread data", [trim(self.best.program)])),
            self.ddmin("shrink fields", lambda p: field_edits(p, False), apply_edits),
            self.ddmin("halve fields", lambda p: field_edits(p, True), apply_edits),
            self.ddmin("zero data", lambda p: data_spans(p, DATA_PIECES), zero),
        ]
        return any(steps)


def shrink_dir(d: Path, sim: str | None = None, mode: str | None = None, out: Path | None = None,
               rounds: int = DEFAULT_ROUNDS, timeout: float | None = None,
               log: Callable[[str], None] = print) -> Outcome:
    """Shrink the saved failure in ``d``; the result goes to ``out`` (default d/shrunk)."""
    t0 = time.perf_counter()
    saved = load_saved(d)
    if not (d / "manifest.json").is_file():
        raise ShrinkError(f"{d}: holds no program (a flow's failure, {saved.job.kind}): nothing to shrink")
    config, job = rerun_job(d, saved)
    sim, mode = sim or saved.sim, mode or saved.mode
    original = candidate(Program.from_vector(load_vector(d)))
    if original is None:
        raise ShrinkError(f"{d}: the saved program is not well-formed by the models' checker "
                          f"(or writes no output), so no smaller well-formed one can stand for it")
    if not is_native(saved.dut) and (why := program_reasons(original.vector, saved.dut)):
        raise ShrinkError(f"{d}: the saved program uses what DUT {saved.dut}'s profile documents "
                          f"as different, so a run excludes it: {'; '.join(why)}")
    work = WORK / d.resolve().name
    shutil.rmtree(work, ignore_errors=True)
    job = replace(job, name="original", vector=str(d.resolve()))
    with SimSession(sim, config, mode, work, work / "failures", timeout, saved.dut) as session:
        on = "" if is_native(saved.dut) else f", DUT {saved.dut}"
        log(f"[shrink] {d}: {sim}, mode {mode}, configuration {config}, profile {job.profile}{on}; "
            f"{original.size.insns} instructions")
        [first] = session.run([job])
        if first["passed"]:
            defines = os.environ.get(DEFINES_VAR, "")
            raise ShrinkError(f"{d}: the saved program passes on {sim} ({mode}, "
                              f"{DEFINES_VAR}={defines!r}): there is no failure to shrink")
        target = signature(first)
        was = of_failure(saved.first) if saved.first else None
        # a failure saved before the records had fields (all "-") is matched by its kind alone
        same = was is None or (target == was if saved.first and saved.first.has_fields
                               else target.kind == was.kind)
        if not same:
            raise ShrinkError(f"{d}: the saved program now fails differently on {sim} ({mode}): "
                              f"{target}, saved as {was}; rerun it (make rerun FAILURE={d}) and "
                              f"shrink the failure that run saves")
        log(f"[shrink] signature: {target}")
        shrinker = Shrinker(session, job, target, original, cycles_of(first), work, log)
        shrinker.quiet_bus()
        for _ in range(rounds):
            if not shrinker.round():
                break
    result = shrinker.record or first
    outcome = Outcome(out or d / "shrunk", target, original.size, shrinker.best.size,
                      (cycles_of(first), shrinker.cycles), time.perf_counter() - t0,
                      shrinker.runs + 1, shrinker.batches + 1, shrinker.steps)
    write_result(outcome, shrinker.best, sim, mode, config, shrinker.job, result, saved.dut)
    shutil.rmtree(work, ignore_errors=True)
    log(f"[shrink] {outcome.line()}")
    return outcome


def write_result(outcome: Outcome, best: Candidate, sim: str, mode: str, config: str, job: Job,
                 record: dict, dut: str = NATIVE) -> None:
    """The shrunk vector, a tb_uvm.json that reruns it as it failed (on its DUT), and
    shrink.json."""
    out = outcome.out
    shutil.rmtree(out, ignore_errors=True)
    vector = best.vector
    vector.description = f"shrunk from {out.parent.name}: {outcome.signature}"
    save_vector(vector, out)
    defines = os.environ.get(DEFINES_VAR, "").strip()
    where = out.resolve().relative_to(ROOT) if out.resolve().is_relative_to(ROOT) else out
    repro = (f"{DEFINES_VAR}={defines} " if defines else "") + \
        f"python -m tb.run --sim {sim} --mode {mode}{'' if is_native(dut) else f' --dut {dut}'} " \
        f"--vector {where}"
    SavedFailure(sim, config, replace(job, name=f"{out.parent.name}-shrunk", vector=None), mode, dut,
                 repro, [Failure.from_json(f) for f in record["failures"]]).write(out)
    (out / "shrink.json").write_text(json.dumps(outcome.to_json(), indent=1) + "\n")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = OneLineParser(prog="python -m tb.triage.shrink", description=__doc__.split("\n\n")[1])
    p.add_argument("dir", type=Path, nargs="?", help="a saved failure (a directory under build/failures/)")
    p.add_argument("--sim", choices=SIMS, help="default: the failure's own")
    p.add_argument("--mode", choices=MODES, help="default: the failure's own")
    p.add_argument("--rounds", type=positive_int, default=DEFAULT_ROUNDS,
                   help=f"passes over every kind of reduction at most (default {DEFAULT_ROUNDS})")
    p.add_argument("--timeout", type=positive_float, help="wall-time limit of each candidate, seconds")
    p.add_argument("--out", type=Path, help="where the shrunk vector goes (default DIR/shrunk)")
    p.add_argument("--demo", action="store_true",
                   help="make a failure on the test-only broken RTL (ALU MAX) and shrink it")
    p.add_argument("--seed", type=positive_int, default=1, help="--demo: first random seed tried")
    args = p.parse_args(argv)
    if (args.dir is None) == (not args.demo):
        p.error("give a saved failure directory or --demo (not both)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    prepare_env()
    try:
        d = demo_failure(args.seed, args.sim or "icarus", args.mode or "fast") if args.demo else args.dir
        shrink_dir(d, args.sim, args.mode, args.out, args.rounds, args.timeout)
    except (*SHRINK_ERRORS, DemoError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
