"""Two mutation runs of the same sample side by side: which test set kills what the other misses.

    python -m tb.mutate.compare build/mutate-formal/report.json build/mutate-quick/report.json

Both runs must have drawn the same mutants (same SEED, N, MODULES and source: the ids are
compared). Prints the score of each run, of the two together (a mutant killed by either),
per module, then the mutants only the first kills and those only the second kills. A
mutant that either run found equivalent or invalid is left out of every score, as in
tb/mutate/report.py.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from models.argtypes import OneLineParser

KILLED = ("killed", "timeout")
UNSCORED = ("equivalent", "invalid", "error")


def load(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise SystemExit(f"tb.mutate.compare: {path}: not a mutation report ({exc})") from None


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Per module: scored mutants, killed by a, by b, by either; the ids only one kills."""
    ma = {m["id"]: m for m in a["mutants"]}
    mb = {m["id"]: m for m in b["mutants"]}
    if set(ma) != set(mb):
        raise SystemExit(f"tb.mutate.compare: the runs drew different mutants ({len(set(ma) ^ set(mb))} "
                         "differ): use the same SEED, N and MODULES on the same source")
    rows: dict[str, dict[str, int]] = defaultdict(lambda: {"scored": 0, "a": 0, "b": 0, "either": 0})
    only_a: list[dict[str, Any]] = []
    only_b: list[dict[str, Any]] = []
    for mid, x in sorted(ma.items()):
        y = mb[mid]
        if x["status"] in UNSCORED or y["status"] in UNSCORED:
            continue
        ka, kb = x["status"] in KILLED, y["status"] in KILLED
        for key in (x["module"], "all"):
            row = rows[key]
            row["scored"] += 1
            row["a"] += ka
            row["b"] += kb
            row["either"] += ka or kb
        if ka and not kb:
            only_a.append(x)
        if kb and not ka:
            only_b.append(y)
    return {"rows": dict(rows), "only_a": only_a, "only_b": only_b}


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f} %" if d else "-"


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="python -m tb.mutate.compare", description=__doc__.splitlines()[0])
    p.add_argument("a", type=Path, help="report.json of the first run")
    p.add_argument("b", type=Path, help="report.json of the second run")
    args = p.parse_args(argv)
    a, b = load(args.a), load(args.b)
    result = compare(a, b)
    ta, tb = a.get("tests", "a"), b.get("tests", "b")
    print(f"{'module':16s} {'scored':>6s} {ta:>12s} {tb:>12s} {'both':>12s}")
    for module, row in sorted(result["rows"].items(), key=lambda kv: (kv[0] == "all", kv[0])):
        print(f"{module:16s} {row['scored']:6d} {pct(row['a'], row['scored']):>12s} "
              f"{pct(row['b'], row['scored']):>12s} {pct(row['either'], row['scored']):>12s}")
    for label, items in ((f"only {ta} kills", result["only_a"]), (f"only {tb} kills", result["only_b"])):
        print(f"\n{label}: {len(items)}")
        for m in items:
            print(f"  {m['id']}  {m['description']}  ({m['job']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
