"""The host's write timings and the expectations the host-timing flow derives from them
(tb/uvm/agents/host.py, tb/uvm/seq_lib/hostvar.py); nothing here simulates."""
from __future__ import annotations

import pytest

from tb.uvm.agents.host import DEFAULT_TIMING, MAX_WAIT, ORDERS, HostTiming, WordWrite, word_write
from tb.uvm.seq_lib.hostvar import STROBE_MASKS, merged, timing_problem, variants


def test_word_write_places_bytes_and_strobes_in_their_lanes() -> None:
    assert word_write(0x11, 0xAB, 1) == WordWrite(0x10, 0xAB00, 0b0010)
    assert word_write(0x12, 0xBEEF, 2) == WordWrite(0x10, 0xBEEF0000, 0b1100)
    assert word_write(0x20, 0x12345678, 4) == WordWrite(0x20, 0x12345678, 0xF)


@pytest.mark.parametrize("strb", [*STROBE_MASKS, 0xF])
def test_merged_changes_exactly_the_strobed_bytes(strb: int) -> None:
    out = merged(0x11223344, 0xAABBCCDD, strb)
    for lane in range(4):
        want = (0xAABBCCDD if strb >> lane & 1 else 0x11223344) >> 8 * lane & 0xFF
        assert out >> 8 * lane & 0xFF == want


def test_variants_cover_every_order_and_a_pipelined_batch_with_bready_held() -> None:
    for seed in range(20):
        v = variants(seed)
        assert v == variants(seed)  # drawn from the seed alone
        assert v["together"] == DEFAULT_TIMING
        assert {t.order for t in v.values()} == set(ORDERS)
        assert v["back-to-back"].pipelined and v["back-to-back"].bwait >= 1
        assert all(0 <= t.lag <= MAX_WAIT and 0 <= t.bwait <= MAX_WAIT for t in v.values())


@pytest.mark.parametrize("bad", [{"order": "sideways"}, {"lag": MAX_WAIT + 1}, {"bwait": -1}])
def test_timing_out_of_range_is_refused(bad: dict) -> None:
    with pytest.raises(ValueError, match="host timing"):
        HostTiming(**bad)


def seen(together: int = 0, aw_first: int = 0, w_first: int = 0, overlapped: int = 0,
         b_held: int = 0) -> dict[str, int]:
    return {"together": together, "aw_first": aw_first, "w_first": w_first,
            "overlapped": overlapped, "b_held": b_held}


@pytest.mark.parametrize("timing, counts, problem", [
    (DEFAULT_TIMING, seen(together=10), ""),
    (DEFAULT_TIMING, seen(together=9, aw_first=1), "9 of 10 writes came together"),
    (DEFAULT_TIMING, seen(), "0 of 0 writes"),
    (HostTiming("aw-first", 1), seen(aw_first=10), ""),
    (HostTiming("w-first", 2, 1), seen(w_first=10, b_held=12), ""),
    (HostTiming("w-first", 2, 1), seen(w_first=10, b_held=3), "fewer than one per write"),
    (HostTiming(bwait=2, pipelined=True), seen(together=10, overlapped=9, b_held=20), ""),
    (HostTiming(bwait=2, pipelined=True), seen(together=10, b_held=20), "expected some"),
    (DEFAULT_TIMING, seen(together=10, overlapped=1), "expected none"),
])
def test_timing_problem_says_when_the_port_saw_another_timing(timing: HostTiming,
                                                              counts: dict[str, int],
                                                              problem: str) -> None:
    found = timing_problem(timing, counts)
    assert (problem in found) if problem else found == "", found
