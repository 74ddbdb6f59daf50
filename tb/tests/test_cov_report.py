"""Coverage files, waivers, testplan, steering and the report on a small synthetic data set."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from models.gen import generate
from models.spec.configs import load_config
from tb.cov import report, steer, testplan, waivers
from tb.cov.codecov import figures, parse_dat
from tb.uvm.cov import data
from tb.uvm.cov.points import all_bins

RTL_FILE = Path(__file__).resolve().parents[2] / "rtl" / "vta_top.v"


def _dat(path: Path, points: list[tuple[str, int]], comments: list[str] | None = None) -> Path:
    lines = ["# SystemC::Coverage-3"]
    for n, (page, hits) in enumerate(points):
        comment = comments[n] if comments else f"p{n}"
        key = f"\x01t\x02x\x01page\x02{page}/vta_top\x01f\x02{RTL_FILE}\x01l\x02{n + 1}\x01o\x02{comment}"
        lines.append(f"C '{key}' {hits}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_merge_sums_and_rejects_unknown_bins() -> None:
    a, b = data.empty(), data.empty()
    a["gemm.reset"]["reset"] = 2
    b["gemm.reset"]["reset"] = 3
    assert data.merge([a, b])["gemm.reset"]["reset"] == 5
    with pytest.raises(ValueError, match="unknown bin"):
        data.merge([{"gemm.reset": {"sometimes": 1}}])


def test_waiver_of_nonexistent_bin_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "w.yaml"
    f.write_text("functional:\n- bin: gemm.reset/sometimes\n  reason: no such bin\n")
    with pytest.raises(waivers.WaiverError, match="no bin"):
        waivers.load(f)
    f.write_text("functional:\n- bin: gemm.reset/reset\n  reason: ''\n")
    with pytest.raises(waivers.WaiverError, match="reason"):
        waivers.load(f)


def test_shipped_waivers_and_testplan_name_real_bins() -> None:
    assert set(waivers.load()) <= all_bins()
    assert testplan.load()


def test_code_figures_from_dat(tmp_path: Path) -> None:
    pts = parse_dat(_dat(tmp_path / "c.dat", [("v_line", 1), ("v_line", 0), ("v_toggle", 4)]))
    f = figures(pts)
    assert f["line"] == {"covered": 1, "total": 2, "percent": 50.0}
    assert f["toggle"]["percent"] == 100.0


def test_report_on_synthetic_data(tmp_path: Path) -> None:
    d = tmp_path / "data"
    counts = data.empty()
    for p in counts:
        for b in counts[p]:
            counts[p][b] = 1
    counts["gemm.reset"]["accumulate"] = 0
    data.write(d / "t1.json", "t1", ["vec-x"], counts)
    (d / "run.json").write_text(json.dumps({"results": {"vec": [1, 0]},
                                            "history": [{"programs": 0, "percent_hit": 50.0}]}))
    wf = tmp_path / "w.yaml"
    wf.write_text("{}\n")
    s = report.build_report(d, tmp_path / "out", wf)
    assert {"functional", "line", "toggle"} <= set(s)
    assert s["unhit"] == ["gemm.reset/accumulate"]
    assert s["functional"] < 100.0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["functional"] == s["functional"]
    page = (tmp_path / "out" / "index.html").read_text()
    assert "gemm.reset" in page and "UNHIT" in page
    assert (tmp_path / "out" / "coverage_vs_programs.png").exists()
    wf.write_text("functional:\n- bin: gemm.reset/accumulate\n  reason: test\n")
    assert report.build_report(d, tmp_path / "out2", wf)["functional"] == 100.0


def test_testplan_status(tmp_path: Path) -> None:
    tp = testplan.Testpoint("x", "3", "gemm", ["vec"], ["gemm.reset"])
    counts = data.empty()
    counts["gemm.reset"]["reset"] = 1
    testplan.evaluate([tp], counts, set(), {"vec": (2, 0)})
    assert tp.status == "open" and tp.missing == ["gemm.reset/accumulate unhit"]
    testplan.evaluate([tp], counts, {("gemm.reset", "accumulate")}, {"vec": (2, 0)})
    assert tp.status == "pass"
    testplan.evaluate([tp], counts, set(), {"vec": (1, 1)})
    assert tp.status == "fail"


def test_steering_aims_at_the_unhit_bin() -> None:
    knobs, profile, targets = steer.pick([("alu.op_x_imm", "MUL/imm")], random.Random(0))
    assert targets == [("alu.op_x_imm", "MUL/imm")]
    assert knobs is not None
    assert knobs.use_imm_prob == 1.0 and knobs.alu_op_weights == (0.0, 0.0, 0.0, 0.0, 1.0)
    assert steer.pick([("host.registers", "read/CTRL")], random.Random(0)) == (None, None, [])
    vector = generate(7, load_config("small"), knobs)
    assert vector.expect is not None


def test_toggle_exclusions(tmp_path: Path) -> None:
    d = tmp_path / "data"
    data.write(d / "t1.json", "t1", [], data.empty())
    _dat(d / "t1.dat", [("v_toggle", 3), ("v_toggle", 0), ("v_toggle", 0)],
         ["cycles[0]:0->1", "cycles[31]:0->1", "other[31]:0->1"])
    wf = tmp_path / "w.yaml"
    wf.write_text("code:\n- file: vta_top.v\n  signal: cycles\n  bits: 20-31\n  reason: 2^31 cycles\n")
    s = report.build_report(d, tmp_path / "out", wf)
    assert s["toggle_before_exclusions"] == pytest.approx(33.33)
    assert s["toggle"] == 50.0 and s["toggle_excluded_points"] == 1
    wf.write_text("code:\n- file: vta_top.v\n  signal: nosuch\n  reason: typo\n")
    with pytest.raises(ValueError, match="matches no toggle point"):
        report.build_report(d, tmp_path / "out2", wf)


def test_steering_targets_fall_back_to_random_only_holes(tmp_path: Path) -> None:
    from tb.cov.regression import targets

    full, partial = data.empty(), data.empty()
    for p in full:
        for b in full[p]:
            full[p][b] = 1
    partial["gemm.reset"]["reset"] = 1
    data.write(tmp_path / "fixed.json", "fixed", [], full)
    data.write(tmp_path / "random.json", "random", [], partial)
    got = targets(tmp_path, {tmp_path / "fixed.json"}, set())
    assert ("gemm.reset", "accumulate") in got and ("gemm.reset", "reset") not in got
    partial["gemm.reset"]["accumulate"] = 0
    full["gemm.reset"]["accumulate"] = 0
    data.write(tmp_path / "fixed.json", "fixed", [], full)
    assert targets(tmp_path, {tmp_path / "fixed.json"}, set()) == [("gemm.reset", "accumulate")]


def test_a_costly_steered_program_stands_for_the_bins_it_aims_at() -> None:
    unhit = [("uop.iter_max", f"{op}/{f}/{v}") for op in ("gemm", "alu") for f in ("iter_out", "iter_in")
             for v in ("1000+", "max")] + [("gemm.reset", "reset")]
    alike = steer.aimed_alike(("uop.iter_max", "alu/iter_in/max"), unhit)
    assert sorted(alike) == sorted(b for b in unhit if b[1].startswith("alu/"))
    assert steer.aimed_alike(("program.length", "1000+"), unhit) == []
