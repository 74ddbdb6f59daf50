"""Mutation sites: every edit every operator makes of the design, with a stable id.

A site is one mutant: one operator's edit of one node of one file. Its id names the module,
line, column, operator and variant (``vta_token:30:45:arithmetic:-``), so a sampled mutant
can be named again on the command line (``--ids``) and found in the report.
"""
from __future__ import annotations

from dataclasses import dataclass

from pyslang import syntax

from tb.mutate.operators import OPERATORS, Edit, in_loop_step
from tb.mutate.source import Design, RtlFile, module_spans


@dataclass(frozen=True)
class Site:
    """One mutant: replace bytes [start, end) of ``file`` (``original``) with ``replacement``."""

    file: str
    module: str
    operator: str
    start: int
    end: int
    original: str
    replacement: str
    line: int
    col: int
    variant: str = ""

    @property
    def id(self) -> str:
        tail = f":{self.variant}" if self.variant else ""
        return f"{self.module}:{self.line}:{self.col}:{self.operator}{tail}"

    def describe(self) -> str:
        """One line: where and what, for progress lines and the report."""
        old, new = _short(self.original), _short(self.replacement) or "(removed)"
        return f"{self.file}:{self.line}: {self.operator}: {old} -> {new}"

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "file": self.file, "module": self.module, "operator": self.operator,
                "line": self.line, "col": self.col, "original": self.original,
                "replacement": self.replacement}


def _short(text: str, limit: int = 60) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[:limit - 3] + "..."


def file_sites(f: RtlFile, design: Design, operators: list[str] | None = None) -> list[Site]:
    """Every site of one file, in source order (then operator order)."""
    ops = [OPERATORS[n] for n in (operators or list(OPERATORS))]
    spans = module_spans(f)
    found: list[Site] = []
    seen: set[tuple[int, int, str]] = set()

    def visit(node: object) -> None:
        if not isinstance(node, syntax.SyntaxNode) or not f.owns(node) or in_loop_step(node):
            return
        for op in ops:
            for edit in op.find(f, design, node):
                key = (edit.start, edit.end, edit.text)
                if key in seen:  # two operators making the same edit: keep the first
                    continue
                seen.add(key)
                found.append(_site(f, spans, op.name, edit))

    f.tree.root.visit(visit)
    return sorted(found, key=lambda s: (s.start, s.end, list(OPERATORS).index(s.operator), s.variant))


def _site(f: RtlFile, spans: list[tuple[str, int, int]], operator: str, edit: Edit) -> Site:
    module = next((name for name, lo, hi in spans if lo <= edit.start < hi), f.path.stem)
    line, col = f.line_col(edit.start)
    return Site(f.name, module, operator, edit.start, edit.end, f.slice(edit.start, edit.end),
                edit.text, line, col, edit.variant)


def find_sites(design: Design, operators: list[str] | None = None) -> list[Site]:
    """Every site of the design, by file then position."""
    return [s for f in design.files for s in file_sites(f, design, operators)]
