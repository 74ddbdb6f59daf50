"""The shipped configurations: every ``models/configs/NAME.json``.

Tests, the testbench and the vector builder iterate over the shipped configurations or
name the one a vector uses; deriving the names from the directory means adding a file is
all it takes to ship another.
"""
from __future__ import annotations

from models.config import CONFIG_DIR, VtaConfig, load_config

#: Names of the shipped configurations, sorted.
SHIPPED_CONFIGS: tuple[str, ...] = tuple(sorted(p.stem for p in CONFIG_DIR.glob("*.json")))


def shipped_name(cfg: VtaConfig) -> str | None:
    """The name of the shipped configuration equal to ``cfg``, or None."""
    return next((name for name in SHIPPED_CONFIGS if load_config(name) == cfg), None)
