"""tb/rules/counter_rules.py on counters written by hand for vectors/gemm_basic.

gemm_basic (small configuration, PIPE_STAGES 3: n + 5 cycles an instruction, 8-byte bus):
GEMMs of 6, 12 and 18 micro-ops, so GEMM_EXEC = 11 + 17 + 23 = 51; ALUs (no MUL) of 18
(use_imm 0: two cycles a micro-op), 18, 12 and 6, so ALU_EXEC = 41 + 23 + 17 + 11 = 92;
two LOADs on the load module, nine instructions on compute (LOAD UOP, three GEMMs, four ALUs,
FINISH), one STORE of 24 OUT elements of 16 bytes (WR_BYTES 384). The other cycle counts
are made up, consistent with rtl/README.md's relations; every test then breaks one (and
keeps the others).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from models.predict import Prediction, predict
from models.vector import load_vector
from tb.rules.counter_rules import violations

VECTOR = Path(__file__).resolve().parents[2] / "vectors" / "gemm_basic"
CYCLES = 200
GOOD = {
    "GEMM_EXEC": 51, "ALU_EXEC": 92, "CLOAD_EXEC": 10, "LOAD_EXEC": 20, "STORE_EXEC": 60,
    "LOAD_INSNS": 2, "COMPUTE_INSNS": 9, "STORE_INSNS": 1, "DISPATCHED": 12,
    "LOAD_STALL": 5, "COMPUTE_STALL": 7, "STORE_STALL": 3, "FETCH_STALL": 0,
    "LOAD_BUSY": 5 + 20 + 3 * 2, "COMPUTE_BUSY": 7 + 51 + 92 + 10 + 3 * 9,
    "STORE_BUSY": 3 + 60 + 3 * 1, "FETCH_BUSY": 30, "WR_BYTES": 384,
}


@pytest.fixture(scope="module")
def prediction() -> Prediction:
    return predict(load_vector(VECTOR))


def test_hand_written_counters_keep_every_relation(prediction: Prediction) -> None:
    assert violations(prediction, GOOD, CYCLES, 8) == []


@pytest.mark.parametrize("change, words", [
    ({"GEMM_EXEC": 52, "COMPUTE_BUSY": 188},
     "GEMM_EXEC reads 52, but the program's GEMMs of n > 0 micro-ops take n + 5 cycles each: 51"),
    ({"ALU_EXEC": 68, "COMPUTE_BUSY": 163},
     "ALU_EXEC reads 68, but the program's ALUs of n > 0 micro-ops take n + 5 cycles each "
     "(2n + 5 with use_imm 0, 2 more per MUL micro-op): 92"),
    ({"STORE_STALL": 0}, "STORE_BUSY reads 66, but STORE_STALL + STORE_EXEC + 3 x STORE_INSNS = 63"),
    ({"COMPUTE_STALL": 2**32 - 7}, "COMPUTE_BUSY reads 187, but COMPUTE_STALL + GEMM_EXEC + "
                                   "ALU_EXEC + CLOAD_EXEC + 3 x COMPUTE_INSNS"),
    ({"LOAD_BUSY": 30}, "LOAD_BUSY reads 30, but LOAD_STALL + LOAD_EXEC + 3 x LOAD_INSNS = 31"),
    ({"FETCH_STALL": 31}, "FETCH_STALL 31 <= FETCH_BUSY 30 <= CYCLES 200 does not hold"),
    ({"FETCH_BUSY": 201, "FETCH_STALL": 0}, "FETCH_BUSY 201 <= CYCLES 200 does not hold"),
    ({"FETCH_BUSY": 11}, "FETCH_BUSY reads 11, fewer cycles than the 12 instructions dispatched"),
])
def test_each_broken_relation_is_named(prediction: Prediction, change: dict[str, int],
                                       words: str) -> None:
    found = violations(prediction, GOOD | change, CYCLES, 8)
    assert len(found) == 1 and words in found[0], found


def test_store_too_fast_for_the_bus(prediction: Prediction) -> None:
    """47 cycles move at most 376 of the 384 bytes; BUSY kept consistent with the change."""
    counters = GOOD | {"STORE_EXEC": 47, "STORE_BUSY": 3 + 47 + 3}
    found = violations(prediction, counters, CYCLES, 8)
    assert found == ["STORE_EXEC reads 47: too few cycles to write WR_BYTES 384 at one 8-byte "
                     "beat a cycle"], found
