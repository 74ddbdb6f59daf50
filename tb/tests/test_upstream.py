"""The upstream Chisel VTA through the real testbench (`make upstream` in small): a passing
directed vector, vectors its profile rules out (each named with its difference), the waived
4 KiB rule reported, random programs generated within its limits passing on a memory that
never back-pressures, its one RTL bug (FINDINGS.md 1) caught and shrunk on that DUT, and the
register-map and host-timing flows held to what its profile states (FINDINGS.md 10).
Verilator, fast mode; the netlist's build is shared with `make upstream` (about 50 s the
first time)."""
from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tb import run
from tb.launch import launch
from tb.paths import ROOT
from tb.tests.test_duts import need_netlist
from tb.tests.test_make import make
from tb.triage.shrink import shrink_dir

VECTORS = ROOT / "vectors"
REPRO = ROOT / "tb" / "duts" / "upstream-chisel" / "repro" / "wdata-unstable"
#: directed vectors and what the upstream profile makes of each
PASSES = ("default_vthread_blocked_gemm", "default_pipeline_tokens", "default_gemm_loops_factors")
EXCLUDED = {"default_alu_overlap_in_order": "isa.alu-mul", "default_layer": "isa.load-acc8",
            "default_pads_all15": "store.out-buffer", "gemm_basic": "configuration"}


def run_upstream(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, list]:
    junit = tmp_path / "junit.xml"
    status = run.main(["--sim", "verilator", "--dut", "upstream-chisel", "--junit", str(junit), *args])
    return status, capsys.readouterr().out, list(ET.parse(junit).getroot())


def test_upstream_directed(tmp_path, capsys, monkeypatch):
    need_netlist()
    monkeypatch.setattr(launch, "FAILURES", tmp_path / "failures")
    vectors = [str(VECTORS / name) for name in (*PASSES, *EXCLUDED)]
    status, out, cases = run_upstream(tmp_path, capsys, "--vector", *vectors)
    assert status == 0, out
    assert f"{len(PASSES)} passed, 0 failed, {len(EXCLUDED)} excluded" in out, out
    assert all(re.search(rf"^verilator +vec-{name}-none .* PASS ", out, re.M) for name in PASSES), out
    for name, why in EXCLUDED.items():
        assert f"  vec-{name}-none: {why}" in out, out
    assert sum(c.find("skipped") is not None for c in cases) == len(EXCLUDED)
    assert "finding (upstream-chisel, waived protocol.4k-boundary)" in out


def test_upstream_random_programs_pass_without_back_pressure(tmp_path, capsys, monkeypatch):
    """Within the profile's limits the only divergence left needs WREADY low (FINDINGS.md 1):
    on profile none every program must give the golden model's bytes."""
    need_netlist()
    monkeypatch.setattr(launch, "FAILURES", tmp_path / "failures")
    status, out, cases = run_upstream(tmp_path, capsys, "--test", "random", "--seed", "1", "--count", "3",
                                      "--profile", "none")
    assert len(cases) == 3 and status == 0, out


def test_finding_1_is_caught_and_shrinks_on_upstream(tmp_path, capsys, monkeypatch):
    """The committed reproducer fails the AXI payload-stability rule; the shrinker reruns it on
    upstream (not rtl/) and its result names the DUT."""
    need_netlist()
    monkeypatch.setattr(launch, "FAILURES", tmp_path / "failures")
    status, out, _ = run_upstream(tmp_path, capsys, "--vector", str(REPRO))
    assert status == 1 and "[payload-unstable]" in out, out
    saved = tmp_path / "saved"
    shutil.copytree(REPRO, saved)
    outcome = shrink_dir(saved, rounds=1, log=lambda _: None)
    assert outcome.signature.rule == "payload-unstable" and outcome.after.insns <= outcome.before.insns
    side = json.loads((saved / "shrunk" / "tb_uvm.json").read_text())
    assert side["dut"] == "upstream-chisel" and "--dut upstream-chisel" in side["repro"]


def test_a_back_to_back_job_does_not_inherit_a_failure(tmp_path, capsys, monkeypatch):
    """b2b-s5 trips FINDINGS.md 1; b2b-s6, launched after it in the same chain, must be judged
    on its own (the checkers latch a finding until reset: FINDINGS.md 5)."""
    need_netlist()
    monkeypatch.setattr(launch, "FAILURES", tmp_path / "failures")
    status, out, _ = run_upstream(tmp_path, capsys, "--test", "back2back", "--seed", "5")
    rows = {line.split()[1]: line for line in out.splitlines() if line.startswith("verilator  b2b-")}
    assert "FAIL (protocol)" in rows["b2b-s5-light"] and "PASS" in rows["b2b-s6-light"], out


def test_make_workloads_on_upstream(tmp_path):
    """`make workloads DUT=upstream-chisel` as the README documents it, on two scaled-down
    layers: lowered in TVM's form, every one runs on upstream's configuration and gives the
    golden model's bytes; the report names the DUT and takes its work from the model."""
    need_netlist()
    proc = make("workloads", "DUT=upstream-chisel", "SCALE=small", "LAYERS=C2,dense", "VT=1,2",
                f"OUT={tmp_path}", timeout=600)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "4 of 4 passed, 0 excluded" in text, text[-3000:]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["dut"] == "upstream-chisel" and set(report["configs"]) == {"upstream_chisel"}
    for case in report["cases"]:
        assert case["passed"] and not case["excluded"] and "--dut upstream-chisel" in case["repro"], case
        assert case["measured"]["counters"] == case["predicted"]["counters"]  # the model's work
    assert "on DUT upstream-chisel" in (tmp_path / "report.md").read_text()


def test_workloads_leave_out_what_the_profile_rules_out(tmp_path, capsys, monkeypatch):
    """A layer the profile rules out is reported EXCLUDED with its reason, not run and not
    failed (the rule itself stands in for one: no shipped layer breaks upstream's); a
    configuration other than the profile's is a one-line error."""
    need_netlist()
    from tb.workloads import run as workloads

    def rule(job, config, spec):
        return ["isa.example: stands in for a difference"] if job.name.endswith("vt2") else []

    monkeypatch.setattr(workloads, "job_reasons", rule)
    status = workloads.main(["--dut", "upstream-chisel", "--scale", "small", "--layers", "dense",
                             "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0 and "1 of 2 passed, 1 excluded" in out, out
    md = (tmp_path / "report.md").read_text()
    assert re.search(r"^\| dense \| [^|]+ \| 2 \| [^|]+ \| EXCLUDED \|", md, re.M), md
    assert "- EXCLUDED dense vt=2: isa.example: stands in for a difference" in md, md
    with pytest.raises(SystemExit) as exc:
        workloads.main(["--dut", "upstream-chisel", "--config", "small"])
    assert exc.value.code == 2
    assert "--dut upstream-chisel is built for upstream_chisel" in capsys.readouterr().err


def test_an_excluded_vector_run_anyway_fails_with_the_designs_own_assertion(tmp_path, capsys, monkeypatch):
    """--ignore-differences runs what the profile rules out: default_layer's LOAD ACC_8BIT is
    an instruction upstream's fetch does not decode (isa.load-acc8), and the job fails with
    the assertion the netlist prints for it (FetchVME64.scala:161), read from the log by
    tb/uvm/checkers/dutlog.py, before the watchdog's stall window runs out."""
    need_netlist()
    monkeypatch.setattr(launch, "FAILURES", tmp_path / "failures")
    status, out, _ = run_upstream(tmp_path, capsys, "--vector", str(VECTORS / "default_layer"),
                                  "--ignore-differences")
    assert status == 1 and "0 passed, 1 failed in" in out, out
    assert re.search(r"FAILED verilator vec-default_layer-none: \[assertion\] the DUT's own assertion "
                     r"'-F- Fetch: Unknown instruction type' at FetchVME64\.scala:161 failed", out), out
    assert "[1] assertion | - | FetchVME64.scala:161" in out, out


def test_register_flows_on_upstream(tmp_path, capsys, monkeypatch):
    """regmap and hostvar pass on upstream, checking what its profile states, and the run
    names every claim left out with its reason. Without the profile's host.cycles-writable
    (a copy of the profile: same design, same build) the register map fails on CYCLES, the
    upstream difference FINDINGS.md 10 records."""
    need_netlist()
    monkeypatch.setattr(launch, "FAILURES", tmp_path / "failures")
    status, out, cases = run_upstream(tmp_path, capsys, "--test", "regmap")
    assert status == 0 and len(cases) == 1, out
    assert "not checked (upstream-chisel, regmap): cycles-read-only. Reason: host.cycles-writable: " in out
    assert "not checked (upstream-chisel, regmap): byte-strobes. Reason: host.wstrb-ignored: " in out
    assert re.search(r"^not checked \(upstream-chisel, regmap\): reset-values, .*insn-count-high.* "
                     r"Reason: rtl/README.md's own claim", out, re.M), out
    status, out, cases = run_upstream(tmp_path, capsys, "--test", "hostvar")
    assert status == 0 and len(cases) == 1, out
    assert "w-first. Reason: host.aw-before-w: " in out, out
    profile = ROOT / "tb" / "duts" / "upstream-chisel" / "profile.yaml"
    text = profile.read_text()
    start = text.index("  - name: host.cycles-writable")
    copy = tmp_path / "upstream-cycles.yaml"
    copy.write_text(text[:start] + text[text.index("  - name:", start + 1):])
    status = run.main(["--sim", "verilator", "--dut", str(copy), "--test", "regmap"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "[register] CYCLES (0x0004) reads 0xffffffff, expected 0x00000000 (CYCLES is read-only)" \
        in out, out
