"""Verilator code coverage: merge per-test coverage.dat files, compute figures, make HTML.

Figures are computed from the merged ``.dat`` itself, point by point, restricted to the
design (files under rtl/): the testbench wrapper in tb/rtl/ is not what is signed off.
Verilator tags each point with a page: ``v_line`` (statement blocks), ``v_branch``
(if/case arms) and ``v_toggle`` (each bit of each signal). The HTML comes from lcov's
genhtml over ``verilator_coverage --write-info``, extracted to rtl/.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tb.runner import ROOT, sim_env

RTL = ROOT / "rtl"
KINDS = {"line": "v_line", "branch": "v_branch", "toggle": "v_toggle"}
_POINT = re.compile(r"^C '(.*)' (\d+)$")


@dataclass(frozen=True)
class CodePoint:
    """One Verilator coverage point: its page (kind), file, line, comment and hit count."""

    page: str
    file: str
    line: int
    comment: str
    hits: int


def parse_dat(path: Path) -> list[CodePoint]:
    """Points of a coverage.dat (keys are \\x01-separated, key and value split by \\x02)."""
    out = []
    for text in Path(path).read_text(errors="replace").splitlines():
        m = _POINT.match(text)
        if not m:
            continue
        fields = dict(kv.split("\x02", 1) for kv in m.group(1).split("\x01") if "\x02" in kv)
        out.append(CodePoint(fields.get("page", "").split("/")[0], fields.get("f", ""),
                             int(fields.get("l", 0)), fields.get("o", ""), int(m.group(2))))
    return out


def in_rtl(point: CodePoint, rtl: Path = RTL) -> bool:
    return Path(point.file).resolve().parent == rtl.resolve()


def figures(points: list[CodePoint], rtl: Path = RTL) -> dict[str, dict[str, float]]:
    """{kind: {"covered", "total", "percent"}} over the design's points."""
    out = {}
    for kind, page in KINDS.items():
        sel = [p for p in points if p.page == page and in_rtl(p, rtl)]
        hit = sum(p.hits > 0 for p in sel)
        out[kind] = {"covered": hit, "total": len(sel),
                     "percent": round(100.0 * hit / len(sel), 2) if sel else 0.0}
    return out


def per_file(points: list[CodePoint], rtl: Path = RTL) -> dict[str, dict[str, tuple[int, int]]]:
    """{file name: {kind: (covered, total)}} for the report's table."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for kind, page in KINDS.items():
        for p in points:
            if p.page == page and in_rtl(p, rtl):
                cov, tot = out.setdefault(Path(p.file).name, {}).get(kind, (0, 0))
                out[Path(p.file).name][kind] = (cov + (p.hits > 0), tot + 1)
    return out


def _run(cmd: list[str], log: Path) -> None:
    with log.open("a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        subprocess.run(cmd, check=True, stdout=f, stderr=subprocess.STDOUT, env=sim_env())


def merge(dats: list[Path], out: Path, log: Path) -> Path:
    """One merged .dat from many (verilator_coverage sums points with the same key)."""
    if not dats:
        raise ValueError("no coverage.dat files to merge: was the regression built with coverage?")
    _run(["verilator_coverage", "--write", str(out), *map(str, dats)], log)
    return out


def html(merged: Path, out_dir: Path, log: Path) -> Path | None:
    """lcov .info (design files only) and genhtml pages; None when genhtml is missing."""
    info = out_dir / "coverage.info"
    raw = out_dir / "all.info"
    out_dir.mkdir(parents=True, exist_ok=True)
    _run(["verilator_coverage", "--write-info", str(raw), str(merged)], log)
    if not shutil.which("lcov") or not shutil.which("genhtml"):
        shutil.copy(raw, info)
        return None
    _run(["lcov", "--quiet", "--extract", str(raw), f"{RTL.resolve()}/*", "-o", str(info),
          "--rc", "lcov_branch_coverage=1"], log)
    pages = out_dir / "html"
    _run(["genhtml", "--quiet", "--branch-coverage", "--legend", "--title", "VTA RTL",
          "-o", str(pages), str(info)], log)
    return pages / "index.html"
