"""Random configurations (models/randcfg.py): valid, reproducible, spread, usable everywhere."""
from __future__ import annotations

from collections import Counter

import pytest

from models.cli import main
from models.config import ConfigError, VtaConfig
from models.gen import generate
from models.randcfg import MAX_MACS, sample_config, sample_values
from models.spec.configs import load_config

SEEDS = range(600)


def test_every_draw_is_a_configuration_vtaconfig_accepts() -> None:
    for seed in SEEDS:
        values = sample_values(seed)
        cfg = VtaConfig.from_dict(values)   # raises on any rule of spec section 1
        assert cfg.batch * cfg.block * cfg.block <= MAX_MACS
        assert (cfg.inp_width, cfg.wgt_width, cfg.acc_width) == (8, 8, 32)
        assert cfg.uop_depth <= 2048 and max(cfg.inp_depth, cfg.acc_depth) <= 1024 and cfg.wgt_depth <= 512


def test_draws_are_reproducible_and_differ() -> None:
    assert [sample_values(s) for s in range(50)] == [sample_values(s) for s in range(50)]
    assert len({tuple(sorted(sample_values(s).items())) for s in range(50)}) == 50
    assert load_config("random:17") == sample_config(17)
    assert load_config("random:17").source == "random:17"


def test_every_block_batch_bus_and_queue_value_is_drawn() -> None:
    drawn = [sample_config(s) for s in SEEDS]
    assert set(Counter(c.block for c in drawn)) == {2, 4, 8, 16, 32}
    assert set(Counter(c.batch for c in drawn)) == {1, 2, 4, 8}
    assert {c.bus_bytes * 8 for c in drawn} == {32, 64, 128, 256, 512}
    assert {1, 16} <= {c.cmd_queue_depth for c in drawn} and {1, 16} <= {c.token_queue_depth for c in drawn}


@pytest.mark.parametrize("text, why", [
    ("random:x", "non-negative decimal integer"), ("random:-3", "non-negative decimal integer"),
    ("random:", "non-negative decimal integer"), ("random:18446744073709551616", "0 .. 2^64-1"),
    ("random:" + "9" * 40, "0 .. 2^64-1"),
])
def test_bad_random_names_are_one_line_errors(text: str, why: str) -> None:
    with pytest.raises(ConfigError, match="random") as exc:
        load_config(text)
    assert why in str(exc.value) and "\n" not in str(exc.value)


def test_generated_programs_are_well_formed_on_random_configurations() -> None:
    for seed in range(20):
        vector = generate(seed, sample_config(seed), max_retries=0)
        assert f'"config": "random:{seed}"' in vector.description


def test_cli_accepts_random_configurations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "random:5"]) == 0
    assert f"LOG_BLOCK            {sample_values(5)['LOG_BLOCK']}" in capsys.readouterr().out
    assert main(["config", "random:x"]) == 2
    assert "random:SEED" in capsys.readouterr().err
