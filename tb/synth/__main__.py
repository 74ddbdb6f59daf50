"""`python -m tb.synth [--config NAME] [--target xilinx|ecp5|generic] [--dut NAME]` (`make synth`).

Synthesizes vta_top for the configuration and target, prints the resources per module and in
total, and writes build/synth/<config>-<target>/resources.json (and resources.txt, the table;
VTA_SYNTH_DIR names another directory than build/synth).
With --dut, another design's netlist from its DUT profile (tb/duts/NAME/profile.yaml or a
YAML path) instead, through the same target script, into build/synth/<dut>-<target>/.
A result made from the same configuration, target, script and design files is reused: the
run prints "cached" and the stored table.

Exit status: 0 with a result; 2 for a bad knob or a design that cannot be read (an unknown
profile, a netlist missing from beside the checkout), before Yosys runs; 2 too when Yosys
stops (its first error and the log's path).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from models.config import ConfigError
from models.spec import SHIPPED_CONFIGS
from tb.duts.profile import DEFAULT_PROFILE
from tb.duts.schema import ProfileError
from tb.paths import ROOT
from tb.synth.cache import cache_key, cached
from tb.synth.design import Design, DesignError, design, knob_message
from tb.synth.report import document, table
from tb.synth.script import stage_sources, synth_script
from tb.synth.stat import StatError, parse_stat
from tb.synth.targets import TARGETS, Target
from tb.synth.yosys import YosysError, run_yosys

#: the output directory, unless VTA_SYNTH_DIR names another (the tests run a documented
#: command against a cache of their own that way, as make timing's do with VTA_TIMING_DIR)
OUT = ROOT / "build" / "synth"
OUT_ENV = "VTA_SYNTH_DIR"
DEFAULT_CONFIG = "default"


def shown(path: Path) -> str:
    """A path as the user typed it: relative to the repository when inside it."""
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def out_dir() -> Path:
    """build/synth, or the directory VTA_SYNTH_DIR names."""
    return Path(os.environ[OUT_ENV]).resolve() if os.environ.get(OUT_ENV) else OUT


def synthesize(config: str | None, target_name: str, rtl_dir: Path | None = None, out: Path | None = None,
               dut: str = DEFAULT_PROFILE) -> dict[str, Any]:
    """Synthesize (or reuse the cached result) and return resources.json's document."""
    return synthesize_design(design(dut, config, DEFAULT_CONFIG, rtl_dir), target_name, out)


def synthesize_design(d: Design, target_name: str, out: Path | None = None) -> dict[str, Any]:
    """synthesize() for a design already read."""
    target = TARGETS[target_name]
    script, key = script_and_key(d, target)
    run_dir = (out or out_dir()) / f"{d.label}-{target.name}"
    result = run_dir / "resources.json"
    label = f"synth {d.title} {target.name}"
    hit = cached(result, key)
    if hit is not None:
        print(f"{label}: cached ({shown(result)}, made in {hit['seconds']} s)", flush=True)
        return hit
    run_dir.mkdir(parents=True, exist_ok=True)
    stage_sources(d, run_dir)
    print(f"{label}: yosys running in {shown(run_dir)} (log: yosys.log)", flush=True)
    start = time.monotonic()
    run_yosys(script, run_dir, echo=lambda line: print(line, flush=True))
    seconds = time.monotonic() - start
    rows, total = parse_stat(json.loads((run_dir / "stat.json").read_text()), d.top, target)
    doc = document(key, d.config, d.values, target, seconds, rows, total, d.dut, d.top)
    result.write_text(json.dumps(doc, indent=1) + "\n")
    (run_dir / "resources.txt").write_text(table(doc) + "\n")
    print(f"{label}: done in {seconds:.0f} s", flush=True)
    return doc


def script_and_key(d: Design, target: Target) -> tuple[str, str]:
    """The Yosys script of a run and the cache key its result is stored under."""
    script = synth_script(d, target)
    return script, cache_key(d.values, target.name, script, d.files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tb.synth", description=__doc__.splitlines()[0])
    parser.add_argument("--config", help=f"a shipped configuration ({', '.join(SHIPPED_CONFIGS)}) or a "
                        f"JSON file (default {DEFAULT_CONFIG}; a foreign DUT: its profile's)")
    parser.add_argument("--target", default="xilinx", choices=sorted(TARGETS))
    parser.add_argument("--dut", default=DEFAULT_PROFILE,
                        help="the design: a DUT profile's name under tb/duts/ or a YAML path "
                             f"(default {DEFAULT_PROFILE}: rtl/)")
    parser.add_argument("--rtl", type=Path, help="a copy of rtl/ to synthesize instead (DUT vta only)")
    args = parser.parse_args(argv)
    try:
        d = design(args.dut, args.config, DEFAULT_CONFIG, args.rtl)
    except (ConfigError, ProfileError, DesignError) as exc:
        print(f"make synth: {knob_message(args.dut, args.config, exc)}", file=sys.stderr)
        return 2
    try:
        doc = synthesize_design(d, args.target)
    except (YosysError, StatError) as exc:  # the tool stopped: status 1, as make timing's
        print(f"make synth: {exc}", file=sys.stderr)
        return 1
    print(table(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
