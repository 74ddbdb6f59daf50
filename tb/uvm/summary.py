"""Summary table and JUnit XML from job results (shared by tb/uvm/run.py and the regression in tb/regress)."""
from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

COLUMNS = ("sim", "job", "config", "profile", "seed", "result", "cycles", "sim cycles", "wall s")


def _row(r: dict) -> tuple[str, ...]:
    spec = r["job_spec"]
    cfg = r["config"] if len(r["config"]) < 20 else "…" + r["config"][-18:]
    kind = r["failures"][0]["kind"] if r["failures"] else ""
    if r.get("excluded"):
        result = "EXCLUDED (" + r["excluded"].split(":", 1)[0][:32] + ")"
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
    return "\n".join(lines + (["", "excluded (the DUT profile's differences):", *left] if left else []))


def junit_xml(results: list[dict], suite: str = "vta-uvm") -> str:
    bad = sum(not r["passed"] for r in results)
    cases = []
    for r in results:
        name = quoteattr(r["job"])
        cls = quoteattr(f"{r['sim']}.{r['config']}")
        body = ""
        if r.get("excluded"):
            body = f"<skipped message={quoteattr(r['excluded'])}/>"
        elif not r["passed"]:
            msg = "\n".join(f"[{f['kind']}] {f['message']}" for f in r["failures"]) or "failed"
            body = f"<failure message={quoteattr(msg.splitlines()[0])}>{escape(msg)}</failure>"
        cases.append(f'  <testcase classname={cls} name={name} time="{r.get("wall", 0)}">{body}'
                     f"</testcase>")
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="{suite}" '
            f'tests="{len(results)}" failures="{bad}">\n' + "\n".join(cases) + "\n</testsuite>\n")
