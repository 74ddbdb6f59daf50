"""The design space in time and area (tb/workloads/hardware.py, `make workloads CONFIG=designs`)
without a synthesis or a place and route: the synthesis and timing caches are seeded with
hand-made documents under the keys the current sources give (as tb/tests/test_synth_dut.py
seeds make synth's), so every figure below comes from a cached result, and every expectation
is worked out by hand from the seeded counts and cycles: resources and fit verdicts, fmax or
the reason there is none, time per image = cycles / fmax, GOPS, the peak; the Pareto front on
hand-chosen points; the plot; HW=0; upstream absent and present; a corrupt cached document, a
malformed one and a Yosys failure each one line naming the design point and the file. README's
commands as written: `python -m tb.workloads.hardware` run in a scratch directory, the `make
workloads` lines through make -n (their simulation is minutes long: README's figures).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

import tb.synth.__main__ as synth_cli
import tb.timing.__main__ as timing_cli
from models.workloads.designs import design_points
from models.workloads.layers import LAYER_NAMES
from tb.paths import ROOT
from tb.synth.design import Design, design
from tb.synth.report import document
from tb.synth.stat import parse_stat
from tb.synth.targets import TARGETS
from tb.synth.yosys import YosysError
from tb.tests.test_make import make
from tb.tests.test_timing_pnr import make_env, recorded
from tb.timing.results import parse_report
from tb.workloads import hardware
from tb.workloads import run as workloads

#: MACs of one ResNet-18 image, by hand from TVM's layer table (output H x W x out ch x in ch
#: x k x k, times each layer's occurrences): C1 112*112*64*3*49 = 118,013,952; C2, C5, C8,
#: C11 (4 + 3 + 3 + 3 times) 115,605,504 each; C3, C6, C9 57,802,752 each; C4, C7, C10
#: 6,422,528 each; dense 512,000.
PASS_MACS = 118_013_952 + 13 * 115_605_504 + 3 * 57_802_752 + 3 * 6_422_528 + 512_000
assert PASS_MACS == 1_814_073_344

#: hand-made cell counts: (Xilinx cells, ECP5 cells) per design point
CELLS: dict[str, tuple[dict[str, int], dict[str, int]]] = {
    # Xilinx: LUT 41,000 + 4 x 117 RAM32M = 41,468 (77.9 % of 53,200), 65 + 87/2 = 108.5 RAMB36,
    # 177 DSP: fits; ECP5: DP16KD 217/208 = 104.3 %, MULT18X18D 305/156 = 195.5 %: does not fit
    "default": ({"LUT6": 41_000, "RAM32M": 117, "FDRE": 9_823, "RAMB36E1": 65, "RAMB18E1": 87,
                 "DSP48E1": 177},
                {"LUT4": 65_475, "TRELLIS_FF": 15_585, "DP16KD": 217, "MULT18X18D": 305}),
    # LUT 12,000 + 400 = 12,400, 15 + 11/2 = 20.5 RAMB36, 40 DSP; fits both
    "block8": ({"LUT6": 12_000, "RAM32M": 100, "FDRE": 5_000, "RAMB36E1": 15, "RAMB18E1": 11, "DSP48E1": 40},
               {"LUT4": 20_000, "TRELLIS_FF": 5_500, "DP16KD": 60, "MULT18X18D": 40}),
    # LUT 50,000 (94 % > 80 %), DSP 300/220: not the 7020; ECP5 within every count
    "batch2": ({"LUT6": 50_000, "FDRE": 12_000, "RAMB36E1": 100, "DSP48E1": 300},
               {"LUT4": 70_000, "TRELLIS_FF": 20_000, "DP16KD": 150, "MULT18X18D": 150}),
    # the README's figures of upstream's netlist: LUT 21,821 + 4 x 49 RAM32M + 11 SRL16E =
    # 22,028; DSP 256/220: not the 7020; DP16KD 244/208 = 117.3 %, MULT18X18D 256/156 = 164.1 %
    "upstream": ({"LUT6": 21_821, "RAM32M": 49, "SRL16E": 11, "FDRE": 8_885, "RAMB36E1": 122, "DSP48E1": 256},
                 {"LUT4": 31_486, "TRELLIS_FF": 13_010, "DP16KD": 244, "MULT18X18D": 256}),
}
#: fmax (MHz) of the points that fit the ECP5
FMAX = {"block8": 50.0, "batch2": 40.0}
#: one pass's cycles (BATCH images), stand-ins: the design-space figures before PIPE_STAGES 3;
#: the expectations below are computed by hand from these
CYCLES = {"default": 10_158_484, "block8": 33_407_761, "batch2": 10_214_630, "block32": 4_378_864,
          "small-buffers": 10_195_466}
UPSTREAM_CYCLES = 10_176_827


def argument(name: str) -> str:
    return design_points().get(name, name)


def the_design(name: str) -> Design:
    return design("vta", argument(name), "default", None)


def seed_synth(d: Design, target: str, cells: dict[str, int]) -> Path:
    """A resources.json of these cells under the key the current sources give."""
    _, key = synth_cli.script_and_key(d, TARGETS[target])
    stat = {"modules": {f"\\{d.top}": {"num_cells_by_type": cells}}}
    rows, total = parse_stat(stat, d.top, TARGETS[target])
    doc = document(key, d.config, d.values, TARGETS[target], 1.0, rows, total, d.dut, d.top)
    path = synth_cli.out_dir() / f"{d.label}-{target}" / "resources.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    return path


def seed_timing(d: Design, fmax: float) -> Path:
    """timing.json of the recorded `small` run with this fmax, under the design's current key."""
    report, instances, _ = recorded()
    p = timing_cli.plan_design(d)
    doc = timing_cli.document_of(p, parse_report(report, "ap_clk", instances), instances,
                                 {"synth": 1.0, "pnr": 2.0, "total": 3.0}, False)
    doc["fmax_mhz"] = fmax
    p.run_dir.mkdir(parents=True, exist_ok=True)
    (p.run_dir / timing_cli.RESULT).write_text(json.dumps(doc))
    return p.run_dir / timing_cli.RESULT


@pytest.fixture
def caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(synth_cli.OUT_ENV, str(tmp_path / "synth"))
    monkeypatch.setenv(timing_cli.OUT_ENV, str(tmp_path / "timing"))
    return tmp_path


def seed(names: list[str]) -> None:
    for name in names:
        d = the_design(name)
        seed_synth(d, "xilinx", CELLS[name][0])
        seed_synth(d, "ecp5", CELLS[name][1])
        if name in FMAX:
            seed_timing(d, FMAX[name])


def absent_upstream(tmp_path: Path) -> str:
    """Upstream's profile with its netlist moved away (a machine without ../shared/upstream-vta/)."""
    text = (ROOT / "tb" / "duts" / "upstream-chisel" / "profile.yaml").read_text()
    moved = text.replace("sources: [../shared/upstream-vta/VTAShell.v]", "sources: [./VTAShell.v]")
    assert moved != text
    path = tmp_path / "upstream.yaml"
    path.write_text(moved)
    return str(path)


def run_of(names: list[str]) -> hardware.Run:
    return hardware.Run("full", 2, list(LAYER_NAMES), {n: (argument(n), CYCLES[n]) for n in names})


def by_name(hw: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in hw["points"]}


# --- figures ------------------------------------------------------------------------------------

def test_pass_macs_is_the_layer_tables() -> None:
    assert hardware.pass_macs("full", 16, 16, list(LAYER_NAMES)) == PASS_MACS
    assert hardware.pass_macs("full", 32, 32, list(LAYER_NAMES)) == PASS_MACS   # real channels
    assert hardware.pass_macs("full", 16, 16, ["C1", "C2"]) is None             # not a whole pass


@pytest.mark.parametrize("points, front", [
    # b and e tie (both kept), c is beaten by b, a and d are the two ends
    ({"a": (1.0, 5.0), "b": (2.0, 3.0), "c": (3.0, 4.0), "d": (4.0, 1.0), "e": (2.0, 3.0)},
     {"a", "b", "d", "e"}),
    # equal x, larger y: beaten; one point alone is the front
    ({"p": (5.0, 2.0), "q": (5.0, 3.0)}, {"p"}),
    ({"only": (1.0, 1.0)}, {"only"}),
    ({}, set()),
])
def test_pareto_front_on_hand_chosen_points(points: dict[str, tuple[float, float]], front: set[str]) -> None:
    assert hardware.pareto(points) == front


def test_crowded_labels_move_down_one_line_per_earlier_neighbour() -> None:
    # spans 100 x 100: within 3 of each other on both axes counts, 'far' is alone
    pts = {"a": (0.0, 0.0), "b": (2.0, 1.0), "c": (1.0, 3.0), "far": (100.0, 100.0)}
    assert [hardware._crowd(pts, n) for n in pts] == [0, 1, 2, 0]
    assert hardware._crowd({"only": (5.0, 5.0)}, "only") == 0   # no span: no division by zero


@pytest.mark.sim
def test_table_rows_from_seeded_caches(caches: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three design points whose every result is cached (HW=cached: nothing may run), upstream
    absent: resources, verdicts, fmax or its reason, and the derived figures by hand."""
    seed(["default", "block8", "batch2"])
    hw = hardware.collect(run_of(["default", "block8", "batch2"]), "cached", absent_upstream(caches), None)
    out = capsys.readouterr().out
    assert "cached (" in out and "running Yosys" not in out and "nextpnr on" not in out
    p = by_name(hw)
    b8 = p["block8"]
    assert b8["synth"]["xilinx"]["used"] == {"lut": 12_400, "ff": 5_000, "bram": 20.5, "dsp": 40}
    assert b8["synth"]["ecp5"]["used"] == {"lut": 20_000, "ff": 5_500, "bram": 60, "dsp": 40}
    assert b8["fits"] == {"xc7z020": True, "LFE5UM5G-85F": True}
    assert b8["fmax_mhz"] == 50.0 and not b8["no_fmax"]
    # 33,407,761 cycles at 50 MHz = 0.668155 s; 2 x 1,814,073,344 ops / 0.668155 s; 2 x 64 x 50 MHz
    assert b8["macs_per_image"] == PASS_MACS and b8["cycles_per_image"] == 33_407_761
    assert b8["time_ms"] == pytest.approx(668.15522)
    assert b8["gops"] == pytest.approx(5.4300956, rel=1e-6) and b8["peak_gops"] == pytest.approx(6.4)
    b2 = p["batch2"]
    # two images a pass: 10,214,630 / 2 = 5,107,315 cycles an image, at 40 MHz 127.682875 ms
    assert b2["cycles_per_image"] == 5_107_315 and b2["time_ms"] == pytest.approx(127.682875)
    assert b2["gops"] == pytest.approx(28.415296, rel=1e-6) and b2["peak_gops"] == pytest.approx(40.96)
    assert b2["fits"] == {"xc7z020": False, "LFE5UM5G-85F": True}
    assert b2["synth"]["xilinx"]["over"] == ["lut", "dsp"]
    d = p["default"]
    assert d["fits"] == {"xc7z020": True, "LFE5UM5G-85F": False}
    assert d["synth"]["xilinx"]["used"] == {"lut": 41_468, "ff": 9_823, "bram": 108.5, "dsp": 177}
    assert d["fmax_mhz"] is None and d["time_ms"] is None and d["gops"] is None
    assert d["no_fmax"] == "no fmax: does not fit LFE5UM5G-85F (DP16KD 104.3 %, MULT18X18D 195.5 %)"
    # upstream absent: one line, its point left out, the rest made
    up = p["upstream"]
    assert up["synth"] == {} and len(up["missing"]) == 1
    assert re.match(r"upstream: .*rtl\.sources\[0\]: \./VTAShell\.v: no such file.*: "
                    r"upstream's point is left out$", up["missing"][0]), up["missing"]
    assert hw["missing"] == up["missing"] and up["missing"][0] in out
    md = "\n".join(hardware.section(hw))
    assert ("| block8 | 8 | 1 | 64 | 12,400 | 5,000 | 20.5 | 40 | yes | 20,000 | 60 | 40 | yes | 50.00 | "
            "33,407,761 | 668.16 | 5.43 | 6.40 | 0.848 |") in md, md
    assert ("| batch2 | 16 | 2 | 512 | 50,000 | 12,000 | 100 | 300 | no | 70,000 | 150 | 150 | yes | 40.00 | "
            "5,107,315 | 127.68 | 28.42 | 40.96 | 0.694 |") in md, md
    assert ("| default | 16 | 1 | 256 | 41,468 | 9,823 | 108.5 | 177 | yes | 65,475 | 217 | 305 | no | "
            "no fmax: does not fit LFE5UM5G-85F (DP16KD 104.3 %, MULT18X18D 195.5 %) | 10,158,484 | "
            "- | - | - | - |") in md, md
    assert "- upstream: " in md and "Only cached results were used (HW=cached)" in md
    # the caption names the points of each pair of panels
    assert "only points with an fmax: block8, batch2;" in md
    assert "every point with cycles and resources: default, block8, batch2." in md
    assert "Not plotted (no resources or no cycles): upstream." in md


@pytest.mark.sim
def test_upstream_present_is_a_point_of_the_cycles_panels(caches: Path) -> None:
    """Upstream's netlist present: its resources from the seeded cache, its cycles from its
    `make workloads` report; it does not fit the ECP5, so it has no fmax and is plotted at
    equal clock only."""
    from tb.tests.test_duts import need_netlist
    need_netlist()
    seed(["block8"])
    d = design("upstream-chisel", None, "default", None)
    seed_synth(d, "xilinx", CELLS["upstream"][0])
    seed_synth(d, "ecp5", CELLS["upstream"][1])
    report = caches / "workloads-upstream-chisel" / "report.json"
    report.parent.mkdir()
    report.write_text(json.dumps({"scale": "full", "configs": {"upstream_chisel": {
        "network_cycles": {"1": 12_116_308, "2": UPSTREAM_CYCLES}}}}))
    hw = hardware.collect(run_of(["block8"]), "cached", hardware.UPSTREAM, report, say=lambda _: None)
    up = by_name(hw)["upstream"]
    assert up["upstream"] and up["cycles_per_image"] == UPSTREAM_CYCLES and up["macs_per_cycle"] == 256
    assert up["synth"]["xilinx"]["used"] == {"lut": 22_028, "ff": 8_885, "bram": 122, "dsp": 256}
    assert up["fits"] == {"xc7z020": False, "LFE5UM5G-85F": False}
    assert up["no_fmax"] == "no fmax: does not fit LFE5UM5G-85F (DP16KD 117.3 %, MULT18X18D 164.1 %)"
    assert hw["missing"] == []
    assert "every point with cycles and resources: block8, upstream." in hardware.caption(hw)
    out = caches / "out"
    out.mkdir()
    assert hardware.write(out, hw) == [out / hardware.PLOT]
    assert (out / hardware.PLOT).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.sim
def test_the_plot_is_written_with_every_panel(caches: Path) -> None:
    seed(["default", "block8", "batch2"])
    hw = hardware.collect(run_of(["default", "block8", "batch2"]), "cached", absent_upstream(caches), None,
                          say=lambda _: None)
    out = caches / "out"
    out.mkdir()
    assert hardware.write(out, hw) == [out / hardware.PLOT]
    assert (out / hardware.PLOT).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hw_0_runs_nothing_and_says_so(tmp_path: Path) -> None:
    hw = hardware.collect(run_of(["default", "block8"]), "0", hardware.UPSTREAM, None,
                          say=lambda line: pytest.fail(f"HW=0 printed {line!r}"))
    assert hw["setting"] == "0" and hw["points"] == []
    md = "\n".join(hardware.section(hw))
    assert "Hardware figures were not run (HW=0): no synthesis, fmax or time per pass" in md
    (tmp_path / hardware.PLOT).write_bytes(b"old")
    assert hardware.write(tmp_path, hw) == [] and not (tmp_path / hardware.PLOT).exists()


# --- bad input ------------------------------------------------------------------------------------

@pytest.mark.sim
def test_a_corrupt_a_malformed_and_a_missing_document_are_one_line_each(caches: Path) -> None:
    """block8's Xilinx result unreadable, default's ECP5 result under the right key without its
    totals, batch2's not cached at all (HW=cached): one line each, naming the point and the
    file; the others' figures are made and the report lists what is missing."""
    seed(["default", "block8"])
    corrupt = synth_cli.out_dir() / "block8-xilinx" / "resources.json"
    corrupt.write_text("{not json")
    malformed = synth_cli.out_dir() / "default-ecp5" / "resources.json"
    doc = json.loads(malformed.read_text())
    del doc["total"]
    malformed.write_text(json.dumps(doc))
    lines: list[str] = []
    hw = hardware.collect(run_of(["default", "block8", "batch2"]), "cached", absent_upstream(caches), None,
                          say=lines.append)
    miss = hw["missing"]
    assert any(m.startswith(f"block8: {corrupt}: unreadable synthesis result (") for m in miss), miss
    assert f"default: {malformed}: malformed synthesis result (KeyError: 'total')" in miss, miss
    b2 = synth_cli.out_dir() / "batch2-xilinx" / "resources.json"
    assert (f"batch2: {b2}: not in the cache: make synth CONFIG=models/workloads/designs/batch2.json "
            "TARGET=xilinx") in miss, miss
    assert all(m in lines for m in miss) and all("\n" not in m for m in miss)
    p = by_name(hw)
    # block8's ECP5 result and fmax are still there; default's Xilinx too
    assert p["block8"]["fmax_mhz"] == 50.0 and "xilinx" not in p["block8"]["synth"]
    assert p["default"]["fits"] == {"xc7z020": True}
    assert p["default"]["no_fmax"] == "no fmax: no ECP5 synthesis result to judge the fit by"
    md = "\n".join(hardware.section(hw))
    assert "Missing figures" in md and all(f"- {m}" in md for m in miss)


@pytest.mark.sim
def test_a_yosys_failure_is_one_line_and_the_rest_is_made(caches: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """HW=1: block8's Xilinx result is unreadable (one line naming it), so it is synthesized
    again; Yosys stops (a stand-in): one line naming the point, the run directory and the
    command; its ECP5 figures and fmax are still made from the cache."""
    seed(["block8"])
    corrupt = synth_cli.out_dir() / "block8-xilinx" / "resources.json"
    corrupt.write_text("")
    calls: list[str] = []
    lines: list[str] = []

    def failing(d: Design, target: str, out: Path | None = None) -> dict[str, Any]:
        calls.append(f"{d.label}-{target}")
        raise YosysError("yosys stopped (ERROR: out of memory); log: yosys.log")

    monkeypatch.setattr(synth_cli, "synthesize_design", failing)
    hw = hardware.collect(run_of(["block8"]), "1", absent_upstream(caches), None, say=lines.append)
    assert calls == ["block8-xilinx"]
    assert f"block8: {corrupt}: unreadable, synthesizing again" in capsys.readouterr().out
    run_dir = synth_cli.out_dir() / "block8-xilinx"
    assert (f"block8: {run_dir}: make synth CONFIG=models/workloads/designs/block8.json "
            "TARGET=xilinx failed: yosys stopped (ERROR: out of memory); log: yosys.log") in hw["missing"]
    assert by_name(hw)["block8"]["fmax_mhz"] == 50.0 and hw["missing"][0] in lines


@pytest.mark.sim
def test_a_nextpnr_failure_is_the_points_fmax_reason(caches: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HW=1: block8 fits the ECP5 by its counts but its timing result is absent, so it is placed
    and routed; nextpnr stops (a stand-in): no fmax, and the reason is that one line."""
    from tb.timing.nextpnr import NextpnrError
    seed(["block8"])
    timing = timing_cli.plan_design(the_design("block8")).run_dir
    (timing / timing_cli.RESULT).unlink()

    def failing(plan: Any) -> dict[str, Any]:
        raise NextpnrError("nextpnr stopped (ERROR: Unable to place cell 'x'); log: nextpnr.log")

    monkeypatch.setattr(timing_cli, "run", failing)
    hw = hardware.collect(run_of(["block8"]), "1", absent_upstream(caches), None, say=lambda _: None)
    b8 = by_name(hw)["block8"]
    line = (f"block8: {timing}: make timing CONFIG=models/workloads/designs/block8.json failed: "
            "nextpnr stopped (ERROR: Unable to place cell 'x'); log: nextpnr.log")
    assert b8["fmax_mhz"] is None and b8["no_fmax"] == f"no fmax: {line}" and line in hw["missing"]
    assert b8["time_ms"] is None and b8["fits"] == {"xc7z020": True, "LFE5UM5G-85F": True}


@pytest.mark.parametrize("report, said", [
    (None, "report.json: [Errno 2] No such file or directory"),
    ("{", "report.json: Expecting property name"),
    (json.dumps({"scale": "full", "cases": [{"config": "default", "layer": "C1", "vt": 2}],
                 "configs": {"default": {"network_cycles": {"2": 1}}}}),
     "report.json: one configuration: no design space"),
])
def test_the_hardware_command_refuses_a_run_it_cannot_read(tmp_path: Path, report: str | None, said: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    if report is not None:
        (tmp_path / "report.json").write_text(report)
    assert hardware.main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"python -m tb.workloads.hardware: {tmp_path}/") and said in err, err
    assert err.count("\n") == 1 and not (tmp_path / hardware.PLOT).exists()


# --- through make workloads' module ------------------------------------------------------------

def fake_run_config(sim: str, arg: str, cfg: Any, jobs: dict[str, Any], parallel: int, dut: str = "") -> None:
    """The simulation stood in for: every job passes with the model's predicted figures."""
    for case, _ in jobs.values():
        case.measured, case.passed = dict(case.predicted), True


@pytest.mark.sim
@pytest.mark.parametrize("setting", ["0", "cached"])
def test_make_workloads_module_adds_the_section(caches: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str], setting: str) -> None:
    """tb.workloads.run with two configurations (scaled-down layers, the simulation stood in
    for): HW=0 says in the report and on stdout that the figures were not run, with no plot;
    HW=cached gives the seeded figures, the cycles of a pass summed by hand from the report's
    own per-layer cycles."""
    monkeypatch.setattr(workloads, "run_config", fake_run_config)
    if setting == "cached":
        seed(["default", "block8"])
    out = caches / "w"
    assert workloads.main(["--scale", "small", "--vt", "2", "--config", "default,block8", "--hw", setting,
                           "--out", str(out)]) == 0
    text = capsys.readouterr().out
    md = (out / "report.md").read_text()
    report = json.loads((out / "report.json").read_text())
    assert hardware.SECTION in md and report["hardware"]["setting"] == setting
    assert report["configs"]["block8"]["argument"] == "models/workloads/designs/block8.json"
    assert report["configs"]["default"]["argument"] == "default"
    if setting == "0":
        assert "Hardware figures were not run (HW=0)" in md
        assert "hardware: hardware figures were not run" in text
        assert not (out / hardware.PLOT).exists()
        return
    occurrences = {"C1": 1, "C2": 4, "C3": 1, "C4": 1, "C5": 3, "C6": 1, "C7": 1, "C8": 3, "C9": 1, "C10": 1,
                   "C11": 3, "dense": 1}
    cycles = sum(occurrences[c["layer"]] * c["measured"]["cycles"] for c in report["cases"]
                 if c["config"] == "block8")
    b8 = by_name(report["hardware"])["block8"]
    assert b8["cycles_per_image"] == cycles and b8["fmax_mhz"] == 50.0
    assert b8["time_ms"] == pytest.approx(cycles / 50e3)
    assert (out / hardware.PLOT).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "![Pareto](pareto.png)" in md
    assert "hardware missing: upstream: " in text and "hardware 3/3: upstream" in text


# --- README's commands -----------------------------------------------------------------------------

#: README's design-space commands (section "Workloads"), as written there
MAKE_COMMANDS = {
    "make workloads CONFIG=designs VT=2 OUT=build/workloads-designs": "1",
    "make workloads CONFIG=designs VT=2 HW=0 OUT=build/workloads-designs": "0",
    "make workloads CONFIG=designs VT=2 HW=cached OUT=build/workloads-designs": "cached",
}
HARDWARE_COMMAND = ".venv/bin/python -m tb.workloads.hardware build/workloads-designs"


def readme() -> str:
    return (ROOT / "README.md").read_text()


@pytest.mark.parametrize("command, setting", MAKE_COMMANDS.items())
def test_readme_make_workloads_commands_reach_the_module(command: str, setting: str) -> None:
    """Each `make workloads CONFIG=designs` line as written (its simulation takes a quarter of an
    hour or more: README's figure), through make -n: the knobs reach tb.workloads.run."""
    assert re.search(rf"^{re.escape(command)}\s+#", readme(), re.M), command
    proc = make("-n", *command.split()[1:], timeout=60)
    assert proc.returncode == 0, proc.stderr
    recipe = " ".join(proc.stdout.replace("\\\n", " ").split())
    assert "-m tb.workloads.run" in recipe and "--config designs" in recipe and "--vt 2" in recipe
    assert f"--hw {setting} " in recipe and "--out build/workloads-designs" in recipe, recipe


def test_a_bad_hw_is_one_line() -> None:
    proc = make("workloads", "HW=2", "-n")
    assert proc.returncode == 2 and "HW=2: must be 0, 1 or cached" in proc.stderr, proc.stderr


def scratch(tmp_path: Path) -> Path:
    """A directory to type README's command in: the checkout's .venv, tb and models linked."""
    work = tmp_path / "work"
    work.mkdir()
    for name in (".venv", "tb", "models"):
        (work / name).symlink_to(ROOT / name)
    return work


def designs_report(work: Path) -> Path:
    """build/workloads-designs as `make workloads CONFIG=designs VT=2 HW=0` leaves it (the
    cycles of README's design-space table), in the scratch directory."""
    out = work / "build" / "workloads-designs"
    out.mkdir(parents=True)
    names = ["default", *design_points()]
    configs = {n: {"argument": hardware.argument_of(argument(n)),
                   "network_cycles": {"1": None, "2": CYCLES[n]}} for n in names}
    cases = [{"config": n, "layer": layer, "vt": 2} for n in names for layer in LAYER_NAMES]
    (out / "report.json").write_text(json.dumps({"scale": "full", "configs": configs, "cases": cases,
                                                 "hardware": {"setting": "0"}}))
    (out / "report.md").write_text(f"# Workloads\n\nthe simulation's tables\n\n{hardware.SECTION}\n\n"
                                   "Hardware figures were not run (HW=0): ...\n")
    return out


@pytest.mark.sim
def test_readme_hardware_command_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """README's `python -m tb.workloads.hardware` line exactly as written, typed in a scratch
    directory holding a finished HW=0 run, against caches seeded for every design point (and
    upstream's when its netlist is here): nothing is synthesized or placed, the section and
    report.json are replaced, pareto.png is written; block32 and small-buffers, left out of the
    caches' timing (they do not fit), have their reason."""
    assert re.search(rf"^{re.escape(HARDWARE_COMMAND)}\s+#", readme(), re.M), HARDWARE_COMMAND
    monkeypatch.setenv(synth_cli.OUT_ENV, str(tmp_path / "synth"))
    monkeypatch.setenv(timing_cli.OUT_ENV, str(tmp_path / "timing"))
    cells = dict(CELLS, **{"block32": CELLS["default"], "small-buffers": CELLS["default"]})
    for name in ["default", *design_points()]:
        d = the_design(name)
        seed_synth(d, "xilinx", cells[name][0])
        seed_synth(d, "ecp5", cells[name][1])
        if name in FMAX:
            seed_timing(d, FMAX[name])
    netlist = (ROOT / ".." / "shared" / "upstream-vta" / "VTAShell.v").is_file()
    if netlist:
        d = design("upstream-chisel", None, "default", None)
        seed_synth(d, "xilinx", CELLS["upstream"][0])
        seed_synth(d, "ecp5", CELLS["upstream"][1])
    work = scratch(tmp_path)
    out = designs_report(work)
    # every result the command reads is cached (else it would synthesize for real): checked first
    run = hardware.run_of(json.loads((out / "report.json").read_text()))
    assert run.configs["batch2"][0] == design_points()["batch2"]     # the design point, not shipped batch2
    cached = hardware.collect(run, "cached", hardware.UPSTREAM, None, say=lambda _: None)
    assert not [m for m in cached["missing"] if "not in the cache" in m or "stale" in m], cached["missing"]
    proc = subprocess.run(HARDWARE_COMMAND.split(), cwd=work, capture_output=True, text=True, timeout=300,
                          env=make_env(**{synth_cli.OUT_ENV: os.environ[synth_cli.OUT_ENV],
                                          timing_cli.OUT_ENV: os.environ[timing_cli.OUT_ENV]}))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "running Yosys" not in proc.stdout and "nextpnr on" not in proc.stdout, proc.stdout
    md = (out / "report.md").read_text()
    assert md.startswith("# Workloads\n\nthe simulation's tables\n\n") and md.count(hardware.SECTION) == 1
    assert "Hardware figures were not run" not in md
    hw = json.loads((out / "report.json").read_text())["hardware"]
    p = by_name(hw)
    assert p["block8"]["time_ms"] == pytest.approx(668.15522)
    assert p["batch2"]["time_ms"] == pytest.approx(127.682875)
    for name in ("default", "block32", "small-buffers"):
        assert p[name]["no_fmax"] == "no fmax: does not fit LFE5UM5G-85F (DP16KD 104.3 %, MULT18X18D 195.5 %)"
    assert (out / hardware.PLOT).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    upstream_report = "build/workloads-upstream-chisel/report.json: absent: no cycles"
    if netlist:
        assert p["upstream"]["fits"] == {"xc7z020": False, "LFE5UM5G-85F": False}
        assert any(upstream_report in m for m in hw["missing"]), hw["missing"]
    else:
        assert "upstream's point is left out" in p["upstream"]["missing"][0]
