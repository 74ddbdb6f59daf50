"""Generator presets and wide-form knobs: well-formed, reaching their forms, default unchanged."""
from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from models.cli import main
from models.config import VtaConfig
from models.executor import run_vector, written_images
from models.gen import GenKnobs, build, generate
from models.genlib.knobs import WIDE_KNOBS
from models.genlib.presets import PRESETS, preset_knobs
from models.spec.configs import load_config
from models.stats import WIDE, collect, format_stats
from models.vector import load_vector

DEFAULT = load_config("default")
SMALL = load_config("small")
#: Programs per preset in the coverage test: enough that each preset shows its form at
#: least once over these fixed seeds (the long ones are the slowest to check and execute).
SEEDS = {"long": 2, "loops": 14, "uops": 4, "uopload": 6, "gemm6": 4, "queues": 12, "rows": 4}
#: sha256 over the descriptions and images of seeds 0..11 on small and default, computed
#: before the wide-form knobs existed: a default program must stay byte for byte the same.
DEFAULT_DIGEST = "076dbf7b81ce9176580037a961e1c7277c938e63d4a8d906f1a2d8154e66e961"


def _gen(name: str, seed: int, cfg: VtaConfig = DEFAULT):
    """A preset's program, which must pass the checker at the first attempt."""
    return generate(seed, cfg, PRESETS[name].for_seed(seed), max_retries=0)


def test_default_programs_are_byte_identical_to_before_the_presets() -> None:
    h = hashlib.sha256()
    for cfg in (SMALL, DEFAULT):
        for seed in range(12):
            v = generate(seed, cfg)
            h.update(v.description.encode())
            for img in v.init + (v.expect or []):
                h.update(img.addr.to_bytes(8, "little") + img.data)
    assert h.hexdigest() == DEFAULT_DIGEST
    assert not any(f'"{k}"' in build(3, SMALL).description for k in WIDE_KNOBS)


def test_presets_reach_every_wide_form() -> None:
    hist: Counter[str] = Counter()
    for name, count in SEEDS.items():
        hist += collect(_gen(name, seed) for seed in range(count))
    unseen = [item for item in WIDE if not hist.get(item)]
    assert not unseen, f"never generated: {unseen}\n{format_stats(hist)}"
    assert not [k for k in hist if "ILLEGAL" in k]


@pytest.mark.parametrize("name", [n for n in PRESETS if n != "long"])
def test_preset_programs_are_well_formed_on_small_and_unusual_configs(name: str) -> None:
    """Small buffers clip every preset's sizes; depth-1 queues make the queue preset's excess
    slots deadlock-prone (the fallback must still give a well-formed program)."""
    tiny_queues = VtaConfig.from_dict({"CMD_QUEUE_DEPTH": 1, "TOKEN_QUEUE_DEPTH": 1})
    tiny_buffers = VtaConfig.from_dict({"LOG_UOP_BUFF_SIZE": 3, "LOG_INP_BUFF_SIZE": 4,
                                        "LOG_WGT_BUFF_SIZE": 6, "LOG_ACC_BUFF_SIZE": 5, "LOG_BLOCK": 1})
    for cfg in (SMALL, tiny_queues, tiny_buffers):
        for seed in range(4):
            _gen(name, seed, cfg)


def test_preset_figures() -> None:
    """The form each preset is named for, in most of its programs."""
    long = collect(_gen("long", s) for s in range(2))
    assert long["program/insns/1000+"] == 2
    gemm6 = collect(_gen("gemm6", s) for s in range(4))
    assert gemm6["gemm/factors/all_nonzero"] >= 0.6 * gemm6["opcode/GEMM"]
    uops = collect(_gen("uops", s) for s in range(4))
    assert uops["max/uops_per_insn"] >= 1000
    shaped = collect(_gen("uopload", s) for s in range(4))
    forms = sum(shaped[f"load/form/UOP/{f}"] for f in ("padded", "strided", "2d"))
    assert forms >= shaped["load/mem/UOP"] / 2


@pytest.mark.parametrize("name", ["uopload", "gemm6", "queues", "loops"])
def test_preset_programs_are_race_free(name: str) -> None:
    """Any token-respecting interleaving leaves the DRAM program order leaves."""
    for seed in range(3):
        vector = _gen(name, seed, SMALL)
        reference = [(i.addr, i.data) for i in vector.expect or []]
        for schedule in range(2):
            got = [(i.addr, i.data) for i in written_images(run_vector(vector, schedule=schedule))]
            assert got == reference, f"{name} seed {seed}: schedule {schedule} differs"


def test_queue_preset_falls_back_without_the_excess_only_on_deadlock() -> None:
    """Some programs keep more slots than a counter holds; a deadlocking one is rebuilt
    without them, so every program is well-formed and the seed still decides it."""
    kept = 0
    for seed in range(12):
        vector = _gen("queues", seed)
        kept += '"slots_over_depth": 4' in vector.description
        assert build(seed, DEFAULT, PRESETS["queues"].for_seed(seed)).init[0].data == vector.init[0].data
    assert kept >= 6


def test_cli_preset_and_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gen", "--seed", "5", "--count", "2", "--out", str(tmp_path / "a")]) == 0
    assert main(["gen", "--seed", "5", "--count", "2", "--preset", "default",
                 "--out", str(tmp_path / "b")]) == 0
    assert main(["gen", "--seed", "6", "--preset", "uopload", "--out", str(tmp_path / "c")]) == 0
    for k in range(2):
        for f in (tmp_path / "a" / f"seed_5_{k}").iterdir():
            assert f.read_bytes() == (tmp_path / "b" / f"seed_5_{k}" / f.name).read_bytes()
    assert '"uop_shape_prob": 0.9' in load_vector(tmp_path / "c" / "seed_6_0").description
    capsys.readouterr()
    assert main(["stats", str(tmp_path / "c")]) == 0
    assert "wide forms (gen --preset) never seen:" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["gen", "--seed", "1", "--preset", "nosuch", "--out", str(tmp_path / "d")])
    assert exc.value.code == 2
    with pytest.raises(ValueError, match="unknown preset"):
        preset_knobs("nosuch", 1)


def test_wide_knobs_validate() -> None:
    with pytest.raises(ValueError, match="long_loop"):
        GenKnobs(long_loop=(1000, 16384))
    with pytest.raises(ValueError, match="iter_out"):
        GenKnobs(iter_out=(1, 20000))
    with pytest.raises(ValueError, match="slots_over_depth"):
        GenKnobs(slots_over_depth=-1)
    with pytest.raises(ValueError, match="uop_shape_prob"):
        replace(GenKnobs(), uop_shape_prob=2.0)
