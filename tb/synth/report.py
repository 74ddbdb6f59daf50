"""The synthesis result as a JSON document (resources.json) and as a table.

The table is printed from the JSON document, so a cached result prints exactly as a fresh one.
"""
from __future__ import annotations

from typing import Any

from tb.duts.profile import DEFAULT_PROFILE
from tb.synth.parts import fit_lines
from tb.synth.stat import Usage
from tb.synth.targets import RESOURCES, TARGETS, Target

#: Shown for a resource the target has no primitive for.
NOT_APPLICABLE = "-"


def _usage(usage: Usage, target: Target) -> dict[str, Any]:
    return {"resources": {r: usage.resources.get(r, 0) if r in target.cells else None
                          for r in target.columns()},
            "cells": dict(sorted(usage.cells.items()))}


def document(key: str, config: str, values: dict[str, int], target: Target, seconds: float,
             rows: dict[str, Usage], total: Usage, dut: str = DEFAULT_PROFILE,
             top: str = "vta_top") -> dict[str, Any]:
    """resources.json: the key it was made under, what was synthesized, per module and total.

    A resource the target has no primitive for is null (not 0)."""
    return {
        "key": key, "dut": dut, "top": top, "config": config, "parameters": values, "target": target.name,
        "description": target.description, "seconds": round(seconds, 1),
        "modules": {name: {"instances": u.instances, **_usage(u, target)} for name, u in rows.items()},
        "total": _usage(total, target),
    }


def table(doc: dict[str, Any]) -> str:
    """The per-module table with the total row, the block-RAM and DSP primitives behind
    the total (a RAMB36E1 and a RAMB18E1 both count as one block RAM above), and whether the
    total fits each part of the target (tb/synth/parts.py)."""
    columns = list(doc["total"]["resources"])
    header = ["module", "inst"] + [RESOURCES[c] for c in columns]

    def cells(values: dict[str, int | None]) -> list[str]:
        return [NOT_APPLICABLE if values[c] is None else f"{values[c]:,}" for c in columns]

    body = [[name, str(m["instances"])] + cells(m["resources"]) for name, m in doc["modules"].items()]
    body.append(["total", ""] + cells(doc["total"]["resources"]))
    widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]

    def line(row: list[str]) -> str:
        return "  ".join(row[0].ljust(widths[0]) if i == 0 else v.rjust(widths[i])
                         for i, v in enumerate(row)).rstrip()

    rule = "-" * len(line(header))
    out = [f"{title(doc)} on {doc['target']}: {doc['description']}", line(header), rule]
    out += [line(r) for r in body[:-1]] + [rule, line(body[-1])]
    return "\n".join(out + _primitives(doc) + fit_lines(doc))


def title(doc: dict[str, Any]) -> str:
    """`default` for rtl/, `upstream-chisel (upstream_chisel)` for another design (a result
    cached before designs other than rtl/ were synthesized has no "dut": it is rtl/'s)."""
    dut = doc.get("dut", DEFAULT_PROFILE)
    return doc["config"] if dut == DEFAULT_PROFILE else f"{dut} ({doc['config']})"


def _primitives(doc: dict[str, Any]) -> list[str]:
    """One line per resource counted in primitives of several kinds or sizes (block RAM, DSP,
    distributed RAM), naming them: "BRAM: 6 RAMB36E1, 3 RAMB18E1"."""
    target = TARGETS[doc["target"]]
    by_resource: dict[str, list[str]] = {}
    for cell_type, n in doc["total"]["cells"].items():
        resource = target.classify(cell_type)
        if resource in ("bram", "dsp", "lutram", "memory"):
            by_resource.setdefault(resource, []).append(f"{n:,} {cell_type}")
    return [f"{RESOURCES[r]}: {', '.join(by_resource[r])}" for r in RESOURCES if r in by_resource]
