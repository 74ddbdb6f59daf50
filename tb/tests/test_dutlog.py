"""The DUT's assertion messages as findings (tb/uvm/checkers/dutlog.py), on log text written here in
the netlist's format: only what a job added counts, the first message names the finding,
and each message is reported once."""
from __future__ import annotations

from pathlib import Path

from tb.uvm.checkers.dutlog import DutLog

FETCH = ("Assertion failed: -F- Fetch: Unknown instruction type\n"
         "    at FetchVME64.scala:161 assert(!(inst_q.io.deq.valid & state === sDrain) || dec.io.isLoad,\n")
ALU = "Assertion failed\n    at TensorAlu.scala:391 assert(!(a && b))\n"


def test_only_the_jobs_own_messages_count(tmp_path: Path) -> None:
    log = tmp_path / "sim.log"
    log.write_text("cocotb banner\n" + ALU)          # an earlier job's
    dut_log = DutLog(log)
    dut_log.start()
    assert dut_log.fired() == ""
    with log.open("a") as f:
        f.write("INFO something\n" + FETCH * 3 + ALU)
    assert dut_log.fired() == ("the DUT's own assertion '-F- Fetch: Unknown instruction type' at "
                               "FetchVME64.scala:161 failed (3 message(s) in sim.log); also "
                               "TensorAlu.scala:391")
    assert dut_log.fired() == ""                      # reported once
    with log.open("a") as f:
        f.write(ALU)
    assert dut_log.fired() == ("the DUT's own assertion at TensorAlu.scala:391 failed "
                               "(1 message(s) in sim.log)")


def test_no_log_named_means_nothing_to_read(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("VTA_SIM_LOG", raising=False)
    dut_log = DutLog.from_env()
    dut_log.start()
    assert dut_log.path is None and dut_log.fired() == ""
    monkeypatch.setenv("VTA_SIM_LOG", str(tmp_path / "missing.log"))
    assert DutLog.from_env().fired() == ""
