"""Failure buckets: a run's failures grouped by signature, each with its smallest program.

One RTL bug usually fails many random programs; listing each failure hides how many bugs
there are. This groups the failing records of a run by signature (tb/rules/signature.py),
counts them, and names for each bucket the failing program with the fewest instructions
and the command that reproduces it: the one to debug (or shrink, tb/triage/shrink.py) first.

    bucket_text(records) -> str                   # the summary's section ("" if none failed)
    write_bucket_report(records, out_dir) -> str  # buckets.html written, the section returned
    print_bucket_report(records, junit, dir)      # page beside the JUnit file (else in dir), printed

``make sim`` (tb/run.py) and ``make regress`` (tb/regress/report.py) call the last after
their failure lists; JUnit keeps one case per program.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from pathlib import Path

from tb.launch.launch import record_repro
from tb.plan.saved import SavedError, SavedFailure
from tb.rules.signature import Signature, signature

PAGE = "buckets.html"


@dataclass
class Bucket:
    """The failures of one signature; ``smallest`` is the one with the fewest instructions."""

    signature: Signature
    records: list[dict]

    @property
    def smallest(self) -> dict:
        return min(self.records, key=lambda r: (insn_count(r) is None, insn_count(r) or 0,
                                                r.get("cycles") or 0, r["job"]))


def insn_count(record: dict) -> int | None:
    """Instructions of a record's program: the testbench's figure, else its saved manifest's."""
    if isinstance(record.get("insns"), int):
        return int(record["insns"])
    manifest = Path(record.get("saved") or "/nonexistent") / "manifest.json"
    try:
        return int(json.loads(manifest.read_text())["insn_count"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def repro(record: dict) -> str:
    """The command that reproduces a record: its saved failure's (tb/plan/saved.py), else the launcher's."""
    try:
        return SavedFailure.read(Path(record.get("saved") or "/nonexistent")).repro
    except SavedError:
        return record_repro(record)


def buckets(records: list[dict]) -> list[Bucket]:
    """The failing records grouped by signature, the largest bucket first."""
    groups: dict[Signature, list[dict]] = {}
    for r in records:
        if not r["passed"]:
            groups.setdefault(signature(r), []).append(r)
    return sorted((Bucket(s, rs) for s, rs in groups.items()),
                  key=lambda b: (-len(b.records), b.signature))


def _size(record: dict) -> str:
    n = insn_count(record)
    return f"{n} instructions" if n is not None else "no program"


def bucket_text(records: list[dict]) -> str:
    """The summary's section: one block per bucket (signature, count, smallest, repro)."""
    found = buckets(records)
    if not found:
        return ""
    bad = sum(len(b.records) for b in found)
    lines = [f"\nFailure buckets: {bad} failure(s) in {len(found)} bucket(s) "
             f"(kind | module | rule | instruction form)"]
    for n, b in enumerate(found, 1):
        small = b.smallest
        lines += [f"  [{n}] {b.signature}: {len(b.records)} failure(s)",
                  f"      smallest: {small['sim']} {small['job']} ({_size(small)})",
                  f"      reproduce: {repro(small)}"]
    return "\n".join(lines)


def bucket_html(records: list[dict], title: str = "Failure buckets") -> str:
    """A self-contained page: a table of buckets, each with its failures listed."""
    found = buckets(records)
    rows, details = [], []
    for n, b in enumerate(found, 1):
        s, small = b.signature, b.smallest
        rows.append("<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in (
            n, s.kind, s.module, s.rule, s.form, len(b.records),
            f"{small['sim']} {small['job']} ({_size(small)})")) +
            f"<td><code>{escape(repro(small))}</code></td></tr>")
        items = "".join(f"<li>{escape(r['sim'])} {escape(r['job'])} ({escape(_size(r))}): "
                        f"<code>{escape(first_line(r))}</code></li>" for r in b.records)
        details.append(f"<h2 id='b{n}'>[{n}] {escape(str(s))}</h2><ul>{items}</ul>")
    head = ("<tr><th>#</th><th>kind</th><th>module</th><th>rule / class</th><th>form</th>"
            "<th>failures</th><th>smallest program</th><th>reproduce</th></tr>")
    body = (f"<table>{head}{''.join(rows)}</table>{''.join(details)}" if found
            else "<p>No failures.</p>")
    style = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
             "td,th{border:1px solid #999;padding:4px 8px;text-align:left;vertical-align:top}"
             "code{font-size:90%}")
    return (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{style}</style></head><body><h1>{escape(title)}</h1>"
            f"<p>{sum(len(b.records) for b in found)} failure(s) of {len(records)} job(s) in "
            f"{len(found)} bucket(s).</p>{body}</body></html>\n")


def first_line(record: dict) -> str:
    failures = record.get("failures") or []
    if not failures:
        return "no failure recorded"
    lines = str(failures[0].get("message", "")).splitlines()
    return f"[{failures[0].get('kind')}] {lines[0] if lines else ''}"


def write_bucket_report(records: list[dict], out_dir: str | Path, name: str = PAGE) -> str:
    """Write ``out_dir/name`` (the HTML page) and return the text section, which ends with
    the page's path ("" when nothing failed; the page then says so)."""
    path = Path(out_dir) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(bucket_html(records))
    text = bucket_text(records)
    return f"{text}\n  bucket report: {path}" if text else ""


def print_bucket_report(records: list[dict], junit: Path | None, default_dir: Path) -> None:
    """Write the page next to the JUnit file (``<stem>-buckets.html``), else as
    ``default_dir/buckets.html``, and print the text section if anything failed."""
    text = write_bucket_report(records, junit.parent if junit else default_dir,
                               f"{junit.stem}-buckets.html" if junit else PAGE)
    if text:
        print(text)
