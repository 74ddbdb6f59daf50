"""Random program generator: coverage, well-formedness, determinism, race-freedom, knobs."""
from __future__ import annotations

import filecmp
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from models.config import VtaConfig
from models.executor import run_vector, written_images
from models.gen import GenError, GenKnobs, build, generate, generate_many
from models.spec import SHIPPED_CONFIGS, module_of
from models.spec.configs import load_config
from models.stats import collect, format_stats, missing, program_of

SMALL = load_config("small")

#: Coverage items written from the spec, independently of the generator and of stats.REQUIRED:
#: opcodes (section 2), memory types a LOAD may name and OUT for STORE, ALU opcodes with and
#: without immediate, every LOAD pad field non-zero and at its 4-bit maximum, GEMM reset, and
#: the legal flags of each module (section 4 table).
SPEC_REQUIRED = (
    ["opcode/LOAD", "opcode/STORE", "opcode/GEMM", "opcode/FINISH", "opcode/ALU"]
    + [f"load/mem/{m}" for m in ("UOP", "WGT", "INP", "ACC", "ACC_8BIT")] + ["store/mem/OUT"]
    + [f"alu/{op}/{how}" for op in ("MIN", "MAX", "ADD", "SHR", "MUL") for how in ("imm", "reg")]
    + [f"pad/{p}/{v}" for p in ("y_pad_0", "y_pad_1", "x_pad_0", "x_pad_1") for v in ("nonzero", "15")]
    + ["gemm/reset/yes", "gemm/reset/no"]
    + ["flag/load/pop_next_dep", "flag/load/push_next_dep",
       "flag/compute/pop_prev_dep", "flag/compute/pop_next_dep",
       "flag/compute/push_prev_dep", "flag/compute/push_next_dep",
       "flag/store/pop_prev_dep", "flag/store/push_prev_dep"]
)


def _gen(seed: int, cfg: VtaConfig = SMALL, knobs: GenKnobs | None = None):
    """Every program in these tests must pass the checker at the first attempt."""
    return generate(seed, cfg, knobs, max_retries=0)


def test_coverage_over_200_seeds() -> None:
    hist = collect(_gen(seed) for seed in range(200))
    gaps = [item for item in SPEC_REQUIRED if not hist.get(item)]
    assert not gaps, f"never generated: {gaps}\n{format_stats(hist)}"
    assert not missing(hist)
    assert not [k for k in hist if "ILLEGAL" in k]
    assert hist["load/x_size/0"] and hist["store/x_size/0"]
    assert hist["load/x_stride/>x_size"] and hist["gemm/iter_out/1"] and hist["gemm/iter_out/>1"]
    assert 20 <= hist["total/instructions"] / 200 <= 200
    assert hist["total/gemm_uop_execs"] / 200 <= 2000


@pytest.mark.parametrize("name", SHIPPED_CONFIGS)
def test_checker_accepts_every_program(name: str) -> None:
    cfg = load_config(name)
    for seed in range(1000, 1030):
        vector = _gen(seed, cfg)
        assert vector.expect, f"seed {seed}: no STORE output"
        assert f'"seed": {seed}' in vector.description and f'"config": "{name}"' in vector.description


@pytest.mark.parametrize("values", [
    {"CMD_QUEUE_DEPTH": 1, "TOKEN_QUEUE_DEPTH": 1},
    {"CMD_QUEUE_DEPTH": 2, "TOKEN_QUEUE_DEPTH": 2, "LOG_BATCH": 1},
    {"LOG_UOP_BUFF_SIZE": 3, "LOG_INP_BUFF_SIZE": 4, "LOG_WGT_BUFF_SIZE": 6, "LOG_ACC_BUFF_SIZE": 5,
     "LOG_BLOCK": 1},
    {"LOG_BATCH": 3, "LOG_BLOCK": 3, "LOG_BUS_WIDTH": 5},
])
def test_well_formed_on_unusual_configs(values: dict[str, int]) -> None:
    """Tiny buffers and queues of depth 1 are where a slot or token plan would break first."""
    cfg = VtaConfig.from_dict(values)
    for seed in range(25):
        _gen(seed, cfg)


@pytest.mark.parametrize("changes", [
    {"loads_per_stage": (0, 1), "store_stage_prob": 0.0, "stores_per_stage": (0, 1)},
    {"window": (1, 1), "x_size": (1, 1), "y_size": (1, 1), "max_loop_work": 1},
    {"inp_slots": (3, 3), "acc_slots": (3, 3), "order_eager": 1.0, "token_eager": 0.0, "tiles": (12, 12)},
    {"order_eager": 0.0, "token_eager": 1.0, "uop_merge_prob": 1.0, "uop_reuse_prob": 1.0},
    {"w_gemm": 0.0, "w_alu": 0.0, "zero_size_prob": 1.0},
    {"pad_prob": 1.0, "pad15_prob": 1.0, "stride_extra_prob": 1.0, "window": (40, 64)},
])
def test_well_formed_at_extreme_knobs(changes: dict) -> None:
    knobs = replace(GenKnobs(), **changes)
    for name in ("small", "default"):
        for seed in range(15):
            _gen(seed, load_config(name), knobs)


def test_same_seed_same_bytes_and_seed_derivation(tmp_path: Path) -> None:
    first = generate_many(7, SMALL, 3, tmp_path / "a")
    again = generate_many(7, SMALL, 3, tmp_path / "b")
    alone = generate_many(9, SMALL, 1, tmp_path / "c")      # program k=2 of seed 7 is seed 9
    assert [p.name for p in first] == ["seed_7_0", "seed_7_1", "seed_7_2"]

    def same(x: Path, y: Path) -> bool:
        names = sorted(f.name for f in x.iterdir())
        match, mismatch, errors = filecmp.cmpfiles(x, y, names, shallow=False)
        return names == sorted(f.name for f in y.iterdir()) and not mismatch and not errors

    assert all(same(x, y) for x, y in zip(first, again, strict=True))
    assert same(first[2], alone[0])
    assert not same(first[0], first[1])


def test_different_seeds_differ() -> None:
    images = {bytes(build(seed, SMALL).init[0].data) for seed in range(20)}
    assert len(images) == 20


@pytest.mark.parametrize("name", ["small", "batch2"])
def test_schedules_agree(name: str) -> None:
    """Race-freedom in practice: any token-respecting interleaving leaves the same DRAM."""
    cfg = load_config(name)
    for seed in range(40):
        vector = _gen(seed, cfg)
        reference = [(i.addr, i.data) for i in vector.expect]
        for schedule in range(4):
            got = [(i.addr, i.data) for i in written_images(run_vector(vector, schedule=schedule))]
            assert got == reference, f"seed {seed}: schedule {schedule} differs from program order"


def _mix(knobs: GenKnobs, seeds: range = range(30)) -> Counter[str]:
    return collect(_gen(seed, SMALL, knobs) for seed in seeds)


def test_knobs_change_the_mix() -> None:
    base = GenKnobs()
    no_gemm = _mix(replace(base, w_gemm=0.0))
    assert not no_gemm["opcode/GEMM"] and not no_gemm["load/mem/INP"] and not no_gemm["load/mem/WGT"]
    assert no_gemm["opcode/ALU"]
    no_alu = _mix(replace(base, w_alu=0.0, w_load_acc=0.0, w_load_acc8=0.0))
    assert not no_alu["opcode/ALU"] and not no_alu["load/mem/ACC"] and no_alu["opcode/GEMM"]
    plain = _mix(replace(base, pad_prob=0.0, reset_prob=0.0, use_imm_prob=0.0, zero_size_prob=0.0,
                         stride_extra_prob=0.0, iter_one_prob=1.0))
    assert not [k for k in plain if k.startswith("pad/") and not k.endswith("/zero")]
    assert not plain["gemm/reset/yes"] and not [k for k in plain if k.endswith("/imm")]
    assert not plain["load/x_size/0"] and not plain["store/x_stride/>x_size"]
    assert not plain["gemm/iter_out/>1"] and not plain["alu/iter_in/>1"]
    only_shr = _mix(replace(base, alu_op_weights=(0.0, 0.0, 0.0, 1.0, 0.0)))
    assert {k.split("/")[1] for k in only_shr if k.startswith("alu/") and "iter" not in k} == {"SHR"}
    big = _mix(replace(base, tiles=(12, 12), compute_ops=(8, 8)), range(5))
    small = _mix(replace(base, tiles=(2, 2), compute_ops=(1, 1)), range(5))
    assert big["total/instructions"] > 3 * small["total/instructions"]


def test_knob_bases() -> None:
    zero = [_gen(s, SMALL, replace(GenKnobs(), nonzero_bases_prob=0.0)) for s in range(10)]
    assert all(not any(v.bases.values()) for v in zero)
    odd = [_gen(s, SMALL, replace(GenKnobs(), nonzero_bases_prob=1.0, unaligned_bases_prob=1.0))
           for s in range(10)]
    assert any(b % 64 for v in odd for b in v.bases.values())
    high = [_gen(s, SMALL, replace(GenKnobs(), high_addr_prob=1.0)) for s in range(10)]
    assert all(v.insn_addr >= 1 << 20 for v in high)


def _overlap(vector) -> float:
    """Share of steps of a greedy token-respecting run at which two or more modules are ready."""
    decoded = program_of(vector)
    program = [insn for insn in decoded if insn is not None]
    assert len(program) == len(decoded), "a generated program decodes completely"
    queues = {m: [n for n, i in enumerate(program) if module_of(i) == m]
              for m in ("load", "compute", "store")}
    pops = {"load": {"pop_next_dep": "C2L"}, "compute": {"pop_prev_dep": "L2C", "pop_next_dep": "S2C"},
            "store": {"pop_prev_dep": "C2S"}}
    pushes = {"load": {"push_next_dep": "L2C"}, "compute": {"push_prev_dep": "C2L", "push_next_dep": "C2S"},
              "store": {"push_prev_dep": "S2C"}}
    tokens: Counter[str] = Counter()
    heads = dict.fromkeys(queues, 0)
    busy = steps = 0
    while True:
        ready = [m for m in queues if heads[m] < len(queues[m]) and all(
            tokens[q] > 0 for f, q in pops[m].items() if program[queues[m][heads[m]]][f])]
        if not ready:
            return busy / max(steps, 1)
        steps += 1
        busy += len(ready) > 1
        m = min(ready, key=lambda m: queues[m][heads[m]])
        insn = program[queues[m][heads[m]]]
        heads[m] += 1
        tokens.subtract(q for f, q in pops[m].items() if insn[f])
        tokens.update(q for f, q in pushes[m].items() if insn[f])


def test_concurrency_knob() -> None:
    serial = replace(GenKnobs(), inp_slots=(1, 1), acc_slots=(1, 1))
    parallel = replace(GenKnobs(), inp_slots=(3, 3), acc_slots=(3, 3), tiles=(6, 10))
    low = np.mean([_overlap(_gen(s, SMALL, serial)) for s in range(30)])
    high = np.mean([_overlap(_gen(s, SMALL, parallel)) for s in range(30)])
    assert high > low + 0.1 and high > 0.3, (low, high)


def test_knobs_from_seed_vary_and_validate() -> None:
    drawn = {GenKnobs.from_seed(np.random.default_rng(s)) for s in range(20)}
    assert len(drawn) > 10
    with pytest.raises(ValueError, match="w_gemm"):
        GenKnobs(w_gemm=0.0, w_alu=0.0, w_load_acc=0.0, w_load_acc8=0.0)
    with pytest.raises(ValueError, match="pad_prob"):
        GenKnobs(pad_prob=1.5)
    with pytest.raises(ValueError, match="tiles"):
        GenKnobs(tiles=(0, 3))


class _Rejected:
    """A checker report with a finding, whatever the program."""

    ok = False

    def format(self) -> str:
        return "forced finding"


def test_rejected_programs_are_retried_then_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import models.gen as gen
    monkeypatch.setattr(gen, "check_vector", lambda vector: _Rejected())
    with pytest.raises(GenError, match="rejected 3 attempt"):
        gen.generate(1, SMALL, max_retries=2)
    assert len({build(1, SMALL, attempt=a).init[0].data for a in range(3)}) == 3


def test_stats_missing_and_format() -> None:
    assert sorted(missing(Counter())) == sorted(SPEC_REQUIRED)
    text = format_stats(collect([_gen(3)]))
    assert "opcode/FINISH" in text and "total/vectors" in text
