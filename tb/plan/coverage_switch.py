"""Verilator build options for code coverage, switched on by VTA_COVERAGE.

tb/launch/simbuild.py appends :func:`coverage_args` to its Verilator build arguments and a
``-cov`` suffix to the build directory when they are non-empty, so coverage builds never
overwrite (or get reused as) normal builds.
"""
from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "VTA_COVERAGE"

#: Line (with branch points) and toggle coverage; expression coverage is left out because
#: lcov cannot show it and the sign-off figures are line, branch and toggle.
VERILATOR_ARGS = ("--coverage-line", "--coverage-toggle")


def coverage_dir() -> Path | None:
    """The directory named by VTA_COVERAGE (per-test data goes there), or None when off."""
    value = os.environ.get(ENV_VAR)
    return Path(value).resolve() if value else None


def coverage_args(sim: str) -> list[str]:
    """Extra Verilator build arguments when coverage is on (Icarus has no code coverage)."""
    return list(VERILATOR_ARGS) if sim == "verilator" and coverage_dir() else []
