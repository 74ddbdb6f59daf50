"""Facts are written once (ARCHITECTURE.md): the module names and token queues in
models/spec/tokens.py, the simulators in tb/paths.py, the testbench modes in
tb/plan/testbench.py (its TOPLEVELS), the restart limit and the poll gap each in one module.
Everyone else imports them; a second literal copy fails here."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from models.spec import MODULES, TOKEN_QUEUES
from tb.launch import simbuild
from tb.paths import ROOT, SIMS
from tb.plan import testbench

#: fact -> (its value, the one file that writes it as a literal, or None: derived only)
LITERALS = {"modules": (MODULES, "models/spec/tokens.py"), "token queues": (TOKEN_QUEUES, None),
            "simulators": (SIMS, "tb/paths.py"), "testbench modes": (testbench.MODES, None)}
#: constants that one module defines and the others import
OWNED_NAMES = {"MAX_RESTARTS": "tb/launch/session.py", "POLL_GAP": "tb/uvm/env/watch.py"}


def sources() -> list[Path]:
    return sorted(p for top in ("models", "tb", "vectors") for p in (ROOT / top).rglob("*.py"))


def literal(node: ast.AST) -> tuple[object, ...] | None:
    """A tuple or list of constants as a tuple, else None."""
    if isinstance(node, (ast.Tuple, ast.List)) and node.elts \
            and all(isinstance(e, ast.Constant) for e in node.elts):
        return tuple(e.value for e in node.elts if isinstance(e, ast.Constant))
    return None


def copies(tree: ast.AST, value: tuple[object, ...]) -> list[int]:
    """Lines where a literal with exactly ``value``'s items is written (any order)."""
    return [node.lineno for node in ast.walk(tree) if isinstance(node, (ast.Tuple, ast.List))
            and (lit := literal(node)) is not None and sorted(map(str, lit)) == sorted(map(str, value))]


def test_each_literal_fact_is_written_once() -> None:
    found: dict[str, set[str]] = {fact: set() for fact in LITERALS}
    for path in sources():
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(("tb/tests/", "models/tests/")):
            continue  # tests may state what they expect
        tree = ast.parse(path.read_text())
        for fact, (value, _) in LITERALS.items():
            if copies(tree, value):
                found[fact].add(rel)
    assert found == {fact: {owner} if owner else set() for fact, (_, owner) in LITERALS.items()}, found


def test_the_check_finds_a_copy(tmp_path: Path) -> None:
    """The scan above is able to fail: a module with its own tuple of modules is found."""
    tree = ast.parse('MODULES = ("load", "compute", "store")\nSIMS = ["verilator", "icarus"]\n')
    assert copies(tree, MODULES) == [1] and copies(tree, SIMS) == [2]


@pytest.mark.parametrize("name", sorted(OWNED_NAMES))
def test_owned_constants_defined_once(name: str) -> None:
    owners = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    owners.append(path.relative_to(ROOT).as_posix())
    assert owners == [OWNED_NAMES[name]]


def test_every_simulator_has_its_build_tools() -> None:
    assert tuple(simbuild.TOOLS) == SIMS
