"""Yosys's hierarchical `stat -json` -> resources per module and in total.

`stat` lists every module once, with its own cells, and counts the instances of each
submodule as cells whose type is that submodule's name (a parameterised one by its key,
`$paramod$<hash>\\vta_fifo`; a plain one without the key's leading backslash: module
`\\toy_buffer` is counted as cell type `toy_buffer`). A module is reported once per
Verilog module: its parameterisations (`$paramod$<hash>\\vta_fifo`, ...) are merged, and
each counts as many times as it is instantiated under the top, so the rows add up to the
total. A module's row holds its own cells only (its submodules have rows of their own).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tb.synth.targets import Target


class StatError(ValueError):
    """A `stat -json` document that is not what Yosys writes (missing top, a cycle)."""


@dataclass
class Usage:
    """What a module (all its instances) or the whole design uses."""

    instances: int = 0
    resources: Counter[str] = field(default_factory=Counter)
    cells: Counter[str] = field(default_factory=Counter)   # every leaf cell type, for the JSON

    def add(self, other: "Usage", times: int = 1) -> None:
        self.instances += other.instances * times
        for key, n in other.resources.items():
            self.resources[key] += n * times
        for key, n in other.cells.items():
            self.cells[key] += n * times


def module_name(yosys_name: str) -> str:
    """The Verilog module behind a Yosys module name: `\\vta_top`, `$paramod$<hash>\\vta_fifo`
    and `$paramod\\vta_ctrl\\NSTAT=...` are vta_top, vta_fifo and vta_ctrl."""
    name = yosys_name.removeprefix("$paramod")
    parts = [p for p in name.split("\\") if p and not p.startswith("$")]
    return parts[0] if parts else yosys_name


def submodule(cell_type: str, modules: dict[str, Any]) -> str | None:
    """The module a cell type instantiates (its key in ``modules``), or None for a primitive."""
    if cell_type in modules:
        return cell_type
    return "\\" + cell_type if "\\" + cell_type in modules else None


def instance_counts(modules: dict[str, Any], top: str) -> dict[str, int]:
    """How many times each module is instantiated under the top (the top once)."""
    children: dict[str, dict[str, int]] = {}
    for m, body in modules.items():
        children[m] = {}
        for t, n in body.get("num_cells_by_type", {}).items():
            child = submodule(t, modules)
            if child is not None:
                children[m][child] = children[m].get(child, 0) + n
    order: list[str] = []   # reverse post-order: every parent before its children

    def visit(m: str, path: tuple[str, ...]) -> None:
        if m in path:
            raise StatError(f"module {m} instantiates itself through {' -> '.join(path)}")
        if m in order:
            return
        for child in children[m]:
            visit(child, path + (m,))
        order.insert(0, m)

    visit(top, ())
    counts = Counter({top: 1})
    for m in order:
        for child, n in children[m].items():
            counts[child] += counts[m] * n
    return dict(counts)


def parse_stat(stat: dict[str, Any], top: str, target: Target) -> tuple[dict[str, Usage], Usage]:
    """Resources per Verilog module (sorted by name) and in total, from `stat -json` output."""
    modules = stat.get("modules")
    if not isinstance(modules, dict):
        raise StatError("no 'modules' object: not the output of `stat -json`")
    key = next((m for m in modules if module_name(m) == top and m.startswith("\\")), None)
    if key is None:
        raise StatError(f"top module {top} is not among the modules ({', '.join(sorted(modules))})")
    counts = instance_counts(modules, key)
    rows: dict[str, Usage] = {}
    for m, n in counts.items():
        own = Usage(instances=1)
        for cell_type, k in modules[m].get("num_cells_by_type", {}).items():
            if submodule(cell_type, modules) is not None:
                continue
            own.cells[cell_type] += k
            resource = target.classify(cell_type)
            if resource is not None:
                own.resources[resource] += k
        rows.setdefault(module_name(m), Usage()).add(own, n)
    total = Usage()
    for usage in rows.values():
        total.add(usage)
    return dict(sorted(rows.items())), total
