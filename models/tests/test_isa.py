"""Bit-exact encoding (spec section 2): positions from the spec's default layout text,
hand-packed words, and round-trip properties for every shipped configuration."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.config import CONFIG_DIR, VtaConfig
from models.isa import (
    EncodingError,
    Opcode,
    decode_insn,
    decode_uop,
    encode_insn,
    encode_uop,
    from_symbolic,
    insns_from_bytes,
    insns_to_bytes,
    kind_of,
    layout,
    to_symbolic,
)
from models.spec.configs import load_config

CONFIGS = [load_config(p.stem) for p in sorted(CONFIG_DIR.glob("*.json"))]

# (field, msb, lsb) transcribed from VTA_SPEC.md section 2, default configuration.
SPEC_DEFAULT = {
    "mem": [("memory_type", 9, 7), ("sram_base", 25, 10), ("dram_base", 57, 26), ("y_size", 79, 64),
            ("x_size", 95, 80), ("x_stride", 111, 96), ("y_pad_0", 115, 112), ("y_pad_1", 119, 116),
            ("x_pad_0", 123, 120), ("x_pad_1", 127, 124)],
    "gemm": [("reset_reg", 7, 7), ("uop_bgn", 20, 8), ("uop_end", 34, 21), ("iter_out", 48, 35),
             ("iter_in", 62, 49), ("dst_factor_out", 74, 64), ("dst_factor_in", 85, 75),
             ("src_factor_out", 96, 86), ("src_factor_in", 107, 97), ("wgt_factor_out", 117, 108),
             ("wgt_factor_in", 127, 118)],
    "alu": [("alu_opcode", 110, 108), ("use_imm", 111, 111), ("imm", 127, 112)],
    "uop": [("dst_idx", 10, 0), ("src_idx", 21, 11), ("wgt_idx", 31, 22)],
}
HEAD = [("opcode", 2, 0), ("pop_prev_dep", 3, 3), ("pop_next_dep", 4, 4), ("push_prev_dep", 5, 5),
        ("push_next_dep", 6, 6)]


@pytest.mark.parametrize("kind", sorted(SPEC_DEFAULT))
def test_default_layout_matches_spec(kind: str) -> None:
    got = {f.name: (f.msb, f.lsb) for f in layout(VtaConfig(), kind)}
    expected = SPEC_DEFAULT[kind] + (HEAD if kind != "uop" else [])
    for name, msb, lsb in expected:
        assert got[name] == (msb, lsb), name


def test_hand_packed_words() -> None:
    cfg = VtaConfig()
    # LOAD INP (2<<7), sram_base 3 (<<10), dram_base 5 (<<26), y_size 1 (<<64), x_size 2 (<<80),
    # pop_next (1<<4) and x_pad_1 = 15 (<<124).
    word = 0 | (1 << 4) | (2 << 7) | (3 << 10) | (5 << 26) | (1 << 64) | (2 << 80) | (15 << 124)
    insn = {"opcode": 0, "pop_next_dep": 1, "memory_type": 2, "sram_base": 3, "dram_base": 5,
            "y_size": 1, "x_size": 2, "x_pad_1": 15}
    assert encode_insn(cfg, insn) == word
    # ALU SHR imm = -1: 0xFFFF in bits 127:112, use_imm bit 111, alu_opcode 3 at 110:108.
    alu = encode_insn(cfg, {"opcode": 4, "alu_opcode": 3, "use_imm": 1, "imm": -1})
    assert alu == 4 | (3 << 108) | (1 << 111) | (0xFFFF << 112)
    assert decode_insn(cfg, alu)["imm"] == -1
    # Micro-op dst 1, src 2, wgt 3.
    assert encode_uop(cfg, {"dst_idx": 1, "src_idx": 2, "wgt_idx": 3}) == 1 | (2 << 11) | (3 << 22)


def test_little_endian_serialisation() -> None:
    data = insns_to_bytes(VtaConfig(), [{"opcode": Opcode.FINISH, "push_prev_dep": 1}])
    assert data == bytes([3 | 1 << 5]) + bytes(15)


@pytest.mark.parametrize("field, value", [("sram_base", 1 << 16), ("x_pad_0", 16), ("dram_base", -1)])
def test_value_that_does_not_fit_names_the_field(field: str, value: int) -> None:
    with pytest.raises(EncodingError, match=f"'{field}'"):
        encode_insn(VtaConfig(), {"opcode": 0, field: value})


def test_imm_range_and_unknown_field() -> None:
    cfg = VtaConfig()
    with pytest.raises(EncodingError, match="'imm' = 32768"):
        encode_insn(cfg, {"opcode": 4, "imm": 32768})
    encode_insn(cfg, {"opcode": 4, "imm": -32768})
    with pytest.raises(EncodingError, match="unknown field 'imm'"):
        encode_insn(cfg, {"opcode": 2, "imm": 1})


@pytest.mark.parametrize("opcode", [5, 6, 7])
def test_illegal_opcode(opcode: int) -> None:
    with pytest.raises(EncodingError, match=f"illegal opcode {opcode}"):
        kind_of(opcode)
    with pytest.raises(EncodingError, match="instruction 1: illegal opcode"):
        insns_from_bytes(VtaConfig(), bytes(16) + bytes([opcode]) + bytes(15))


def test_symbolic_names() -> None:
    sym = to_symbolic({"opcode": 0, "memory_type": 5})
    assert sym == {"opcode": "LOAD", "memory_type": "ACC_8BIT"}
    assert from_symbolic(sym, "x") == {"opcode": 0, "memory_type": 5}
    with pytest.raises(EncodingError, match="'alu_opcode' has unknown name 'DIV'"):
        from_symbolic({"opcode": "ALU", "alu_opcode": "DIV"}, "x")


def _insn_strategy(cfg: VtaConfig) -> st.SearchStrategy[dict]:
    def fields_for(opcode: int) -> st.SearchStrategy[dict]:
        parts = {}
        for f in layout(cfg, kind_of(opcode)):
            if f.name == "opcode":
                continue
            if f.name == "imm":
                parts[f.name] = st.integers(-(1 << 15), (1 << 15) - 1)
            else:
                parts[f.name] = st.integers(0, (1 << f.width) - 1)
        return st.fixed_dictionaries(parts).map(lambda d: {"opcode": opcode, **d})
    return st.sampled_from([int(o) for o in Opcode]).flatmap(fields_for)


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.source)
def test_round_trip_every_config(cfg: VtaConfig) -> None:
    @settings(max_examples=300, deadline=None)
    @given(_insn_strategy(cfg))
    def insn_round_trip(insn: dict) -> None:
        assert decode_insn(cfg, encode_insn(cfg, insn)) == insn
        assert insns_from_bytes(cfg, insns_to_bytes(cfg, [insn])) == [insn]

    @settings(max_examples=300, deadline=None)
    @given(st.integers(0, (1 << 128) - 1).filter(lambda w: (w & 7) <= 4))
    def word_round_trip(word: int) -> None:
        assert encode_insn(cfg, decode_insn(cfg, word, keep_unused=True)) == word

    @settings(max_examples=200, deadline=None)
    @given(st.integers(0, (1 << 32) - 1))
    def uop_round_trip(word: int) -> None:
        assert encode_uop(cfg, decode_uop(cfg, word, keep_unused=True)) == word

    insn_round_trip()
    word_round_trip()
    uop_round_trip()
