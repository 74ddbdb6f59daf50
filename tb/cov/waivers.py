"""Waivers: unhit functional bins with the reason the miss does not matter for sign-off.

tb/cov/waivers.yaml is a list of ``{bin: "<coverpoint>/<bin>", reason: "..."}``. A waiver
must name a bin the model defines (a typo would silently waive nothing) and give a
reason; a waived bin that the regression did hit is reported as stale, not as an error,
so the waiver list can be pruned.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from tb.cov.points import POINTS

WAIVERS = Path(__file__).resolve().parent / "waivers.yaml"


class WaiverError(ValueError):
    """A malformed waiver file, or a waiver of a bin that does not exist."""


def split_bin(text: str) -> tuple[str, str]:
    """'point.name/bin/label' -> ('point.name', 'bin/label'); bins may contain '/'."""
    point, _, label = text.partition("/")
    return point, label


def load(path: Path = WAIVERS) -> dict[tuple[str, str], str]:
    """{(coverpoint, bin): reason}; WaiverError names the entry at fault."""
    raw = yaml.safe_load(Path(path).read_text()) or []
    if not isinstance(raw, list):
        raise WaiverError(f"{path}: expected a list of waivers")
    bins = {p.name: set(p.bins) for p in POINTS}
    out: dict[tuple[str, str], str] = {}
    for n, entry in enumerate(raw):
        if not isinstance(entry, dict) or not entry.get("bin") or not str(entry.get("reason", "")).strip():
            raise WaiverError(f"{path}: waiver #{n + 1} needs 'bin' and a non-empty 'reason'")
        key = split_bin(str(entry["bin"]))
        if key[0] not in bins:
            raise WaiverError(f"{path}: waiver #{n + 1}: no coverpoint {key[0]!r}")
        if key[1] not in bins[key[0]]:
            raise WaiverError(f"{path}: waiver #{n + 1}: coverpoint {key[0]} has no bin {key[1]!r}")
        out[key] = str(entry["reason"]).strip()
    return out
