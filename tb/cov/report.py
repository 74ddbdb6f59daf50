"""The coverage report: build/coverage/index.html and summary.json from per-test data.

    python -m tb.cov.report --data build/coverage/data --out build/coverage

``--data`` holds what the regression left: one ``<test>.json`` (functional bins) and one
``<test>.dat`` (Verilator) per simulator process, plus ``run.json`` from the driver
(job results per kind and functional coverage after each batch of random programs).
The report merges both kinds of data, applies waivers, evaluates the testplan, and
writes the summary table, every coverpoint with hit counts and its unhit bins, the
testplan status, the code coverage per file with links to genhtml's pages, and a plot
of functional coverage against the number of random programs. Exit status 1 when a
bin is neither hit nor waived, or a figure is under its sign-off target.
"""
from __future__ import annotations

import html
import json
import sys
from pathlib import Path

from models.argtypes import OneLineParser
from tb.cov import codecov, testplan, waivers
from tb.uvm.cov import data
from tb.uvm.cov.points import POINTS

TARGETS = {"functional": 100.0, "line": 95.0, "toggle": 90.0}


def functional_summary(counts: data.Counts, waived: dict) -> dict[str, float | int]:
    total = sum(len(b) for b in counts.values())
    hit = sum(h > 0 for b in counts.values() for h in b.values())
    covered = sum(h > 0 or (p, b) in waived for p, bins in counts.items() for b, h in bins.items())
    return {"bins": total, "hit": hit, "waived_unhit": covered - hit,
            "percent": round(100.0 * covered / total, 2) if total else 0.0,
            "percent_hit": round(100.0 * hit / total, 2) if total else 0.0}


def plot(history: list[dict], path: Path) -> bool:
    """PNG of functional coverage (hit, before waivers) against random programs run.

    Two curves: with the fixed suite (directed, closure, flows) counted from the start, and
    the random programs alone, which shows what the steering adds batch by batch.
    """
    if not history:
        return False
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    xs = [h["programs"] for h in history]
    ax.plot(xs, [h["percent_hit"] for h in history], marker="o", label="whole regression")
    if all("random_percent_hit" in h for h in history):
        ax.plot(xs, [h["random_percent_hit"] for h in history], marker="s",
                label="random programs alone")
    ax.legend(loc="lower right")
    ax.set_xlabel("random programs (unsteered, then steered)")
    ax.set_ylabel("functional bins hit (%)")
    ax.set_ylim(0, 100)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def _e(x: object) -> str:
    return html.escape(str(x))


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def render(summary: dict, counts: data.Counts, waived: dict, plan: list[testplan.Testpoint],
           files: dict, untoggled: dict[str, list[str]], run: dict, links: dict[str, str],
           has_plot: bool) -> str:
    parts = ["<!doctype html><meta charset=utf-8><title>VTA coverage</title><style>"
             "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}"
             ".pass{background:#dfd}.fail{background:#fdd}.open{background:#ffd}</style>",
             "<h1>VTA verification coverage</h1>"]
    rows = []
    for key, target in TARGETS.items():
        value = summary[key]
        ok = value >= target
        rows.append([key, f"{value:.2f} %", f"&ge; {target:.0f} %",
                     f"<span class={'pass' if ok else 'fail'}>{'met' if ok else 'NOT met'}</span>"])
    rows.append(["toggle before exclusions", f"{summary['toggle_before_exclusions']:.2f} %",
                 f"({summary['toggle_excluded_points']} points excluded, listed below)", ""])
    rows.append(["branch", f"{summary['branch']:.2f} %", "(information)", ""])
    f = summary["functional_detail"]
    parts.append("<h2>Summary</h2>" + _table(["metric", "value", "target", ""], rows))
    parts.append(f"<p>Functional: {f['hit']} of {f['bins']} bins hit, {f['waived_unhit']} unhit "
                 f"bins waived (hit before waivers: {f['percent_hit']:.2f} %). Jobs: "
                 + ", ".join(f"{k} {p} passed / {n} failed" for k, (p, n) in
                             sorted(run.get("results", {}).items())) + ".</p>")
    for name, what in (("code", "Line and branch coverage"), ("toggle", "Toggle coverage")):
        if name in links:
            parts.append(f"<p><a href='{links[name]}'>{what} per source line (genhtml)</a></p>")
    if has_plot:
        parts.append("<h2>Coverage against random programs</h2><img src='coverage_vs_programs.png'>")
    parts.append("<h2>Testplan</h2>")
    parts.append(_table(["id", "spec", "feature", "tests", "coverpoints", "status"], [
        [_e(tp.id), _e(tp.spec), _e(tp.feature), _e(", ".join(tp.tests)),
         _e(", ".join(tp.coverpoints)),
         f"<span class={tp.status}>{tp.status}</span>"
         + (f"<br><small>{_e('; '.join(tp.missing))}</small>" if tp.missing else "")]
        for tp in plan]))
    parts.append("<h2>Functional coverpoints</h2>")
    rows = []
    for p in POINTS:
        bins = counts[p.name]
        hit = sum(h > 0 for h in bins.values())
        cells = " ".join(f"{_e(b)}={h}" for b, h in bins.items())
        unhit = [b for b, h in bins.items() if not h]
        notes = "<br>".join(f"{_e(b)}: " + (f"<i>waived</i> &mdash; {_e(waived[(p.name, b)])}"
                                            if (p.name, b) in waived else "<b>UNHIT</b>")
                            for b in unhit)
        stale = [b for b, h in bins.items() if h and (p.name, b) in waived]
        if stale:
            notes += "<br>stale waiver (bin was hit): " + _e(", ".join(stale))
        rows.append([_e(p.name), _e(p.description), f"{hit}/{len(bins)}", cells, notes])
    parts.append(_table(["coverpoint", "what", "hit", "bins (hits)", "unhit bins"], rows))
    parts.append("<h2>Code coverage of rtl/ per file</h2>")
    def link(name: str) -> str:
        return (f"<a href='code/code/rtl/{name}.gcov.html'>{name}</a>"
                f" (<a href='code/toggle/rtl/{name}.gcov.html'>toggles</a>)" if links else _e(name))

    parts.append(_table(["file"] + list(codecov.KINDS) + ["untoggled bits (first 40)"], [
        [link(name)] + [f"{c}/{t} ({100.0 * c / t:.1f} %)" if t else "-" for c, t in
                        (kinds.get(k, (0, 0)) for k in codecov.KINDS)]
        + [f"<small>{_e(', '.join(untoggled.get(name, [])[:40]))}</small>"]
        for name, kinds in sorted(files.items())]))
    return "\n".join(parts)


def build_report(data_dir: Path, out: Path, waiver_file: Path = waivers.WAIVERS,
                 plan_file: Path = testplan.TESTPLAN) -> dict:
    """Merge, evaluate and write index.html + summary.json; returns the summary."""
    out.mkdir(parents=True, exist_ok=True)
    tests = sorted(data_dir.glob("*.json"))
    tests = [t for t in tests if t.name != "run.json"]
    counts = data.merge_files(tests)
    waived = waivers.load(waiver_file)
    run = json.loads((data_dir / "run.json").read_text()) if (data_dir / "run.json").exists() else {}
    func = functional_summary(counts, waived)
    dats = sorted(data_dir.glob("*.dat"))
    log = out / "code.log"
    log.unlink(missing_ok=True)
    raw_points = codecov.by_source(codecov.merge(dats, out / "merged.dat")) if dats else []
    exclusions = waivers.load_code(waiver_file)
    points, used = codecov.exclude(raw_points, exclusions)
    if raw_points and 0 in used:
        e = exclusions[used.index(0)]
        raise ValueError(f"{waiver_file}: code exclusion {e.file} {e.signal} matches no toggle point")
    links = {k: str(v.relative_to(out)) for k, v in codecov.html(points, out / "code", log).items()}
    figs = codecov.figures(points)
    raw_toggle = codecov.figures(raw_points)["toggle"]
    results = {k: tuple(v) for k, v in run.get("results", {}).items()}
    plan = testplan.evaluate(testplan.load(plan_file), counts, set(waived), results)
    summary = {"functional": func["percent"], "line": figs["line"]["percent"],
               "toggle": figs["toggle"]["percent"], "branch": figs["branch"]["percent"],
               "toggle_before_exclusions": raw_toggle["percent"],
               "toggle_excluded_points": sum(used),
               "functional_detail": func, "code_detail": figs, "tests": len(tests),
               "code_data_files": len(dats),
               "unhit": [f"{p}/{b}" for p, b in data.unhit(counts) if (p, b) not in waived],
               "testplan": {tp.id: tp.status for tp in plan},
               "history": run.get("history", [])}
    has_plot = plot(run.get("history", []), out / "coverage_vs_programs.png")
    excl_rows = [[_e(e.file), _e(e.signal), f"{e.lo}..{e.hi}", str(n), _e(e.reason)]
                 for e, n in zip(exclusions, used, strict=True)]
    (out / "index.html").write_text(render(summary, counts, waived, plan, codecov.per_file(points),
                                           codecov.untoggled(points), run, links, has_plot)
                                    + "<h2>Toggle exclusions (tb/cov/waivers.yaml)</h2>"
                                    + _table(["file", "signal", "bits", "points", "reason"], excl_rows))
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def meets_targets(summary: dict) -> bool:
    return all(summary[k] >= t for k, t in TARGETS.items())


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="python -m tb.cov.report", description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, required=True, help="per-test .json/.dat and run.json")
    p.add_argument("--out", type=Path, required=True, help="report directory (index.html, summary.json)")
    p.add_argument("--waivers", type=Path, default=waivers.WAIVERS)
    p.add_argument("--testplan", type=Path, default=testplan.TESTPLAN)
    args = p.parse_args(argv)
    try:
        s = build_report(args.data, args.out, args.waivers, args.testplan)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"functional {s['functional']:.2f} % (hit {s['functional_detail']['percent_hit']:.2f} %), "
          f"line {s['line']:.2f} %, toggle {s['toggle']:.2f} %, branch {s['branch']:.2f} %")
    for b in s["unhit"]:
        print(f"  unhit, not waived: {b}")
    print(f"report: {args.out / 'index.html'}")
    return 0 if meets_targets(s) else 1


if __name__ == "__main__":
    sys.exit(main())
