"""Configuration rules of spec section 1; expected numbers are the spec's own."""
import json

import pytest

from models.config import CONFIG_DIR, ConfigError, VtaConfig
from models.spec.configs import load_config


def test_default_derived_values_match_spec() -> None:
    cfg = VtaConfig()
    assert (cfg.inp_bytes, cfg.wgt_bytes, cfg.acc_bytes, cfg.out_bytes) == (16, 256, 64, 16)
    assert (cfg.uop_bytes, cfg.insn_bytes) == (4, 16)
    assert (cfg.log_uop_depth, cfg.log_inp_depth, cfg.log_wgt_depth, cfg.log_acc_depth) == (13, 11, 10, 11)
    assert cfg.out_depth == cfg.acc_depth == 2048
    assert cfg.log_out_buff_size == 15  # 17 + 3 - 5
    assert cfg.bus_bytes == 8


def test_batch2_element_sizes() -> None:
    cfg = load_config("batch2")
    assert cfg.batch == 2
    assert (cfg.inp_bytes, cfg.acc_bytes, cfg.out_bytes, cfg.acc8_bytes) == (32, 128, 32, 32)


def test_shipped_configs_load() -> None:
    names = sorted(p.stem for p in CONFIG_DIR.glob("*.json"))
    assert {"default", "small", "batch2"} <= set(names)
    for name in names:
        load_config(name)


@pytest.mark.parametrize("values, words", [
    ({"LOG_FOO": 1}, ["unknown", "LOG_FOO"]),
    ({"LOG_BLOCK": 9}, ["LOG_BLOCK", "out of range"]),
    ({"LOG_BLOCK": "4"}, ["LOG_BLOCK", "integer"]),
    ({"LOG_BLOCK": True}, ["LOG_BLOCK", "integer"]),
    ({"LOG_INP_WIDTH": 4}, ["LOG_INP_WIDTH", "8-bit"]),
    ({"LOG_WGT_BUFF_SIZE": 7}, ["LOG_WGT_BUFF_SIZE", "fewer than 2"]),
    ({"LOG_ACC_BUFF_SIZE": 24, "LOG_BLOCK": 1}, ["LOG_ACC_BUFF_SIZE", "sram_base"]),
])
def test_invalid_values_name_the_key(values: dict, words: list[str]) -> None:
    with pytest.raises(ConfigError) as info:
        VtaConfig.from_dict(values, "cfg.json")
    for word in words:
        assert word in str(info.value)
    assert "cfg.json" in str(info.value)


def test_instruction_that_no_longer_fits_is_rejected() -> None:
    # A 2^16-entry uop buffer: head 7 + reset 1 + uop_bgn 16 + uop_end 17 + iter_out 14 = 55,
    # iter_in (14) would cross bit 64 so it starts at 64; then 2*11 + 2*11 + 2*10 factor bits
    # end at bit 78 + 64 = 142 > 128.
    with pytest.raises(ConfigError) as info:
        VtaConfig.from_dict({"LOG_UOP_BUFF_SIZE": 18}, "big.json")
    assert "GEMM" in str(info.value) and "128" in str(info.value) and "big.json" in str(info.value)


def test_micro_op_that_no_longer_fits_is_rejected() -> None:
    # BLOCK 2: ACC element 8 B, INP 2 B, WGT 4 B. Depths acc 2^14, inp 2^4, wgt 2^5 and a
    # 2-entry uop buffer keep every instruction within 128 bits, but a micro-op needs
    # 14 + max(14, 4) + 5 = 33 bits.
    with pytest.raises(ConfigError) as info:
        VtaConfig.from_dict({"LOG_BLOCK": 1, "LOG_ACC_BUFF_SIZE": 17, "LOG_INP_BUFF_SIZE": 5,
                             "LOG_WGT_BUFF_SIZE": 7, "LOG_UOP_BUFF_SIZE": 3}, "u.json")
    assert "micro-op" in str(info.value) and "32" in str(info.value)


def test_file_errors(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match="bad.json: not valid JSON"):
        VtaConfig.from_file(bad)
    arr = tmp_path / "arr.json"
    arr.write_text(json.dumps([1]))
    with pytest.raises(ConfigError, match="JSON object"):
        VtaConfig.from_file(arr)
    with pytest.raises(ConfigError, match="not found"):
        VtaConfig.from_file(tmp_path / "missing.json")


@pytest.mark.parametrize("data, message", [
    (b'{"LOG_BLOCK": 2,\n "LOG_BLOCK": 3}', "not valid JSON: duplicate key 'LOG_BLOCK'"),
    (b'{"LOG_BLOCK":\n\xff}', "not UTF-8 text (byte 0xff on line 2)"),
    (b"[" * 100_000 + b"]" * 100_000, "not valid JSON: nested too deeply"),
    (b'{"LOG_BLOCK": ' + b"9" * 5000 + b"}", "not valid JSON: an integer literal has too many digits"),
])
def test_unreadable_json_is_one_config_error(tmp_path, data: bytes, message: str) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(data)
    with pytest.raises(ConfigError) as info:
        load_config(str(path))
    assert str(info.value) == f"{path}: {message}"


def test_config_paths_that_are_not_files(tmp_path) -> None:
    with pytest.raises(ConfigError, match="is a directory, expected a JSON file"):
        load_config(str(tmp_path))
    (tmp_path / "loop.json").symlink_to("loop.json")
    with pytest.raises(ConfigError, match="loop.json: cannot read: Too many levels of symbolic links"):
        load_config(str(tmp_path / "loop.json"))
    with pytest.raises(ConfigError, match=r"'smal': .* not a shipped configuration \(batch2, default"):
        load_config("smal")


def test_overrides_round_trip() -> None:
    cfg = load_config("small")
    assert VtaConfig.from_dict(cfg.overrides()) == cfg
    assert VtaConfig().overrides() == {}
