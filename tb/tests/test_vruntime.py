"""Verilator's run-time objects are compiled once and reused by the next build compiled alike
(tb/launch/vruntime.py), on a one-module design: the second build's ``make`` compiles its
model and main only, and a build with other flags (tracing on) is another key."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tb.launch import vruntime
from tb.paths import sim_env

TOP = "module top(input wire clk, output reg q); always @(posedge clk) q <= ~q; endmodule\n"
MAIN = "#include \"Vtop.h\"\nint main() { Vtop t; t.eval(); return 0; }\n"


def verilate(tmp_path: Path, name: str, *flags: str) -> Path:
    """A verilated design in ``tmp_path/name`` (its Vtop.mk, not yet compiled)."""
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (src / "top.v").write_text(TOP)
    (src / "main.cpp").write_text(MAIN)
    bdir = tmp_path / name
    subprocess.run(["verilator", "-cc", "--exe", "--prefix", "Vtop", "-Mdir", str(bdir), *flags,
                    str(src / "top.v"), str(src / "main.cpp")], env=sim_env(), check=True,
                   capture_output=True)
    return bdir


def compiled(bdir: Path) -> list[str]:
    """The sources ``make`` compiles in ``bdir`` (its dry run)."""
    out = subprocess.run(["make", "-n", "-C", str(bdir), "-f", "Vtop.mk"], env=sim_env(),
                         capture_output=True, text=True, check=True).stdout
    return sorted(line.split()[-1].rsplit("/", 1)[-1] for line in out.splitlines()
                  if line.startswith(("c++", "g++")) and " -c " in line)


@pytest.mark.sim
def test_a_second_build_reuses_the_run_time_objects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERILATOR_ROOT", sim_env()["VERILATOR_ROOT"])
    first = verilate(tmp_path, "first")
    assert "verilated.cpp" in compiled(first)
    assert vruntime.restore(first, "0") == 0  # nothing stored yet
    subprocess.run(["make", "-s", "-C", str(first), "-f", "Vtop.mk"], env=sim_env(), check=True,
                   capture_output=True)
    assert vruntime.save(first, "0") and not vruntime.save(first, "0")  # stored once
    second = verilate(tmp_path, "second")
    objs = vruntime.objects(second)
    assert "verilated.o" in objs and vruntime.restore(second, "0") == len(objs)
    left = compiled(second)
    assert "verilated.cpp" not in left and "main.cpp" in left, left
    traced = verilate(tmp_path, "traced", "--trace")
    assert vruntime.restore(traced, "1") == 0  # other flags: another key
    assert "verilated.cpp" in compiled(traced)
