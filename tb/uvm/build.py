"""Build the testbench top (tb/rtl/vta_tb_top.v around rtl/) once per simulator and config.

Reuses the RTL helper's runner (tb/runner.py) for sources, the Verilator environment
and configuration hashing, but builds a different toplevel, so it keeps its own build
directories: build/sim/uvm-<sim>-<config hash>[-waves]/ (a waves build is separate
because tracing changes the Verilator model). A stamp of all inputs decides reuse.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from models.config import VtaConfig
from tb.runner import BUILD_ROOT, config_key, rtl_sources, sim_env

TB_RTL = Path(__file__).resolve().parent.parent / "rtl"
TOPLEVEL = "vta_tb_top"
SELFTEST_TOPLEVEL = "vta_axi_fault"
TIMESCALE = ("1ns", "1ps")


def sources(toplevel: str) -> list[Path]:
    if toplevel == SELFTEST_TOPLEVEL:
        return [TB_RTL / "vta_axi_fault.v"]
    return rtl_sources() + sorted(TB_RTL.glob("*.v"))


def build_dir(sim: str, cfg: VtaConfig, waves: bool, toplevel: str = TOPLEVEL) -> Path:
    tag = "selftest" if toplevel == SELFTEST_TOPLEVEL else f"uvm-{config_key(cfg)}"
    return BUILD_ROOT / f"{tag}-{sim}{'-waves' if waves else ''}"


def _digest(sim: str, cfg: VtaConfig, waves: bool, toplevel: str) -> str:
    h = hashlib.sha1(f"{sim}:{waves}:{toplevel}".encode())
    h.update(json.dumps(dict(sorted(cfg.values.items()))).encode())
    for path in sources(toplevel) + [Path(__file__)]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def build(sim: str, cfg: VtaConfig, waves: bool = False, toplevel: str = TOPLEVEL) -> Path:
    """Build (or reuse) the simulation model; returns its directory."""
    from cocotb_tools.runner import get_runner

    bdir = build_dir(sim, cfg, waves, toplevel)
    stamp = bdir / "uvm_build.stamp"
    digest = _digest(sim, cfg, waves, toplevel)
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
        kwargs = dict(sources=[str(p) for p in sources(toplevel)], hdl_toplevel=toplevel,
                      build_dir=str(bdir), always=True, timescale=TIMESCALE, waves=waves,
                      log_file=str(log))
        if toplevel == TOPLEVEL:
            kwargs["parameters"] = dict(cfg.values)
        if sim == "verilator":
            kwargs["build_args"] = ["-Wno-fatal", "-O2", "--x-assign", "fast", "--x-initial",
                                    "fast"]
        get_runner(sim).build(**kwargs)
    except (SystemExit, RuntimeError, subprocess.CalledProcessError) as exc:
        raise RuntimeError(f"{sim} build of {toplevel} failed; see {log}") from exc
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    stamp.write_text(digest)
    return bdir
