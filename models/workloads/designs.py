"""The configurations of the design-space table, and what a configuration costs on chip.

The design points live as JSON files next to this module (designs/*.json), each a change
from the default configuration: BLOCK 8 and 32, BATCH 2, smaller buffers. There is no
"larger buffers at BLOCK 16" point: with the default layout the 128-bit GEMM and ALU
words already use every bit for the ACC, INP and WGT indices (spec section 2), so more
on-chip bytes come only with larger elements (BLOCK 32, BATCH 2).
"""
from __future__ import annotations

from pathlib import Path

from models.config import ConfigError, VtaConfig
from models.spec import SHIPPED_CONFIGS

DESIGN_DIR = Path(__file__).with_name("designs")
#: ``CONFIG=designs`` means the default configuration and every design point.
DESIGN_SET = "designs"


def design_points() -> dict[str, str]:
    """Design-point name -> configuration argument (a JSON path) for the testbench."""
    return {p.stem: str(p) for p in sorted(DESIGN_DIR.glob("*.json"))}


def resolve(text: str) -> dict[str, str]:
    """Configuration names/paths from a comma-separated list (``designs`` expands to the
    default and every design point): name -> the argument the testbench takes."""
    out: dict[str, str] = {}
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        if item == DESIGN_SET:
            out["default"] = "default"
            out.update(design_points())
        elif item in SHIPPED_CONFIGS:
            out[item] = item
        elif item in design_points():
            out[item] = design_points()[item]
        elif Path(item).is_file():
            out[Path(item).stem] = item
        else:
            raise ConfigError(f"configuration {item!r} is neither shipped ({', '.join(SHIPPED_CONFIGS)}), "
                              f"a design point ({', '.join(design_points())}), {DESIGN_SET} nor a JSON file")
    if not out:
        raise ConfigError("no configuration named")
    return out


def macs_per_cycle(cfg: VtaConfig) -> int:
    """Multiply-accumulates of one GEMM micro-op: BATCH x BLOCK_IN x BLOCK_OUT."""
    return cfg.batch * cfg.block_in * cfg.block_out


def sram_bytes(cfg: VtaConfig) -> int:
    """On-chip buffer bytes: UOP, INP, WGT and ACC buffers plus the OUT copy of ACC."""
    return (cfg.uop_depth * 4 + cfg.inp_depth * cfg.inp_bytes + cfg.wgt_depth * cfg.wgt_bytes
            + cfg.acc_depth * (cfg.acc_bytes + cfg.out_bytes))
