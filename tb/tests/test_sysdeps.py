"""tb/sysdeps.py, the Debian side of the bootstrap: silent when all is there, apt-get as
root, one line naming the install command otherwise.

The machine's real PATH is replaced by a directory of stand-in commands, so "missing" and
"installed" are decided by these tests, not by what this machine happens to have.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tb.paths import ROOT
from tb.sysdeps import TOOLS

SCRIPT = ROOT / "tb" / "sysdeps.py"


def fake_bin(tmp_path: Path, without: set[str]) -> Path:
    """A PATH directory holding every tool of TOOLS except ``without``, readable by anyone."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for d in (bin_dir, tmp_path, *tmp_path.parents):  # nobody (as_user) must reach the shims
        if str(d).startswith("/tmp/"):
            d.chmod(d.stat().st_mode | 0o055)
    for tool in TOOLS:
        if tool not in without:
            shim = bin_dir / tool
            shim.write_text("#!/bin/sh\nexit 0\n")
            shim.chmod(0o755)
    return bin_dir


def run(bin_dir: Path, as_user: bool = False, venv: bool = True) -> subprocess.CompletedProcess[str]:
    """The script under the system Python (as the Makefile runs it), with PATH = bin_dir.

    ``--python`` names a stand-in that passes the venv probe (fails it with venv=False);
    as_user runs it as nobody, who may not install and must be told how.
    """
    venv_python = bin_dir / "python3"
    venv_python.write_text(f"#!/bin/sh\nexit {0 if venv else 1}\n")
    venv_python.chmod(0o755)
    system_python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    cmd = [system_python, str(SCRIPT), "--python", str(venv_python)]
    if as_user:
        cmd = [shutil.which("setpriv") or "setpriv", "--reuid=65534", "--regid=65534",
               "--clear-groups", *cmd]
    return subprocess.run(cmd, env={"PATH": str(bin_dir)}, capture_output=True, text=True,
                          timeout=60)


def test_nothing_missing_is_silent(tmp_path: Path) -> None:
    proc = run(fake_bin(tmp_path, set()))
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == "", proc


def test_missing_package_without_root_names_the_command(tmp_path: Path) -> None:
    bin_dir = fake_bin(tmp_path, {"genhtml", "iverilog", "vvp"})
    proc = run(bin_dir, as_user=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip() == ("error: missing system package(s) iverilog, lcov; install with: "
                                   "sudo apt-get install -y iverilog lcov")


def test_missing_package_as_root_is_installed_with_apt_get(tmp_path: Path) -> None:
    bin_dir = fake_bin(tmp_path, {"genhtml"})
    log = tmp_path / "apt.log"
    apt = bin_dir / "apt-get"  # records its arguments; "installs" lcov by creating genhtml
    apt.write_text(f"#!/bin/sh\necho \"$@\" >> {log}\n"
                   f"case \"$*\" in *install*lcov*) printf '#!/bin/sh\\n' > {bin_dir}/genhtml; "
                   f"/bin/chmod 755 {bin_dir}/genhtml;; esac\n")
    apt.chmod(0o755)
    proc = run(bin_dir)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "installing missing system package(s) with apt-get: lcov"
    assert log.read_text().splitlines() == [
        "-o APT::Sandbox::User=root update -qq",
        "-o APT::Sandbox::User=root install -y -qq --no-install-recommends lcov"]


def test_apt_get_that_installs_nothing_is_an_error(tmp_path: Path) -> None:
    bin_dir = fake_bin(tmp_path, {"genhtml"})
    apt = bin_dir / "apt-get"
    apt.write_text("#!/bin/sh\nexit 0\n")
    apt.chmod(0o755)
    proc = run(bin_dir)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: apt-get ran, but genhtml (package lcov) is still not on PATH"


def test_python_without_venv_asks_for_python3_venv(tmp_path: Path) -> None:
    proc = run(fake_bin(tmp_path, set()), as_user=True, venv=False)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("error: missing system package(s) python3-venv; install with: "
                                   "sudo apt-get install -y python3-venv")
