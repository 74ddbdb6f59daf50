"""The spec tables of models.spec against the spec's own statements of them."""
from __future__ import annotations

import numpy as np

from models.config import CONFIG_DIR, VtaConfig
from models.isa import MemType, Opcode
from models.spec import (
    BASE_OF,
    FLAG_QUEUE,
    LEGAL_FLAGS,
    MEMORY,
    QUEUES,
    SHIPPED_CONFIGS,
    elem_bytes,
    intersect_ranges,
    merge_ranges,
    merge_spans,
    module_of,
    shipped_name,
)
from models.spec.configs import load_config


def test_flag_table_is_the_one_of_spec_section_4():
    assert FLAG_QUEUE == {
        ("load", "pop_next_dep"): "C2L", ("load", "push_next_dep"): "L2C",
        ("compute", "pop_prev_dep"): "L2C", ("compute", "pop_next_dep"): "S2C",
        ("compute", "push_prev_dep"): "C2L", ("compute", "push_next_dep"): "C2S",
        ("store", "pop_prev_dep"): "C2S", ("store", "push_prev_dep"): "S2C",
    }
    assert LEGAL_FLAGS["load"] == ("pop_next_dep", "push_next_dep")
    assert LEGAL_FLAGS["store"] == ("pop_prev_dep", "push_prev_dep")
    for (module, flag), q in FLAG_QUEUE.items():
        assert module == QUEUES[q][0 if flag.startswith("push") else 1]


def test_memory_types_and_routing():
    cfg = load_config("batch2")
    assert [elem_bytes(cfg, mt) for mt in MemType] == [4, 256, 32, 128, 32, 32]
    assert BASE_OF == {"uop": "uop", "wgt": "wgt", "inp": "inp", "acc": "acc", "out": "out", "acc8": "acc"}
    assert {MEMORY[mt].buffer for mt in (MemType.ACC, MemType.ACC_8BIT)} == {"acc"}
    routes = {mt: module_of({"opcode": Opcode.LOAD, "memory_type": mt}) for mt in range(8)}
    assert routes == {0: "compute", 1: "load", 2: "load", 3: "compute", 4: "compute", 5: "compute",
                      6: "compute", 7: "compute"}
    assert module_of({"opcode": Opcode.STORE, "memory_type": MemType.UOP}) == "store"
    assert module_of({"opcode": Opcode.FINISH}) == "compute"


def test_shipped_configurations_are_the_files():
    assert SHIPPED_CONFIGS == tuple(sorted(p.stem for p in CONFIG_DIR.glob("*.json")))
    assert {"default", "small", "batch2"} <= set(SHIPPED_CONFIGS)
    assert all(shipped_name(load_config(name)) == name for name in SHIPPED_CONFIGS)
    assert shipped_name(VtaConfig.from_dict({"CMD_QUEUE_DEPTH": 3})) is None


def test_merge_ranges_joins_touching_and_overlapping_rows():
    assert merge_ranges(np.array([20, 0, 8, 4]), np.array([4, 4, 4, 4])) == [(0, 12), (20, 4)]
    assert merge_ranges([(1 << 32) - 2], [8]) == [((1 << 32) - 2, 2)]   # clipped to 4 GiB
    assert merge_spans([(5, 10), (0, 3), (3, 4), (20, 20)]) == [(0, 4), (5, 10)]
    assert intersect_ranges([(0, 10), (20, 10)], [(5, 20)]) == [(5, 5), (20, 5)]
