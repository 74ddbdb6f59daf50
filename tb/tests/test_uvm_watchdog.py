"""Long and stuck runs end, visibly: the stall window, --timeout, the note before a run of
hours, progress lines, and the backstop for a simulator that never returns to Python."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from models.asm import assemble
from models.spec.configs import load_config
from models.vector import Image, Vector, save_vector
from tb.launch.launch import prepare_env, run_all
from tb.launch.pytest_support import run
from tb.paths import ROOT, SIMS
from tb.plan.jobs import Job
from tb.rules.watchdog import STALL_BASE
from tb.uvm.env.watch import PROGRESS_GAP

#: A GEMM of 16383 x 300 reset micro-ops: legal, a few seconds for the model, hours for a
#: simulator (its cycle bound is ~39 million cycles).
LONG_PROGRAM = """\
LOAD UOP dram_base=1024 y_size=1 x_size=1 x_stride=1
GEMM reset uop_end=1 iter_out=16383 iter_in=16383
FINISH
"""


def long_vector(directory: Path) -> Path:
    cfg = load_config("small")
    insns = assemble(cfg, LONG_PROGRAM.splitlines(), "long", False)
    uops = assemble(cfg, ["UOP dst_idx=0 src_idx=0 wgt_idx=0"], "long-uops", True)
    return save_vector(Vector(cfg, 0x2000, 3, [Image(0x2000, insns), Image(4096, uops)],
                              description="a legal program that runs for hours"), directory)


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-m", "tb.run", *args], cwd=ROOT, env=full,
                          capture_output=True, text=True, timeout=300)


#: (vector, profile) of the programs run with a deadlocked read path.
STUCK = (("layer_small", "heavy"), ("gemm_basic", "none"))
#: What these tests try, for the README's robustness table (tb/tests/robustness.py):
#: class -> (runs, outcome).
TRIED = {
    "stopped DUT (read path deadlocked)": (len(SIMS) * len(STUCK), "detected: watchdog, stall window"),
    "legal program of hours (--timeout)": (1, "note before it starts, then watchdog at the limit"),
    "simulator that never returns to Python": (1, "killed by the backstop, job recorded as error"),
}


@pytest.mark.sim
@pytest.mark.parametrize("sim", SIMS)
def test_a_stopped_dut_fails_within_the_stall_window_not_the_bound(sim: str) -> None:
    """Read path deadlocked (fault ar-stuck) under heavy backpressure: each job ends at the
    stall window (a few thousand cycles x the profile's slowdown), far below its bound."""
    jobs = [("small", Job(f"stuck-{v}", vector=str(ROOT / "vectors" / v), profile=p, fault="ar-stuck"))
            for v, p in STUCK]
    results = run(sim, jobs)
    for name, r in results.items():
        first = r["failures"][0]
        assert first["kind"] == "watchdog" and "no DONE and no progress for" in first["message"], first
        assert r["stall"] < r["bound"], r
        assert r["stall"] >= STALL_BASE
        # launch, then at most the window plus two progress reads, then the diagnosis
        assert r["sim_cycles"] <= r["stall"] + 2 * PROGRESS_GAP + 4000, (name, r["sim_cycles"])


@pytest.mark.sim
def test_timeout_note_and_progress_on_a_run_of_hours(tmp_path: Path) -> None:
    vector = long_vector(tmp_path / "long")
    proc = cli("--sim", "verilator", "--vector", str(vector), "--timeout", "6",
               env={"VTA_PROGRESS_INTERVAL": "1"})
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out[-3000:]
    assert re.search(r"note: vec-long-none: the program's bound is [\d,]+ cycles, up to "
                     r"[\d.]+ (hours|days) at ~[\d,]+ cycles/s; --timeout 6 s caps it", out), out[-3000:]
    assert re.search(r"\[progress\] verilator small \(0\): 0 of 1 jobs done; vec-long-none: [\d,]+ cycles, "
                     r"3/3 insns dispatched, 1 completed, [\d,]+ cycles/s", out), out[-3000:]
    assert "[watchdog] no DONE within the wall-time limit of 6 s (--timeout)" in out
    assert "compute : 1 done, 1 queued, on insn #1: GEMM reset" in out  # the diagnosis


@pytest.mark.sim
def test_backstop_kills_a_simulator_that_never_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault sim-hang spins inside the simulator: Python never runs again, so the in-simulation
    --timeout cannot fire; the SIGALRM backstop (timeout + grace) ends the process."""
    monkeypatch.setenv("VTA_BACKSTOP_GRACE", "2")
    prepare_env()
    job = Job("hang", vector=str(ROOT / "vectors" / "gemm_basic"), fault="sim-hang")
    [record] = run_all("icarus", [("small", job)], 1, False, timeout=1)
    assert record["passed"], record  # the fault expects exactly this "error"
    assert record["failures"][0]["kind"] == "error"
    assert "the simulator stopped during this job: killed after 3 s without returning to " \
           "Python (the --timeout backstop)" in record["failures"][0]["message"], record


def test_hang_fault_needs_a_timeout() -> None:
    proc = cli("--sim", "icarus", "--fault", "sim-hang", env={})
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: --fault sim-hang hangs the simulator; it needs --timeout"

