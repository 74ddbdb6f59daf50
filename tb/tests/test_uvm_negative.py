"""Each checker fires when it must: faults injected through the memory agent or the
test-only wrapper (tb/rtl/vta_axi_fault.v), a deadlocking program, an empty comparison.
Every case asserts the specific checker and message, not just "something failed", and the
same ones in both testbench modes: the full mode's Python checkers and the fast mode's
in-simulation checkers (tb/uvm/env/fast.py) must reach the same verdict."""
from __future__ import annotations

import pytest

from tb.launch.pytest_support import run
from tb.launch.summary import summary_table
from tb.paths import SIMS
from tb.plan.jobs import Job
from tb.plan.makers import negative_jobs
from tb.plan.testbench import MODES
from tb.rules.failure import Failure

#: job -> (failure kind that must come first, substrings its message must hold)
EXPECTED = {
    "fault-aw-flip": ("stray-write", ["stray write:", "outside every STORE footprint",
                                      "AXI write burst", "nearest STORE footprint: #"]),
    "fault-drop-wlast": ("protocol", ["m_axi_gmem W channel", "[wlast]",
                                      "WLAST missing on the last beat"]),
    "fault-wdata-unstable": ("protocol", ["m_axi_gmem W channel", "[payload-unstable]",
                                          "wdata"]),
    "fault-lite-spurious-b": ("protocol", ["s_axi_control B channel", "[unexpected-response]"]),
    "fault-aw-4k": ("protocol", ["m_axi_gmem AW channel", "[4k-crossing]"]),
    "fault-aw-x": ("protocol", ["m_axi_gmem AW channel", "[x-on-payload]", "awaddr"]),
    "fault-corrupt-read": ("scoreboard", ["final DRAM differs", "element", "lane",
                                          "expected", "actual", "written by STORE #"]),
    "deadlock": ("watchdog", ["no DONE and no progress for", "store", "on insn #1: STORE",
                              "waits for a C2S token", "on insn #2: FINISH",
                              "waits for an S2C token"]),
    "fault-ar-stuck": ("watchdog", ["no DONE and no progress for 4096 cycles",
                                    "fetch   : 0 of", "1 read and 0 write bursts outstanding"]),
    "no-compare": ("no-compare", ["compared zero bytes"]),
    "fault-slverr-read": ("bus-error", ["SLVERR on R at cycle", "read beat 0 at", "issued by insn #",
                                        "LOAD", "The DUT flagged it: CTRL = 0x", "ERROR)",
                                        "(bit 31)"]),
    "fault-decerr-write": ("bus-error", ["DECERR on B at cycle", "the write response of the write "
                                         "burst", "issued by insn #", "STORE", "(bit 30)"]),
    "fault-slverr-fetch": ("bus-error", ["SLVERR on R at cycle", "issued by the instruction fetch "
                                         "of insns #0..#", "(bit 31)"]),
    "fault-bus-error-random": ("bus-error", ["on ", "issued by", "The DUT flagged it"]),
    "fault-early-b": ("ordering", ["ordering violation at cycle", "[done-early]",
                                   "write burst(s) awaiting a response"]),
    "fault-rd-overissue": ("liveness", ["liveness violation at cycle", "[rd-outstanding]",
                                        "read bursts in flight on the memory port",
                                        "the design keeps at most 8"]),
    "fault-counter-skew": ("counter", ["the RTL's counters after DONE differ from the model",
                                       "GEMM_UOPS reads", "the model predicts"]),
    "fault-unrequested-slverr": ("protocol", ["m_axi_gmem R channel", "[unexpected-response]",
                                              "RRESP = SLVERR where the test injected OKAY"]),
}


#: job -> the fields its first failure record must carry (tb/rules/failure.py), filled by the
#: checker that fired, in both modes; ``-`` is a field the checker has no value for. The
#: signature (tb/rules/signature.py) is read from these alone.
FIELDS: dict[str, dict[str, str | tuple[str, ...]]] = {
    "fault-aw-flip": {"rule": "outside-footprints", "module": "store", "form": "STORE"},
    "fault-drop-wlast": {"rule": "wlast", "module": "m_axi_gmem", "channel": "W"},
    "fault-wdata-unstable": {"rule": "payload-unstable", "module": "m_axi_gmem", "channel": "W"},
    "fault-lite-spurious-b": {"rule": "unexpected-response", "module": "s_axi_control", "channel": "B"},
    "fault-aw-4k": {"rule": "4k-crossing", "module": "m_axi_gmem", "channel": "AW"},
    "fault-aw-x": {"rule": "x-on-payload", "module": "m_axi_gmem", "channel": "AW"},
    "fault-corrupt-read": {"rule": "out-mismatch", "module": "store", "form": "STORE OUT"},
    "deadlock": {"rule": "stalled", "module": "compute", "form": "FINISH"},
    "fault-ar-stuck": {"rule": "stalled", "module": "fetch", "form": "-"},
    "no-compare": {"rule": "-", "module": "-", "form": "-", "channel": "-"},
    "fault-slverr-read": {"rule": "SLVERR", "module": "-", "form": "LOAD ACC_8BIT"},
    "fault-decerr-write": {"rule": "DECERR", "module": "-", "form": "STORE OUT"},
    "fault-slverr-fetch": {"rule": "SLVERR", "module": "fetch", "form": "-"},
    "fault-bus-error-random": {"rule": ("SLVERR", "DECERR")},
    "fault-early-b": {"rule": "done-early", "module": "-"},
    "fault-rd-overissue": {"rule": "rd-outstanding", "module": "-"},
    "fault-counter-skew": {"rule": "work:GEMM_UOPS", "module": "-"},
    "fault-unrequested-slverr": {"rule": "unexpected-response", "module": "m_axi_gmem", "channel": "R"},
}

#: Faults that need a four-state simulator (X on a bus), run on Icarus only.
ICARUS_ONLY = {"fault-aw-x"}


@pytest.mark.sim
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sim", SIMS)
def test_checkers_fire(sim: str, mode: str) -> None:
    results = run(sim, negative_jobs(1, sim), mode)
    expected = {n: e for n, e in EXPECTED.items() if n not in ICARUS_ONLY or sim == "icarus"}
    assert set(results) == set(expected)
    for name, (kind, texts) in expected.items():
        failures = results[name]["failures"]
        assert failures, f"{name}: no checker fired"
        first = failures[0]
        assert first["kind"] == kind, f"{name}: first failure is {first}"
        for text in texts:
            assert text in first["message"], f"{name}: {text!r} not in {first['message']!r}"
        record = Failure.from_json(first)  # the fields, without reading the message
        for key, want in FIELDS[name].items():
            got = getattr(record, key)
            assert got in want if isinstance(want, tuple) else got == want, f"{name}: {key} {got!r}"
        assert results[name]["passed"]


def test_every_case_names_its_fields() -> None:
    assert set(FIELDS) == set(EXPECTED)


def test_summary_says_what_a_negative_pass_means() -> None:
    """A negative job that "passes" says which expected failure fired, never a plain PASS."""
    def record(job: Job, kind: str, passed: bool = True) -> dict:
        return {"sim": "icarus", "job": job.name, "config": "small", "passed": passed,
                "failures": [{"kind": kind, "cycle": 1, "message": "m"}], "job_spec": job.__dict__}

    table = summary_table([record(Job("deadlock", deadlock=True), "watchdog"),
                           record(Job("fault-aw-flip", fault="aw-flip"), "stray-write"),
                           record(Job("plain"), "scoreboard", passed=False)])
    rows = {line.split()[1]: line for line in table.splitlines()[2:]}
    assert "PASS (expected deadlock, watchdog fired)" in rows["deadlock"]
    assert "PASS (expected stray-write: fault aw-flip)" in rows["fault-aw-flip"]
    assert "FAIL (scoreboard)" in rows["plain"]
