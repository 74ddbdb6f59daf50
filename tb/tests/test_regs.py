"""The register table (tb/uvm/regs.py): consistent, the source of rtl/README.md's register map,
and of the status decoding. The RTL itself is held to it by the register-map flow
(tb/uvm/flows.py: RegMapSeq, run by test_uvm_flows.py on both simulators)."""
from __future__ import annotations

from models.asm import parse_line
from models.config import load_config
from models.isa import decode_insn
from tb.uvm import regs
from tb.uvm.flows import HELD, SWEEP
from tb.uvm.status import decode


def test_readme_register_map_is_generated_from_the_table() -> None:
    assert regs.readme_section() == regs.readme_table(), \
        "rtl/README.md's register map is stale: run `.venv/bin/python -m tb.uvm.regs --write-readme`"


def test_table_is_dense_word_aligned_and_fields_fit() -> None:
    offsets = [r.offset for r in regs.REGISTERS]
    assert offsets == list(range(0, regs.FIRST_UNMAPPED, 4))
    assert len(regs.BY_NAME) == len(regs.REGISTERS)
    for r in regs.REGISTERS:
        assert r.access in ("R/W", "R") and r.kind in ("host", "counter", "status", "info"), r.name
        assert not r.write_fields or r.access == "R/W", r.name
        used = 0
        for f in r.fields:
            assert f.lsb + f.width <= 32 and not used & f.mask, (r.name, f.name)
            used |= f.mask


def test_derived_constants() -> None:
    assert (regs.CTRL, regs.CYCLES, regs.INSN_COUNT, regs.INSN_ADDR) == (0x00, 0x04, 0x08, 0x0C)
    assert regs.BASE_REGS == {"uop": 0x10, "inp": 0x14, "wgt": 0x18, "acc": 0x1C, "out": 0x20}
    assert (regs.START, regs.RUNNING, regs.DONE, regs.ERROR) == (1, 1, 2, 4)
    assert set(regs.PROGRESS) == {"DISPATCHED", "LOAD_INSNS", "COMPUTE_INSNS", "STORE_INSNS",
                                  "GEMM_UOPS", "ALU_UOPS", "RD_BYTES", "WR_BYTES"}
    assert set(regs.PROGRESS) <= set(regs.COUNTERS) and "HW_INFO" in regs.COUNTERS
    assert not set(regs.COUNTERS.values()) & set(regs.STATUS_WORDS)
    cfg = load_config("small")
    assert regs.BY_NAME["HW_INFO"].reset_value(cfg) == (8 << 24 | 8 << 16 | 6 << 12 | 2 << 8 | 0 << 4 | 1)


def test_the_sweep_covers_every_register_and_address_bit() -> None:
    assert set(range(0, 0x400, 4)) <= set(SWEEP)
    assert {r.offset for r in regs.REGISTERS} <= set(SWEEP)
    high = [a for a in SWEEP if a >= 0x400]
    assert {a.bit_length() - 1 for a in high} == set(range(10, 16))
    assert {r.name for r in HELD} == {"INSN_COUNT", "INSN_ADDR", "UOP_BASE", "INP_BASE", "WGT_BASE",
                                      "ACC_BASE", "OUT_BASE"}


def test_status_decoding_from_the_table() -> None:
    """A store waiting for a C2S token with one burst unanswered, compute idle, load busy."""
    cfg = load_config("small")
    insns = [decode_insn(cfg, parse_line(cfg, text, "t") or 0) for text in
             ("LOAD INP y_size=1 x_size=1 x_stride=1", "STORE OUT pop_prev y_size=1 x_size=1 x_stride=1")]
    values = dict.fromkeys(regs.STATUS_WORDS + (regs.DISPATCHED,) + tuple(regs.INSNS_DONE.values()), 0)
    store = regs.BY_NAME["STORE_STATUS"]
    values[store.offset] = (store.field("busy").put(1) | store.field("phase").put(1)
                            | store.field("pop_prev").put(1) | store.field("bursts").put(1))
    values[regs.INSN_IDX["store"]] = 1
    values[regs.TOKENS] = regs.BY_NAME["TOKENS"].field("C2L").put(3)
    values[regs.AXI_STATUS] = regs.BY_NAME["AXI_STATUS"].field("read_error").put(1)
    text = decode(values, cfg, insns)
    assert "store   : 0 done, 0 queued, on insn #1: STORE" in text
    assert "popping tokens; waits for a C2S token and 1 write burst(s) without a response" in text
    assert "(tokens L2C=0, C2L=3, C2S=0, S2C=0)" in text
    assert "compute : 0 done, 0 queued, idle" in text
    assert "a read error was seen" in text and "a write error" not in text
