"""models.predict: counters worked out by hand, and equality with the separate model calls."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.checker import check_vector
from models.executor import ProgramError, run_vector, written_images
from models.isa import AluOp, uops_to_bytes
from models.predict import InsnCost, predict
from models.progbuild import Program, UopRange
from models.spec.configs import load_config
from models.vector import Vector, find_vectors, load_vector

SMALL = load_config("small")  # bus 8 bytes; INP 4, WGT 16, OUT 4, UOP 4 bytes per element
VECTORS = Path(__file__).resolve().parents[2] / "vectors"


def hand_program() -> Vector:
    """Odd bases and an unaligned stream, so that RD_BYTES counts partial beats."""
    p = Program(SMALL, bases={"uop": 0x1003, "inp": 0x2005, "wgt": 0x3000, "acc": 0x4000,
                              "out": 0x5001}, insn_addr=0x8004)
    p.put("uop", 0, uops_to_bytes(SMALL, [{"dst_idx": 0, "src_idx": 0, "wgt_idx": 0},
                                          {"dst_idx": 1, "src_idx": 1, "wgt_idx": 0}]))
    p.put("inp", 0, bytes(range(40)))
    p.put("wgt", 0, bytes(range(16)))
    p.load("uop", 0, 0, 1, 2)                               # compute; 8 B at 0x1003: 2 beats
    p.load("inp", 0, 0, 3, 2, stride=4, pads=(1, 0, 0, 0))  # load; 3 rows of 8 B: 2 beats each
    p.load("wgt", 0, 0, 1, 1, push_next=True)               # load; 16 B at 0x3000: 2 beats
    p.gemm(UopRange(0, 2), iters=(2, 3), dst=(2, 0), reset=True, pop_prev=True)  # 2*3*2 = 12
    p.gemm(UopRange(0, 2), iters=(1, 2), src=(0, 2))                             # 1*2*2 = 4
    p.alu(AluOp.ADD, UopRange(0, 2), iters=(3, 1), dst=(1, 0), imm=1, push_next=True)  # 3*1*2 = 6
    p.store(0, 0, 2, 2, stride=3, pop_prev=True, push_prev=True)  # 2*2*4 = 16 B
    p.finish(pop_next=True)
    vector = p.build("hand-computed counters")
    vector.expect = None  # the executor's STOREs give it
    return vector


def test_counters_of_a_hand_computed_program() -> None:
    pred = predict(hand_program())
    assert pred.report.ok, pred.report.format()
    assert pred.counters == {
        "GEMM_UOPS": 12 + 4,
        "ALU_UOPS": 6,
        # fetch: 8 * 16 B from 0x8004 cover beats 0x8000..0x8087: 17 beats of 8 B;
        # UOP 2 beats, INP 3 x 2 beats, WGT 2 beats
        "RD_BYTES": 8 * (17 + 2 + 6 + 2),
        "WR_BYTES": 16,
        "DISPATCHED": 8,
        "LOAD_INSNS": 2,
        "COMPUTE_INSNS": 5,   # LOAD UOP, GEMM, GEMM, ALU, FINISH
        "STORE_INSNS": 1,
    }
    assert pred.costs[1] == InsnCost(dram_read=24, bus_read=48)
    assert pred.costs[3] == InsnCost(uops=12) and pred.costs[6] == InsnCost(dram_written=16)
    assert pred.error is None and pred.expect == written_images(run_vector(pred.vector))


def test_no_counters_for_an_ill_formed_program() -> None:
    p = Program(SMALL)
    p.finish()
    vector = p.build("a FINISH")
    vector.insn_count, vector.expect = 0, None   # no FINISH left: never completes
    pred = predict(vector)
    assert pred.report.rules() == {"missing-finish"} and pred.counters is None
    assert isinstance(pred.error, ProgramError) and pred.error.rule == "missing-finish"
    assert pred.result is None and pred.expect is None


def _same_footprints(a, b) -> bool:
    return (a.dram_reads == b.dram_reads and a.dram_writes == b.dram_writes
            and all(sorted(x) == sorted(y) and all(np.array_equal(x[k], y[k]) for k in x)
                    for x, y in ((a.sram_reads, b.sram_reads), (a.sram_writes, b.sram_writes))))


@pytest.mark.parametrize("directory", find_vectors([VECTORS]), ids=lambda d: d.name)
def test_prediction_equals_the_separate_calls(directory: Path) -> None:
    vector = load_vector(directory)
    pred = predict(vector)
    report = check_vector(vector)
    assert [str(f) for f in pred.report.findings] == [str(f) for f in report.findings]
    assert pred.report.insns == report.insns and pred.report.modules == report.modules
    assert all(_same_footprints(a, b) for a, b in zip(pred.report.footprints, report.footprints, strict=True))
    result = run_vector(vector)
    assert pred.result is not None and pred.error is None
    assert pred.result.insns == result.insns and pred.result.counters == result.counters
    assert pred.result.store_rows == result.store_rows
    assert written_images(pred.result) == written_images(result)
    assert pred.expect == vector.expect
    assert pred.counters is not None and pred.counters["DISPATCHED"] == vector.insn_count
