"""Waivers: unhit functional bins and unreachable toggle bits, each with its reason.

tb/cov/waivers.yaml has two lists. ``functional``: ``{bin: "<coverpoint>/<bin>", reason}``;
a waiver must name a bin the model defines (a typo would silently waive nothing); a
waived bin the regression did hit is reported as stale, not as an error. ``code``:
``{file, signal, bits, reason}`` excludes toggle points of rtl/ signals whose name
matches the regular expression ``signal`` (whole name) and whose bit index lies in
``bits`` (``"lo-hi"``; omitted: all bits). An exclusion that matches no point is an error
at report time. The report gives toggle coverage before and after exclusions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from tb.uvm.cov.points import POINTS

WAIVERS = Path(__file__).resolve().parent / "waivers.yaml"


class WaiverError(ValueError):
    """A malformed waiver file, or a waiver of a bin that does not exist."""


def split_bin(text: str) -> tuple[str, str]:
    """'point.name/bin/label' -> ('point.name', 'bin/label'); bins may contain '/'."""
    point, _, label = text.partition("/")
    return point, label


@dataclass(frozen=True)
class CodeExclusion:
    """Toggle points of ``signal`` (regex) bits ``lo..hi`` in rtl/``file``, with the reason."""

    file: str
    signal: str
    lo: int
    hi: int
    reason: str

    def matches(self, file: str, comment: str) -> bool:
        m = _TOGGLE.match(comment)
        if not m or Path(file).name != self.file or not re.fullmatch(self.signal, m.group(1)):
            return False
        bit = int(m.group(2)) if m.group(2) is not None else 0
        return self.lo <= bit <= self.hi


_TOGGLE = re.compile(r"^(.*?)(?:\[(\d+)\])?:[01]->[01]$")


def _raw(path: Path) -> dict:
    raw = yaml.safe_load(Path(path).read_text()) or {}
    if not isinstance(raw, dict) or set(raw) - {"functional", "code"}:
        raise WaiverError(f"{path}: expected a mapping with 'functional' and 'code' lists")
    return raw


def load_code(path: Path = WAIVERS) -> list[CodeExclusion]:
    """Toggle exclusions; WaiverError names the entry at fault."""
    out = []
    for n, e in enumerate(_raw(path).get("code") or []):
        if not isinstance(e, dict) or not e.get("file") or not e.get("signal") \
                or not str(e.get("reason", "")).strip():
            raise WaiverError(f"{path}: code exclusion #{n + 1} needs 'file', 'signal' and a 'reason'")
        lo, _, hi = str(e.get("bits", "0-65535")).partition("-")
        try:
            re.compile(e["signal"])
            out.append(CodeExclusion(e["file"], e["signal"], int(lo), int(hi or lo),
                                     str(e["reason"]).strip()))
        except (re.error, ValueError) as exc:
            raise WaiverError(f"{path}: code exclusion #{n + 1}: {exc}") from exc
    return out


def load(path: Path = WAIVERS) -> dict[tuple[str, str], str]:
    """{(coverpoint, bin): reason} of the functional waivers; WaiverError names the entry at fault."""
    raw = _raw(path).get("functional") or []
    if not isinstance(raw, list):
        raise WaiverError(f"{path}: 'functional' must be a list of waivers")
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
