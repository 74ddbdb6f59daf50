"""The test-only breaks of rtl/ and the ``make sim`` checks that catch them.

Each :class:`Break` is a Verilog define (rtl/README.md, "Test-only defines") that plants one
realistic bug at the edge of a module's contract -- the kind that programs drawn at random
rarely reach -- and names the ``make sim`` test that must fail on it, the job of that test
that shows it fastest and the checker that must fire first there. The table is the one
list that ``make breaks`` (every define under the whole of ``make sim``), the quick test
(tb/tests/test_breaks.py: the catching job alone, on Icarus) and the lint of every define
(tb/tests/test_lint.py) read.

    python -m tb.breaks [--sim verilator|icarus] [--defines A,B] [--quick] [--out DIR]
    python -m tb.breaks --write-readme     # rtl/README.md's table of the defines, from BREAKS

prints, per define, whether the run failed, how many jobs failed, the first failing job
with its checker, and the wall time; exit status 1 if any define went uncaught.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from models.argtypes import OneLineParser
from tb.paths import ROOT, SIMS


@dataclass(frozen=True)
class Break:
    """One planted bug: its define, where it lives, what it breaks (README wording), the
    ``--test`` whose job ``job`` must fail first with checker ``kind``, saying ``says``."""

    define: str
    module: str
    what: str
    test: str
    job: str
    kind: str
    says: str


BREAKS: tuple[Break, ...] = (
    Break("VTA_TEST_BREAK_ALU_MAX", "vta_gemm_alu",
          "ALU MAX returns the smaller operand (MIN's result) in every lane",
          "directed", "vec-alu_max-none", "scoreboard", "final DRAM differs"),
    Break("VTA_TEST_BREAK_TOKEN_FULL_EARLY", "vta_token",
          "a token counter refuses a push one token before its capacity",
          "capacity", "capacity", "liveness", "[token-not-pushed]"),
    Break("VTA_TEST_BREAK_TOKEN_OVER_CAPACITY", "vta_token",
          "a token counter takes one token more than its capacity",
          "capacity", "capacity", "ordering", "[over-capacity]"),
    Break("VTA_TEST_BREAK_TOKEN_PUSH_POP", "vta_token", "a push and a pop in the same cycle lose the pop",
          "push-pop", "push-pop", "ordering", "[token-lost]"),
    Break("VTA_TEST_BREAK_TOKEN_CLEAR", "vta_token",
          "only a reset empties a token counter, not an accepted START",
          "leftover", "leftover-next", "ordering", "[token-lost]"),
    Break("VTA_TEST_BREAK_LOAD_PUSH_DROP", "vta_phase",
          "the load module leaves its push phase at once, so a push into a full counter is dropped",
          "capacity", "capacity", "watchdog", "no DONE and no progress"),
    Break("VTA_TEST_BREAK_GEARBOX_ROOM", "vta_unpack",
          "the read gearbox takes a beat with one byte less room than it needs (SRAM writer stalled)",
          "edges", "edges-bus64-o3", "scoreboard", "final DRAM differs"),
    Break("VTA_TEST_BREAK_4K_DISTANCE", "vta_burst_gen",
          "a burst's distance to the next 4 KiB boundary comes from an address with a beat bit dropped",
          "edges", "edges-bus64-o0", "protocol", "[4k-crossing]"),
    Break("VTA_TEST_BREAK_PAD_ONLY_IDLE", "vta_ld_engine",
          "a LOAD of padding rows only reports idle before its rows are written; the next LOAD "
          "restarts the writer", "pad-only", "pad-only", "scoreboard", "final DRAM differs"),
    Break("VTA_TEST_BREAK_ILLEGAL_DISPATCH", "vta_fetch",
          "opcodes 5-7 are consumed without the documented dispatch to compute",
          "illegal", "illegal", "watchdog", "no DONE and no progress"),
    Break("VTA_TEST_BREAK_WR_BYTES", "vta_top", "WR_BYTES counts a W beat's whole width, strobed or not",
          "edges", "edges-bus64-o9", "counter", "WR_BYTES reads"),
    Break("VTA_TEST_BREAK_B_BOUND", "vta_store",
          "the count of write bursts awaiting B wraps past the design's bound of 255",
          "b-bound", "b-bound", "liveness", "[wr-outstanding]"),
    Break("VTA_TEST_BREAK_INSN_COUNT_HIGH", "vta_fetch",
          "fetch counts INSN_COUNT's bits 31:28 (the design before they were ignored): with any "
          "of them set fetch never finishes, so the next START is ignored",
          "regmap", "regmap", "register", "INSN_COUNT 0xf0000000 must launch nothing"),
)
BY_DEFINE = {b.define: b for b in BREAKS}
#: Where a break's run keeps its builds' failures and JUnit file.
OUT = ROOT / "build" / "breaks"


@dataclass
class Outcome:
    """What one define's run showed."""

    brk: Break
    exit: int
    failed: list[tuple[str, str]]  # (job, first failure's kind) of every failing job
    wall: float

    @property
    def caught(self) -> bool:
        return self.exit == 1 and bool(self.failed)


def run_break(brk: Break, sim: str, quick: bool, out: Path) -> Outcome:
    """``make sim``'s tests (or only the catching one) on rtl/ built with ``brk``'s define."""
    junit = out / f"{brk.define}-{sim}.xml"
    junit.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "tb.run", "--sim", sim, "--jobs", "2", "--junit", str(junit)]
    cmd += ["--test", brk.test] if quick else []
    env = {**os.environ, "VTA_DEFINES": brk.define, "VTA_FAILURES_DIR": str(out / "failures" / brk.define)}
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    (out / f"{brk.define}-{sim}.log").write_text(res.stdout + res.stderr)
    return Outcome(brk, res.returncode, failed_jobs(junit), time.perf_counter() - t0)


def failed_jobs(junit: Path) -> list[tuple[str, str]]:
    """(job, kind of its first failure) of every failing case of a run's JUnit file."""
    if not junit.is_file():
        return []
    out = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        if bad is not None:  # its message begins "[kind] ..." (tb/launch/summary.py)
            out.append((case.get("name", "?"), bad.get("message", "").split("]")[0].lstrip("[")))
    return out


def table(outcomes: list[Outcome]) -> str:
    """The run's summary: one row per define."""
    rows = ["| define | module | caught | failing jobs | first failure (job: checker) | expected | wall |",
            "|---|---|---|---|---|---|---|"]
    for o in outcomes:
        first = f"{o.failed[0][0]}: {o.failed[0][1]}" if o.failed else "-"
        rows.append(f"| `{o.brk.define}` | {o.brk.module} | {'yes' if o.caught else 'NO'} | "
                    f"{len(o.failed)} | {first} | {o.brk.job}: {o.brk.kind} | {o.wall:.0f} s |")
    return "\n".join(rows)


README = ROOT / "rtl" / "README.md"
MARKERS = ("<!-- test-defines:begin -->", "<!-- test-defines:end -->")


def readme_table() -> str:
    """The table of rtl/README.md, "Test-only defines": one row per break."""
    rows = ["| define | module | what breaks | the `make sim` check that catches it (job: checker) |",
            "|---|---|---|---|"]
    rows += [f"| `{b.define}` | `{b.module}.v` | {b.what} | `TEST={b.test}` ({b.job}: {b.kind}) |"
             for b in BREAKS]
    return "\n".join(rows)


def readme_with_table(text: str) -> str:
    """``text`` (rtl/README.md) with the table between its markers replaced."""
    head, _, rest = text.partition(MARKERS[0])
    _, _, tail = rest.partition(MARKERS[1])
    return f"{head}{MARKERS[0]}\n{readme_table()}\n{MARKERS[1]}{tail}"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = OneLineParser(prog="python -m tb.breaks", description=__doc__.split("\n\n")[0])
    p.add_argument("--sim", choices=SIMS, default="verilator")
    p.add_argument("--defines", help="comma-separated defines of the table (default: all)")
    p.add_argument("--quick", action="store_true", help="run only each define's catching test")
    p.add_argument("--out", type=Path, default=OUT, help="logs, JUnit files and failures")
    p.add_argument("--write-readme", action="store_true", help="rewrite rtl/README.md's table and exit")
    args = p.parse_args(argv)
    names = args.defines.split(",") if args.defines else list(BY_DEFINE)
    unknown = [n for n in names if n not in BY_DEFINE]
    if unknown:
        p.error(f"--defines: unknown {', '.join(unknown)} (known: {', '.join(BY_DEFINE)})")
    args.breaks = [BY_DEFINE[n] for n in names]
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.write_readme:
        README.write_text(readme_with_table(README.read_text()))
        return 0
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: {args.out}: cannot write: {exc.strerror}", file=sys.stderr)
        return 2
    outcomes = []
    for n, brk in enumerate(args.breaks, 1):
        print(f"[breaks] {n}/{len(args.breaks)} {brk.define} ({brk.module}): "
              f"{'--test ' + brk.test if args.quick else 'all of make sim'} on {args.sim}", flush=True)
        outcome = run_break(brk, args.sim, args.quick, args.out)
        print(f"[breaks]   {'caught' if outcome.caught else 'NOT CAUGHT'}: {len(outcome.failed)} job(s) "
              f"failed in {outcome.wall:.0f} s (log {args.out / (brk.define + '-' + args.sim + '.log')})",
              flush=True)
        outcomes.append(outcome)
    print(table(outcomes))
    missed = [o.brk.define for o in outcomes if not o.caught]
    print(f"\n{len(outcomes) - len(missed)} of {len(outcomes)} caught"
          + (f"; missed: {', '.join(missed)}" if missed else ""))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
