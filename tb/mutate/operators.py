"""The mutation operators: for one syntax node, the edits each operator makes of it.

Every edit replaces the exact source range of one node (or one token) with new text, so the
mutant is the original file with one small change and still parses (tb/mutate/sites.py checks
it). The operators and how each one chooses its sites are listed in tb/mutate/README.md; the
table OPERATORS below is that list.

Nodes inside a declaration's shape are never mutated: packed and unpacked dimensions, the
defaults of a module's parameter ports (every instantiation overrides them) and size
arithmetic in parameter declarations. A change there resizes signals, which either fails to
lint or mutates every use at once; neither measures the tests. Nor is a loop's step (i = i + 1):
a step that stops advancing hangs the simulator or the elaboration, not a bug tests look for.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from pyslang import syntax
from pyslang.syntax import SyntaxKind as K

from tb.mutate.source import Design, RtlFile


@dataclass(frozen=True)
class Edit:
    """Replace bytes [start, end) with ``text``; ``variant`` tells apart the edits one
    operator makes at one place (for example ``+1`` and ``-1``)."""

    start: int
    end: int
    text: str
    variant: str = ""


Finder = Callable[[RtlFile, Design, syntax.SyntaxNode], Iterator[Edit]]

# --- context of a node ------------------------------------------------------------------
SHAPE_KINDS = {K.VariableDimension, K.ParameterPortList}
PARAM_KINDS = {K.ParameterDeclaration, K.ParameterDeclarationStatement}


def ancestors(node: syntax.SyntaxNode) -> Iterator[syntax.SyntaxNode]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def in_loop_step(node: syntax.SyntaxNode) -> bool:
    """Inside the step of a for loop or a generate loop."""
    for a in ancestors(node):
        if isinstance(a, syntax.ForLoopStatementSyntax):
            return any(isinstance(s, syntax.SyntaxNode) and _within(node, s) for s in a.steps)
        if isinstance(a, syntax.LoopGenerateSyntax):
            return _within(node, a.iterationExpr)
    return False


def in_shape(node: syntax.SyntaxNode) -> bool:
    """Inside a dimension or a module's parameter-port defaults."""
    return any(a.kind in SHAPE_KINDS for a in ancestors(node))


def in_parameter(node: syntax.SyntaxNode) -> bool:
    return any(a.kind in PARAM_KINDS for a in ancestors(node))


def clocked_always(node: syntax.SyntaxNode) -> bool:
    """Inside an always block triggered by a clock edge (@(posedge clk))."""
    for a in ancestors(node):
        if isinstance(a, syntax.TimingControlStatementSyntax):
            return _has_edge(a.timingControl)
    return False


def _has_edge(control: syntax.SyntaxNode) -> bool:
    found: list[bool] = []

    def edge(n: object) -> None:
        if isinstance(n, syntax.SignalEventExpressionSyntax) and n.edge.valueText:
            found.append(True)

    control.visit(edge)
    return bool(found)


RESET_NAMES = ("rst", "reset", "rst_n", "resetn", "areset")


def names_reset(expr: syntax.SyntaxNode) -> bool:
    """The expression reads a reset signal (rst, reset, rst_n, or a name ending in _rst)."""
    found: list[bool] = []

    def visit(n: object) -> None:
        if isinstance(n, syntax.IdentifierNameSyntax):
            name = n.identifier.valueText.lower()
            if name in RESET_NAMES or name.endswith("_rst"):
                found.append(True)

    expr.visit(visit)
    return bool(found)


def reset_branch(node: syntax.SyntaxNode) -> bool:
    """Inside the then-branch of an if on a reset signal in a clocked always block."""
    child = node
    for a in ancestors(node):
        if isinstance(a, syntax.ConditionalStatementSyntax) and names_reset(a.predicate):
            return child is a.statement or _within(child, a.statement)
        child = a
    return False


def _within(node: syntax.SyntaxNode, outer: syntax.SyntaxNode) -> bool:
    r, o = node.sourceRange, outer.sourceRange
    return o.start.offset <= r.start.offset and r.end.offset <= o.end.offset


def text(f: RtlFile, node: syntax.SyntaxNode) -> str:
    r = node.sourceRange
    return f.slice(r.start.offset, r.end.offset)


def span(node: syntax.SyntaxNode) -> tuple[int, int]:
    r = node.sourceRange
    return r.start.offset, r.end.offset


# --- binary operator swaps --------------------------------------------------------------
#: binary expression kind -> (operator group, replacement operator)
SWAPS: dict[K, tuple[str, str]] = {
    K.LessThanExpression: ("relational", "<="),
    K.LessThanEqualExpression: ("relational", "<"),
    K.GreaterThanExpression: ("relational", ">="),
    K.GreaterThanEqualExpression: ("relational", ">"),
    K.EqualityExpression: ("relational", "!="),
    K.InequalityExpression: ("relational", "=="),
    K.AddExpression: ("arithmetic", "-"),
    K.SubtractExpression: ("arithmetic", "+"),
    K.MultiplyExpression: ("arithmetic", "+"),
    K.BinaryAndExpression: ("bitwise", "|"),
    K.BinaryOrExpression: ("bitwise", "&"),
    K.BinaryXorExpression: ("bitwise", "|"),
    K.LogicalAndExpression: ("logical", "||"),
    K.LogicalOrExpression: ("logical", "&&"),
    K.LogicalShiftLeftExpression: ("shift", ">>"),
    K.LogicalShiftRightExpression: ("shift", "<<"),
}
#: operator groups left alone inside parameter declarations (they compute sizes there).
SIZE_GROUPS = {"arithmetic", "shift", "bitwise", "logical"}


def swapper(group: str) -> Finder:
    def find(f: RtlFile, design: Design, node: syntax.SyntaxNode) -> Iterator[Edit]:
        swap = SWAPS.get(node.kind)
        if swap is None or swap[0] != group or not isinstance(node, syntax.BinaryExpressionSyntax):
            return
        if in_shape(node) or (group in SIZE_GROUPS and in_parameter(node)):
            return
        tok = node.operatorToken.range
        yield Edit(tok.start.offset, tok.end.offset, swap[1], swap[1])
    return find


# --- constant +-1 ---------------------------------------------------------------------
BASES = {"d": 10, "h": 16, "b": 2, "o": 8}


def constant(f: RtlFile, design: Design, node: syntax.SyntaxNode) -> Iterator[Edit]:
    """A literal one up (one down where one up does not fit its width), in its own base and
    width: one mutant per literal, so literals do not crowd out the other operators.
    Unsized integers inside parameter declarations are sizes and are left alone; selects'
    indices belong to the index operator, replication counts are widths, and a value under
    reset belongs to reset-value (whose inversion covers it)."""
    if in_shape(node) or any(isinstance(a, syntax.ElementSelectSyntax) for a in ancestors(node)):
        return
    if _replication_count(node) or (reset_branch(node) and clocked_always(node)):
        return
    if isinstance(node, syntax.IntegerVectorExpressionSyntax):
        yield from _vector_constant(node)
    elif node.kind == K.IntegerLiteralExpression and isinstance(node, syntax.LiteralExpressionSyntax):
        if in_parameter(node) or isinstance(node.parent, syntax.IntegerVectorExpressionSyntax):
            return
        raw = node.literal.rawText.replace("_", "")
        if not raw.isdigit():
            return
        start, end = span(node)
        yield Edit(start, end, str(int(raw) + 1), "+1")


def _replication_count(node: syntax.SyntaxNode) -> bool:
    for a in ancestors(node):
        if isinstance(a, syntax.MultipleConcatenationExpressionSyntax):
            if _within(node, a.expression):
                return True
    return False


def _vector_constant(node: syntax.IntegerVectorExpressionSyntax) -> Iterator[Edit]:
    base_text = node.base.rawText  # 'd, 'sh, 'b, ...
    digits = node.value.rawText.replace("_", "")
    radix = BASES.get(base_text[-1:].lower())
    size_text = node.size.rawText if node.size is not None else ""
    if radix is None or not digits:
        return
    try:
        value = int(digits, radix)
    except ValueError:  # x, z or ? digits
        return
    width = int(size_text) if size_text.isdigit() else None
    start, end = span(node)
    delta = -1 if width is not None and (value + 1) >> width else 1
    if value + delta < 0:
        return
    body = _digits(value + delta, radix, len(digits) if radix != 10 else 0)
    yield Edit(start, end, f"{size_text}{base_text}{body}", f"{delta:+d}")


def _digits(value: int, radix: int, pad: int) -> str:
    out = {2: f"{value:b}", 8: f"{value:o}", 10: str(value), 16: f"{value:x}"}[radix]
    return out.rjust(pad, "0")


# --- conditions ---------------------------------------------------------------------------
def condition(f: RtlFile, design: Design, node: syntax.SyntaxNode) -> Iterator[Edit]:
    """The condition of an if or a ?: negated."""
    if isinstance(node, (syntax.ConditionalStatementSyntax, syntax.ConditionalExpressionSyntax)):
        if in_shape(node) or in_parameter(node):
            return
        start, end = span(node.predicate)
        yield Edit(start, end, f"!({f.slice(start, end)})")


def enable(f: RtlFile, design: Design, node: syntax.SyntaxNode) -> Iterator[Edit]:
    """The condition of an if in a clocked always block (a register's enable), except a
    reset's, forced to 1'b1 (always loads) and to 1'b0 (never loads)."""
    if isinstance(node, syntax.ConditionalStatementSyntax) and clocked_always(node):
        if names_reset(node.predicate):
            return
        start, end = span(node.predicate)
        yield Edit(start, end, "1'b1", "1")
        yield Edit(start, end, "1'b0", "0")


def reset_value(f: RtlFile, design: Design, node: syntax.SyntaxNode) -> Iterator[Edit]:
    """The value a register takes under reset, inverted (x <= V becomes x <= ~(V))."""
    if node.kind == K.NonblockingAssignmentExpression and isinstance(node, syntax.BinaryExpressionSyntax):
        if clocked_always(node) and reset_branch(node):
            start, end = span(node.right)
            yield Edit(start, end, f"~({f.slice(start, end)})")


def case_arm(f: RtlFile, design: Design, node: syntax.SyntaxNode) -> Iterator[Edit]:
    """One arm of a case statement with two or more arms removed (the default arm too)."""
    if isinstance(node, syntax.CaseStatementSyntax) and len(node.items) >= 2:
        for n, item in enumerate(node.items):
            if isinstance(item, syntax.SyntaxNode):
                start, end = span(item)
                yield Edit(start, end, "", str(n + 1))


# --- bit index ----------------------------------------------------------------------------
def index(f: RtlFile, design: Design, node: syntax.SyntaxNode) -> Iterator[Edit]:
    """A constant bit index or part-select moved by one bit (up, else down) where every
    elaborated occurrence stays inside the signal's declared range."""
    if not isinstance(node, syntax.IdentifierSelectNameSyntax) or len(node.selectors) != 1:
        return
    if in_shape(node):
        return
    occurrences = design.selects.get((f.buffer, node.sourceRange.start.offset))
    if not occurrences or any(None in o.indices for o in occurrences):
        return
    sel = node.selectors[0]
    if not isinstance(sel, syntax.ElementSelectSyntax):
        return
    selector = sel.selector
    for delta in (1, -1):
        if all(_fits(selector.kind, o.indices, o.lower, o.upper, delta) for o in occurrences):
            yield _shift(f, selector, delta)
            return


def _fits(kind: K, idx: tuple[int | None, ...], lower: int, upper: int, delta: int) -> bool:
    vals = [v for v in idx if v is not None]
    if kind == K.BitSelect:
        lo = hi = vals[0] + delta
    elif kind == K.SimpleRangeSelect:
        lo, hi = min(vals) + delta, max(vals) + delta
    elif kind == K.AscendingRangeSelect:
        lo, hi = vals[0] + delta, vals[0] + delta + vals[1] - 1
    elif kind == K.DescendingRangeSelect:
        lo, hi = vals[0] + delta - vals[1] + 1, vals[0] + delta
    else:
        return False
    return lower <= lo and hi <= upper


def _moved(f: RtlFile, expr: syntax.SyntaxNode, delta: int) -> str:
    old = text(f, expr)
    if old.isdigit():
        return str(int(old) + delta)
    return f"({old}) {'+' if delta > 0 else '-'} 1"


def _shift(f: RtlFile, selector: syntax.SyntaxNode, delta: int) -> Edit:
    """The selector with its index (both bounds of a simple part-select, the base of an
    indexed one) moved, its spacing kept."""
    variant = f"{delta:+d}"
    if isinstance(selector, syntax.BitSelectSyntax):
        start, end = span(selector.expr)
        return Edit(start, end, _moved(f, selector.expr, delta), variant)
    assert isinstance(selector, syntax.RangeSelectSyntax)
    start, end = span(selector)
    moved = [selector.left] + ([selector.right] if selector.kind == K.SimpleRangeSelect else [])
    out = f.slice(start, end)
    for expr in sorted(moved, key=lambda e: -e.sourceRange.start.offset):  # right to left
        lo, hi = span(expr)
        out = out[:lo - start] + _moved(f, expr, delta) + out[hi - start:]
    return Edit(start, end, out, variant)


# --- signedness ---------------------------------------------------------------------------
RELATIONAL = {K.LessThanExpression, K.LessThanEqualExpression, K.GreaterThanExpression,
              K.GreaterThanEqualExpression}


def signedness(f: RtlFile, design: Design, node: syntax.SyntaxNode) -> Iterator[Edit]:
    """$signed(x) removed, $unsigned(x) made $signed(x), >>> made >>, and an unsigned
    comparison made signed ($signed on both operands)."""
    if in_shape(node) or in_parameter(node):
        return
    if isinstance(node, syntax.InvocationExpressionSyntax) and isinstance(node.left, syntax.SystemNameSyntax):
        name = node.left.systemIdentifier.valueText
        if name in ("$signed", "$unsigned") and node.arguments is not None:
            start, end = span(node)
            args = span(node.arguments)
            inner = f.slice(*args)
            yield Edit(start, end, inner if name == "$signed" else f"$signed{inner}",
                       "removed" if name == "$signed" else "added")
    elif node.kind == K.ArithmeticShiftRightExpression and isinstance(node, syntax.BinaryExpressionSyntax):
        tok = node.operatorToken.range
        yield Edit(tok.start.offset, tok.end.offset, ">>", "logical")
    elif node.kind in RELATIONAL and isinstance(node, syntax.BinaryExpressionSyntax):
        left, right = text(f, node.left), text(f, node.right)
        if left.startswith("$signed") or right.startswith("$signed"):
            return
        if (f.buffer, node.sourceRange.start.offset) in design.signed_compares:
            return
        start, end = span(node)
        yield Edit(start, end, f"$signed({left}) {node.operatorToken.rawText} $signed({right})", "added")


# --- submodule ports ----------------------------------------------------------------------
SKIP_PORTS = ("clk",)


def tie_off(f: RtlFile, design: Design, node: syntax.SyntaxNode) -> Iterator[Edit]:
    """An input port of a submodule instance tied to '0 (all zeros at the port's width);
    the clock is left alone (a stopped clock is not a bug the tests need to find)."""
    if not isinstance(node, syntax.HierarchyInstantiationSyntax):
        return
    ports = design.ports.get(node.type.valueText, {})
    for inst in node.instances:
        if not isinstance(inst, syntax.HierarchicalInstanceSyntax):
            continue
        for conn in inst.connections:
            if not isinstance(conn, syntax.NamedPortConnectionSyntax) or conn.expr is None:
                continue
            name = conn.name.valueText
            if ports.get(name) != "In" or name in SKIP_PORTS:
                continue
            start, end = span(conn.expr)
            old = f.slice(start, end)
            if not old.strip() or old.startswith("'") or old[:1].isdigit():
                continue
            yield Edit(start, end, "'0", name)


@dataclass(frozen=True)
class Operator:
    name: str
    what: str
    find: Finder


OPERATORS: dict[str, Operator] = {op.name: op for op in (
    Operator("relational", "< <=, > >=, == != swapped", swapper("relational")),
    Operator("arithmetic", "+ -, * + swapped", swapper("arithmetic")),
    Operator("bitwise", "& |, ^ | swapped", swapper("bitwise")),
    Operator("logical", "&& || swapped", swapper("logical")),
    Operator("shift", "<< >> swapped", swapper("shift")),
    Operator("constant", "a literal +1 and -1", constant),
    Operator("condition", "an if or ?: condition negated", condition),
    Operator("case-arm", "a case arm removed", case_arm),
    Operator("index", "a constant bit index or part-select moved by one", index),
    Operator("signedness", "$signed removed, or added to a comparison; >>> made >>", signedness),
    Operator("reset-value", "a register's reset value inverted", reset_value),
    Operator("enable", "a register's enable forced to 1'b1 and to 1'b0", enable),
    Operator("tie-off", "an input port of a submodule instance tied to '0", tie_off),
)}
