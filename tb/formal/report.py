"""The formal run's results as a table (terminal), report.json and index.html.

Per job: the property group (module and configuration), the engine, the result (proven,
BMC depth reached, FAILED with its trace), how many assertions had their trigger reached,
and the wall time. Per failure: the waveform, the witness and the text trace. Per broken
copy (tb/formal/negatives.py): whether the contract refused it, with which assertion.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path

from tb.formal.sby import Check, JobResult


@dataclass
class NegativeResult:
    """What a broken copy's run decided."""

    name: str
    what: str
    expect: str
    result: JobResult
    proof: bool = False

    @property
    def refused(self) -> bool:
        """The contract failed the copy with the expected assertion and a reachable trace."""
        failed = self.expect in [c.label for c in self.result.failed]
        if self.proof:
            return failed and self.result.status in ("FAILED", "UNKNOWN")
        return self.result.status == "FAILED" and failed


def result_cell(r: JobResult) -> str:
    if r.status == "FAILED":
        return f"FAILED {', '.join(c.label for c in r.failed)} ({r.detail})"
    if r.unreached:
        return f"VACUOUS {', '.join(r.unreached)} (trigger never reached)"
    return f"{r.status} ({r.detail})"


def triggers(r: JobResult) -> str:
    asserts = [c for c in r.checks if c.kind == "assert"]
    return f"{sum(c.trigger_step is not None for c in asserts)}/{len(asserts)}"


def table(results: list[JobResult], negatives: list[NegativeResult]) -> str:
    """Terminal table of the jobs, then of the broken copies."""
    rows = [("property group", "engine", "result", "triggers", "wall")]
    rows += [(r.name, r.engine, result_cell(r), triggers(r), f"{r.seconds:.1f} s") for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    out = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + f"  {row[4]}" for row in rows
    ]
    if negatives:
        out.append("")
        out.append(
            "broken copies (tb/formal/negatives.py): "
            + f"{sum(n.refused for n in negatives)}/{len(negatives)} refused"
        )
        for n in negatives:
            got = ", ".join(c.label for c in n.result.failed) or n.result.status
            mark = "refused" if n.refused else "NOT REFUSED"
            out.append(f"  {mark:11s} {n.name:55s} expected {n.expect}, got {got} ({n.result.seconds:.1f} s)")
    return "\n".join(out)


def to_json(results: list[JobResult], negatives: list[NegativeResult]) -> dict:
    def job(r: JobResult) -> dict:
        return {
            "name": r.name,
            "sby_mode": r.sby_mode,
            "engine": r.engine,
            "status": r.status,
            "detail": r.detail,
            "seconds": round(r.seconds, 2),
            "ok": r.ok,
            "unreached": r.unreached,
            "failed": [
                {"label": c.label, "file": c.file, "line": c.line, "step": c.failed_step} for c in r.failed
            ],
            "checks": [
                {
                    "label": c.label,
                    "kind": c.kind,
                    "file": c.file,
                    "line": c.line,
                    "trigger_step": c.trigger_step,
                }
                for c in r.checks
            ],
            "trace_vcd": str(r.trace_vcd) if r.trace_vcd else None,
        }

    return {
        "jobs": [job(r) for r in results],
        "negatives": [
            {"name": n.name, "expect": n.expect, "refused": n.refused, **job(n.result)} for n in negatives
        ],
    }


def _link(path: Path | None, base: Path) -> str:
    if path is None or not path.exists():
        return ""
    rel = (
        path.resolve().relative_to(base.resolve()) if path.resolve().is_relative_to(base.resolve()) else path
    )
    return f'<a href="{html.escape(str(rel))}">{html.escape(path.name)}</a>'


def _trigger(c: Check) -> str:
    if c.trigger_step is not None:
        return f"reached at step {c.trigger_step}"
    return "NOT REACHED"


def write_html(
    out: Path, results: list[JobResult], negatives: list[NegativeResult], traces: dict[str, Path]
) -> Path:
    """index.html: the table, per job its assertions with their triggers, per failure its trace."""
    e = html.escape
    rows = "".join(
        f"<tr class='{'ok' if r.ok else 'bad'}'><td>{e(r.name)}</td><td>{e(r.engine)}</td>"
        f"<td>{e(result_cell(r))}</td><td>{triggers(r)}</td><td>{r.seconds:.1f} s</td>"
        f"<td>{_link(r.trace_vcd, out)} {_link(traces.get(r.name), out)}</td></tr>"
        for r in results
    )
    details = []
    for r in results:
        items = "".join(
            f"<tr><td>{e(c.label)}</td><td>{e(c.kind)}</td><td>{e(c.file)}:{c.line}</td>"
            f"<td>{_trigger(c)}</td>"
            f"<td>{'FAILED at step ' + str(c.failed_step) if c in r.failed else ''}</td></tr>"
            for c in r.checks
        )
        details.append(
            f"<h3>{e(r.name)}</h3><table><tr><th>label</th><th>kind</th><th>source</th>"
            f"<th>trigger (cover run)</th><th>check</th></tr>{items}</table>"
        )
    negs = "".join(
        f"<tr class='{'ok' if n.refused else 'bad'}'><td>{e(n.name)}</td><td>{e(n.what)}</td>"
        f"<td>{e(n.expect)}</td>"
        f"<td>{e(', '.join(c.label for c in n.result.failed) or n.result.status)}</td>"
        f"<td>{_link(n.result.trace_vcd, out)} {_link(traces.get(n.name), out)}</td></tr>"
        for n in negatives
    )
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>make formal</title>
<style>body{{font-family:sans-serif}} td,th{{padding:2px 8px;text-align:left}} tr.bad{{background:#fdd}}
tr.ok{{background:#efe}}</style></head><body>
<h1>make formal</h1>
<table><tr><th>property group</th><th>engine</th><th>result</th><th>triggers reached</th><th>wall</th>
<th>trace</th></tr>{rows}</table>
<h2>Broken copies</h2><table><tr><th>copy</th><th>bug</th><th>expected</th><th>failed</th><th>trace</th></tr>
{negs}</table>
<h2>Assertions</h2>{"".join(details)}
</body></html>"""
    path = out / "index.html"
    path.write_text(page)
    (out / "report.json").write_text(json.dumps(to_json(results, negatives), indent=1))
    return path
