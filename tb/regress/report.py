"""The closing report of a regression: table, failures with repro commands, totals, JUnit.

Kept in one function (:func:`report`) so that whatever else a run should say about its
records (a failure-bucket summary, say) has one place to hook in.
"""
from __future__ import annotations

from pathlib import Path

from tb.uvm.run import print_failures
from tb.uvm.summary import junit_xml, summary_table


def report(records: list[dict], sim: str, count: int, wall: float, junit: Path | None) -> int:
    """Print the per-program table, each failure with its repro command and the totals line;
    write JUnit XML (one case per program); the number of failed programs."""
    print()
    print(summary_table(records))
    print_failures(records)
    bad = sum(not r["passed"] for r in records)
    print(f"\nregression: {len(records) - bad} passed, {bad} failed of {count} programs in {wall:.1f} s")
    if junit:
        junit.parent.mkdir(parents=True, exist_ok=True)
        junit.write_text(junit_xml(records, suite=f"vta-regress-{sim}"))
        print(f"JUnit XML: {junit}")
    return bad
