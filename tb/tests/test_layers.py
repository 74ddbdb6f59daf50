"""The import layers of ARCHITECTURE.md hold: `lint-imports` (import-linter, the contracts in
pyproject.toml) keeps every one of them on the tree as it is, and breaks a contract that the
tree does not keep, so the check can fail."""
from __future__ import annotations

import subprocess
from pathlib import Path

from tb.paths import ROOT

LINT = ROOT / ".venv" / "bin" / "lint-imports"


def lint(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT), "--no-logo", "--no-cache", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_every_layer_contract_is_kept() -> None:
    res = lint()
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Contracts: 5 kept, 0 broken." in res.stdout, res.stdout


def test_a_contract_the_tree_breaks_is_reported(tmp_path: Path) -> None:
    """The model below the testbench, stated the other way round: broken, naming an import."""
    config = tmp_path / "reversed.toml"
    config.write_text('[tool.importlinter]\nroot_packages = ["models", "tb"]\n\n'
                      '[[tool.importlinter.contracts]]\nname = "reversed"\ntype = "layers"\n'
                      'layers = ["models", "tb"]\n')
    res = lint(str(config))
    assert res.returncode == 1, res.stdout + res.stderr
    assert "reversed BROKEN" in res.stdout and "tb is not allowed to import models" in res.stdout, res.stdout


def test_a_cocotb_import_where_it_is_forbidden_is_reported(tmp_path: Path) -> None:
    """The contract keeping cocotb out of tb/rules and tb/plan can fail: stated of tb/uvm (whose
    agents import cocotb), it is broken, naming the external package."""
    config = tmp_path / "forbidden.toml"
    config.write_text('[tool.importlinter]\nroot_packages = ["models", "tb"]\n'
                      'include_external_packages = true\n\n'
                      '[[tool.importlinter.contracts]]\nname = "no cocotb"\ntype = "forbidden"\n'
                      'source_modules = ["tb.uvm"]\nforbidden_modules = ["cocotb"]\n')
    res = lint(str(config))
    assert res.returncode == 1, res.stdout + res.stderr
    assert "no cocotb BROKEN" in res.stdout and "is not allowed to import cocotb" in res.stdout, res.stdout
