"""The timing cache: a result is reused while nothing that could change it has changed.

A place-and-route result depends on the netlist (whose key, tb/timing/netlist.py, covers
the configuration, the design files, the wrapper, the script and Yosys) and on nextpnr: its
version and its command line, which holds the part, the constraint and the seed. The stored
result (timing.json) is reused under the same key, exactly as tb/synth/cache.py does for
`make synth`, whose `cached` reads it.
"""
from __future__ import annotations

import hashlib
import json

from tb.synth.cache import cached, package_version
from tb.timing.nextpnr import NEXTPNR_PACKAGE

__all__ = ["cached", "nextpnr_version", "timing_key"]


def nextpnr_version() -> str:
    """The installed nextpnr-ecp5 build (requirements.txt pins it)."""
    return package_version(NEXTPNR_PACKAGE)


def timing_key(netlist_key: str, argv: list[str]) -> str:
    """Hex digest of everything a place-and-route result depends on."""
    text = json.dumps({"netlist": netlist_key, "nextpnr": nextpnr_version(), "argv": argv}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()
