"""The shipped configurations (every ``models/configs/NAME.json``) and how a configuration
argument (a name, ``random:SEED`` or a JSON path) is resolved.

Tests, the testbench and the vector builder iterate over the shipped configurations or
name the one a vector uses; deriving the names from the directory means adding a file is
all it takes to ship another.
"""
from __future__ import annotations

from pathlib import Path

from models.config import CONFIG_DIR, ConfigError, VtaConfig
from models.randcfg import parse

#: Names of the shipped configurations, sorted.
SHIPPED_CONFIGS: tuple[str, ...] = tuple(sorted(p.stem for p in CONFIG_DIR.glob("*.json")))


def shipped_name(cfg: VtaConfig) -> str | None:
    """The name of the shipped configuration equal to ``cfg``, or None."""
    return next((name for name in SHIPPED_CONFIGS if load_config(name) == cfg), None)


def load_config(spec: str | Path | None) -> VtaConfig:
    """Resolve a configuration argument: None (defaults), a shipped name, ``random:SEED``
    (a configuration drawn from the seed, models/randcfg.py) or a JSON path."""
    if spec is None:
        return VtaConfig()
    text = str(spec)
    if text.startswith("random:"):
        return parse(text)
    shipped = CONFIG_DIR / f"{text}.json"
    if text and not text.endswith(".json") and "/" not in text and shipped.is_file():
        return VtaConfig.from_file(shipped)
    if not text or not (Path(text).exists() or Path(text).is_symlink()):
        raise ConfigError(f"{text!r}: configuration file not found, and not a shipped "
                          f"configuration ({', '.join(SHIPPED_CONFIGS)})")
    return VtaConfig.from_file(text)
