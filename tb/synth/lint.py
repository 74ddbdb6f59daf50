"""Synthesis lint: what would stop a synthesis or silently degrade its result, found in seconds.

`python -m tb.synth.lint [--config small] [--rtl DIR]` (part of `make lint`) elaborates the
design with Yosys, runs only the process- and memory-level passes (no technology mapping),
and holds it to four rules. Each finding names the file, the line, the signal and the rule:

    latch             a combinational block leaves a signal unassigned on some path, so it
                      keeps its value: a latch (synth_ecp5 refuses them; the others warn)
    multiple-drivers  two drivers (processes, assignments, cell outputs) on one signal
    comb-loop         a combinational path from a signal back to itself (after flattening,
                      so a loop through several modules is found too)
    memory-not-bram   an array of BRAM_MIN_BITS bits or more that a block RAM cannot hold:
                      a read port without a clock (an asynchronous read), or more than two
                      write ports (an array written in a loop stays flip-flops)

BRAM_MIN_BITS is 4096: a block RAM holds 16 Kbit (ECP5) or 18/36 Kbit (Xilinx), so below a
quarter of the smallest one distributed (LUT) RAM is the better fit; rtl/'s largest arrays
under it are the fetch beat FIFO (32 x 64 bits) and the command queues (8 x 160), which
synthesize to LUT RAM, and every array at or above it is a vta_ram buffer.
The design directory is rtl/ unless --rtl or VTA_RTL_DIR names another (tests lint broken
copies that way); the run's files live under build/synth/lint/ only while it runs.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.config import ConfigError
from tb.duts.schema import ProfileError
from tb.paths import ROOT, RTL_DIR
from tb.synth.design import rtl_design
from tb.synth.script import STAGED, lint_script, stage_sources, staged_names
from tb.synth.stat import module_name
from tb.synth.yosys import YosysError, run_yosys

RULES = ("latch", "multiple-drivers", "comb-loop", "memory-not-bram")
BRAM_MIN_BITS = 4096
#: a block RAM has two ports; more write ports than that cannot be one
BRAM_MAX_WRITE_PORTS = 2
LINT_CONFIG = "small"
WORK = ROOT / "build" / "synth" / "lint"
LATCH_TYPES = ("$dlatch", "$adlatch", "$dlatchsr", "$_DLATCH")
SRC = re.compile(r"([^|:]+):(\d+)")
DRIVERS = re.compile(r"^Warning: multiple conflicting drivers for (.+):$")
DRIVER_CELL = re.compile(r"^\s+port \S+ of cell (.+) \((\S+)\)$")
LOOP = re.compile(r"^Warning: found logic loop in module (\S+):$")
LOOP_ITEM = re.compile(r"^\s+(cell|wire) (.+?)(?: \((\S+)\))? source: (\S+)$")


@dataclass(frozen=True, order=True)
class Finding:
    """One broken rule, at the line a reader should look at."""

    file: str
    line: int
    rule: str
    signal: str
    module: str
    detail: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.rule}: {self.module}.{self.signal}: {self.detail}"


class Locator:
    """Turns Yosys's `src` attributes (paths of the staged copy) into the design's own paths,
    and cell or wire names into their source lines, from the netlist right after `proc`."""

    def __init__(self, rtl_dir: Path, netlist: dict[str, Any]) -> None:
        self.rtl_dir = rtl_dir
        self.modules: dict[str, Any] = netlist["modules"]

    def place(self, src: str) -> tuple[str, int]:
        match = SRC.match(src or "")
        if match is None:
            return "?", 0
        path = Path(match.group(1))
        real = self.rtl_dir / path.name if path.parts[0] == STAGED else path
        shown = real.relative_to(ROOT) if real.is_relative_to(ROOT) else real
        return str(shown), int(match.group(2))

    def module_of(self, qualified: str) -> tuple[str, str]:
        """Split Yosys's "module.signal" (a module name may hold dots only inside a parameter
        value, so the longest known module name that prefixes it wins)."""
        names = [m for m in self.modules if qualified.startswith(m + ".")]
        if not names:
            return "?", qualified
        module = max(names, key=len)
        return module, qualified[len(module) + 1:].removeprefix("\\")

    def src_of(self, module: str, cell: str) -> str:
        body = self.modules.get(module, {})
        found = body.get("cells", {}).get(cell.removeprefix("\\"))
        return str((found or body).get("attributes", {}).get("src", ""))

    def public_name(self, module: str, signal: str) -> str:
        """A signal's name as written in the source: Yosys may report a driven net by an
        internal name ($logic_not$...$Y); the public net sharing its first bit names it."""
        nets = self.modules.get(module, {}).get("netnames", {})
        if not signal.startswith("$") or signal not in nets:
            return signal
        bit = nets[signal]["bits"][0]
        public = sorted(n for n, net in nets.items() if not net.get("hide_name") and bit in net["bits"])
        return public[0] if public else signal


def latches(loc: Locator) -> list[Finding]:
    """Latch cells proc inferred (before any optimisation removes an unused one, which a
    synthesis with `-latches error` would still have refused)."""
    out = []
    for m, body in loc.modules.items():
        by_bit = {bit: name for name, net in sorted(body.get("netnames", {}).items())
                  if not net.get("hide_name") for bit in net["bits"]}
        for cell in body.get("cells", {}).values():
            if not cell["type"].startswith(LATCH_TYPES):
                continue
            signal = by_bit.get(cell["connections"]["Q"][0], "?")
            file, line = loc.place(cell["attributes"].get("src", ""))
            out.append(Finding(file, line, "latch", signal, module_name(m),
                               "not assigned on every path of this combinational block: a latch"))
    return out


def drivers(loc: Locator, report: str) -> list[Finding]:
    """`check`'s "multiple conflicting drivers" warnings, each driver placed at its line."""
    out = []
    lines = report.splitlines()
    for i, text in enumerate(lines):
        match = DRIVERS.match(text)
        if match is None:
            continue
        module, signal = loc.module_of(match.group(1))
        places = []
        for follow in lines[i + 1:]:
            cell = DRIVER_CELL.match(follow)
            if cell is None:
                break
            places.append(loc.place(loc.src_of(module, cell.group(1))))
        places = sorted(set(places)) or [loc.place(loc.src_of(module, ""))]
        where = ", ".join(f"{f}:{n}" for f, n in places)
        out.append(Finding(places[0][0], places[0][1], "multiple-drivers", loc.public_name(module, signal),
                           module_name(module), f"{len(places)} drivers ({where})"))
    return out


def loops(loc: Locator, report: str) -> list[Finding]:
    """`check`'s "found logic loop" warnings on the flattened design: placed at the loop's first
    cell, named by the wires it goes through (as instance.signal paths from the top)."""
    out = []
    lines = report.splitlines()
    for i, text in enumerate(lines):
        match = LOOP.match(text)
        if match is None:
            continue
        cells, wires = [], []
        for follow in lines[i + 1:]:
            item = LOOP_ITEM.match(follow)
            if item is None and follow.startswith("      "):
                continue   # "A[0] --> Y[0]": the cell's ports on the loop
            if item is None:
                break
            if item.group(1) == "cell":
                cells.append(loc.place(item.group(4)))
            else:
                wires.append(item.group(2).removeprefix("\\"))
        file, line = (cells or [("?", 0)])[0]
        where = ", ".join(f"{f}:{n}" for f, n in sorted(set(cells)))
        out.append(Finding(file, line, "comb-loop", " -> ".join(wires) or "?", match.group(1),
                           f"combinational loop through {where}"))
    return out


def _int(value: Any) -> int:
    return int(value, 2) if isinstance(value, str) else int(value)


def memories(loc: Locator, netlist: dict[str, Any]) -> tuple[list[Finding], int]:
    """Arrays of BRAM_MIN_BITS or more that a block RAM cannot hold, and how many such arrays
    were judged (each Verilog array once, whatever its parameterisations)."""
    out, judged = [], set()
    for m, body in netlist["modules"].items():
        for cell in body.get("cells", {}).values():
            p = cell["parameters"]
            size, width = _int(p["SIZE"]), _int(p["WIDTH"])
            if size * width < BRAM_MIN_BITS:
                continue
            file, line = loc.place(cell["attributes"].get("src", ""))
            name = str(p["MEMID"]).removeprefix("\\")
            judged.add((file, line))
            reads, writes = _int(p["RD_PORTS"]), _int(p["WR_PORTS"])
            clocked = str(p["RD_CLK_ENABLE"]).rjust(reads, "0")[-reads:] if reads else ""
            shape = f"{size} x {width} bits"
            if "0" in clocked:
                out.append(Finding(file, line, "memory-not-bram", name, module_name(m),
                                   f"{shape}, {clocked.count('0')} of {reads} read ports asynchronous: "
                                   "a block RAM reads on a clock edge (register the address or the data)"))
            if writes > BRAM_MAX_WRITE_PORTS:
                out.append(Finding(file, line, "memory-not-bram", name, module_name(m),
                                   f"{shape}, {writes} write ports: a block RAM has "
                                   f"{BRAM_MAX_WRITE_PORTS}, so it stays flip-flops"))
    return out, len(judged)


def lint(rtl_dir: Path = RTL_DIR, config: str = LINT_CONFIG) -> tuple[list[Finding], int]:
    """Every finding on the design in rtl_dir (sorted, each once), and the number of
    memories the block-RAM rule judged."""
    design = rtl_design(config, rtl_dir)
    WORK.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=WORK) as tmp:
        run_dir = Path(tmp)
        stage_sources(design, run_dir)
        run_yosys(lint_script(staged_names(design), design.top, design.parameters), run_dir)
        netlist = json.loads((run_dir / "proc.json").read_text())
        loc = Locator(rtl_dir, netlist)
        found = latches(loc) + drivers(loc, (run_dir / "drivers.txt").read_text()) \
            + loops(loc, (run_dir / "loops.txt").read_text())
        mem_findings, judged = memories(loc, json.loads((run_dir / "memories.json").read_text()))
    return sorted(set(found + mem_findings)), judged


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tb.synth.lint", description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=LINT_CONFIG, help="configuration elaborated (default small)")
    parser.add_argument("--rtl", type=Path, default=RTL_DIR,
                        help="design directory (default rtl/ or VTA_RTL_DIR)")
    args = parser.parse_args(argv)
    try:
        findings, judged = lint(args.rtl.resolve(), args.config)
    except (ConfigError, ProfileError, YosysError) as exc:
        print(f"synthesis lint: {exc}", file=sys.stderr)
        return 2
    for finding in findings:
        print(finding)
    rules = ", ".join(RULES)
    if findings:
        count = f"{len(findings)} finding{'s' if len(findings) > 1 else ''}"
        print(f"synthesis lint ({args.config}): {count} ({rules})", file=sys.stderr)
        return 1
    print(f"synthesis lint ({args.config}): clean ({rules}; {judged} array{'s' if judged != 1 else ''} "
          f"of {BRAM_MIN_BITS}+ bits judged for block RAM)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
