"""Command-line argument checks shared by every command of the suite (models and tb).

Each type function turns a bad value into an ``argparse.ArgumentTypeError`` that names the
rule, and :class:`OneLineParser` prints any argument error as a single ``prog: error: ...``
line (exit status 2) instead of argparse's usage block, as the rest of the suite's errors.
"""
from __future__ import annotations

import argparse
import sys
from typing import NoReturn

EXIT_USAGE = 2


def _show(text: str) -> str:
    """The argument quoted for a message, cut if it is long (a 5000-digit number)."""
    return repr(text) if len(text) <= 40 else f"{text[:32]!r}... ({len(text)} characters)"


def _int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        why = "has too many digits" if text.lstrip("+-").isdigit() else "is not an integer"
        raise argparse.ArgumentTypeError(f"{_show(text)} {why}") from None


def nonneg_int(text: str) -> int:
    """A seed, an index: 0 or more."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; must be 0 or more")
    return value


def seed(text: str) -> int:
    """A random seed: 0 .. 2^64 - 1 (a larger one adds nothing and makes unwieldy names)."""
    value = nonneg_int(text)
    if value >> 64:
        raise argparse.ArgumentTypeError(f"{_show(text)} is too large; a seed is 0 .. 2^64-1")
    return value


def positive_int(text: str) -> int:
    """A count, a depth, a number of processes: 1 or more."""
    value = _int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value} must be 1 or more")
    return value


def positive_float(text: str) -> float:
    """A duration in seconds: more than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_show(text)} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} must be more than 0")
    return value


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (the subcommand's parsers inherit it)."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
