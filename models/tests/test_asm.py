"""Assembly text and JSON forms: hand-written programs, exact bytes, clear errors, CLI."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.asm import AsmError, assemble, assemble_json, disasm_bytes, to_json_lines
from models.config import VtaConfig
from models.spec.configs import load_config

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = """\
# a complete little program
LOAD UOP sram_base=0 dram_base=8 y_size=1 x_size=1 x_stride=1
LOAD INP dram_base=2 y_size=1 x_size=1 x_stride=1 push_next
GEMM pop_prev uop_end=1 iter_out=1 iter_in=1 push_next
STORE OUT pop_prev y_size=1 x_size=1 x_stride=1 push_prev
FINISH pop_next
"""


def test_assemble_hand_checked_bytes() -> None:
    data = assemble(VtaConfig(), PROGRAM.splitlines())
    assert len(data) == 5 * 16
    gemm = int.from_bytes(data[32:48], "little")
    # opcode 2, pop_prev bit 3, push_next bit 6, uop_end=1 at 21, iter_out=1 at 35, iter_in=1 at 49
    assert gemm == 2 | 1 << 3 | 1 << 6 | 1 << 21 | 1 << 35 | 1 << 49
    load_inp = int.from_bytes(data[16:32], "little")
    assert load_inp == 0 | 1 << 6 | 2 << 7 | 2 << 26 | 1 << 64 | 1 << 80 | 1 << 96


def test_text_round_trip() -> None:
    cfg = VtaConfig()
    data = assemble(cfg, PROGRAM.splitlines())
    assert assemble(cfg, disasm_bytes(cfg, data)) == data
    assert assemble_json(cfg, to_json_lines(cfg, data)) == data


def test_json_uses_hw_spec_names() -> None:
    line = to_json_lines(VtaConfig(), assemble(VtaConfig(), ["ALU MIN use_imm imm=-7 uop_end=2"]))[0]
    obj = json.loads(line)
    assert obj["opcode"] == "ALU" and obj["alu_opcode"] == "MIN" and obj["imm"] == -7
    assert obj["use_imm"] == 1 and obj["uop_end"] == 2 and obj["pop_prev_dep"] == 0


def test_json_fields_left_out_are_zero() -> None:
    data = assemble_json(VtaConfig(), ['{"opcode": "LOAD", "memory_type": "WGT", "x_size": 3}'])
    assert int.from_bytes(data, "little") == 1 << 7 | 3 << 80


@pytest.mark.parametrize("line, message", [
    ("JUMP 3", "unknown opcode 'JUMP'"),
    ("LOAD INP x_size=70000", "'x_size' = 70000 does not fit"),
    ("ALU ADD imm=40000", "'imm' = 40000"),
    ("LOAD INP bogus", "unexpected word 'bogus'"),
    ("LOAD INP x_size=1 x_size=2", "'x_size' given twice"),
    ("GEMM uop_end=abc", "'abc' is not a number"),
    ("GEMM imm=1", "unknown field 'imm'"),
    ("LOAD INP x_size=1_0", "'1_0' is not a number (decimal or 0x hex)"),
    ("LOAD INP x_size=0o7", "'0o7' is not a number"),
    ("LOAD INP x_size=--1", "'--1' is not a number"),
    ("LOAD INP x_size=0x" + "f" * 40, "(42 characters) is too large for any field (over 128 bits)"),
    ("FINISH\x00", "unknown opcode 'FINISH\\x00'"),
])
def test_errors_name_line_and_field(line: str, message: str) -> None:
    with pytest.raises(AsmError) as info:
        assemble(VtaConfig(), ["FINISH", line], "prog.s")
    assert "prog.s:2" in str(info.value) and message in str(info.value)


def test_numbers_decimal_and_hex_signed() -> None:
    cfg = VtaConfig()
    assert assemble(cfg, ["ALU ADD use_imm imm=-0x10 uop_end=+2"]) == \
        assemble(cfg, ["ALU ADD use_imm imm=-16 uop_end=2"])


@pytest.mark.parametrize("line, message", [
    ('{"opcode": "FINISH", "opcode": "LOAD"}', "prog.jsonl:1: field 'opcode' given twice"),
    ('{"x": ' + "[" * 100_000 + "]" * 100_000 + "}", "prog.jsonl:1: not valid JSON: nested too deeply"),
    ('{"x_size": ' + "9" * 5000 + "}", "prog.jsonl:1: not valid JSON: an integer literal has too many"),
])
def test_json_errors_name_the_line(line: str, message: str) -> None:
    with pytest.raises(AsmError) as info:
        assemble_json(VtaConfig(), [line], "prog.jsonl")
    assert message in str(info.value)


def test_illegal_opcode_survives_as_raw_word() -> None:
    cfg = VtaConfig()
    data = (7 | 1 << 100).to_bytes(16, "little")
    lines = disasm_bytes(cfg, data)
    assert lines[0].startswith(".insn") and "illegal opcode 7" in lines[0]
    assert assemble(cfg, lines) == data
    with pytest.raises(AsmError, match="instruction 0: illegal opcode 7"):
        to_json_lines(cfg, data)


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=16, max_size=16 * 4).filter(lambda b: len(b) % 16 == 0))
def test_any_bytes_round_trip_through_text(data: bytes) -> None:
    cfg = load_config("small")
    assert assemble(cfg, disasm_bytes(cfg, data)) == data


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=4, max_size=64).filter(lambda b: len(b) % 4 == 0))
def test_uops_round_trip(data: bytes) -> None:
    cfg = load_config("small")
    assert assemble(cfg, disasm_bytes(cfg, data, uop=True), uop=True) == data
    assert assemble_json(cfg, to_json_lines(cfg, data, uop=True), uop=True) == data


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "models", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_cli_asm_disasm_round_trip(tmp_path: Path) -> None:
    src = tmp_path / "prog.s"
    src.write_text(PROGRAM)
    out = tmp_path / "insns.bin"
    assert _cli("asm", str(src), "-o", str(out)).returncode == 0
    text = _cli("disasm", str(out))
    assert text.returncode == 0 and text.stdout.splitlines()[2].startswith("GEMM pop_prev")
    (tmp_path / "again.s").write_text(text.stdout)
    assert _cli("asm", str(tmp_path / "again.s"), "-o", str(tmp_path / "again.bin")).returncode == 0
    assert (tmp_path / "again.bin").read_bytes() == out.read_bytes()
    jsonl = _cli("disasm", "--json", str(out))
    (tmp_path / "p.jsonl").write_text(jsonl.stdout)
    assert _cli("asm", "--json", str(tmp_path / "p.jsonl"), "-o", str(tmp_path / "j.bin")).returncode == 0
    assert (tmp_path / "j.bin").read_bytes() == out.read_bytes()


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    src = tmp_path / "bad.s"
    src.write_text("LOAD INP x_pad_0=16\n")
    result = _cli("asm", str(src), "-o", str(tmp_path / "x.bin"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: {src}:1: field 'x_pad_0' = 16 does not fit 4 bits [0, 15]"
    assert _cli("disasm", str(tmp_path / "missing.bin")).returncode == 2
