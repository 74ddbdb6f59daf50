"""Summary table and JUnit XML from job results (shared by tb/run.py and the regression in tb/regress).

Besides the records of jobs that ran, a record may be ``excluded`` (a foreign DUT's
difference left it out: a skipped row) or ``refused`` (a vector that validation or the
checker would not run, tb/run.py: an ERROR row, failing the run, with its one-line reason
listed under the table).
"""
from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from tb.rules.signature import signature

COLUMNS = ("sim", "job", "config", "profile", "seed", "result", "cycles", "sim cycles", "wall s")


def _row(r: dict) -> tuple[str, ...]:
    spec = r["job_spec"]
    cfg = r["config"] if len(r["config"]) < 20 else "…" + r["config"][-18:]
    kind = r["failures"][0]["kind"] if r["failures"] else ""
    if r.get("excluded"):
        result = "EXCLUDED (" + r["excluded"].split(":", 1)[0][:32] + ")"
    elif r.get("refused"):
        result = "ERROR (refused, not run)"
    elif r["passed"] and spec.get("deadlock"):
        result = f"PASS (expected deadlock, {kind} fired)"
    elif r["passed"] and kind:
        result = f"PASS (expected {kind}: fault {spec.get('fault')})" if spec.get("fault", "none") != "none" \
            else f"PASS (expected {kind})"
    else:
        result = ("PASS" if r["passed"] else "FAIL") + (f" ({kind})" if kind else "")
    return (r["sim"], r["job"], cfg, spec["profile"], str(spec["seed"]), result,
            str(r.get("cycles", "")), str(r.get("sim_cycles", "")), f"{r.get('wall', 0):.2f}")


def summary_table(results: list[dict]) -> str:
    rows = [COLUMNS] + [_row(r) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    left = [f"  {r['job']}: {r['excluded']}" for r in results if r.get("excluded")]
    refused = [f"  {r['job']}: {r['refused']}" for r in results if r.get("refused")]
    head = "excluded (the DUT profile rules them out: its configuration, differences, rtl/-only checks):"
    return "\n".join(lines + (["", head, *left] if left else [])
                     + (["", "refused before running (ERROR):", *refused] if refused else []))


def junit_xml(results: list[dict], suite: str = "vta-uvm") -> str:
    """One test case per record: a refused one (never run) is an error, a failed one a failure."""
    errors = sum(bool(r.get("refused")) for r in results)
    bad = sum(not r["passed"] for r in results) - errors
    cases = []
    for r in results:
        name = quoteattr(r["job"])
        cls = quoteattr(f"{r['sim']}.{r['config']}")
        body = ""
        if r.get("excluded"):
            body = f"<skipped message={quoteattr(r['excluded'])}/>"
        elif r.get("refused"):
            body = f"<error message={quoteattr(r['refused'])}>{escape(r['refused'])}</error>"
        elif not r["passed"]:
            msg = "\n".join(f"[{f['kind']}] {f['message']}" for f in r["failures"]) or "failed"
            body = (f"<failure message={quoteattr(msg.splitlines()[0])} type={quoteattr(str(signature(r)))}>"
                    f"{escape(msg)}</failure>")
        cases.append(f'  <testcase classname={cls} name={name} time="{r.get("wall", 0)}">{body}'
                     f"</testcase>")
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="{suite}" '
            f'tests="{len(results)}" failures="{bad}" errors="{errors}">\n' + "\n".join(cases)
            + "\n</testsuite>\n")
