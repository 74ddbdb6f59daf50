"""The mutation report: report.json (every figure and mutant) and report.html (the same,
to read), survivors first because they are what a test writer acts on.

Score = killed (time-outs included) / (mutants - invalid - equivalent - harness errors):
an invalid mutant never ran, an equivalent one cannot be killed by any test, and a harness
error says nothing about the tests. Each is listed with its reason all the same.
"""
from __future__ import annotations

import html
import json
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tb.mutate.history import Entry

STATUSES = ("survived", "killed", "timeout", "equivalent", "invalid", "error")
ORDER = {s: n for n, s in enumerate(STATUSES)}


def tally(mutants: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts by status and the score (None when nothing was scored)."""
    counts = {s: sum(m["status"] == s for m in mutants) for s in STATUSES}
    killed = counts["killed"] + counts["timeout"]
    scored = killed + counts["survived"]
    counts.update(total=len(mutants), scored=scored,
                  score=round(killed / scored, 4) if scored else None)
    return counts


def grouped(mutants: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for m in mutants:
        groups[m[key]].append(m)
    return {k: tally(v) for k, v in sorted(groups.items())}


def build(meta: dict[str, Any], mutants: list[dict[str, Any]],
          entries: list[Entry] | None = None) -> dict[str, Any]:
    """The report's data: run settings, score overall, per module and per operator, the
    mutants sorted survivors first (then by status, then id), and the survivors' history
    (tb/mutate/history.json) with each entry's status in this run, if it ran."""
    ordered = sorted(mutants, key=lambda m: (ORDER.get(m["status"], 99), m["module"], m["id"]))
    checks: dict[str, int] = defaultdict(int)
    for m in mutants:
        if m.get("equivalence"):
            checks[m["equivalence"]["status"]] += 1
    return {**meta, "score": tally(mutants), "equivalence_checks": dict(sorted(checks.items())),
            "by_module": grouped(mutants, "module"), "by_operator": grouped(mutants, "operator"),
            "mutants": ordered, "history": history_rows(mutants, entries or [])}


def history_rows(mutants: list[dict[str, Any]], entries: list[Entry]) -> list[dict[str, Any]]:
    status = {m["id"]: m["status"] for m in mutants if m.get("history")}
    return [{**asdict(e), "this_run": status.get(e.id, "not sampled")} for e in entries]


def pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f} %"


def _table(title: str, rows: dict[str, dict[str, Any]]) -> str:
    head = "".join(f"<th>{h}</th>" for h in ("", "score", "killed", "timeout", "survived",
                                             "equivalent", "invalid", "error", "total"))
    body = "".join(
        f"<tr><td>{html.escape(k)}</td><td>{pct(v['score'])}</td>"
        + "".join(f"<td>{v[s]}</td>" for s in ("killed", "timeout", "survived", "equivalent",
                                               "invalid", "error"))
        + f"<td>{v['total']}</td></tr>" for k, v in rows.items())
    return f"<h2>{title}</h2><table><tr>{head}</tr>{body}</table>"


def _mutant(m: dict[str, Any]) -> str:
    if m["status"] in ("killed", "timeout"):
        how = (f"{m['status']} by <code>{html.escape(m['stage'])}</code> job "
               f"<code>{html.escape(m['job'])}</code> [{html.escape(m['kind'])}] after {m['seconds']:.1f} s")
        detail = m["message"]
    elif m["status"] == "equivalent":
        how, detail = "equivalent", m["equivalence"]["reason"]
    elif m["status"] == "survived":
        how = f"survived every stage ({m['seconds']:.0f} s)"
        eq = m.get("equivalence")
        detail = f"equivalence check: {eq['status']}: {eq['reason']}" if eq else "equivalence not checked"
    else:
        how, detail = f"{m['status']} ({m['stage'] or 'before running'})", m["message"]
    repro = f"<br><code>{html.escape(m['repro'])}</code>" if m.get("repro") else ""
    if m.get("history"):
        h = m["history"]
        repro += (f"<br><small>history: survived {html.escape(h['found'])}; "
                  f"{html.escape(h['resolution'])}: {html.escape(h['by'])}</small>")
    return (f"<div class='m {m['status']}'><b>{html.escape(m['id'])}</b> — {how}<br>"
            f"<small>{html.escape(detail)}</small>{repro}<pre>{html.escape(m['diff'])}</pre></div>")


STYLE = """body{font-family:sans-serif;max-width:1100px;margin:auto}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child{text-align:left}
pre{background:#f6f6f6;padding:4px;margin:4px 0;font-size:85%}.m{border-left:6px solid #ccc;
padding:4px 8px;margin:8px 0}.survived{border-color:#d33}.killed{border-color:#3a3}
.timeout{border-color:#a83}.equivalent{border-color:#39c}.invalid,.error{border-color:#999}"""


def render_html(report: dict[str, Any]) -> str:
    s = report["score"]
    settings = ", ".join(f"{k}={html.escape(str(report[k]))}" for k in
                         ("tests", "sim", "n", "seed", "modules") if k in report)
    summary = (f"<p><b>Score {pct(s['score'])}</b>: {s['killed'] + s['timeout']} killed "
               f"({s['timeout']} by time-out) of {s['scored']} scored mutants; {s['survived']} survived, "
               f"{s['equivalent']} equivalent, {s['invalid']} invalid, {s['error']} harness errors; "
               f"{s['total']} in all.</p><p>{settings}; wall time {report.get('wall', 0):.0f} s; "
               f"<code>{html.escape(report.get('command', ''))}</code></p>")
    checks = report.get("equivalence_checks", {})
    if checks:
        summary += ("<p>Equivalence checks of the survivors (Yosys): "
                    + ", ".join(f"{n} {html.escape(k)}" for k, n in checks.items()) + ".</p>")
    base = report.get("baseline", {})
    limits = (f"<p>Unmutated run: {html.escape(json.dumps(base.get('stage_walls', {})))} s; limits per "
              f"stage {html.escape(json.dumps(base.get('stage_limits', {})))} s, per job "
              f"{base.get('job_timeout')} s.</p>")
    body = "".join(_mutant(m) for m in report["mutants"])
    rows = "".join(f"<tr><td><code>{html.escape(h['id'])}</code><br><small>{html.escape(h['change'])}"
                   f"</small></td><td>{html.escape(h['found'])}</td><td>{html.escape(h['resolution'])}"
                   f"</td><td>{html.escape(h['by'])}</td><td>{html.escape(h['this_run'])}</td></tr>"
                   for h in report.get("history", []))
    past = ("<h2>History: survivors of earlier runs (tb/mutate/history.json)</h2><table><tr>"
            "<th>mutant</th><th>survived</th><th>resolution</th><th>what kills it, or why it is "
            f"equivalent</th><th>this run</th></tr>{rows}</table>") if rows else ""
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Mutation report</title>"
            f"<style>{STYLE}</style></head><body><h1>Mutation testing of rtl/</h1>{summary}{limits}"
            f"{_table('By module', report['by_module'])}{_table('By operator', report['by_operator'])}"
            f"<h2>Mutants (survivors first)</h2>{body}{past}</body></html>\n")


def write(out: Path, report: dict[str, Any]) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    jpath, hpath = out / "report.json", out / "report.html"
    jpath.write_text(json.dumps(report, indent=1) + "\n")
    hpath.write_text(render_html(report))
    return jpath, hpath
