"""Failures as data (tb/rules/failure.py, tb/plan/saved.py): the record every checker fills
round-trips through JSON, a malformed one is one line naming the field, the in-simulation
checkers' findings carry their rule and module, and the saved failure (tb_uvm.json) is one
typed record that is written and read back unchanged, with the mode a field."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tb.launch.launch import record_repro
from tb.paths import ROOT
from tb.plan.jobs import Job, Results
from tb.plan.saved import SAVED_FILE, SavedError, SavedFailure
from tb.rules.failure import KINDS, NONE, Failure, FailureError, form_of, shape
from tb.rules.liveness import LIVE_RULES, live_findings
from tb.rules.ordering import ORDER_RULES, order_findings
from tb.rules.signature import Signature, signature


def handles(**values: int) -> SimpleNamespace:
    """A checker instance as cocotb shows it: one handle with ``.value`` per signal."""
    return SimpleNamespace(**{k: SimpleNamespace(value=v) for k, v in values.items()})


def test_the_record_round_trips_and_old_records_lack_only_fields() -> None:
    f = Failure("protocol", "AXI protocol violation ...", 77, rule="wlast", module="m_axi_gmem",
                channel="W")
    assert Failure.from_json(json.loads(json.dumps(f.to_json()))) == f
    assert signature({"failures": [f.to_json()]}) == Signature("protocol", "m_axi_gmem", "wlast", "W channel")
    old = Failure.from_json({"kind": "register", "cycle": 3, "message": "CTRL reads 0x1"})
    assert (old.rule, old.module, old.channel, old.form) == (NONE,) * 4
    assert f.at(5).cycle == 5 and str(f.at(5)).startswith("[protocol] cycle 5: ")
    with pytest.raises(FailureError, match="unknown failure kind"):
        Failure("oops", "m")
    assert set(KINDS) >= {"scoreboard", "protocol", "ordering", "liveness", "watchdog", "error"}


@pytest.mark.parametrize("raw, text", [
    ([], "failure: must be an object, got list"),
    ({"kind": "nope", "message": "m"}, "failure: kind must be one of scoreboard"),
    ({"kind": "register"}, "failure: message must be a string, got None"),
    ({"kind": "register", "message": "m", "cycle": "3"}, "failure: cycle must be an integer, got '3'"),
    ({"kind": "register", "message": "m", "module": 1}, "failure: module must be a string, got 1"),
    ({"kind": "register", "message": "m", "why": 1}, "failure: unknown key(s) why (known: "),
])
def test_a_malformed_record_is_one_line(raw: object, text: str) -> None:
    with pytest.raises(FailureError) as exc:
        Failure.from_json(raw)
    assert text in str(exc.value) and "\n" not in str(exc.value)


def test_checker_findings_carry_rule_and_module() -> None:
    """The ordering and liveness checkers' latches decoded by their rule tables: the fields
    come from the codes, not from the message."""
    [order] = order_findings(handles(violation=1, rule=3, which=2, value0=1, value1=0, vcycle=9))
    assert (order.kind, order.rule, order.module, order.cycle) == ("ordering", ORDER_RULES[3],
                                                                   "store module", 9)
    [done] = order_findings(handles(violation=1, rule=1, which=0, value0=1, value1=0, vcycle=4))
    assert (done.rule, done.module) == ("done-early", NONE)
    [live] = live_findings(handles(violation=1, rule=1, which=1, value0=3, value1=40, vcycle=5))
    assert (live.kind, live.rule, live.module) == ("liveness", LIVE_RULES[1], "load read client")
    [tok] = live_findings(handles(violation=1, rule=7, which=0, value0=1, value1=99, vcycle=5))
    assert (tok.rule, tok.module) == (LIVE_RULES[7], "L2C token counter")
    assert order_findings(handles(violation=0)) == []


def test_forms_and_shapes() -> None:
    assert form_of("ALU MAX use_imm imm=-3") == "ALU MAX imm"
    assert form_of("GEMM reset uop_bgn=0") == "GEMM reset"
    assert form_of("no instruction here") == NONE
    assert shape("CTRL reads 0x1 after DONE\nmore") == "CTRL reads # after DONE"


def test_results_file_failures_are_records(tmp_path: Path) -> None:
    """A job the simulator died in: its failures read back from results.jsonl are records."""
    path = tmp_path / "results.jsonl"
    f = Failure("ordering", "m", 9, rule="done-early")
    path.write_text("\n".join(json.dumps(r) for r in (
        {"event": "start", "job": "a"}, {"event": "failure", "job": "a", **f.to_json()})) + "\n")
    read = Results.read(path)
    assert read.unfinished == "a" and [Failure.from_json(r) for r in read.failures] == [f]


def saved(**changes: object) -> SavedFailure:
    record = SavedFailure("icarus", "small", Job("random-s5-heavy", seed=5, profile="heavy"), "fast",
                          "vta", "python -m tb.run --sim icarus --mode fast --vector x",
                          [Failure("scoreboard", "final DRAM differs", 120, rule="out-mismatch",
                                   module="store", form="STORE OUT")])
    for key, value in changes.items():
        setattr(record, key, value)
    return record


def test_the_saved_record_round_trips(tmp_path: Path) -> None:
    record = saved()
    path = record.write(tmp_path / "d")
    assert path == tmp_path / "d" / SAVED_FILE
    back = SavedFailure.read(tmp_path / "d")
    assert back == record and back.first == record.failures[0] and back.mode == "fast"
    assert json.loads(path.read_text())["mode"] == "fast"
    assert signature(json.loads(path.read_text())) == Signature("scoreboard", "store", "out-mismatch",
                                                                "STORE OUT")


def test_a_saved_record_without_mode_reads_by_the_documented_rule(tmp_path: Path) -> None:
    """Written before ``mode`` was a field: the repro command's --mode, else full."""
    path = saved().write(tmp_path)
    raw = json.loads(path.read_text())
    del raw["mode"], raw["dut"]
    path.write_text(json.dumps(raw))
    assert (SavedFailure.read(tmp_path).mode, SavedFailure.read(tmp_path).dut) == ("fast", "vta")
    path.write_text(json.dumps({**raw, "repro": "python -m tb.run --sim icarus --vector x"}))
    assert SavedFailure.read(tmp_path).mode == "full"


def test_a_saved_record_naming_the_old_command_line_reads_by_the_documented_rule(tmp_path: Path) -> None:
    """Written before the command line moved to tb/run.py: its repro names ``python -m
    tb.uvm.run``; the mode and DUT still come from that command when the fields are missing,
    and the repro reads as today's command, so the one printed still runs."""
    path = saved().write(tmp_path)
    raw = json.loads(path.read_text())
    del raw["mode"], raw["dut"]
    old = "python -m tb.uvm.run --sim icarus --mode fast --dut upstream-chisel --vector x"
    path.write_text(json.dumps({**raw, "repro": old}))
    back = SavedFailure.read(tmp_path)
    assert (back.mode, back.dut) == ("fast", "upstream-chisel")
    assert back.repro == "python -m tb.run --sim icarus --mode fast --dut upstream-chisel --vector x"


def test_a_saved_job_with_its_kind_named_mode_reads_by_the_documented_rule(tmp_path: Path) -> None:
    """Written before the job kind was called ``kind``: the job's ``mode`` key (``regmap``)
    is its kind; the record's own ``mode`` stays the testbench mode; the file written back
    names ``kind``. tb/duts/upstream-chisel/repro/ keeps such a file."""
    path = saved(job=Job("regmap", kind="regmap")).write(tmp_path)
    raw = json.loads(path.read_text())
    raw["job"] = {("mode" if k == "kind" else k): v for k, v in raw["job"].items()}
    path.write_text(json.dumps(raw))
    back = SavedFailure.read(tmp_path)
    assert (back.job.kind, back.mode) == ("regmap", "fast")
    assert json.loads(back.write(tmp_path).read_text())["job"]["kind"] == "regmap"
    committed = SavedFailure.read(ROOT / "tb/duts/upstream-chisel/repro/wdata-unstable")
    assert committed.job.kind == "program"
    old_record = {"sim": "icarus", "config": "small", "mode": "fast",
                  "job_spec": {"name": "regmap", "mode": "regmap"}}  # an older run's results.jsonl
    assert record_repro(old_record).endswith("--sim icarus --mode fast --config small --test regmap")


@pytest.mark.parametrize("change, text", [
    (lambda raw: "{", "not valid JSON"),
    (lambda raw: {**raw, "mode": "turbo"}, "mode must be one of full, fast, got 'turbo'"),
    (lambda raw: {**raw, "sim": "modelsim"}, "sim must be one of"),
    (lambda raw: {k: v for k, v in raw.items() if k != "repro"}, "missing key 'repro'"),
    (lambda raw: {**raw, "config": 3}, "config must be a string, got 3"),
    (lambda raw: {**raw, "extra": 1}, "unknown key(s) extra"),
    (lambda raw: {**raw, "failures": {}}, "failures must be a list of failure records"),
    (lambda raw: {**raw, "failures": [{"kind": "scoreboard", "message": "m", "cycle": None}]},
     "failures[0]: cycle must be an integer, got None"),
    (lambda raw: {**raw, "job": {"seed": 1}}, "job: missing key 'name'"),
    (lambda raw: {**raw, "job": {"name": "x", "seed": -1}}, "job 'x': seed -1"),
])
def test_a_malformed_saved_record_is_one_line(tmp_path: Path, change: object, text: str) -> None:
    path = saved().write(tmp_path)
    new = change(json.loads(path.read_text()))  # type: ignore[operator]
    path.write_text(new if isinstance(new, str) else json.dumps(new))
    with pytest.raises(SavedError) as exc:
        SavedFailure.read(tmp_path)
    message = str(exc.value)
    assert message.startswith(f"{path}: ") and text in message and "\n" not in message, message


def test_no_cocotb_below_the_simulator() -> None:
    """The record, the saved failure, the signature and the jobs load without cocotb: the
    launcher, triage and the regression use them outside the simulator."""
    code = ("import sys, tb.rules.failure, tb.plan.saved, tb.rules.signature, tb.plan.jobs, "
            "tb.triage.buckets; "
            "sys.exit(any(m.split('.')[0] in ('cocotb', 'pyuvm') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
