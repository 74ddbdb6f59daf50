"""A mutant on disk: a copy of the design directory with one site's edit applied.

Each mutant gets its own directory (``OUT/<nnn>-<module>-<operator>/rtl``) holding every
design file and header, so the testbench builds it exactly as it builds rtl/ (VTA_RTL_DIR,
tb/paths.py); the edited file is parsed again with slang before anything runs it.
"""
from __future__ import annotations

import difflib
import shutil
from pathlib import Path

from tb.mutate.sites import Site
from tb.mutate.source import parses

DESIGN_GLOBS = ("*.v", "*.vh")


def mutate(text: bytes, site: Site) -> bytes:
    """The file's bytes with the site's range replaced."""
    if text[site.start:site.end].decode() != site.original:
        raise ValueError(f"{site.file}:{site.line}: the source changed since the site was found "
                         f"(expected {site.original!r})")
    return text[:site.start] + site.replacement.encode() + text[site.end:]


def directory_name(number: int, site: Site) -> str:
    """``007-vta_token-arithmetic``: sortable, and says what it is."""
    return f"{number:03d}-{site.module}-{site.operator}"


def copy_design(rtl_dir: Path, dest: Path) -> Path:
    """A copy of the design files (*.v, *.vh) in ``dest`` (replacing what was there)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for pattern in DESIGN_GLOBS:
        for path in sorted(rtl_dir.glob(pattern)):
            shutil.copy2(path, dest / path.name)
    return dest


def write_mutant(rtl_dir: Path, site: Site, dest: Path) -> list[str]:
    """Copy the design to ``dest`` with the site applied; returns the mutated file's parse
    errors (empty when it parses, as every operator intends)."""
    copy_design(rtl_dir, dest)
    text = mutate((rtl_dir / site.file).read_bytes(), site)
    (dest / site.file).write_bytes(text)
    return parses(text, dest, site.file)


def unified_diff(rtl_dir: Path, site: Site, context: int = 2) -> str:
    """The mutant as a unified diff of its file against the original, a few lines."""
    old = (rtl_dir / site.file).read_bytes()
    new = mutate(old, site)
    lines = difflib.unified_diff(old.decode().splitlines(), new.decode().splitlines(),
                                 f"rtl/{site.file}", f"mutant/{site.file}", n=context, lineterm="")
    return "\n".join(lines)
