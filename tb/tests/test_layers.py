"""The import layers of ARCHITECTURE.md hold: `lint-imports` (import-linter, the contracts in
pyproject.toml) keeps every one of them on the tree as it is, and breaks a contract that the
tree does not keep, so the check can fail."""
from __future__ import annotations

import subprocess
from pathlib import Path

from tb.runner import ROOT

LINT = ROOT / ".venv" / "bin" / "lint-imports"


def lint(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT), "--no-logo", "--no-cache", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_every_layer_contract_is_kept() -> None:
    res = lint()
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Contracts: 3 kept, 0 broken." in res.stdout, res.stdout


def test_a_contract_the_tree_breaks_is_reported(tmp_path: Path) -> None:
    """The model below the testbench, stated the other way round: broken, naming an import."""
    config = tmp_path / "reversed.toml"
    config.write_text('[tool.importlinter]\nroot_packages = ["models", "tb"]\n\n'
                      '[[tool.importlinter.contracts]]\nname = "reversed"\ntype = "layers"\n'
                      'layers = ["models", "tb"]\n')
    res = lint(str(config))
    assert res.returncode == 1, res.stdout + res.stderr
    assert "reversed BROKEN" in res.stdout and "tb is not allowed to import models" in res.stdout, res.stdout
