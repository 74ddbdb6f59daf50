"""Failure signatures and buckets (tb/uvm/signature.py, tb/uvm/buckets.py), from records
written in the test: the same bug on other addresses, cycles and values is one signature,
another rule or instruction form is another; buckets count, pick the smallest program, and
the HTML page escapes what the messages hold."""
from __future__ import annotations

import json
from pathlib import Path

from tb.uvm.buckets import bucket_html, bucket_text, buckets, write_bucket_report
from tb.uvm.signature import Signature, form_of, signature

SCOREBOARD = ("final DRAM differs from the expected images: FAIL: {n} of 260 bytes differ\n"
              "    {addr} element 38821 lane 0: expected 90 (0x5a), actual 1 (0x01); written by "
              "STORE #{k}: STORE OUT pop_prev sram_base={k} dram_base=38821 y_size=4 x_size=3")
WATCHDOG = ("no DONE and no progress for 4096 cycles: nothing dispatched; state at cycle {c}:\n"
            "  fetch   : 9 of 12 dispatched; finished, 0 beats in flight\n"
            "  load    : 3 done, 0 queued, idle (waiting for a command in its queue)\n"
            "  compute : 2 done, 1 queued, on insn #{k}: GEMM pop_prev uop_bgn={k} uop_end=9; "
            "pop phase; waits for an L2C token (tokens L2C=0)\n")


def record(kind: str, message: str, job: str = "j", insns: int | None = 10,
           passed: bool = False) -> dict:
    return {"job": job, "sim": "icarus", "config": "small", "mode": "fast", "passed": passed,
            "insns": insns, "job_spec": {"name": job, "profile": "none", "seed": 1},
            "failures": [] if passed else [{"kind": kind, "cycle": 5, "message": message}]}


def test_the_same_bug_elsewhere_has_one_signature() -> None:
    a = signature(record("scoreboard", SCOREBOARD.format(n=48, addr="0x00025e94", k=40)))
    b = signature(record("scoreboard", SCOREBOARD.format(n=3, addr="0x00001000", k=7)))
    assert a == b == Signature("scoreboard", "store", "out-mismatch", "STORE OUT")
    w1 = signature(record("watchdog", WATCHDOG.format(c=100, k=4)))
    w2 = signature(record("watchdog", WATCHDOG.format(c=900, k=11)))
    assert w1 == w2 == Signature("watchdog", "compute", "stalled", "GEMM")


def test_rules_modules_and_forms_split_signatures() -> None:
    proto = signature(record("protocol", "AXI protocol violation on m_axi_gmem W channel at "
                                         "cycle 77 [wlast]: WLAST missing on the last beat"))
    assert proto == Signature("protocol", "m_axi_gmem", "wlast", "W channel")
    order = signature(record("ordering", "ordering violation at cycle 9 [pop-before-exec]: the "
                                         "store module started executing before popping"))
    assert order == Signature("ordering", "store module", "pop-before-exec")
    counter = signature(record("counter", "the RTL's counters after DONE differ from the model "
                                          "(models/predict.py): GEMM_UOPS reads 5, the model predicts 4"))
    assert counter.rule == "work:GEMM_UOPS"
    err = signature(record("error", "Traceback (most recent call last):\n  File x\nKeyError: 'a'\n"))
    assert err == Signature("error", "-", "KeyError")
    assert signature({"failures": []}).rule == "no failure recorded"
    assert form_of("ALU MAX use_imm imm=-3") == "ALU MAX imm"
    assert form_of("GEMM reset uop_bgn=0") == "GEMM reset"
    assert form_of("written by STORE #3: STORE OUT sram_base=1") == "STORE OUT"


def test_buckets_count_and_name_the_smallest_program(tmp_path: Path) -> None:
    records = [record("scoreboard", SCOREBOARD.format(n=n, addr=hex(4096 * n), k=n), f"s{n}", insns)
               for n, insns in ((1, 80), (2, 12), (3, 40))]
    records.append(record("watchdog", WATCHDOG.format(c=1, k=2), "w", 30))
    records.append(record("", "", "ok", passed=True))
    found = buckets(records)
    assert [len(b.records) for b in found] == [3, 1]
    assert found[0].smallest["job"] == "s2"
    text = bucket_text(records)
    assert "4 failure(s) in 2 bucket(s)" in text and "smallest: icarus s2 (12 instructions)" in text
    assert "reproduce: python -m tb.uvm.run --sim icarus --mode fast" in text
    assert bucket_text([records[-1]]) == ""
    out = write_bucket_report(records, tmp_path, "x-buckets.html")
    assert out.endswith(f"bucket report: {tmp_path / 'x-buckets.html'}")
    assert "<table>" in (tmp_path / "x-buckets.html").read_text()


def test_page_escapes_messages_and_reads_saved_figures(tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    saved.mkdir()
    (saved / "manifest.json").write_text(json.dumps({"insn_count": 7}))
    (saved / "tb_uvm.json").write_text(json.dumps({"repro": "python -m tb.uvm.run --vector <here>"}))
    r = record("register", "CTRL reads <script>alert(1)</script>", insns=None)
    r["saved"] = str(saved)
    page = bucket_html([r])
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "7 instructions" in page and "--vector &lt;here&gt;" in page
