"""Directed closure programs for bins the random generator does not reach.

The generator works on windows of SRAM slots, so a LOAD or STORE as long as a whole
buffer (x_size or y_size equal to its depth, touching its last entry) never comes out
of it. Two programs fill every buffer end to end, once as one row (x_size = depth) and
once as one column (y_size = depth), then store the whole accumulator. Its tile
pipelines also never make a compute instruction that pops S2C and pushes C2L (with or
without C2S); a third program passes one accumulator entry around the three modules so
that those flag combinations occur. Each is checked by models.checker and gets its ``expect`` from the
executor, exactly like a generated program; the DRAM regions sit on 4 KiB boundaries so
the long bursts also end next to one.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from models.asm import assemble
from models.checker import check_vector
from models.config import INSN_BYTES, VtaConfig
from models.executor import expected_images
from models.vector import Image, Vector, save_vector

INSN_ADDR = 0x1000
BASES = {"uop": 0x10000, "inp": 0x100000, "wgt": 0x200000, "acc": 0x300000, "out": 0x400000}


def _shape(depth: int, column: bool) -> str:
    return (f"y_size={depth} x_size=1 x_stride=1" if column
            else f"y_size=1 x_size={depth} x_stride={depth}")


def program_text(cfg: VtaConfig, column: bool) -> list[str]:
    """Assembly of one whole-buffer program (tokens: one each of L2C, C2S and S2C, all popped)."""
    s = lambda depth: _shape(depth, column)  # noqa: E731
    return [
        f"LOAD UOP sram_base=0 dram_base=0 {s(cfg.uop_depth)}",
        f"LOAD ACC sram_base=0 dram_base=0 {s(cfg.acc_depth)}",
        f"LOAD INP sram_base=0 dram_base=0 {s(cfg.inp_depth)}",
        f"LOAD WGT sram_base=0 dram_base=0 {s(cfg.wgt_depth)} push_next",
        "GEMM pop_prev uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 push_next",
        f"STORE OUT pop_prev push_prev sram_base=0 dram_base=0 {s(cfg.acc_depth)}",
        "FINISH pop_next",
    ]


def tokens_text() -> list[str]:
    """One ACC entry handed load -> compute -> store -> compute ... (every push popped once)."""
    alu = "ALU ADD use_imm imm=1 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1"
    store = "STORE OUT pop_prev push_prev sram_base=0 dram_base=0 y_size=1 x_size=1 x_stride=1"
    tile = "sram_base=0 dram_base=0 y_size=1 x_size=1 x_stride=1"
    return [
        f"LOAD UOP {tile}",
        f"LOAD ACC {tile} push_next",
        store,
        f"{alu} pop_next push_prev",
        f"LOAD INP {tile} pop_next push_next",
        f"{alu} pop_prev push_next",
        store,
        f"{alu} pop_next push_prev push_next",
        f"LOAD INP {tile} pop_next",
        store,
        "FINISH pop_next",
    ]


def build_vector(cfg: VtaConfig, text: list[str], description: str, seed: int = 0) -> Vector:
    """The checked vector with random INP/WGT/ACC data (micro-ops all zero: entry 0)."""
    rng = np.random.default_rng(seed)
    insns = assemble(cfg, text, source="closure")
    data = {"inp": cfg.inp_depth * cfg.inp_bytes, "wgt": cfg.wgt_depth * cfg.wgt_bytes,
            "acc": cfg.acc_depth * cfg.acc_bytes}
    init = [Image(INSN_ADDR, insns, "insn.bin"),
            Image(BASES["uop"], bytes(cfg.uop_depth * 4), "uop.bin")]
    for name, size in data.items():
        init.append(Image(BASES[name], rng.integers(-4, 5, size, dtype=np.int8).tobytes(), f"{name}.bin"))
    vector = Vector(cfg, INSN_ADDR, len(insns) // INSN_BYTES, init, None, dict(BASES),
                    f"coverage closure: {description}")
    report = check_vector(vector)
    if not report.ok:
        raise ValueError(f"closure program ({description}) is not well-formed: {report.format()}")
    vector.expect = expected_images(vector)
    return vector


def write_programs(cfg: VtaConfig, out_dir: Path) -> list[Path]:
    """The three programs as vector directories under ``out_dir``."""
    programs = {
        "row": (program_text(cfg, False), "every buffer loaded and stored whole as one row"),
        "column": (program_text(cfg, True), "every buffer loaded and stored whole as one column"),
        "tokens": (tokens_text(), "compute pops S2C and pushes C2L (and C2S)"),
    }
    return [save_vector(build_vector(cfg, text, what), Path(out_dir) / f"closure-{name}")
            for name, (text, what) in programs.items()]
