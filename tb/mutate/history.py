"""The survivors' history (tb/mutate/history.json): what became of each mutant that once
survived a run.

A survivor is either closed by something added to the suite (a check, a vector, a flow),
after which it is killed, or argued equivalent: no input sequence from reset can make the
design's outputs differ, for a reason Yosys cannot see (it checks one module for any
input, while the argument uses how the module is driven). The file records each with the
run that found it, so a reader of the report sees why a mutant that used to survive does
not any more, and an argued equivalent leaves the score's denominator like a proven one.

An entry applies to a mutant only while both its id and its description (file, line and
edit) still match: an edit of rtl/ that moves or changes the code retires the argument
rather than applying it to something else.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

HISTORY = Path(__file__).resolve().parent / "history.json"
RESOLUTIONS = ("killed", "equivalent")
FIELDS = ("id", "change", "found", "resolution", "by")


class HistoryError(ValueError):
    """history.json breaks a rule: one line naming the entry and the field."""


@dataclass(frozen=True)
class Entry:
    id: str
    change: str       # the mutant's description when it survived (Site.describe())
    found: str        # the run that found it, e.g. "make mutate N=200 SEED=1 TESTS=quick"
    resolution: str   # killed (by what was added) or equivalent (argued)
    by: str           # what was added that kills it, or the equivalence argument


def load_history(path: Path = HISTORY) -> list[Entry]:
    """Every entry of ``path``, checked (a missing file is an empty history)."""
    if not path.exists():
        return []
    try:
        raw = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise HistoryError(f"{path}: not JSON: {exc}") from None
    if not isinstance(raw, list):
        raise HistoryError(f"{path}: must be a list of entries")
    entries = []
    for n, item in enumerate(raw):
        where = f"{path}: entry {n}"
        if not isinstance(item, dict):
            raise HistoryError(f"{where}: must be an object")
        unknown = sorted(set(item) - set(FIELDS))
        missing = [f for f in FIELDS if not isinstance(item.get(f), str) or not item[f].strip()]
        if unknown:
            raise HistoryError(f"{where}: unknown field {unknown[0]!r} (fields: {', '.join(FIELDS)})")
        if missing:
            raise HistoryError(f"{where}: field {missing[0]!r} must be a non-empty string")
        if item["resolution"] not in RESOLUTIONS:
            raise HistoryError(f"{where} ({item['id']}): resolution {item['resolution']!r} must be "
                               f"one of {', '.join(RESOLUTIONS)}")
        entries.append(Entry(**item))
    ids = [e.id for e in entries]
    twice = next((i for i in ids if ids.count(i) > 1), None)
    if twice:
        raise HistoryError(f"{path}: mutant {twice} has two entries")
    return entries


def apply(records: list[dict[str, Any]], entries: list[Entry]) -> None:
    """Attach each record's history entry (when id and description match); a survivor
    argued equivalent becomes 'equivalent'."""
    by_id = {e.id: e for e in entries}
    for r in records:
        entry = by_id.get(r["id"])
        if entry is None or entry.change != r["description"]:
            continue
        r["history"] = asdict(entry)
        if entry.resolution == "equivalent" and r["status"] == "survived":
            r["status"] = "equivalent"
            r["equivalence"] = {"status": "argued", "reason": entry.by, "yosys": r.get("equivalence")}
