"""The closing report of a regression: table, failures with repro commands, the failure
buckets (tb/triage/buckets.py: one line per signature, and an HTML page), totals, JUnit."""
from __future__ import annotations

from pathlib import Path

from tb.launch.launch import print_failures
from tb.launch.summary import junit_xml, summary_table
from tb.triage.buckets import print_bucket_report


def report(records: list[dict], sim: str, count: int, wall: float, junit: Path | None,
           run_dir: Path) -> int:
    """Print the per-program table, each failure with its repro command, the failure buckets
    (page next to the JUnit file, else in the run directory) and the totals line; write JUnit
    XML (one case per program); the number of failed programs."""
    print()
    print(summary_table(records))
    print_failures(records)
    print_bucket_report(records, junit, run_dir)
    bad = sum(not r["passed"] for r in records)
    print(f"\nregression: {len(records) - bad} passed, {bad} failed of {count} programs in {wall:.1f} s")
    if junit:
        junit.parent.mkdir(parents=True, exist_ok=True)
        junit.write_text(junit_xml(records, suite=f"vta-regress-{sim}"))
        print(f"JUnit XML: {junit}")
    return bad
