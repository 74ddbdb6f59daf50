"""tb/mutate/history.py: the survivors' history file is checked, applied only to the mutant
it names (same id and same edit), and shown in the report."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tb.mutate import report
from tb.mutate.history import HISTORY, HistoryError, apply, load_history

ARGUED = {"id": "vta_top:228:25:tie-off:rst", "change": "vta_top.v:228: tie-off: rst -> '0",
          "found": "make mutate N=200 SEED=1 TESTS=quick", "resolution": "equivalent",
          "by": "every read of OUT follows a launch, whose clr clears the same state"}
CLOSED = {"id": "vta_top:336:17:enable:0", "change": "vta_top.v:336: enable: f_stall -> 1'b0",
          "found": "make mutate N=200 SEED=1 TESTS=quick", "resolution": "killed",
          "by": "status probes bound FETCH_STALL"}


def write(tmp_path: Path, entries: Any) -> Path:
    path = tmp_path / "history.json"
    path.write_text(json.dumps(entries))
    return path


def record(entry: dict[str, str], status: str, description: str | None = None) -> dict[str, Any]:
    return {"id": entry["id"], "description": description or entry["change"], "status": status,
            "module": entry["id"].split(":")[0], "operator": entry["id"].split(":")[3],
            "seconds": 1.0, "stage": "uvm-icarus", "job": "vec-x", "kind": "counter",
            "message": "m", "diff": "-a\n+b\n"}


def test_the_shipped_history_loads() -> None:
    entries = load_history(HISTORY)
    assert entries and all(e.found and e.by for e in entries)


@pytest.mark.parametrize("entries, rule", [
    ({"id": "x"}, "must be a list of entries"),
    ([{**ARGUED, "resolution": "fixed"}], "entry 0 (vta_top:228:25:tie-off:rst): resolution 'fixed' "
                                          "must be one of killed, equivalent"),
    ([{**ARGUED, "why": "x"}], "entry 0: unknown field 'why'"),
    ([{**ARGUED, "by": " "}], "entry 0: field 'by' must be a non-empty string"),
    ([CLOSED, {k: v for k, v in ARGUED.items() if k != "found"}], "entry 1: field 'found' must be"),
    ([ARGUED, ARGUED], "mutant vta_top:228:25:tie-off:rst has two entries"),
])
def test_bad_history_is_one_line(tmp_path: Path, entries: Any, rule: str) -> None:
    path = write(tmp_path, entries)
    with pytest.raises(HistoryError, match="^" + str(path).replace(".", r"\.") + ": .*") as info:
        load_history(path)
    assert rule in str(info.value) and "\n" not in str(info.value)


def test_an_argued_survivor_leaves_the_score_a_closed_one_keeps_its_kill(tmp_path: Path) -> None:
    entries = load_history(write(tmp_path, [ARGUED, CLOSED]))
    records = [record(ARGUED, "survived"), record(CLOSED, "killed"),
               record({**ARGUED, "id": "vta_top:1:1:constant:+1"}, "survived")]
    apply(records, entries)
    assert records[0]["status"] == "equivalent"
    assert records[0]["equivalence"] == {"status": "argued", "reason": ARGUED["by"], "yosys": None}
    assert records[1]["status"] == "killed" and records[1]["history"]["by"] == CLOSED["by"]
    assert records[2]["status"] == "survived" and "history" not in records[2]
    data = report.build({}, records, entries)
    assert data["score"]["score"] == 0.5  # one killed, one survivor; the argued one left out
    assert [h["this_run"] for h in data["history"]] == ["equivalent", "killed"]
    html = report.render_html(data)
    assert "History: survivors of earlier runs" in html and ARGUED["by"] in html


def test_an_entry_whose_edit_moved_is_not_applied(tmp_path: Path) -> None:
    """Same id, other edit (rtl/ changed): the argument no longer applies."""
    entries = load_history(write(tmp_path, [ARGUED]))
    records = [record(ARGUED, "survived", description="vta_top.v:228: tie-off: clr -> '0")]
    apply(records, entries)
    assert records[0]["status"] == "survived" and "history" not in records[0]
    assert report.build({}, records, entries)["history"][0]["this_run"] == "not sampled"
