"""Directed closure programs for bins the random generator does not reach.

The generator works on windows of SRAM slots, so a LOAD or STORE as long as a whole
buffer (x_size or y_size equal to its depth, touching its last entry) never comes out
of it. Two programs fill every buffer end to end, once as one row (x_size = depth) and
once as one column (y_size = depth), then store the whole accumulator. Its tile
pipelines rarely or never make a compute instruction that pops S2C while pushing C2L, or
pops both L2C and S2C; a third program relays one accumulator entry between the three
modules so that those flag combinations occur. A fourth, long program (4096 ALU instructions) drives
the instruction counters and indices through bit 12; random programs stay below 2^7.

Each program runs at three placements in DRAM: low 4 KiB-aligned regions (so long bursts
end next to a 4 KiB boundary) and two high ones whose instruction address and base
registers hold the bit patterns 0x5555... and 0xAAAA... (4-byte aligned bases, 8-byte
aligned instructions, as the directed vectors use), so every address bit of the
registers, the fetch unit and the AXI address channels is driven both ways. Each program
is checked by models.checker and gets its ``expect`` from the executor, exactly like a
generated program.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from models.asm import assemble
from models.checker import check_vector
from models.config import VtaConfig
from models.executor import expected_images
from models.vector import Image, Vector, save_vector
from models.widths import INSN_BYTES

REGIONS = ("insn", "uop", "inp", "wgt", "acc", "out")
LOW = {"insn": 0x1000, "uop": 0x10000, "inp": 0x100000, "wgt": 0x200000, "acc": 0x300000,
       "out": 0x400000}


def _patterned(pattern: int) -> dict[str, int]:
    """Regions 64 MiB apart (bits 26..28 count them), the rest of each address = pattern."""
    out = {}
    for n, name in enumerate(REGIONS):
        addr = (pattern & ~(7 << 26) & 0xFFFFFFFF) | (n << 26)
        out[name] = addr & ~(7 if name == "insn" else 3)
    return out


PLACEMENTS = {"lo": LOW, "p5": _patterned(0x55555555), "pa": _patterned(0xAAAAAAAA)}


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
    """One ACC entry relayed between the modules (every push popped once, in order)."""
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
        f"LOAD INP {tile} pop_next push_next",
        store,
        f"{alu} pop_prev pop_next push_prev",
        f"LOAD INP {tile} pop_next push_next",
        f"{alu} push_next",
        store,
        f"{alu} pop_prev pop_next push_next",
        store,
        "FINISH pop_next",
    ]


LONG_ALUS = 4096


def long_text() -> list[str]:
    """LONG_ALUS one-micro-op ALU instructions on one accumulator entry, then its STORE."""
    tile = "sram_base=0 dram_base=0 y_size=1 x_size=1 x_stride=1"
    alu = "ALU ADD use_imm imm=1 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1"
    return ([f"LOAD UOP {tile}", f"LOAD ACC {tile}"] + [alu] * (LONG_ALUS - 1)
            + [f"{alu} push_next", f"STORE OUT pop_prev push_prev {tile}", "FINISH pop_next"])


def build_vector(cfg: VtaConfig, text: list[str], description: str, place: dict[str, int],
                 seed: int = 0) -> Vector:
    """The checked vector with random INP/WGT/ACC data (micro-ops all zero: entry 0)."""
    rng = np.random.default_rng(seed)
    insns = assemble(cfg, text, source="closure")
    bases = {k: v for k, v in place.items() if k != "insn"}
    data = {"inp": cfg.inp_depth * cfg.inp_bytes, "wgt": cfg.wgt_depth * cfg.wgt_bytes,
            "acc": cfg.acc_depth * cfg.acc_bytes}
    init = [Image(place["insn"], insns, "insn.bin"),
            Image(bases["uop"], bytes(cfg.uop_depth * 4), "uop.bin")]
    for name, size in data.items():
        init.append(Image(bases[name], rng.integers(-4, 5, size, dtype=np.int8).tobytes(), f"{name}.bin"))
    vector = Vector(cfg, place["insn"], len(insns) // INSN_BYTES, init, None, bases,
                    f"coverage closure: {description}")
    report = check_vector(vector)
    if not report.ok:
        raise ValueError(f"closure program ({description}) is not well-formed: {report.format()}")
    vector.expect = expected_images(vector)
    return vector


def write_programs(cfg: VtaConfig, out_dir: Path, prefix: str = "closure") -> list[Path]:
    """Every program at every placement, and the long program, as vector directories."""
    programs = {
        "row": (program_text(cfg, False), "every buffer loaded and stored whole as one row"),
        "column": (program_text(cfg, True), "every buffer loaded and stored whole as one column"),
        "tokens": (tokens_text(), "compute flag combinations popping S2C with pushes or L2C"),
    }
    out = [save_vector(build_vector(cfg, text, f"{what}; {where} addresses", place),
                       Path(out_dir) / f"{prefix}-{name}-{where}")
           for name, (text, what) in programs.items() for where, place in PLACEMENTS.items()]
    long = build_vector(cfg, long_text(), f"{LONG_ALUS} ALU instructions in a row",
                        dict(LOW, insn=0x800000))  # 64 KiB of instructions, clear of the data
    return out + [save_vector(long, Path(out_dir) / f"{prefix}-long")]
