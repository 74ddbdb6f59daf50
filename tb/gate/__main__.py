"""`python -m tb.gate [--config small] [--script abc|techmap|broken]`: build a netlist of rtl/.

Prints the Yosys progress (or "cached"), the netlist's gate count and the DUT name a run
takes (`python -m tb.run --dut netlist:small`); a run on the netlist builds it itself,
so this is for building ahead or looking at the netlist. Exit status 2 for a bad argument,
1 when Yosys stops (its first error and the log's path).
"""
from __future__ import annotations

import sys

from models.argtypes import OneLineParser
from tb.duts.netlist import DEFAULT_CONFIG, DEFAULT_SCRIPT, SCRIPTS, NetlistError, SpecError, parse
from tb.gate.build import build
from tb.paths import ROOT


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m tb.gate", description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=DEFAULT_CONFIG, help="a shipped configuration")
    parser.add_argument("--script", default=DEFAULT_SCRIPT, choices=SCRIPTS,
                        help="abc (make sim NETLIST=1), techmap (no ABC: make test's smoke), "
                             "broken (test-only: a deliberately broken synthesis)")
    args = parser.parse_args(argv)
    try:
        spec = parse(f"netlist:{args.config}:{args.script}")
    except SpecError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        netlist = build(spec)
    except NetlistError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    cells = netlist.cells
    profile = netlist.profile.relative_to(ROOT) if netlist.profile.is_relative_to(ROOT) else netlist.profile
    print(f"{spec.name}: {netlist.gates:,} gates and flip-flops, {cells.get('$mem_v2', 0)} memories; "
          f"profile {profile}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
