"""Failure signatures and buckets (tb/rules/signature.py, tb/triage/buckets.py), from records
written in the test with the fields their checkers fill (tb/rules/failure.py): the same bug on
other addresses, cycles and values is one signature, another rule or instruction form is
another, and the message text plays no part; buckets count, pick the smallest program, and
the HTML page escapes what the messages hold."""
from __future__ import annotations

import json
from pathlib import Path

from models.compare import CompareReport, Mismatch
from tb.plan.jobs import Job
from tb.plan.saved import SavedFailure
from tb.rules.failure import exception_rule
from tb.rules.signature import Signature, form_of, signature
from tb.triage.buckets import bucket_html, bucket_text, buckets, write_bucket_report
from tb.uvm.checkers.scoreboard import mismatch_fields, work_rule

SCOREBOARD = ("final DRAM differs from the expected images: FAIL: {n} of 260 bytes differ\n"
              "    {addr} element 38821 lane 0: expected 90 (0x5a), actual 1 (0x01); written by "
              "STORE #{k}: STORE OUT pop_prev sram_base={k} dram_base=38821 y_size=4 x_size=3")
WATCHDOG = ("no DONE and no progress for 4096 cycles: nothing dispatched; state at cycle {c}:\n"
            "  fetch   : 9 of 12 dispatched; finished, 0 beats in flight\n"
            "  load    : 3 done, 0 queued, idle (waiting for a command in its queue)\n"
            "  compute : 2 done, 1 queued, on insn #{k}: GEMM pop_prev uop_bgn={k} uop_end=9; "
            "pop phase; waits for an L2C token (tokens L2C=0)\n")


def record(kind: str, message: str, job: str = "j", insns: int | None = 10,
           passed: bool = False, **fields: str) -> dict:
    return {"job": job, "sim": "icarus", "config": "small", "mode": "fast", "passed": passed,
            "insns": insns, "job_spec": {"name": job, "profile": "none", "seed": 1},
            "failures": [] if passed else [{"kind": kind, "cycle": 5, "message": message, **fields}]}


def mismatch(n: int, addr: int, k: int) -> CompareReport:
    """A scoreboard comparison whose first differing byte a STORE wrote."""
    return CompareReport(260, [Mismatch(addr, 90, 1, 38821, 0, k, f"STORE OUT pop_prev sram_base={k}")], n)


def scoreboard(n: int, addr: int, k: int, job: str = "j", insns: int | None = 10) -> dict:
    """A scoreboard failure record with the fields the scoreboard fills."""
    cmp = mismatch(n, addr, k)
    r = record("scoreboard", SCOREBOARD.format(n=n, addr=hex(addr), k=k), job, insns)
    r["failures"][0].update(mismatch_fields(cmp))
    return r


def watchdog(c: int, k: int, job: str = "w", insns: int | None = 10) -> dict:
    """The watchdog's failure as the program sequence records it (status.suspect's module)."""
    return record("watchdog", WATCHDOG.format(c=c, k=k), job, insns, rule="stalled",
                  module="compute", form=form_of(f"GEMM pop_prev uop_bgn={k} uop_end=9"))


def test_the_same_bug_elsewhere_has_one_signature() -> None:
    a = signature(scoreboard(48, 0x25E94, 40))
    b = signature(scoreboard(3, 0x1000, 7))
    assert a == b == Signature("scoreboard", "store", "out-mismatch", "STORE OUT")
    w1 = signature(watchdog(100, 4))
    w2 = signature(watchdog(900, 11))
    assert w1 == w2 == Signature("watchdog", "compute", "stalled", "GEMM")


def test_rules_modules_and_forms_split_signatures() -> None:
    proto = signature(record("protocol", "AXI protocol violation on m_axi_gmem W channel at "
                                         "cycle 77 [wlast]: WLAST missing on the last beat",
                             rule="wlast", module="m_axi_gmem", channel="W"))
    assert proto == Signature("protocol", "m_axi_gmem", "wlast", "W channel")
    order = signature(record("ordering", "ordering violation at cycle 9 [pop-before-exec]: the "
                                         "store module started executing before popping",
                             rule="pop-before-exec", module="store module"))
    assert order == Signature("ordering", "store module", "pop-before-exec")
    counter = signature(record("counter", "GEMM_UOPS reads 5", rule=work_rule(["GEMM_UOPS"])))
    assert counter.rule == "work:GEMM_UOPS"
    try:
        raise KeyError("a")
    except KeyError as exc:
        rule = exception_rule(exc)
    err = signature(record("error", "Traceback (most recent call last):\n  File x\nKeyError: 'a'\n",
                           rule=rule))
    assert err == Signature("error", "-", "KeyError")
    assert signature({"failures": []}).rule == "no failure recorded"
    # the message plays no part: the same fields under other words are the same signature
    assert signature(record("ordering", "anything at all", rule="pop-before-exec",
                            module="store module")) == order
    # a record written before the fields existed: its kind alone
    assert signature(record("register", "CTRL reads 0x1")) == Signature("register")
    other = mismatch(1, 0x10, 1)
    other.mismatches[0].store_index = None
    assert mismatch_fields(other) == {"rule": "unwritten-by-model"}
    assert form_of("ALU MAX use_imm imm=-3") == "ALU MAX imm"
    assert form_of("GEMM reset uop_bgn=0") == "GEMM reset"
    assert form_of("written by STORE #3: STORE OUT sram_base=1") == "STORE OUT"


def test_buckets_count_and_name_the_smallest_program(tmp_path: Path) -> None:
    records = [scoreboard(n, 4096 * n, n, f"s{n}", insns) for n, insns in ((1, 80), (2, 12), (3, 40))]
    records.append(watchdog(1, 2, "w", 30))
    records.append(record("", "", "ok", passed=True))
    found = buckets(records)
    assert [len(b.records) for b in found] == [3, 1]
    assert found[0].smallest["job"] == "s2"
    text = bucket_text(records)
    assert "4 failure(s) in 2 bucket(s)" in text and "smallest: icarus s2 (12 instructions)" in text
    assert "reproduce: python -m tb.run --sim icarus --mode fast" in text
    assert bucket_text([records[-1]]) == ""
    out = write_bucket_report(records, tmp_path, "x-buckets.html")
    assert out.endswith(f"bucket report: {tmp_path / 'x-buckets.html'}")
    assert "<table>" in (tmp_path / "x-buckets.html").read_text()


def test_page_escapes_messages_and_reads_saved_figures(tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    saved.mkdir()
    (saved / "manifest.json").write_text(json.dumps({"insn_count": 7}))
    SavedFailure("icarus", "small", Job("j"), repro="python -m tb.run --vector <here>").write(saved)
    r = record("register", "CTRL reads <script>alert(1)</script>", insns=None)
    r["saved"] = str(saved)
    page = bucket_html([r])
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "7 instructions" in page and "--vector &lt;here&gt;" in page
