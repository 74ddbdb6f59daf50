"""Table-driven bad-input cases: each is a command a user could type with a bad argument or
file, and the one-line error it must give.

The tests of each layer keep their cases in a list of :class:`Case` (models/tests/
test_bad_input.py for the model's CLI, tb/tests/test_bad_input.py for the testbench and
make) and run them with :func:`check`. The README's robustness table counts the same lists
(tb/tests/test_robustness_table.py), so a class of bad input is "tried by the tests" exactly
when it has cases here. Every case asserts that the command ends within a time limit (no
hang), with the expected exit status and without a Python traceback (no crash from deep
inside); an input error (exit 2) must be exactly one line on stderr that names what is
wrong, a finding (exit 1) must show the expected report. A few cases are controls (exit 0):
the valid neighbour of a bad input (a ``--config`` equal to the vector's, a closed pipe),
which must be accepted and give the expected output.
"""
from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
TIME_LIMIT = 120  # seconds; a bad input must never hang


@dataclass(frozen=True)
class Case:
    """One bad input and the error it must produce.

    ``argv`` is run from the repository root; ``{tmp}`` in an argument is replaced by a fresh
    temporary directory, which ``setup`` (if given) fills first. A ``python`` first word means
    the suite's interpreter. ``expect`` is a regular expression the single stderr line must
    match (search, not full match); ``exit`` the status (2: usage or input error, 1: a
    finding or mismatch, 0: a control that must be accepted).
    """

    cls: str  # class of bad input: one row of the README robustness table
    name: str  # what is tried, unique within its list
    argv: tuple[str, ...]
    expect: str
    exit: int = 2
    setup: Callable[[Path], None] | None = None


def command(case: Case, tmp: Path) -> list[str]:
    argv = [a.replace("{tmp}", str(tmp)) for a in case.argv]
    if argv[0] == "python":
        argv[0] = sys.executable
    return argv


def check(case: Case, tmp: Path, env: dict[str, str] | None = None) -> None:
    """Run the case and assert its outcome (see the module docstring)."""
    if case.setup:
        case.setup(tmp)
    argv = command(case, tmp)
    try:
        proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=TIME_LIMIT,
                              env=env)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{case.name}: hung (no exit within {TIME_LIMIT} s): {argv}") from None
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out, f"{case.name}: traceback:\n{out[-3000:]}"
    assert proc.returncode == case.exit, \
        f"{case.name}: exit {proc.returncode}, expected {case.exit}:\n{out[-2000:]}"
    if case.exit != 2:  # a finding, or a control's output: found anywhere in the output
        assert re.search(case.expect, out), f"{case.name}: {case.expect!r} not in:\n{out[-2000:]}"
        return
    # make adds its own "make: *** [Makefile:N: target] Error 2" after a failing recipe
    lines = [ln for ln in proc.stderr.strip().splitlines() if not ln.startswith("make: *** [")]
    assert len(lines) == 1, f"{case.name}: expected one error line on stderr, got:\n{proc.stderr}"
    assert re.search(case.expect, lines[0]), f"{case.name}: {lines[0]!r} does not match {case.expect!r}"
