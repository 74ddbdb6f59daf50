"""Place and route (tb/timing, `make timing`) without placing or routing anything.

A real run takes minutes, so these tests hold each part to what a real run produced: the
wrapper to Verilator's -Wall elaboration with rtl/ (every port of vta_top connected, every
bit used); the report parser and the name mapping to nextpnr's report, log excerpt and the
netlist's instance map recorded from `make timing CONFIG=small` (tb/tests/data/timing/);
the cache with Yosys and nextpnr replaced by stand-ins; the knobs' errors; and README's
`make timing CONFIG=small` as written, against a cache of the test's own (VTA_TIMING_DIR).
"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

import tb.timing.__main__ as timing_cli
from tb.duts.profile import DEFAULT_PROFILE, load
from tb.paths import ROOT, rtl_sources, sim_env
from tb.synth.progress import Phases, follow
from tb.timing import netlist as netlist_mod
from tb.timing.knobs import KnobError, parse_freq, parse_seed
from tb.timing.names import locate, signal_of
from tb.timing.nextpnr import PHASES, REPORT
from tb.timing.parts import DEFAULT_PART, PartError, parse_part
from tb.timing.report import table
from tb.timing.results import ReportError, parse_report
from tb.timing.wrapper import DUT_INSTANCE, WRAPPER_TOP, wrapper_verilog

DATA = ROOT / "tb" / "tests" / "data" / "timing"
#: recorded from `make timing CONFIG=small` (README, "Timing"): nextpnr's --report output,
#: the lines of its log this test reads, and the netlist's instance map (netlist.instances)
REPORT_JSON = DATA / "small-report.json"
LOG_EXCERPT = DATA / "small-nextpnr.log"
INSTANCES = DATA / "small-instances.json"


def small_wrapper() -> tuple[str, dict[str, Any]]:
    profile = load(DEFAULT_PROFILE, "small")
    w = wrapper_verilog(profile.top, profile.clock, profile.dut_ports, profile.parameters())
    return w.text, {"ports": profile.dut_ports, "clock": profile.clock, "wrapper": w}


# --- the wrapper ----------------------------------------------------------------------------

def test_wrapper_connects_every_port_to_its_own_bits() -> None:
    text, info = small_wrapper()
    ports, w = info["ports"], info["wrapper"]
    for name in ports:
        assert len(re.findall(rf"^\s+\.{name}\(", text, re.M)) == 1, name
    inputs = sum(p.width for p in ports.values() if not p.output) - 1   # the clock is a pin
    outputs = sum(p.width for p in ports.values() if p.output)
    assert (w.input_bits, w.output_bits) == (inputs, outputs)
    assert inputs + outputs + 1 == 386 and w.pins == 6           # README: 386 I/O bits on small
    # every shift-register bit and every output bit is used exactly once
    used_in = sorted(b for m in re.finditer(r"in_sr\[(\d+)(?::(\d+))?\]\)", text)
                     for b in range(int(m.group(2) or m.group(1)), int(m.group(1)) + 1))
    used_out = sorted(b for m in re.finditer(r"out_w\[(\d+)(?::(\d+))?\]\)", text)
                      for b in range(int(m.group(2) or m.group(1)), int(m.group(1)) + 1))
    assert used_in == list(range(inputs)) and used_out == list(range(outputs))
    xored = sorted(b for m in re.finditer(r"\^out_q\[(\d+):(\d+)\]", text)
                   for b in range(int(m.group(2)), int(m.group(1)) + 1))
    assert xored == list(range(outputs))


def verilator_lint(tmp_path: Path, text: str) -> str:
    """Verilator -Wall on the wrapper with rtl/, the wrapper as top: its warnings, or ""."""
    path = tmp_path / f"{WRAPPER_TOP}.v"
    path.write_text(text)
    proc = subprocess.run(["verilator", "--lint-only", "-Wall", "-Irtl", "--top-module", WRAPPER_TOP,
                           str(path), *map(str, rtl_sources())],
                          cwd=ROOT, env=sim_env(), capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    return out if proc.returncode != 0 or "%Warning" in out or "%Error" in out else ""


@pytest.mark.sim
def test_wrapper_elaborates_with_every_port_connected_and_used(tmp_path: Path) -> None:
    """Verilator elaborates vta_top under the wrapper with small's parameters: a port left
    unconnected (PINMISSING) or an output bit nobody reads (UNUSED) would be a warning; there
    is none. The two breaks below show that each is caught."""
    text, info = small_wrapper()
    assert verilator_lint(tmp_path, text) == ""
    dropped = re.sub(r",\n\s+\.m_axi_gmem_rlast\([^)]*\)", "", text)
    assert dropped != text and "PINMISSING" in verilator_lint(tmp_path, dropped)
    top = info["wrapper"].output_bits - 1
    unread = text.replace("out_q <= out_w;", f"out_q <= {{out_w[{top}:1], 1'b0}};")
    assert unread != text and "UNUSED" in verilator_lint(tmp_path, unread)


# --- nextpnr's report, recorded from a real run ----------------------------------------------

def recorded() -> tuple[dict[str, Any], dict[str, str], str]:
    return (json.loads(REPORT_JSON.read_text()), json.loads(INSTANCES.read_text()), LOG_EXCERPT.read_text())


def test_report_gives_the_logs_fmax_and_utilisation() -> None:
    """The parser's figures are the ones nextpnr printed in its own log (the last "Max
    frequency" line is after routing; the utilisation block after packing)."""
    report, instances, log = recorded()
    res = parse_report(report, "ap_clk", instances)
    fmax = re.findall(r"Max frequency for clock '\$glbnet\$ap_clk\$TRELLIS_IO_IN': ([\d.]+) MHz "
                      r"\((?:PASS|FAIL) at ([\d.]+) MHz\)", log)
    assert fmax, "the log excerpt has no Max frequency line"
    assert res["fmax_mhz"] == pytest.approx(float(fmax[-1][0]), abs=0.01)
    assert res["constraint_mhz"] == float(fmax[-1][1])
    assert res["met"] == (res["fmax_mhz"] >= res["constraint_mhz"])
    for key, row in res["utilisation"].items():
        line = re.search(rf"^Info: \s*{row['cell']}:\s+(\d+)/\s*(\d+)", log, re.M)
        assert line, key
        assert (row["used"], row["available"]) == (int(line.group(1)), int(line.group(2))), key
        assert row["percent"] == round(100 * row["used"] / row["available"], 1)
    # README, "Timing": each row is the cell type it names, with the figures printed there
    assert {k: (r["cell"], r["used"], r["percent"]) for k, r in res["utilisation"].items()} == {
        "comb": ("TRELLIS_COMB", 28524, 34.1), "ff": ("TRELLIS_FF", 7111, 8.5),
        "lutram": ("TRELLIS_RAMW", 163, 1.6), "bram": ("DP16KD", 15, 7.2),
        "dsp": ("MULT18X18D", 29, 18.6), "io": ("TRELLIS_IO", 6, 1.6)}
    assert res["utilisation"]["io"]["available"] == 365


def test_critical_path_is_fmax_and_reads_as_rtl_names() -> None:
    report, instances, _ = recorded()
    path = parse_report(report, "ap_clk", instances)["critical_path"]
    fmax = parse_report(report, "ap_clk", instances)["fmax_mhz"]
    assert path["delay_ns"] == pytest.approx(1000 / fmax, rel=0.01)
    # README, "Timing": 1.42 ns block-RAM clock-to-out, 5.56 ns logic in 39 cells, 10.34 ns routing
    assert (path["logic_ns"], path["routing_ns"], path["logic_levels"]) == \
        (pytest.approx(5.56, abs=0.005), pytest.approx(10.34, abs=0.005), 39)
    assert path["delay_ns"] - path["logic_ns"] - path["routing_ns"] == pytest.approx(1.42, abs=0.01)
    assert path["edges"] == "posedge -> posedge" and path["logic_levels"] > 0
    # README, "Timing": from the input buffer's block RAM to the accumulator's write register
    assert (path["from"]["path"], path["from"]["module"]) == ("u_inp.mem", "vta_ram")
    assert (path["to"]["path"], path["to"]["module"]) == ("u_compute.u_acc_dst.mem", "vta_ram")
    assert any(n["path"] == "u_compute.u_pipe.wb_data" and "rtl/vta_gemm_alu.v:221.43-221.73" in n["sources"]
               for n in path["nets"])
    for end in (path["from"], path["to"]):
        assert end["instance"] in instances and end["module"] == instances[end["instance"]], end
        assert end["public"] and end["path"].startswith(end["instance"] + ".") if end["instance"] else True
    for net in path["nets"]:
        assert not net["path"].startswith(DUT_INSTANCE + "."), net    # read under vta_top
        assert all(s.startswith(("rtl/", WRAPPER_TOP)) for s in net["sources"]), net
    part = {"name": DEFAULT_PART, "description": parse_part(DEFAULT_PART).describe(),
            "device": "LFE5UM5G-85F"}
    text = table({"config": "small", "part": part,
                  "seed": 1, **parse_report(report, "ap_clk", instances),
                  "wrapper": {"pins": 6, "input_bits": 150, "output_bits": 235},
                  "seconds": {"synth": 1.0, "pnr": 2.0, "total": 3.0}, "netlist_reused": False,
                  "tools": {"yosys": "y", "nextpnr": "n"}})
    assert f"{fmax:.2f} MHz on clock ap_clk" in text and path["from"]["path"] in text
    assert re.search(r"^\s+LUT4 \(COMB\)\s+[\d,]+\s+83,640\s+[\d.]+ %$", text, re.M), text


def test_a_report_without_the_clock_is_refused() -> None:
    report, instances, _ = recorded()
    two_clocks = {**report, "fmax": {**report["fmax"], "$glbnet$other": {"achieved": 1, "constraint": 1}}}
    with pytest.raises(ReportError, match="no clock sys_clk"):
        parse_report(two_clocks, "sys_clk", instances)
    with pytest.raises(ReportError, match="no critical path"):
        parse_report({**report, "critical_paths": []}, "ap_clk", instances)
    with pytest.raises(ReportError, match="not nextpnr"):
        parse_report({}, "ap_clk", instances)


# --- names ------------------------------------------------------------------------------------

INSTANCES_SAMPLE = {"": "vta_top", "u_compute": "vta_compute", "u_compute.u_gemm_alu": "vta_gemm_alu",
                    "u_compute.u_pipe": "vta_gemm_alu", "u_load": "vta_load", "u_inp": "vta_ram"}


@pytest.mark.parametrize("name, path, module, public", [
    ("u_vta.u_compute.u_gemm_alu.acc_q[3]", "u_compute.u_gemm_alu.acc_q[3]", "vta_gemm_alu", True),
    ("u_vta.u_compute.u_gemm_alu.acc_q_TRELLIS_FF_Q_12", "u_compute.u_gemm_alu.acc_q", "vta_gemm_alu", True),
    ("u_vta.u_compute.busy_LUT4_Z_1_C", "u_compute.busy", "vta_compute", True),
    ("u_vta.u_load.cnt_CCU2C_A0$CCU2_COMB1", "u_load.cnt", "vta_load", True),
    ("u_vta.u_loader.x", "vta_top.u_loader.x", "vta_top", True),       # u_load is no prefix of it
    ("u_vta.u_compute.u_pipe.wb_data_PFUMX_Z_32_C0_CCU2C_S0_CIN_CCU2C_COUT_S0[1]", "u_compute.u_pipe.wb_data",
     "vta_gemm_alu", True),
    ("u_vta.u_inp.mem.0.0_DOB1[3]", "u_inp.mem", "vta_ram", True),     # block RAM 0.0 of memory mem
    ("u_vta.u_inp.mem.0.0", "u_inp.mem", "vta_ram", True),
    ("u_vta.launch_TRELLIS_FF_Q", "vta_top.launch", "vta_top", True),
    ("in_sr_TRELLIS_FF_Q_7", "(wrapper) in_sr", WRAPPER_TOP, True),
    ("$glbnet$ap_clk$TRELLIS_IO_IN", "(wrapper) ap_clk", WRAPPER_TOP, True),
    ("$abc$123$new_n45_", "$abc$123$new_n45_", "?", False),
])
def test_a_net_name_maps_to_instance_module_and_signal(name: str, path: str, module: str,
                                                       public: bool) -> None:
    where = locate(name, INSTANCES_SAMPLE)
    assert (where.path(), where.module, where.public) == (path, module, public)


def test_recorded_names_all_map_into_rtl() -> None:
    """Every cell and net on the recorded critical path lies in a known instance of rtl/ or
    in the wrapper, and names a source signal."""
    report, instances, _ = recorded()
    names = {s["net"] for p in report["critical_paths"] for s in p["path"] if "net" in s}
    names |= {s[end]["cell"] for p in report["critical_paths"] for s in p["path"] for end in ("from", "to")}
    for name in sorted(names):
        where = locate(name, instances)
        assert where.module in set(instances.values()) | {WRAPPER_TOP}, name
        if where.instance:
            assert name.startswith(f"{DUT_INSTANCE}.{where.instance}."), name
    assert signal_of("acc_q_TRELLIS_FF_Q_12") == ("acc_q", True)
    assert signal_of("$auto$ff.cc:266") == ("$auto$ff.cc:266", False)


# --- progress ---------------------------------------------------------------------------------

def test_nextpnr_phases_in_order_with_heartbeat_status() -> None:
    _, _, log = recorded()
    phases = [p for p in map(PHASES.phase, log.splitlines()) if p]
    assert phases == ["pack", "place: analytic (HeAP)", "place: annealing refinement",
                      "route: global clocks", "route", "timing report"]
    echoed: list[str] = []
    quick = Phases(PHASES.first, PHASES.phase, status=PHASES.status, heartbeat=0.0)
    follow(io.StringIO(log), io.StringIO(), time.monotonic(), quick, echoed.append)
    assert any(re.match(r"^  \[\s*\d+ s\] \.\.\. still in place: analytic \(HeAP\): at iteration #\d+, "
                        r"wirelen solved", e) for e in echoed), echoed
    assert [e.split("] ", 1)[1] for e in echoed if "still" not in e] == phases


# --- knobs ------------------------------------------------------------------------------------

def test_parts() -> None:
    assert parse_part(DEFAULT_PART).nextpnr_args() == ["--um5g-85k", "--package", "CABGA381", "--speed", "8"]
    assert parse_part("lfe5u-25f-6bg256").nextpnr_args() == ["--25k", "--package", "CABGA256", "--speed", "6"]
    for bad, said in [("LFE5UM5G-85F", "not DEVICE-<speed><package>"), ("LFE5U-95F-8BG381", "unknown device"),
                      ("LFE5UM5G-85F-6BG381", "speed grade 8, not 6"),
                      ("LFE5U-85F-8BG256", "does not come in BG256")]:
        with pytest.raises(PartError, match=re.escape(said)):
            parse_part(bad)


def test_seed_and_freq() -> None:
    assert parse_seed("0") == 0 and parse_seed("2147483647") == 2**31 - 1 and parse_freq("62.5") == 62.5
    for bad in ("-1", "2147483648", "x", ""):
        with pytest.raises(KnobError, match="SEED="):
            parse_seed(bad)
    for bad in ("0", "1001", "fast", "-5"):
        with pytest.raises(KnobError, match="FREQ="):
            parse_freq(bad)


@pytest.mark.parametrize("args, said", [
    (["--config", "nosuch"], "make timing: CONFIG=nosuch: 'nosuch': configuration file not found"),
    (["--part", "LFE5U-85F-8BG256"], "make timing: PART=LFE5U-85F-8BG256: LFE5U-85F does not come in BG256"),
    (["--seed", "x"], "make timing: SEED=x: must be an integer"),
    (["--freq", "0"], "make timing: FREQ=0: must be a clock constraint in MHz"),
])
def test_a_bad_knob_is_one_line_and_status_2(args: list[str], said: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert timing_cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(said) and err.count("\n") == 1, err


def make_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return {**env, **extra}


@pytest.mark.sim
@pytest.mark.parametrize("knob, said", [
    ("PART=LFE5UM5G-85F", "make timing: PART=LFE5UM5G-85F: not DEVICE-<speed><package>"),
    ("SEED=-1", "SEED=-1: must be a non-negative integer"),            # the Makefile's own check
    ("CONFIG=nosuch", "make timing: CONFIG=nosuch:"),
])
def test_make_timing_bad_knob(knob: str, said: str) -> None:
    proc = subprocess.run(["make", "timing", knob], cwd=ROOT, env=make_env(), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and said in proc.stderr, proc.stdout + proc.stderr
    # one line of ours (make adds its own "make: *** [Makefile:N: timing] Error 2" after it)
    ours = [line for line in proc.stderr.splitlines() if line.strip() and not line.startswith("make: ***")]
    assert len(ours) == 1 and not proc.stdout.strip(), proc.stdout + proc.stderr


# --- the cache --------------------------------------------------------------------------------

def fake_netlist(instances: dict[str, str]) -> dict[str, Any]:
    """A hierarchical netlist of the recorded run's instances (all the flow reads of it):
    one module per instance, named as Yosys names a parameterised one, a LUT4 in each."""
    modules: dict[str, Any] = {"LUT4": {"attributes": {"blackbox": "1"}},
                               WRAPPER_TOP: {"cells": {"x": {"type": "LUT4"}}}}
    key = {p: f"$paramod$h{i}\\{m}" for i, (p, m) in enumerate(sorted(instances.items()))}
    for path in sorted(instances):
        modules[key[path]] = {"cells": {"lut": {"type": "LUT4"}}}
        parent = path.rpartition(".")[0] if "." in path else ("" if path else None)
        if parent is None:
            modules[WRAPPER_TOP]["cells"][DUT_INSTANCE] = {"type": key[path]}
        else:
            modules[key[parent]]["cells"][path.rpartition(".")[2]] = {"type": key[path]}
    return {"modules": modules}


def test_a_second_run_is_cached_a_new_seed_reuses_the_netlist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    rtl = tmp_path / "rtl"
    shutil.copytree(ROOT / "rtl", rtl)
    report, instances, _ = recorded()
    runs: list[str] = []

    def fake_yosys(script: str, run_dir: Path, echo: object = None) -> Path:
        runs.append("yosys")
        assert f"synth_ecp5 -top {WRAPPER_TOP} -noflatten -json netlist.json" in script
        assert (run_dir / f"{WRAPPER_TOP}.v").exists() and (run_dir / "rtl" / "vta_top.v").exists()
        (run_dir / "netlist.json").write_text(json.dumps(fake_netlist(instances)))
        return run_dir / "yosys.log"

    def fake_nextpnr(argv: list[str], run_dir: Path, echo: object) -> Path:
        runs.append("nextpnr " + argv[argv.index("--seed") + 1])
        (run_dir / REPORT).write_text(json.dumps(report))
        return run_dir / REPORT

    monkeypatch.setattr(netlist_mod, "run_yosys", fake_yosys)
    monkeypatch.setattr(timing_cli, "run_nextpnr", fake_nextpnr)
    out = tmp_path / "out"
    first = timing_cli.timing("small", rtl_dir=rtl, out=out)
    assert runs == ["yosys", "nextpnr 1"] and first["seed"] == 1 and not first["netlist_reused"]
    assert first["instances"] == instances
    assert timing_cli.timing("small", rtl_dir=rtl, out=out) == first
    assert "cached" in capsys.readouterr().out and len(runs) == 2
    assert json.loads((out / f"small-{DEFAULT_PART}" / "timing.json").read_text()) == first
    again = timing_cli.timing("small", seed=7, rtl_dir=rtl, out=out)          # another seed
    assert runs[2:] == ["nextpnr 7"] and again["netlist_reused"] and again["seed"] == 7
    with (rtl / "vta_fetch.v").open("a") as f:
        f.write("// an edit\n")
    timing_cli.timing("small", seed=7, rtl_dir=rtl, out=out)                  # another design
    assert runs[3:] == ["yosys", "nextpnr 7"]


# --- README's command -------------------------------------------------------------------------

#: README's commands, as written there ("Timing"; the design space's block8 in "Workloads"),
#: with the configuration each names
DOCUMENTED = [("make timing CONFIG=small", "small"),
              ("make timing CONFIG=small PART=LFE5UM5G-85F-8BG381 SEED=1 FREQ=100", "small"),
              ("make timing CONFIG=models/workloads/designs/block8.json",
               "models/workloads/designs/block8.json")]


@pytest.mark.sim
@pytest.mark.parametrize("command, config", DOCUMENTED, ids=[c[0] for c in DOCUMENTED])
def test_make_timing_as_documented_against_a_cache(tmp_path: Path, command: str, config: str) -> None:
    """README's commands, exactly as written, with VTA_TIMING_DIR pointing at a cache this
    test seeds with the recorded run's report under the key the current sources give: the
    command wires its knobs to the run (the second names every default, so it finds the same
    result), finds the result and prints the table in seconds. (The place and route itself is
    the figure in README, minutes long, not run here.)"""
    assert re.search(rf"^{re.escape(command)}\s+#", (ROOT / "README.md").read_text(), re.M), command
    report, instances, _ = recorded()
    p = timing_cli.plan(config, out=tmp_path)
    doc = timing_cli.document_of(p, parse_report(report, "ap_clk", instances), instances,
                                 {"synth": 60.0, "pnr": 300.0, "total": 360.0}, False)
    p.run_dir.mkdir(parents=True)
    (p.run_dir / "timing.json").write_text(json.dumps(doc))
    proc = subprocess.run(command.split(), cwd=ROOT, capture_output=True, text=True,
                          env=make_env(VTA_TIMING_DIR=str(tmp_path)), timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"timing {p.design.label} {DEFAULT_PART} seed 1: cached" in proc.stdout, proc.stdout + proc.stderr
    assert f"{doc['fmax_mhz']:.2f} MHz on clock ap_clk" in proc.stdout and "utilisation" in proc.stdout
