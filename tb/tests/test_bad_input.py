"""Bad input to the testbench's commands and to make: one line naming what is wrong, exit 2;
a vector the testbench cannot run is instead one ERROR row naming why (exit 1), so that the
other vectors of the run still run (tb/tests/test_uvm_cli.py runs one among good ones).

The cases run the real commands (`make ...`, `python -m tb.run ...`, the benches and the
coverage tools) with one bad argument, file or environment each; the table is counted in
the README's robustness table (tb/tests/test_robustness_table.py). Nothing here simulates:
every case must be refused before a simulator starts.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Callable

import pytest

from models.tests.badinput import Case, check
from models.vector import load_vector, save_vector
from tb.paths import ROOT

GEMM = ROOT / "vectors" / "gemm_basic"


def saved_failure(sidecar: object) -> Callable[[Path], None]:
    """A copy of a directed vector with the given tb_uvm.json beside it (text or object)."""
    def setup(tmp: Path) -> None:
        save_vector(load_vector(GEMM), tmp / "fail")
        text = sidecar if isinstance(sidecar, str) else json.dumps(sidecar)
        (tmp / "fail" / "tb_uvm.json").write_text(text)
    return setup


def job(**overrides: object) -> dict:
    return {"sim": "icarus", "config": "small",
            "job": {"name": "random-s5-heavy", "seed": 5, "profile": "heavy", **overrides}}


def knob(name: str, value: str, rule: str) -> Case:
    return Case("make: bad knob", f"make-{name}={value}", ("make", "sim", f"{name}={value}"),
                f"{name}={value}: {rule}")


def run(*args: str) -> tuple[str, ...]:
    return ("python", "-m", "tb.run", "--sim", "icarus", *args)


def mutate(*args: str) -> tuple[str, ...]:
    """`python -m tb.mutate --list ...`: refused before any site is run (or listed)."""
    return ("python", "-m", "tb.mutate", "--list", *args)


def file_in_the_way(tmp: Path) -> None:
    (tmp / "file").write_text("not a directory\n")


SIDE = "tb_uvm.json beside a vector"
REFUSED = "testbench: vector refused (ERROR row)"


def refused_row(name: str, reason: str) -> str:
    """The run's output when vector directory {tmp}/``name``, alone, is refused: its ERROR
    row, its one-line reason under the table, and the totals (no simulator starts)."""
    return (rf"vec-{name}-none +\S+ +none +1 +ERROR \(refused, not run\)(.|\n)*refused before running "
            rf"\(ERROR\):\n  vec-{name}-none: [^\n]*{reason}(.|\n)*\n0 passed, 0 failed, 1 refused \(ERROR\)")


def side(name: str, sidecar: object, reason: str) -> Case:
    """A saved failure whose tb_uvm.json is broken: the vector is refused, exit 1."""
    return Case(SIDE, name, run("--vector", "{tmp}/fail"),
                refused_row("fail", rf"fail/tb_uvm\.json: {reason}"), exit=1, setup=saved_failure(sidecar))


def broken(vector: str, change: Callable[[Path], None]) -> Callable[[Path], None]:
    """A copy of a directed vector at {tmp}/v, then ``change`` applied to the copy."""
    def setup(tmp: Path) -> None:
        shutil.copytree(ROOT / "vectors" / vector, tmp / "v")
        change(tmp / "v")
    return setup


def _set(key: str, value: object) -> Callable[[Path], None]:
    def change(v: Path) -> None:
        manifest = json.loads((v / "manifest.json").read_text())
        manifest[key] = value
        (v / "manifest.json").write_text(json.dumps(manifest))
    return change


def _missing(name: str) -> Callable[[Path], None]:
    return lambda v: (v / name).unlink()


def refused(name: str, vector: str, change: Callable[[Path], None], reason: str) -> Case:
    """A broken copy of a directed vector, given to the testbench: one ERROR row, exit 1."""
    return Case(REFUSED, name, run("--vector", "{tmp}/v"), refused_row("v", reason), exit=1,
                setup=broken(vector, change))
CASES = [
    knob("SEED", "-1", "must be a non-negative integer"),
    knob("SEED", "seven", "must be a non-negative integer"),
    knob("COUNT", "0", "must be a positive integer"),
    knob("COUNT", "-3", "must be a positive integer"),
    knob("JOBS", "0", "must be a positive integer"),
    knob("WAVES", "2", "must be 0 or 1"),
    knob("WAVES", "yes", "must be 0 or 1"),
    knob("SMOKE", "true", "must be 0 or 1"),
    knob("SIM", "modelsim", "must be icarus, verilator or all"),
    knob("MODE", "turbo", "must be fast or full"),
    knob("TIMEOUT", "5m", "must be a positive number of seconds"),
    knob("RANDOM_CONFIGS", "0", "must be a positive integer"),
    knob("NETLIST", "2", "must be 0 or 1"),
    Case("make: bad knob", "make-NETLIST=1-DUT", ("make", "sim", "NETLIST=1", "DUT=upstream-chisel"),
         r"NETLIST=1: the netlist is rtl/'s \(DUT=vta\); DUT=upstream-chisel is another design"),
    Case("make: bad knob", "make-NETLIST=1-MODE=full", ("make", "sim", "NETLIST=1", "MODE=full"),
         r"NETLIST=1: a netlist runs in the fast mode only \(MODE=fast\)"),
    Case("make: bad knob", "make-regress-NETLIST=1", ("make", "regress", "NETLIST=1"),
         r"NETLIST=1: a knob of make sim only \(make regress runs on rtl/\)"),
    Case("make: bad knob", "make-NETLIST=1-CONFIG=random", ("make", "sim", "NETLIST=1", "CONFIG=random"),
         r"^error: netlist:random: 'random' is not a shipped configuration \(batch2, default, small, "
         r"upstream_chisel\): a netlist is built for one of them$"),
    Case("make: bad knob", "make-vector-missing", ("make", "sim", "VECTOR=/nonexistent/vec"),
         r"^error: /nonexistent/vec: neither a vector"),
    Case("make: bad knob", "make-config-unknown", ("make", "sim", "CONFIG=huge"), r"^error: .*huge"),
    knob("SCHEDULER", "not an address", "must be a scheduler address, tcp://HOST:PORT"),
    Case("make: bad knob", "make-regress-RESUME=dir-SIM=all",
         ("make", "regress", "SIM=all", "RESUME=build/regress/x"),
         r"RESUME=build/regress/x: a run directory is one simulator's run; with SIM=all use RESUME=1"),
    Case("make: bad knob", "make-mutate-N=0", ("make", "mutate", "N=0"), r"N=0: must be a positive integer"),
    Case("make: bad knob", "make-mutate-TESTS=all", ("make", "mutate", "TESTS=all"),
         r"TESTS=all: must be directed, quick, regress, formal or formal\+quick"),
    Case("make: bad knob", "make-mutate-SIM=all", ("make", "mutate", "SIM=all"),
         r"SIM=all: make mutate runs on one simulator"),
    Case("make: bad knob", "make-breaks-SIM=all", ("make", "breaks", "SIM=all"),
         r"SIM=all: make breaks runs on one simulator"),
    Case("make: bad knob", "make-breaks-QUICK=yes", ("make", "breaks", "QUICK=yes"),
         r"QUICK=yes: must be 0 or 1"),
    Case("make: bad knob", "make-breaks-DEFINES-unknown", ("make", "breaks", "DEFINES=VTA_NOPE"),
         r"--defines: unknown VTA_NOPE \(known: VTA_TEST_BREAK_ALU_MAX,"),
    Case("mutation run: bad argument", "mutate-modules-unknown", mutate("--modules", "vta_nope"),
         r"--modules vta_nope: no such module in the design \(modules: vta_burst_gen,"),
    Case("mutation run: bad argument", "mutate-modules-empty", mutate("--modules", ","),
         r"--modules: give at least one module name"),
    Case("mutation run: bad argument", "mutate-n-zero", mutate("--n", "0"),
         r"argument --n: 0 must be 1 or more"),
    Case("mutation run: bad argument", "mutate-ids-unknown", mutate("--ids", "vta_token:1:1:nope"),
         r"--ids vta_token:1:1:nope: no such mutant"),
    Case("mutation run: bad argument", "mutate-tests-unknown", mutate("--tests", "all"),
         r"argument --tests: invalid choice: 'all'"),
    Case("mutation run: bad argument", "mutate-sim-unknown", mutate("--sim", "modelsim"),
         r"argument --sim: invalid choice: 'modelsim'"),
    Case("testbench: bad argument", "count-zero", run("--count", "0"),
         r"argument --count: 0 must be 1 or more"),
    Case("testbench: bad argument", "seed-negative", run("--seed", "-1"),
         r"argument --seed: -1 is negative"),
    Case("testbench: bad argument", "jobs-zero", run("--jobs", "0"), r"argument --jobs: 0 must be 1"),
    Case("testbench: bad argument", "random-configs-zero", run("--random-configs", "0"),
         r"argument --random-configs: 0 must be 1"),
    Case("testbench: bad argument", "random-config-bad-seed", run("--test", "random", "--config", "random:x"),
         r"^error: 'random:x': a random configuration is 'random:SEED'"),
    Case("testbench: bad argument", "vector-of-another-config",
         run("--config", "default", "--vector", str(GEMM)),
         r"^error: --config default: vector .*gemm_basic has another configuration"),
    Case("testbench: bad argument", "vector-with-config-random",
         run("--config", "random", "--vector", str(GEMM)),
         r"^error: --config random draws configurations for random programs"),
    Case("testbench: bad argument", "timeout-negative", run("--timeout", "-5"),
         r"argument --timeout: -5 must be more than 0"),
    Case("testbench: bad argument", "profile-unknown", run("--profile", "slow"),
         r"argument --profile: invalid choice: 'slow'"),
    Case("testbench: bad argument", "fault-unknown", run("--fault", "melt"),
         r"argument --fault: invalid choice: 'melt'"),
    Case("testbench: bad argument", "hang-fault-without-timeout", run("--fault", "sim-hang"),
         r"^error: --fault sim-hang hangs the simulator; it needs --timeout$"),
    Case("testbench: bad argument", "junit-dir-missing", run("--junit", "{tmp}/no/such/dir/r.xml"),
         r"^error: --junit .*/no/such/dir/r.xml: its directory does not exist$"),
    Case("testbench: bad argument", "ignore-differences-on-rtl", run("--ignore-differences"),
         r"^error: --ignore-differences: rtl/ has no differences; give --dut another profile$"),
    Case("testbench: bad argument", "netlist-script-unknown", run("--dut", "netlist:small:yosys"),
         r"^error: netlist:small:yosys: 'yosys' is not a netlist script \(abc, techmap, broken\)$"),
    Case("testbench: bad argument", "netlist-name-malformed", run("--dut", "netlist:small:abc:x"),
         r"^error: netlist:small:abc:x: a netlist is named netlist:CONFIG or netlist:CONFIG:SCRIPT$"),
    Case("testbench: bad argument", "netlist-full-mode", run("--dut", "netlist:small", "--mode", "full"),
         r"^error: --dut netlist:small: a netlist runs in the fast mode only \(--mode fast\)"),
    Case("testbench: bad argument", "netlist-other-config",
         run("--dut", "netlist:small", "--config", "default"),
         r"^error: --config default: --dut netlist:small is built for small$"),
    Case("testbench: bad argument", "cov-count-zero",
         ("python", "-m", "tb.cov.regression", "--count", "0"), r"argument --count: 0 must be 1 or more"),
    Case("testbench: bad argument", "regress-chunk-zero",
         ("python", "-m", "tb.regress", "--sim", "icarus", "--chunk", "0"),
         r"argument --chunk: 0 must be 1 or more"),
    Case("testbench: bad argument", "regress-scheduler-and-inline",
         ("python", "-m", "tb.regress", "--scheduler", "tcp://127.0.0.1:9", "--inline"),
         r"argument --inline: not allowed with argument --scheduler"),
    Case("testbench: bad argument", "bench-count-zero",
         ("python", "-m", "tb.bench.throughput", "--count", "0"), r"argument --count: 0 must be 1 or more"),
    Case("testbench: bad argument", "bench-program-unknown",
         ("python", "-m", "tb.bench.throughput", "--programs", "gemm,fft"),
         r"argument --programs: unknown program\(s\) fft"),
    Case("testbench: bad argument", "bench-rtl-sim-unknown",
         ("python", "-m", "tb.bench_rtl", "--sim", "vcs"), r"argument --sim: invalid choice: 'vcs'"),
    side("sidecar-bad-json", "{not json", r"not valid JSON"),
    side("sidecar-not-an-object", [1, 2], r"must be an object with a 'job' object"),
    side("sidecar-unknown-key", {**job(), "speed": 3}, r"unknown key\(s\) speed"),
    side("sidecar-job-unknown-key", job(colour="red"), r"job: unknown key\(s\) colour"),
    side("sidecar-job-without-name", {"job": {"seed": 1}}, r"job: missing key 'name'"),
    side("sidecar-bad-profile", job(profile="slow"), r".*unknown backpressure profile 'slow'"),
    side("sidecar-negative-seed", job(seed=-2), r"job 'random-s5-heavy': seed -2 is negative"),
    side("sidecar-seed-not-int", job(seed="5"), r"job 'random-s5-heavy': seed must be a int, got '5'"),
    side("sidecar-bad-kind", job(kind="fast"), r"job 'random-s5-heavy': unknown kind 'fast'"),
    side("sidecar-bad-expect-kind", job(expect_kind="crash"),
         r".*expect_kind 'crash' is not a failure kind"),
    side("sidecar-bad-fault", job(fault="melt"), r"unknown fault 'melt'"),
    refused("refused-insn-count-beyond-image", "alu_add", _set("insn_count", 18),
            r"v/manifest\.json: insn_count 18: .*beyond the end of init\[3\] \('insns\.bin'"),
    refused("refused-manifest-unknown-key", "gemm_basic", _set("speed", 3),
            r"v/manifest\.json: unknown key\(s\) speed"),
    refused("refused-init-file-missing", "gemm_basic", _missing("inp.bin"),
            r"v/manifest\.json: init\[\d\]: cannot read file 'inp\.bin': No such file or directory"),
    refused("refused-ill-formed-program", "load_acc_store", _set("insn_count", 2),
            r"v: the program is not well-formed, so it has no single defined result \(2 finding\(s\) "
            r"of `python -m models check`; the first: insn 1 \[store\] STORE .*: missing-finish: "),
]

#: Cases that need their own environment: a build directory that cannot be written, a
#: simulator missing from PATH. The build root is fresh, so a build would be attempted.
ENV_CASES = [
    (Case("build: unusable directory or tool", "build-root-read-only",
          run("--vector", str(GEMM)), r"^error: /sys/vta-build.*cannot write the build directory: "),
     {"VTA_BUILD_ROOT": "/sys/vta-build/sim"}),
    (Case("build: unusable directory or tool", "build-root-under-a-file",
          run("--vector", str(GEMM)), r"^error: .*/file/sim.*cannot write the build directory: "
                                      r"Not a directory", setup=file_in_the_way),
     {"VTA_BUILD_ROOT": "{tmp}/file/sim"}),
    (Case("build: unusable directory or tool", "simulator-missing",
          run("--vector", str(GEMM)), r"^error: icarus: 'iverilog' not found on PATH"),
     {"VTA_BUILD_ROOT": "{tmp}/build", "PATH": str(Path(sys.executable).parent)}),
]


def _env(extra: dict[str, str], tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    env.update({k: v.replace("{tmp}", str(tmp)) for k, v in extra.items()})
    return env


def _param(case: Case) -> object:
    """A case as a pytest parameter; the ones that start make are marked ``sim``."""
    return pytest.param(case, id=case.name, marks=[pytest.mark.sim] if case.argv[0] == "make" else [])


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_bad_input(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path, _env({}, tmp_path))


@pytest.mark.parametrize("case, env", ENV_CASES, ids=lambda c: c.name if isinstance(c, Case) else "")
def test_bad_environment(case: Case, env: dict[str, str], tmp_path: Path) -> None:
    assert shutil.which("iverilog"), "the suite's bootstrap installs iverilog"
    check(case, tmp_path, _env(env, tmp_path))
