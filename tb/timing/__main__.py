"""`python -m tb.timing [--config NAME] [--part PART] [--seed N] [--freq MHZ] [--dut NAME]` (`make timing`).

Places and routes vta_top, inside its pin-reducing wrapper, on an ECP5 with nextpnr, prints
fmax, the critical path in rtl/'s names, the utilisation, the seed and the wall time, and
writes build/timing/<config>-<part>/timing.json (and timing.txt, the table). With --dut,
another design's netlist from its DUT profile instead (tb/synth/design.py), in a wrapper
generated from its top's ports, into build/timing/<dut>-<part>/. A result made
from the same configuration, design files, tools, part, seed and constraint is reused: the
run prints "cached" and the stored table. VTA_TIMING_DIR names another output directory
(the tests run the documented command against a cache of their own that way).

Exit status: 0 with a result (whether or not the constraint was met), 2 for a bad knob
(CONFIG, PART, SEED, FREQ, DUT) or a design that cannot be read (a netlist missing from
beside the checkout), 1 when Yosys or nextpnr stops with an error.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.config import ConfigError
from models.spec import SHIPPED_CONFIGS
from models.spec.configs import load_config
from tb.duts.profile import DEFAULT_PROFILE
from tb.duts.rtlports import RtlError
from tb.duts.schema import ProfileError
from tb.paths import ROOT
from tb.synth.__main__ import shown
from tb.synth.cache import YOSYS_PACKAGE, package_version
from tb.synth.design import Design, DesignError, design, knob_message
from tb.synth.script import staged_names
from tb.synth.yosys import YosysError
from tb.timing.cache import cached, nextpnr_version, timing_key
from tb.timing.knobs import DEFAULT_FREQ, DEFAULT_SEED, KnobError, parse_freq, parse_seed
from tb.timing.netlist import instances, make_netlist, netlist_key, synth_script
from tb.timing.nextpnr import NETLIST, NextpnrError, nextpnr_argv, run_nextpnr
from tb.timing.parts import DEFAULT_PART, Part, PartError, parse_part
from tb.timing.report import document, table
from tb.timing.results import ReportError, parse_report
from tb.timing.wrapper import Wrapper, WrapperError, wrapper_verilog

#: the output directory, unless VTA_TIMING_DIR names another
OUT = ROOT / "build" / "timing"
OUT_ENV = "VTA_TIMING_DIR"
#: `small`, not make synth's `default`: default's GEMM core alone is 256 multipliers, more
#: than the 156 MULT18X18D of the largest ECP5
DEFAULT_CONFIG = "small"
RESULT = "timing.json"


def say(line: str) -> None:
    print(line, flush=True)


def out_dir() -> Path:
    """build/timing, or the directory VTA_TIMING_DIR names."""
    return Path(os.environ[OUT_ENV]).resolve() if os.environ.get(OUT_ENV) else OUT


@dataclass(frozen=True)
class Plan:
    """One run, worked out before anything runs: what to make, where, under which keys."""

    design: Design
    part: Part
    seed: int
    wrapper: Wrapper
    script: str
    netlist_key: str
    argv: list[str]
    key: str
    run_dir: Path

    @property
    def label(self) -> str:
        return f"timing {self.design.title} {self.part.name} seed {self.seed}"


def plan(config: str | None, part_name: str = DEFAULT_PART, seed: int = DEFAULT_SEED,
         freq: float = DEFAULT_FREQ, rtl_dir: Path | None = None, out: Path | None = None,
         dut: str = DEFAULT_PROFILE) -> Plan:
    """The run's wrapper, scripts, keys and directory (elaborates the ports: a second or so)."""
    return plan_design(design(dut, config, DEFAULT_CONFIG, rtl_dir), part_name, seed, freq, out)


def plan_design(d: Design, part_name: str = DEFAULT_PART, seed: int = DEFAULT_SEED,
                freq: float = DEFAULT_FREQ, out: Path | None = None) -> Plan:
    """plan() for a design already read."""
    part = parse_part(part_name)
    wrapper = wrapper_verilog(d.top, d.clock, d.top_ports(), d.parameters)
    script = synth_script(staged_names(d), wrapper)
    synth_key = netlist_key(d.values, script, wrapper, d.files)
    argv = nextpnr_argv(part, freq, seed)
    run_dir = (out or out_dir()) / f"{d.label}-{part.name}"
    return Plan(d, part, seed, wrapper, script, synth_key, argv, timing_key(synth_key, argv), run_dir)


def timing(config: str | None, part_name: str = DEFAULT_PART, seed: int = DEFAULT_SEED,
           freq: float = DEFAULT_FREQ, rtl_dir: Path | None = None, out: Path | None = None,
           dut: str = DEFAULT_PROFILE) -> dict[str, Any]:
    """Place and route (or reuse the cached result) and return timing.json's document."""
    return run(plan(config, part_name, seed, freq, rtl_dir, out, dut))


def run(p: Plan) -> dict[str, Any]:
    """Place and route the plan (or reuse its cached result); timing.json's document."""
    result = p.run_dir / RESULT
    hit = cached(result, p.key)
    if hit is not None:
        say(f"{p.label}: cached ({shown(result)}, made in {hit['seconds']['total']} s)")
        return hit
    p.run_dir.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    say(f"{p.label}: synthesis (synth_ecp5 -noflatten) in {shown(p.run_dir)} (log: yosys.log)")
    synth_seconds, reused = make_netlist(p.run_dir, p.netlist_key, p.script, p.wrapper, p.design, say)
    if reused:
        say(f"{p.label}: netlist reused (made in {synth_seconds:.0f} s under the same key)")
    pnr_start = time.monotonic()
    say(f"{p.label}: nextpnr-ecp5 {' '.join(p.argv[1:])} (log: nextpnr.log)")
    report = run_nextpnr(p.argv, p.run_dir, say)
    pnr_seconds = time.monotonic() - pnr_start
    netlist = json.loads((p.run_dir / NETLIST).read_text())
    scope = instances(netlist)
    del netlist
    results = parse_report(json.loads(report.read_text()), p.design.clock, scope)
    seconds = {"synth": synth_seconds, "pnr": pnr_seconds, "total": time.monotonic() - start}
    doc = document_of(p, results, scope, seconds, reused)
    result.write_text(json.dumps(doc, indent=1) + "\n")
    (p.run_dir / "timing.txt").write_text(table(doc) + "\n")
    say(f"{p.label}: done in {seconds['total']:.0f} s")
    return doc


def document_of(p: Plan, results: dict[str, Any], scope: dict[str, str], seconds: dict[str, float],
                reused: bool) -> dict[str, Any]:
    """timing.json's document for a run of plan p."""
    part = p.part
    part_doc = {"name": part.name, "device": part.device, "speed": part.speed, "package": part.package,
                "description": part.describe(), "nextpnr": " ".join(part.nextpnr_args())}
    w = p.wrapper
    wrapped = {"input_bits": w.input_bits, "output_bits": w.output_bits, "pins": w.pins}
    tools = {"yosys": package_version(YOSYS_PACKAGE), "nextpnr": nextpnr_version()}
    d = p.design
    return document(p.key, d.config, d.values, part_doc, p.seed, results, wrapped, scope, tools,
                    seconds, reused, d.dut, d.top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tb.timing", description=__doc__.splitlines()[0])
    parser.add_argument("--config", help=f"a shipped configuration ({', '.join(SHIPPED_CONFIGS)}) or a JSON "
                        f"file (default {DEFAULT_CONFIG}; a foreign DUT: its profile's)")
    parser.add_argument("--part", default=DEFAULT_PART, help=f"ECP5 part (default {DEFAULT_PART})")
    parser.add_argument("--seed", default=str(DEFAULT_SEED), help=f"nextpnr seed (default {DEFAULT_SEED})")
    parser.add_argument("--freq", default=f"{DEFAULT_FREQ:g}",
                        help=f"clock constraint in MHz, nextpnr --freq (default {DEFAULT_FREQ:g})")
    parser.add_argument("--dut", default=DEFAULT_PROFILE,
                        help="the design: a DUT profile's name under tb/duts/ or a YAML path "
                             f"(default {DEFAULT_PROFILE}: rtl/)")
    parser.add_argument("--rtl", type=Path, help="a copy of rtl/ to place instead (DUT vta only)")
    args = parser.parse_args(argv)
    try:
        seed, freq = parse_seed(args.seed), parse_freq(args.freq)
        parse_part(args.part)
    except (KnobError, PartError) as exc:
        print(f"make timing: {exc}", file=sys.stderr)
        return 2
    try:
        if args.config is not None:
            load_config(args.config)
        d = design(args.dut, args.config, DEFAULT_CONFIG, args.rtl)
    except (ConfigError, ProfileError, DesignError) as exc:
        print(f"make timing: {knob_message(args.dut, args.config, exc)}", file=sys.stderr)
        return 2
    try:
        doc = run(plan_design(d, args.part, seed, freq))
    except (RtlError, WrapperError) as exc:
        print(f"make timing: {exc}", file=sys.stderr)
        return 2
    except (YosysError, NextpnrError, ReportError) as exc:
        print(f"make timing: {exc}", file=sys.stderr)
        return 1
    print(table(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
