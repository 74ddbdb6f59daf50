"""nextpnr's `--report` JSON -> fmax, the critical path in rtl/'s names, and utilisation.

The report holds, per clock, the achieved fmax and the constraint; per clock pair, the
critical path as a list of steps (clock-to-q, routing over a net, logic through a cell,
setup), each with its delay and the cells at both ends; and per cell type the number used
and available on the part. Only the clock-to-same-clock path of the design's clock is the
fmax path (the others run to or from the wrapper's pins, which have no constraint).
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from tb.timing.names import Where, clock_name, locate

#: utilisation rows: key -> (nextpnr's cell type, shown as)
UTILISATION: dict[str, tuple[str, str]] = {
    "comb": ("TRELLIS_COMB", "LUT4 (COMB)"),
    "ff": ("TRELLIS_FF", "FF"),
    "lutram": ("TRELLIS_RAMW", "LUT RAM (RAMW)"),
    "bram": ("DP16KD", "DP16KD"),
    "dsp": ("MULT18X18D", "MULT18X18D"),
    "io": ("TRELLIS_IO", "IO"),
}
#: the prefix of the staged design's and the wrapper's source locations (the others are
#: Yosys's cell library, /share/lattice/...)
OWN_SOURCES = ("rtl/", "vta_timing_top.v")


class ReportError(ValueError):
    """A report that is not nextpnr's, or has no path for the clock."""


def _where(where: Where) -> dict[str, Any]:
    out = asdict(where)
    out["path"] = where.path()
    return out


def main_clock(report: dict[str, Any], clock: str) -> str:
    """The report's name for the design clock (`$glbnet$ap_clk$TRELLIS_IO_IN` for ap_clk)."""
    fmax = report.get("fmax")
    if not isinstance(fmax, dict) or not fmax:
        raise ReportError("no 'fmax' in the report: not nextpnr's --report output, or no clock")
    names = [n for n in fmax if clock_name(n) == clock]
    if not names and len(fmax) == 1:
        names = list(fmax)
    if not names:
        raise ReportError(f"no clock {clock} in the report (clocks: {', '.join(fmax)})")
    return names[0]


def critical_path(report: dict[str, Any], net_clock: str, instances: dict[str, str]) -> dict[str, Any]:
    """The clock's register-to-register critical path, every net and cell mapped to rtl/."""
    def clock_of(end: Any) -> str:     # "posedge $glbnet$ap_clk$TRELLIS_IO_IN", "<async>"
        return str(end).split(" ", 1)[-1]

    paths = [p for p in report.get("critical_paths", [])
             if clock_of(p.get("from")) == net_clock and clock_of(p.get("to")) == net_clock]
    if not paths or not paths[0].get("path"):
        raise ReportError(f"no critical path from {net_clock} to itself in the report")
    steps = paths[0]["path"]
    total = logic = routing = 0.0
    nets = []
    for step in steps:
        delay = float(step.get("delay", 0.0))
        total += delay
        if step.get("type") == "routing":
            routing += delay
            where = locate(step.get("net", "?"), instances)
            nets.append({**_where(where), "delay_ns": round(delay, 3), "at_ns": round(total, 3),
                         "sources": [s for s in step.get("sources", []) if s.startswith(OWN_SOURCES)]})
        elif step.get("type") == "logic":
            logic += delay
    first, last = steps[0]["from"], steps[-1]["to"]
    return {
        "edges": f"{paths[0]['from'].split(' ')[0]} -> {paths[0]['to'].split(' ')[0]}",
        "delay_ns": round(total, 3), "logic_ns": round(logic, 3), "routing_ns": round(routing, 3),
        "logic_levels": sum(1 for s in steps if s.get("type") == "logic"),
        "from": {**_where(locate(first["cell"], instances)), "port": first.get("port")},
        "to": {**_where(locate(last["cell"], instances)), "port": last.get("port")},
        "nets": nets,
    }


def utilisation(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The UTILISATION rows: used, available on the part, and used as % of it."""
    table = report.get("utilization")
    if not isinstance(table, dict):
        raise ReportError("no 'utilization' in the report")
    out = {}
    for key, (cell_type, _) in UTILISATION.items():
        row = table.get(cell_type, {"used": 0, "available": 0})
        used, available = int(row["used"]), int(row["available"])
        out[key] = {"cell": cell_type, "used": used, "available": available,
                    "percent": round(100.0 * used / available, 1) if available else None}
    return out


def parse_report(report: dict[str, Any], clock: str, instances: dict[str, str]) -> dict[str, Any]:
    """fmax and constraint of ``clock`` (MHz), its critical path, and the utilisation."""
    net_clock = main_clock(report, clock)
    fmax = report["fmax"][net_clock]
    return {
        "clock": clock, "fmax_mhz": round(float(fmax["achieved"]), 2),
        "constraint_mhz": float(fmax["constraint"]),
        "met": float(fmax["achieved"]) >= float(fmax["constraint"]),
        "critical_path": critical_path(report, net_clock, instances),
        "utilisation": utilisation(report),
    }
