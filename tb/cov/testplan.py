"""The testplan: each feature of VTA_SPEC.md, the tests that run it and the bins that show it ran.

tb/cov/testplan.yaml is a list of testpoints ``{id, spec, feature, tests: [...],
coverpoints: [...]}``. ``tests`` are job-name prefixes of the regression: those of the tests in
tb/plan/registry.py (vec, random, regmap, reset-mid, b2b, fault, deadlock, no-compare) and the
coverage driver's own programs (closure, steer); ``coverpoints`` are whole points or single
bins (``point/bin``). A testpoint's status comes from the run: ``pass`` when every named test ran and
passed and every named bin is hit or waived, ``fail`` when a test failed, else
``open`` with what is missing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from tb.cov.waivers import split_bin
from tb.plan import registry
from tb.uvm.cov.data import Counts
from tb.uvm.cov.points import POINTS

TESTPLAN = Path(__file__).resolve().parent / "testplan.yaml"
#: Programs the coverage driver (regression.py) makes itself rather than through a test.
DRIVER_PREFIXES = ("closure", "steer")
JOB_PREFIXES = registry.job_prefixes() + DRIVER_PREFIXES


@dataclass
class Testpoint:
    id: str
    spec: str
    feature: str
    tests: list[str]
    coverpoints: list[str]
    status: str = "open"
    missing: list[str] = field(default_factory=list)


def job_prefix(job_name: str) -> str:
    """The test a job belongs to in the testplan: the longest known prefix of its name."""
    for prefix in sorted(JOB_PREFIXES, key=len, reverse=True):
        if job_name == prefix or job_name.startswith(prefix + "-"):
            return prefix
    return job_name


def load(path: Path = TESTPLAN) -> list[Testpoint]:
    """Testpoints; ValueError for unknown tests, coverpoints or bins."""
    raw = yaml.safe_load(Path(path).read_text())
    bins = {p.name: set(p.bins) for p in POINTS}
    out = []
    for entry in raw:
        tp = Testpoint(str(entry["id"]), str(entry["spec"]), entry["feature"],
                       list(entry.get("tests", [])), list(entry.get("coverpoints", [])))
        for t in tp.tests:
            if t not in JOB_PREFIXES:
                raise ValueError(f"{path}: testpoint {tp.id}: unknown test {t!r}")
        for c in tp.coverpoints:
            point, label = split_bin(c)
            if point not in bins or (label and label not in bins[point]):
                raise ValueError(f"{path}: testpoint {tp.id}: unknown coverpoint or bin {c!r}")
        out.append(tp)
    return out


def evaluate(points: list[Testpoint], counts: Counts, waived: set[tuple[str, str]],
             results: dict[str, tuple[int, int]]) -> list[Testpoint]:
    """Fill each testpoint's status; ``results`` is {job-name prefix: (passed, failed)}."""
    for tp in points:
        tp.missing = []
        failed = [t for t in tp.tests if results.get(t, (0, 0))[1]]
        for t in tp.tests:
            if not sum(results.get(t, (0, 0))):
                tp.missing.append(f"test {t} not run")
        for c in tp.coverpoints:
            point, label = split_bin(c)
            for b in ([label] if label else counts[point]):
                if not counts[point][b] and (point, b) not in waived:
                    tp.missing.append(f"{point}/{b} unhit")
        tp.status = "fail" if failed else "open" if tp.missing else "pass"
        if failed:
            tp.missing = [f"test {t} failed" for t in failed] + tp.missing
    return points
