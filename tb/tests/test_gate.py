"""Gate-level simulation (tb/gate): DUT names, scripts, the generated profile, the cache with a
stand-in Yosys, how the testbench treats a netlist; then the smoke that `make test` runs on a
real netlist of `small` (Icarus, a few directed vectors) and the same vectors failing on a
netlist from a deliberately broken synthesis script, both as README writes them. The bad
knobs and names (`make sim NETLIST=2`, `--dut netlist:small:yosys`, ...) are cases of
tb/tests/test_bad_input.py.

The smoke builds the ``techmap`` netlist (no ABC: about 21 s of Yosys for `small` on the idle
machine, half the time of ABC's script and steadier under load) and simulates it on Icarus
(no C++ build: Verilator's build of a 60k-gate netlist takes minutes). `make sim NETLIST=1`
itself (ABC, Verilator, the whole set) is README's figure, minutes long, and not run here.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import tb.gate.build as gate_build
from tb.duts import profile as prof
from tb.duts.netlist import GATE_TOP, NETLIST_FILE, SCRIPTS, NetlistSpec, SpecError, is_netlist, parse
from tb.duts.probes import PROBE_CHECKS
from tb.duts.schema import ProfileError
from tb.gate.profile import TB_TOP, declared, net_fate, not_checked, probe_nets, probe_reason, profile_yaml
from tb.gate.scripts import BROKEN_NET, netlist_script, scripts
from tb.paths import ROOT
from tb.plan import dutmap
from tb.plan.applicable import job_reasons
from tb.plan.claims import view
from tb.plan.jobs import Job
from tb.plan.registry import JobRequest, make_jobs
from tb.synth.yosys import YosysError, run_yosys

README = (ROOT / "README.md").read_text()
#: README's smoke and broken-synthesis commands, as written there (tb/tests runs them as is).
SMOKE = (".venv/bin/python -m tb.run --sim icarus --dut netlist:small:techmap "
         "--vector vectors/gemm_basic vectors/alu_add vectors/load_acc_store")
BROKEN = SMOKE.replace("netlist:small:techmap", "netlist:small:broken")
#: README's command that builds the smoke's netlist alone (a figure's command run here: cheap,
#: since the smoke builds the same netlist).
BUILD_TECHMAP = ".venv/bin/python -m tb.gate --config small --script techmap"
SMOKE_JOBS = ("vec-gemm_basic-none", "vec-alu_add-none", "vec-load_acc_store-none")


# --- DUT names -----------------------------------------------------------------------------------
def test_names_parse_to_configuration_and_script() -> None:
    assert parse("netlist:small") == NetlistSpec("small", "abc")
    assert parse("netlist:small:techmap") == NetlistSpec("small", "techmap")
    assert NetlistSpec("small", "abc").name == "netlist:small"
    assert NetlistSpec("batch2", "broken").name == "netlist:batch2:broken"
    assert NetlistSpec("small", "techmap").command == "python -m tb.gate --config small --script techmap"
    assert is_netlist("netlist:small") and not is_netlist("vta") and not is_netlist("upstream-chisel")


@pytest.mark.parametrize("name, said", [
    ("netlist:", "a netlist is named netlist:CONFIG or netlist:CONFIG:SCRIPT"),
    ("netlist:small:abc:x", "a netlist is named netlist:CONFIG or netlist:CONFIG:SCRIPT"),
    ("netlist:random", "'random' is not a shipped configuration"),
    ("netlist:small:yosys", "'yosys' is not a netlist script (abc, techmap, broken)"),
])
def test_a_bad_name_is_one_line(name: str, said: str) -> None:
    with pytest.raises(SpecError, match=re.escape(said)):
        parse(name)
    with pytest.raises(ProfileError, match=re.escape(said)):   # wherever a DUT name is read
        prof.resolve(name)


# --- scripts ---------------------------------------------------------------------------------------
def test_scripts_keep_memories_split_nets_and_differ_where_they_say() -> None:
    by_name = scripts("vta_top")
    assert tuple(by_name) == SCRIPTS   # every name a DUT can give has its script, and no other
    for s in by_name.values():
        assert s.steps[0] == "synth -flatten -top vta_top -run :fine"   # stops before memory_map
        assert not any("memory_map" in step or step == "synth -flatten -top vta_top" for step in s.steps)
        assert "splitnets" in s.steps and s.steps[-1] == f"write_verilog -noattr {NETLIST_FILE}"
        assert f"rename vta_top {GATE_TOP}" in s.steps
    techmap, abc, broken = by_name["techmap"].steps, by_name["abc"].steps, by_name["broken"].steps
    assert [x for x in abc if x not in techmap] == ["abc"]
    assert [x for x in broken if x not in techmap] == [f"connect -set {BROKEN_NET} 1'b0"]
    assert by_name["broken"].test_only and not by_name["techmap"].test_only
    text = netlist_script(["rtl/vta_top.v"], "vta_top", {"LOG_BLOCK": 2}, "techmap")
    assert text.startswith("read_verilog -Irtl rtl/vta_top.v\n"
                           "hierarchy -check -top vta_top -chparam LOG_BLOCK 2\n")


def test_the_broken_net_is_rtl_s_accumulator_write_data() -> None:
    """The break names a port of an instance (stable as rtl/ changes): vta_compute's u_acc is a
    vta_ram whose one write port's data is wdata."""
    assert BROKEN_NET == "u_compute.u_acc.wdata[0]"
    compute = (ROOT / "rtl" / "vta_compute.v").read_text()
    assert re.search(r"vta_ram #\(.*\) u_acc \(\s*\.clk\(clk\), \.we\([^)]*\), \.waddr\([^)]*\), \.wdata\(",
                     compute), "rtl/vta_compute.v's u_acc no longer has the port the broken script ties"


# --- the generated profile -----------------------------------------------------------------------
NETLIST = """module vta_gate(ap_clk);
  input ap_clk;
  wire launch;
  wire \\u_compute.ld_acc_we ;
  reg \\st_qcount[0] ;
  reg \\st_qcount[1] ;
  reg [127:0] \\u_compute.u_acc.mem [255:0];
  wire [3:0] s_status;
endmodule
"""


def test_each_probe_net_is_found_kept_split_or_gone() -> None:
    nets = declared(NETLIST)
    assert net_fate(nets, "launch") == "kept" and net_fate(nets, "u_compute.ld_acc_we") == "kept"
    assert net_fate(nets, "s_status") == "kept"
    assert net_fate(nets, "st_qcount") == "split"
    assert net_fate(nets, "c_arvalid") == "gone" and net_fate(nets, "u_compute.u_acc.mem") == "gone"


def test_the_checkers_nets_come_from_the_testbench_top() -> None:
    nets = probe_nets(TB_TOP.read_text())
    assert set(nets) == {"ordering", "liveness"}
    assert {"s2c_push", "st_qcount", "s_status", "f_stall", "launch"} <= set(nets["ordering"])
    assert {"c_arvalid", "u_compute.wb_valid", "u_compute.ld_acc_we"} <= set(nets["liveness"])
    reason = probe_reason("liveness", ["launch", "st_qcount", "c_arvalid"], declared(NETLIST))
    assert "binds the liveness checker to 3 nets of vta_top" in reason
    assert "1 are gone, merged into other nets or removed (c_arvalid)" in reason
    assert "1 are split into one-bit nets \\NAME[i] (st_qcount)" in reason
    assert "1 keep their name in the flat top (launch)" in reason
    assert set(not_checked(NETLIST, TB_TOP.read_text())) == set(PROBE_CHECKS)


def netlist_profile(tmp_path: Path, edit: Callable[[str], str] = lambda doc: doc) -> Path:
    """A generated netlist profile in tmp_path whose design is rtl/ itself (the netlist's ports
    are rtl/'s), edited by ``edit``."""
    doc = profile_yaml(NetlistSpec("small", "techmap"), "0" * 64, NETLIST)
    doc = doc.replace(f"top: {GATE_TOP}", "top: vta_top").replace(f"- ./{NETLIST_FILE}", "- rtl/*.v")
    doc = doc.replace("parameters: none", "parameters: none\n  include_dirs: [rtl]")
    path = tmp_path / "netlist.yaml"
    path.write_text(edit(doc))
    return path


def test_the_generated_profile_loads_as_a_netlist_of_rtl(tmp_path: Path) -> None:
    p = prof.load(netlist_profile(tmp_path))
    assert p.netlist is not None and p.netlist.of == "vta" and set(p.netlist.not_checked) == set(PROBE_CHECKS)
    assert p.registers == prof.load("vta").registers and p.config_name == "small"
    assert "netlist of vta (techmap" in prof.summary(p)


#: A netlist profile breaking a rule of its ``netlist`` section: (old text, new text, the error);
#: counted in README's robustness table with tb/tests/test_duts.py's.
BAD_NETLIST_PROFILES = [
    ("    reach: ", "    reached: ", "netlist.not_checked.reach: must say why reach"),
    ("  of: vta", "  of: upstream-chisel", "netlist.of: must be 'vta'"),
    ("  GEMM_UOPS: 36", "  GEMM_UOPS: 164", "registers: must be vta's own register map"),
]


@pytest.mark.parametrize("old, new, said", BAD_NETLIST_PROFILES)
def test_a_netlist_profile_must_say_why_and_be_rtl_s(tmp_path: Path, old: str, new: str, said: str) -> None:
    def edit(doc: str) -> str:
        assert old in doc, old
        return doc.replace(old, new, 1)
    with pytest.raises(ProfileError, match=re.escape(said)):
        prof.load(netlist_profile(tmp_path, edit))


def test_the_testbench_holds_a_netlist_to_rtl_s_registers_without_probes(tmp_path: Path) -> None:
    spec = str(netlist_profile(tmp_path))
    regs = dutmap.host_map(spec)
    assert regs.native and not regs.probes and regs.counters == dutmap.NATIVE_MAP.counters
    assert dutmap.NATIVE_MAP.probes and not dutmap.host_map("upstream-chisel").native
    assert view(spec, prof.load(spec).config).native          # every register claim
    assert set(dutmap.not_checked(spec)) == set(PROBE_CHECKS) and dutmap.not_checked("vta") == {}
    request = JobRequest("icarus", "small")
    reset = make_jobs("reset", request)[0][1]
    assert job_reasons(reset, "small", spec) == []             # rtl/'s registers: the reset flow runs
    fault = Job("fault-x", vector=str(ROOT / "vectors" / "gemm_basic"), fault="slverr-read")
    assert job_reasons(fault, "small", spec)[0].startswith("rtl/ only: fault-x is a negative test")
    other = Job("vec", vector=str(ROOT / "vectors" / "default_layer"))
    assert job_reasons(other, "small", spec)[0].startswith("configuration: the vector is built for another")


# --- the cache, with a stand-in Yosys -------------------------------------------------------------
def test_a_netlist_is_built_once_until_a_source_changes(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rtl = tmp_path / "rtl"
    shutil.copytree(ROOT / "rtl", rtl)
    runs: list[str] = []

    def fake_yosys(script: str, run_dir: Path, echo: object = None) -> Path:
        runs.append(script)
        (run_dir / NETLIST_FILE).write_text(NETLIST)
        (run_dir / "stat.json").write_text(json.dumps({"modules": {f"\\{GATE_TOP}": {
            "num_cells_by_type": {"$_AND_": 3, "$_SDFF_PN0_": 2, "$mem_v2": 1}}}}))
        return run_dir / "yosys.log"

    monkeypatch.setattr(gate_build, "run_yosys", fake_yosys)
    spec = NetlistSpec("small", "techmap")
    first = gate_build.build(spec, rtl, tmp_path / "out", echo=None)
    assert not first.cached and first.gates == 5 and first.cells["$mem_v2"] == 1
    assert first.profile == tmp_path / "out" / "small-techmap" / "profile.yaml"
    assert "name: netlist-small-techmap" in first.profile.read_text()
    again = gate_build.build(spec, rtl, tmp_path / "out", echo=None)
    assert again.cached and len(runs) == 1
    gate_build.build(NetlistSpec("small", "abc"), rtl, tmp_path / "out", echo=None)      # another script
    with (rtl / "vta_ram.v").open("a") as f:
        f.write("// an edit\n")
    assert not gate_build.build(spec, rtl, tmp_path / "out", echo=None).cached          # another design
    assert len(runs) == 3 and "\nabc\n" in runs[1] and "\nabc\n" not in runs[0]


@pytest.mark.sim
def test_yosys_s_error_after_abc_reaches_the_log() -> None:
    """YoWASP's Yosys prints nothing on stdout after its first ABC call, so the netlist build's
    log is Yosys's own (tb/synth/yosys.py): complete, and a later error is named."""
    run_dir = ROOT / "build" / "gate" / "test-abc-log"   # under build/: YoWASP's /tmp is its own
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    (run_dir / "t.v").write_text("module t(input [3:0] a, b, output [3:0] y); assign y = a + b; endmodule\n")
    try:
        with pytest.raises(YosysError, match=re.escape("ERROR: No such command: no_such_pass")):
            run_yosys("read_verilog t.v\nsynth -top t\nabc\nno_such_pass\n", run_dir)
        assert "abc" in (run_dir / "yosys.log").read_text().split("no_such_pass")[0]
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


# --- the smoke and the broken synthesis (Icarus, real netlists) -------------------------------------
def run_as_written(command: str) -> subprocess.CompletedProcess[str]:
    assert command in README, f"README no longer shows: {command}"
    return subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=900)


@pytest.mark.sim
def test_smoke_vectors_pass_on_the_netlist_of_small() -> None:
    """README's smoke: the techmap netlist of `small` (built here if missing), three directed
    vectors on Icarus, every check but those bound to internal nets, which the run names; each
    job's CYCLES is rtl/'s on the same vectors (the netlist is cycle-exact)."""
    proc = run_as_written(SMOKE)
    out = proc.stdout
    assert proc.returncode == 0, (out + proc.stderr)[-3000:]
    for check in ("ordering checker", "liveness checker"):
        assert f"not checked (netlist-small-techmap, every job run, 3): {check}. Reason: " \
               f"tb/rtl/vta_tb_top.v binds the {check}" in out
    assert "3 passed, 0 failed" in out
    rtl = subprocess.run(SMOKE.replace(" --dut netlist:small:techmap", ""), shell=True, cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert rtl.returncode == 0, (rtl.stdout + rtl.stderr)[-3000:]
    assert cycles(out) == cycles(rtl.stdout) and len(cycles(out)) == len(SMOKE_JOBS), (out, rtl.stdout)


def cycles(out: str) -> dict[str, int]:
    """Each passing job's CYCLES from a run's summary table."""
    return {m.group(1): int(m.group(2)) for m in
            re.finditer(r"^icarus\s+(\S+)\s+small\s+none\s+1\s+PASS\s+(\d+)\s", out, re.M)}


@pytest.mark.sim
def test_a_netlist_from_a_broken_synthesis_fails_the_smoke_vectors() -> None:
    """README's broken synthesis: bit 0 of the accumulator buffer's write data tied low by one
    script step; every smoke vector fails on the scoreboard, reported the usual way (the
    failure, the repro command naming the netlist, the bucket)."""
    proc = run_as_written(BROKEN)
    out = proc.stdout
    assert proc.returncode == 1, (out + proc.stderr)[-3000:]
    for job in SMOKE_JOBS:
        assert re.search(rf"^icarus\s+{job}\s+small\s+none\s+1\s+FAIL \(scoreboard\)", out, re.M), out[-3000:]
        assert f"FAILED icarus {job}: [scoreboard] final DRAM differs from the expected images" in out
        assert (f"reproduce: python -m tb.run --sim icarus --mode fast --dut netlist:small:broken "
                f"--vector build/failures/icarus-fast-netlist_small_broken-{job}") in out
    assert "0 passed, 3 failed" in out and "Failure buckets: 3 failure(s)" in out


@pytest.mark.sim
def test_the_smoke_netlist_builds_alone_as_documented() -> None:
    """README's `python -m tb.gate --config small --script techmap`: Yosys's progress or
    "cached", then the gate count and the profile (the smoke's netlist: built once for both)."""
    proc = run_as_written(BUILD_TECHMAP)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    out = proc.stdout
    assert re.search(r"^netlist netlist:small:techmap: (cached|done in \d+ s)", out, re.M), out
    assert re.search(r"^netlist:small:techmap: [\d,]+ gates and flip-flops, 12 memories; profile "
                     r"build/gate/small-techmap/profile.yaml$", proc.stdout, re.M), proc.stdout
