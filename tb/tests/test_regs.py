"""The register table (tb/rules/regs.py): consistent, the source of rtl/README.md's register map,
and of the status decoding; the claims each DUT is held to (tb/plan/claims.py). The RTL itself
is held to the table by the register-map flow (tb/uvm/seq_lib/regmap.py, run by test_uvm_flows.py on
both simulators)."""
from __future__ import annotations

import pytest

from models.asm import parse_line
from models.isa import decode_insn
from models.spec.configs import load_config
from tb.plan.claims import FLOW_CLAIMS, RTL_CLAIMS, SPEC_CLAIMS, native_view
from tb.rules import regs
from tb.uvm.env.status import decode
from tb.uvm.seq_lib.launch_flow import IGNORED_COUNT
from tb.uvm.seq_lib.regmap import HELD, SWEEP, sweep_offsets
from tb.uvm.seq_lib.start_clears import last_held


def test_readme_register_map_is_generated_from_the_table() -> None:
    assert regs.readme_section() == regs.readme_table(), \
        "rtl/README.md's register map is stale: run `.venv/bin/python -m tb.rules.regs --write-readme`"


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


def test_what_an_accepted_start_does_is_the_launch_semantics() -> None:
    """rtl/README.md, Launch semantics: a START clears DONE, ERROR, CYCLES and every register
    of 0x24..0xA0 but HW_INFO, CTRL then reads 0x1, the host's registers and HW_INFO are
    kept; the generated table says so in its column "at START"."""
    cleared = {r.offset for r in regs.REGISTERS if r.start_value == 0}
    assert cleared == {0x04} | set(range(0x24, 0xA4, 4)) - {0x8C}
    assert regs.BY_NAME["CTRL"].start_value == 0x1 == regs.RUNNING
    kept = {r.name for r in regs.REGISTERS if r.start_value is None}
    assert kept == {"INSN_COUNT", "INSN_ADDR", "UOP_BASE", "INP_BASE", "WGT_BASE", "ACC_BASE", "OUT_BASE",
                    "HW_INFO"}
    section = regs.readme_section()
    assert "| 0x74 | LOAD_INSN_IDX | R | 0x0 | 0x0 |" in section
    assert "| 0x8C | HW_INFO | R | build parameters | kept |" in section


def test_insn_count_ignores_bits_31_to_28() -> None:
    field = regs.BY_NAME["INSN_COUNT"].field("high")
    assert (field.lsb, field.width, IGNORED_COUNT) == (28, 4, 0xF0000000)
    assert "[31:28] read back as written and ignored" in regs.readme_section()


def test_rtl_is_held_to_every_claim() -> None:
    view = native_view(load_config("small"))
    assert not view.not_checked and all(view.checks(c) for c in (*SPEC_CLAIMS, *RTL_CLAIMS))
    assert [name for name, _ in view.held] == [r.name for r in HELD]
    assert {o for _, o in view.read_only} == {r.offset for r in regs.REGISTERS if r.access == "R"}
    assert view.spare == regs.FIRST_UNMAPPED and view.reset_value(view.spare) == 0
    assert view.reset_value(regs.HW_INFO) == regs.BY_NAME["HW_INFO"].reset_value(load_config("small"))
    assert not view.unchecked("regmap") and not view.unchecked("hostvar")
    with pytest.raises(KeyError):
        view.checks("no-such-claim")
    for flow, claims in FLOW_CLAIMS.items():
        assert set(claims) <= {*SPEC_CLAIMS, *RTL_CLAIMS}, flow


def test_a_sweep_aliases_the_held_offsets_at_every_high_address_bit() -> None:
    held = [0x08, 0x0C, 0x10]
    high = [a for a in sweep_offsets(held) if 0x400 <= a < regs.LAST_OFFSET]
    assert high == [0x408, 0x80C, 0x1010, 0x2008, 0x400C, 0x8010]


def test_last_held_follows_the_routing() -> None:
    """LOAD INP/WGT go to load, STORE to store, everything else (LOAD UOP/ACC, GEMM, FINISH)
    to compute (rtl/README.md, Queues): each module's last instruction by index."""
    cfg = load_config("small")
    lines = ("LOAD INP y_size=1 x_size=1 x_stride=1", "LOAD UOP y_size=1 x_size=1 x_stride=1",
             "STORE OUT y_size=1 x_size=1 x_stride=1", "LOAD WGT y_size=1 x_size=1 x_stride=1",
             "GEMM", "FINISH")
    program = [decode_insn(cfg, parse_line(cfg, text, "t") or 0) for text in lines]
    assert last_held([*program, None]) == {"load": 3, "store": 2, "compute": 5}
