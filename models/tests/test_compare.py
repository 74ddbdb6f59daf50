"""Comparison and mismatch attribution tests (hand-built images and programs)."""
from __future__ import annotations

import numpy as np
import pytest

from models import compare as cmp
from models.compare import compare_images, compare_vector
from models.dram import Dram
from models.isa import MemType
from models.spec.configs import load_config
from models.tests.progs import Prog, finish, load, store
from models.vector import Image

SMALL = load_config("small")   # OUT elements of 4 bytes, one byte per lane


def stored_prog() -> Prog:
    """ACC rows [1,2,3,4] and [-1,-2,-3,-4] stored as OUT elements 0 and 1 by STOREs #2, #3."""
    p = Prog(SMALL)
    p.put_acc(0, np.array([[[1, 2, 3, 4]], [[-1, -2, -3, -4]]]))
    p.insns = [load(MemType.ACC, 0, 0, x=2), load(MemType.UOP, 0, 0), store(0, 0), store(1, 1),
               finish()]
    return p


def reader(dram: Dram):
    return dram.read_bytes


def test_identical_images_are_ok():
    p = stored_prog()
    result = p.run()
    out = p.bases["out"]
    expect = [Image(out, bytes([1, 2, 3, 4, 255, 254, 253, 252]))]
    report = compare_images(SMALL, expect, reader(result.dram), result, p.bases)
    assert report.ok and report.compared_bytes == 8 and report.mismatches == []
    assert "OK" in report.format()


def test_comparing_nothing_is_not_ok():
    report = compare_images(SMALL, [], reader(Dram()), None, {"out": 0})
    assert not report.ok and report.compared_bytes == 0
    assert "nothing was compared" in report.format()
    assert not compare_images(SMALL, [Image(0, b"")], reader(Dram()), None, {"out": 0}).ok


def test_mismatch_is_located_and_attributed():
    p = stored_prog()
    result = p.run()
    out = p.bases["out"]
    actual = result.dram.copy()
    actual.write(out + 6, bytes([0x10]))          # element 1, lane 2: expected -3 (0xfd)
    expect = [Image(out, result.dram.read_bytes(out, 8))]
    report = compare_images(SMALL, expect, reader(actual), result, p.bases)
    assert not report.ok and report.total_mismatches == 1
    m = report.mismatches[0]
    assert (m.addr, m.expected, m.actual, m.element, m.lane, m.store_index) == \
        (out + 6, 0xFD, 0x10, 1, 2, 3)
    assert m.store_disasm.startswith("STORE")
    text = report.format()
    assert f"{out + 6:#010x}" in text and "element 1 lane 2" in text
    assert "expected -3 (0xfd), actual 16 (0x10)" in text and "written by STORE #3: STORE" in text


def test_lane_uses_out_width_with_batch():
    cfg = load_config("batch2")          # OUT element = 2 batches x 16 lanes = 32 bytes
    report = compare_images(cfg, [Image(0x1000 + 32 + 17, b"\x01")], reader(Dram()), None,
                            {"out": 0x1000})
    m = report.mismatches[0]
    assert (m.element, m.lane, m.store_index, m.store_disasm) == (1, 17, None, None)
    assert "not written by any STORE" in report.format()


def test_bytes_below_out_base_have_no_element():
    report = compare_images(SMALL, [Image(0x10, b"\x05")], reader(Dram()), None, {"out": 0x100})
    assert report.mismatches[0].element is None and report.mismatches[0].lane is None
    assert "below the OUT base" in report.format()


def test_mismatches_are_capped_but_counted(monkeypatch):
    monkeypatch.setattr(cmp, "MISMATCH_CAP", 5)
    report = compare_images(SMALL, [Image(0, b"\x01" * 8), Image(100, b"\x02" * 4)],
                            reader(Dram()), None, {"out": 0})
    assert report.total_mismatches == 12 and len(report.mismatches) == 5
    text = report.format(limit=3)
    assert "12 of 12 bytes differ" in text and "and 9 more" in text
    assert len(text.splitlines()) == 1 + 3 + 1


def test_short_read_is_an_error():
    with pytest.raises(ValueError, match="returned 2 bytes"):
        compare_images(SMALL, [Image(0, b"\x00" * 4)], lambda a, n: b"\x00\x00", None, {"out": 0})


def test_compare_vector_without_expect_uses_the_model():
    p = stored_prog()
    vector = p.vector()
    good = p.run().dram
    assert compare_vector(vector, good).compared_bytes == 8
    assert compare_vector(vector, good).ok
    bad = good.copy()
    bad.write(p.bases["out"], b"\x00")
    report = compare_vector(vector, bad)
    assert report.total_mismatches == 1 and report.mismatches[0].store_index == 2


def test_compare_vector_with_expect_uses_it_even_if_the_program_is_broken():
    p = stored_prog()
    p.insns[2] = store(0, 0, x_pad_0=1)            # store-pad: the model cannot run it
    vector = p.vector()
    vector.expect = [Image(p.bases["out"], bytes([1, 2, 3, 4]))]
    actual = Dram()
    actual.write(p.bases["out"], bytes([1, 2, 3, 5]))
    report = compare_vector(vector, actual)
    assert report.total_mismatches == 1 and report.mismatches[0].store_index is None
