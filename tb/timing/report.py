"""The timing result as a JSON document (timing.json) and as the table `make timing` prints.

The table is printed from the document, so a cached result prints exactly as a fresh one.
The critical path is listed net by net; consecutive nets of one signal (a carry chain's
steps, a LUT cascade inside one expression) are one row with their count, the sum of their
delays and the rtl/ lines nextpnr gives for them.
"""
from __future__ import annotations

from typing import Any

from tb.synth.report import title
from tb.timing.results import UTILISATION


def document(key: str, config: str, values: dict[str, int], part: dict[str, str], seed: int,
             results: dict[str, Any], wrapper: dict[str, int], instances: dict[str, str],
             tools: dict[str, str], seconds: dict[str, float], netlist_reused: bool,
             dut: str, top: str) -> dict[str, Any]:
    """timing.json: the key it was made under, what was placed, and what came out."""
    return {"key": key, "dut": dut, "top": top, "config": config, "parameters": values, "part": part,
            "seed": seed, **results, "wrapper": wrapper, "instances": instances, "tools": tools,
            "seconds": {k: round(v, 1) for k, v in seconds.items()}, "netlist_reused": netlist_reused}


def _rows(nets: list[dict[str, Any]]) -> list[tuple[float, float, int, dict[str, Any], list[str]]]:
    """(arrival ns, summed delay ns, count, first net, rtl/ sources) per run of nets of one
    signal; the sources are those of all the run's nets, in order, each once."""
    rows: list[tuple[float, float, int, dict[str, Any], list[str]]] = []
    for net in nets:
        if rows and rows[-1][3]["path"] == net["path"]:
            _, delay, count, first, sources = rows[-1]
            more = [s for s in net["sources"] if s not in sources]
            rows[-1] = (net["at_ns"], delay + net["delay_ns"], count + 1, first, sources + more)
        else:
            rows.append((net["at_ns"], net["delay_ns"], 1, net, list(net["sources"])))
    return rows


def _end(end: dict[str, Any]) -> str:
    return f"{end['path']} ({end['module']}), port {end['port']}"


def _table(header: list[str], body: list[list[str]], right: set[int], indent: str) -> list[str]:
    widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]
    return [indent + "  ".join(v.rjust(widths[i]) if i in right else v.ljust(widths[i])
                               for i, v in enumerate(r)).rstrip() for r in [header] + body]


def table(doc: dict[str, Any]) -> str:
    """fmax and constraint, the critical path, the utilisation, seed and wall time."""
    part, path, sec = doc["part"], doc["critical_path"], doc["seconds"]
    top = doc.get("top", "vta_top")    # a result cached before other designs were placed is vta_top's
    met = "met" if doc["met"] else "missed"
    out = [f"timing {title(doc)} on {part['name']} ({part['description']}), nextpnr seed {doc['seed']}",
           f"  fmax          {doc['fmax_mhz']:.2f} MHz on clock {doc['clock']} "
           f"(constraint --freq {doc['constraint_mhz']:g} MHz: {met})",
           f"  critical path {path['delay_ns']:.2f} ns, {path['edges']}: {path['logic_ns']:.2f} ns logic "
           f"in {path['logic_levels']} cells, {path['routing_ns']:.2f} ns routing, "
           f"{path['delay_ns'] - path['logic_ns'] - path['routing_ns']:.2f} ns clock-to-out and setup",
           f"    from {_end(path['from'])}"]
    body = []
    for at, delay, count, net, sources in _rows(path["nets"]):
        name = net["path"] + (f" (x{count})" if count > 1 else "")
        body.append([f"{at:.2f}", f"{delay:.2f}", name, net["module"], ", ".join(sources[:2])])
    out += _table(["at ns", "net ns", f"net (instance.signal under {top})", "module", "source"],
                  body, {0, 1}, "      ")
    out.append(f"    to   {_end(path['to'])}")
    out.append(f"  utilisation of {part['device']}:")
    rows = []
    for key, (_, label) in UTILISATION.items():
        u = doc["utilisation"][key]
        pct = "-" if u["percent"] is None else f"{u['percent']:.1f} %"
        rows.append([label, f"{u['used']:,}", f"{u['available']:,}", pct])
    out += _table(["resource", "used", "of", "share"], rows, {1, 2, 3}, "    ")
    w = doc["wrapper"]
    out.append(f"  IO is the wrapper's {w['pins']} pins: {top}'s {w['input_bits']} input bits come "
               f"from a shift register, its {w['output_bits']} output bits are XOR-reduced")
    synth = "reused" if doc["netlist_reused"] else f"{sec['synth']:.0f} s"
    out.append(f"  wall: synthesis {synth}, place and route {sec['pnr']:.0f} s, total {sec['total']:.0f} s "
               f"(yosys {doc['tools']['yosys']}, nextpnr {doc['tools']['nextpnr']})")
    return "\n".join(out)
