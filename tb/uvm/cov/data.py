"""Per-test functional coverage files and their merge.

Each simulator process writes one JSON file: ``{"test": ..., "jobs": [...], "cwd": ...,
"bins": {coverpoint: {bin: hits}}}``; ``cwd`` is where Verilator leaves its coverage.dat.
Merging sums hits bin by bin; a file naming a bin the model does not define is an error
(the data and the model disagree, so totals would lie).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from tb.uvm.cov.points import POINTS

Counts = dict[str, dict[str, int]]


def empty() -> Counts:
    """All bins of the model at zero hits."""
    return {p.name: {b: 0 for b in p.bins} for p in POINTS}


def write(path: Path, test: str, jobs: list[str], bins: Counts, cwd: str = "") -> None:
    """Write one test's data file (atomically, so a crash never leaves half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"test": test, "jobs": jobs, "cwd": cwd, "bins": bins}, indent=1))
    tmp.replace(path)


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text())


def merge(counts: Iterable[Counts]) -> Counts:
    """Sum hit counts over tests; unknown coverpoints or bins raise ValueError."""
    total = empty()
    for c in counts:
        for point, bins in c.items():
            if point not in total:
                raise ValueError(f"coverage data names unknown coverpoint {point!r}")
            for b, hits in bins.items():
                if b not in total[point]:
                    raise ValueError(f"coverage data names unknown bin {point}/{b}")
                total[point][b] += hits
    return total


def merge_files(paths: Iterable[Path]) -> Counts:
    return merge(load(p)["bins"] for p in paths)


def unhit(counts: Counts) -> list[tuple[str, str]]:
    """(coverpoint, bin) pairs with no hit, in definition order."""
    return [(p, b) for p, bins in counts.items() for b, h in bins.items() if h == 0]
