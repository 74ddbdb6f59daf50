"""Command line of the mutation run (``python -m tb.mutate``, ``make mutate``).

    python -m tb.mutate [--n 100] [--seed S] [--modules vta_compute,...] [--ids ID,...]
                        [--tests directed|quick|regress] [--sim icarus|verilator] [--jobs 2]
                        [--out build/mutate] [--equiv-timeout 120] [--keep-builds] [--list]

Every error is one line naming the argument (exit status 2); a finished run exits 0 whatever
the score (the report is the result).
"""
from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path

from models.argtypes import OneLineParser, positive_float, positive_int
from models.argtypes import seed as seed_arg
from tb.mutate.runner import MutateError, Options, choose, run
from tb.mutate.sample import SampleError
from tb.mutate.source import SourceError, load
from tb.mutate.testsets import SIMS, TESTS
from tb.paths import ROOT


def names(text: str) -> list[str]:
    """A comma-separated list (empty items dropped)."""
    return [t.strip() for t in text.split(",") if t.strip()]


def parse(argv: list[str] | None) -> tuple[Options, bool]:
    """The run's options, and whether only to list the chosen mutants."""
    p = OneLineParser(prog="python -m tb.mutate", description=__doc__.splitlines()[0])
    p.add_argument("--n", type=positive_int, default=100, help="mutants to sample")
    p.add_argument("--seed", type=seed_arg, default=1, help="sampling seed")
    p.add_argument("--modules", type=names, help="only these modules (comma-separated)")
    p.add_argument("--ids", type=names, help="these mutants instead of a sample (ids from --list)")
    p.add_argument("--tests", choices=TESTS, default="quick")
    p.add_argument("--sim", choices=SIMS, default="icarus")
    p.add_argument("--jobs", type=positive_int, default=2, help="mutants run in parallel")
    p.add_argument("--out", type=Path, default=ROOT / "build" / "mutate")
    p.add_argument("--equiv-timeout", type=positive_float, default=120.0,
                   help="seconds for each survivor's equivalence check")
    p.add_argument("--keep-builds", action="store_true", help="keep each mutant's simulation builds")
    p.add_argument("--list", action="store_true",
                   help="print the mutants these arguments choose (id, place, edit) and exit; "
                        "a large --n lists every site")
    a = p.parse_args(argv)
    if a.modules is not None and not a.modules:
        p.error("--modules: give at least one module name")
    command = "python -m tb.mutate " + " ".join(map(shlex.quote, argv if argv is not None else sys.argv[1:]))
    return Options(a.n, a.seed, a.modules, a.ids, a.tests, a.sim, a.jobs, a.out,
                   equiv_timeout=a.equiv_timeout, keep_builds=a.keep_builds, command=command.strip()), a.list


def interrupt(signum: int, frame: object) -> None:
    """SIGTERM ends the run as Ctrl-C does (its stages' processes are stopped first)."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    opts, listing = parse(argv)
    signal.signal(signal.SIGTERM, interrupt)
    try:
        if listing:
            for site in choose(load(opts.rtl), opts):
                print(f"{site.id}\t{site.describe()}")
            return 0
        run(opts)
    except (SampleError, SourceError, MutateError, ValueError) as exc:
        print(f"python -m tb.mutate: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("python -m tb.mutate: error: interrupted: the running mutants were stopped, no report "
              "written", file=sys.stderr)
        return 130
    except OSError as exc:
        print(f"python -m tb.mutate: error: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    return 0
