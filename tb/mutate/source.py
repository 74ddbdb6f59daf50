"""The RTL as slang (pyslang) sees it: a syntax tree per design file, and one elaboration of
the whole design for what only elaboration knows.

Mutation sites come from the syntax tree, never from matching text: every node carries the
exact byte range of its source, so a mutant replaces exactly one node's text and stays
syntactically valid. Elaboration (vta_top under a configuration's parameters) adds three
facts the syntax alone cannot give: the declared range of a selected signal and whether its
index is a constant (to shift a bit index only where it stays in range), the direction of
every port (only inputs can be tied off) and the parameters each module is instantiated with
(the equivalence check proves a mutant equal for exactly those).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyslang
from pyslang import ast, syntax

TOP = "vta_top"
#: A node's place: (buffer id of its file, start offset). Elaboration visits a module once per
#: instance and a generate loop's body once per iteration, so one place has many occurrences.
SelectKey = tuple[int, int]
RELATIONAL_OPS = {ast.BinaryOperator.LessThan, ast.BinaryOperator.LessThanEqual,
                  ast.BinaryOperator.GreaterThan, ast.BinaryOperator.GreaterThanEqual}


@dataclass
class RtlFile:
    """One design file: its bytes (the syntax tree's offsets index them) and its tree."""

    path: Path
    text: bytes
    tree: syntax.SyntaxTree
    manager: pyslang.SourceManager

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def buffer(self) -> int:
        """The id of the file's own buffer; nodes that came from an `include are elsewhere."""
        return self.tree.root.sourceRange.start.buffer.id

    def owns(self, node: syntax.SyntaxNode) -> bool:
        """The node's text lies in this file (not in an included header or a macro)."""
        start = node.sourceRange.start
        return start.buffer.id == self.buffer and self.manager.isFileLoc(start)

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a byte offset."""
        line = self.text.count(b"\n", 0, offset) + 1
        return line, offset - (self.text.rfind(b"\n", 0, offset) + 1) + 1

    def slice(self, start: int, end: int) -> str:
        return self.text[start:end].decode()


@dataclass
class Occurrence:
    """One elaborated occurrence of a select: the selected value's declared bounds and the
    select's constant indices (None where the index is not a constant)."""

    lower: int
    upper: int
    indices: tuple[int | None, ...]


@dataclass
class Design:
    """The parsed design files and the facts of one elaboration."""

    files: list[RtlFile]
    top: str = TOP
    selects: dict[SelectKey, list[Occurrence]] = field(default_factory=dict)
    ports: dict[str, dict[str, str]] = field(default_factory=dict)
    params: dict[str, list[dict[str, int]]] = field(default_factory=dict)
    #: comparisons whose operands are signed in every occurrence ($signed adds nothing)
    signed_compares: set[SelectKey] = field(default_factory=set)

    def modules(self) -> dict[str, RtlFile]:
        """Every module declared in the design, with its file."""
        return {name: f for f in self.files for name, _, _ in module_spans(f)}


class SourceError(ValueError):
    """A design file that cannot be parsed (the message names the file and line)."""


def parse_file(path: Path, include_dir: Path, manager: pyslang.SourceManager | None = None) -> RtlFile:
    """Parse one file; its `include directives resolve in ``include_dir``."""
    if manager is None:
        manager = pyslang.SourceManager()
        manager.addUserDirectories(str(include_dir))
    tree = syntax.SyntaxTree.fromFile(str(path), manager)
    problems = syntax_errors(tree, manager)
    if problems:
        raise SourceError(f"{path}: {problems[0]}")
    return RtlFile(path, path.read_bytes(), tree, manager)


def syntax_errors(tree: syntax.SyntaxTree, manager: pyslang.SourceManager) -> list[str]:
    """The tree's parse errors, each the first line of slang's report ('FILE:LINE:COL: error:
    ...'); warnings are not errors."""
    out = []
    for diag in tree.diagnostics:
        if diag.isError():
            report = pyslang.DiagnosticEngine.reportAll(manager, [diag]).strip().splitlines()
            out.append(report[0] if report else str(diag.code))
    return out


def parses(text: bytes, include_dir: Path, name: str = "mutant.v") -> list[str]:
    """Parse errors of a file's text (empty: it parses); used to check every mutant."""
    manager = pyslang.SourceManager()
    manager.addUserDirectories(str(include_dir))
    tree = syntax.SyntaxTree.fromText(text.decode(), manager, name, str(include_dir / name))
    return syntax_errors(tree, manager)


def module_spans(f: RtlFile) -> list[tuple[str, int, int]]:
    """(name, start, end) of every module declared in a file."""
    spans: list[tuple[str, int, int]] = []

    def visit(node: object) -> None:
        if isinstance(node, syntax.ModuleDeclarationSyntax) and f.owns(node):
            r = node.sourceRange
            spans.append((node.header.name.valueText, r.start.offset, r.end.offset))

    f.tree.root.visit(visit)
    return spans


def load(rtl_dir: Path, overrides: dict[str, int] | None = None, top: str = TOP) -> Design:
    """Parse every rtl_dir/*.v and elaborate the design (``overrides`` are the top's
    parameters, a configuration's values)."""
    manager = pyslang.SourceManager()
    manager.addUserDirectories(str(rtl_dir))
    files = [parse_file(p, rtl_dir, manager) for p in sorted(rtl_dir.glob("*.v"))]
    if not files:
        raise SourceError(f"{rtl_dir}: no design files (*.v)")
    design = Design(files, top=top)
    elaborate(design, overrides or {})
    return design


def compile_design(files: list[RtlFile], overrides: dict[str, int], top: str = TOP) -> ast.Compilation:
    """A slang compilation of the files with the top's parameters overridden."""
    options = ast.CompilationOptions()
    options.topModules = {top}
    options.paramOverrides = [f"{k}={v}" for k, v in sorted(overrides.items())]
    comp = ast.Compilation(pyslang.Bag([options]))
    for f in files:
        comp.addSyntaxTree(f.tree)
    return comp


def _int(value: pyslang.ConstantValue) -> int | None:
    """The integer a constant holds, sized ones included (pyslang prints a vector parameter
    as ``16'd16``: read as text it was lost, so Yosys's equivalence proofs elaborated such a
    module with its default instead); None for a constant with x or z bits or not integral."""
    inner = value.value
    if not isinstance(inner, pyslang.SVInt) or inner.hasUnknown:
        return None
    return int(inner)


def elaborate(design: Design, overrides: dict[str, int]) -> None:
    """Fill in the design's selects, port directions and instance parameters."""
    comp = compile_design(design.files, overrides, design.top)
    root = comp.getRoot()
    unsigned: set[SelectKey] = set()

    def visit(node: object) -> None:
        if isinstance(node, ast.InstanceSymbol):
            name = node.definition.name
            design.ports.setdefault(name, {p.name: p.direction.name for p in node.body.portList
                                           if isinstance(p, ast.PortSymbol)})
            _add_params(design.params, node)
        elif isinstance(node, (ast.ElementSelectExpression, ast.RangeSelectExpression)):
            _select(design, node)
        elif isinstance(node, ast.BinaryExpression) and node.op in RELATIONAL_OPS:
            start = node.sourceRange.start
            key = (start.buffer.id, start.offset)
            if node.left.type.isSigned and node.right.type.isSigned:
                design.signed_compares.add(key)
            else:
                unsigned.add(key)

    root.visit(visit)
    design.signed_compares -= unsigned


def _add_params(params: dict[str, list[dict[str, int]]], inst: ast.InstanceSymbol) -> None:
    values = {p.name: _int(p.value) for p in inst.body.parameters
              if isinstance(p, ast.ParameterSymbol) and p.isPortParam}
    clean = {k: v for k, v in values.items() if v is not None}
    known = params.setdefault(inst.definition.name, [])
    if clean not in known:
        known.append(clean)


def parameter_sets(design: Design, configs: list[dict[str, int]]) -> dict[str, list[dict[str, int]]]:
    """Every distinct parameter set each module is instantiated with, over the
    configurations (vta_top's parameters) given."""
    params: dict[str, list[dict[str, int]]] = {}
    for overrides in configs:
        def visit(node: object) -> None:
            if isinstance(node, ast.InstanceSymbol):
                _add_params(params, node)

        compile_design(design.files, overrides, design.top).getRoot().visit(visit)
    return params


def _select(design: Design, node: ast.ElementSelectExpression | ast.RangeSelectExpression) -> None:
    vtype = node.value.type
    if not (vtype.isIntegral or vtype.isArray) or not vtype.hasFixedRange:
        return
    bounds = vtype.fixedRange
    if isinstance(node, ast.ElementSelectExpression):
        indices: tuple[int | None, ...] = (_const(node.selector),)
    else:
        indices = (_const(node.left), _const(node.right))
    start = node.sourceRange.start
    design.selects.setdefault((start.buffer.id, start.offset), []).append(
        Occurrence(bounds.lower, bounds.upper, indices))


def _const(expr: ast.Expression) -> int | None:
    value = expr.constant
    return None if value is None else _int(value)
