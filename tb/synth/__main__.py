"""`python -m tb.synth [--config NAME] [--target xilinx|ecp5|generic]` (`make synth`).

Synthesizes vta_top for the configuration and target, prints the resources per module and in
total, and writes build/synth/<config>-<target>/resources.json (and resources.txt, the table).
A result made from the same configuration, target, script and design files is reused: the
run prints "cached" and the stored table.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from models.config import ConfigError, load_config
from models.spec import SHIPPED_CONFIGS
from tb.duts.schema import ProfileError
from tb.runner import ROOT, RTL_DIR
from tb.synth.cache import cache_key, cached
from tb.synth.report import document, table
from tb.synth.script import design_files, stage_sources, staged_names, synth_script, top_and_parameters
from tb.synth.stat import StatError, parse_stat
from tb.synth.targets import TARGETS
from tb.synth.yosys import YosysError, run_yosys

OUT = ROOT / "build" / "synth"
DEFAULT_CONFIG = "default"


def config_label(config: str) -> str:
    """The directory name of a configuration: a shipped name as is, a JSON file by its stem."""
    return config if config in SHIPPED_CONFIGS else Path(config).stem


def shown(path: Path) -> str:
    """A path as the user typed it: relative to the repository when inside it."""
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def synthesize(config: str, target_name: str, rtl_dir: Path = RTL_DIR, out: Path = OUT) -> dict[str, Any]:
    """Synthesize (or reuse the cached result) and return resources.json's document."""
    target = TARGETS[target_name]
    values = dict(load_config(config).values)
    top, params = top_and_parameters(config)
    files = design_files(rtl_dir)
    script = synth_script(staged_names(files), top, params, target)
    key = cache_key(values, target.name, script, files)
    run_dir = out / f"{config_label(config)}-{target.name}"
    result = run_dir / "resources.json"
    hit = cached(result, key)
    if hit is not None:
        print(f"synth {config} {target.name}: cached ({shown(result)}, made in {hit['seconds']} s)",
              flush=True)
        return hit
    run_dir.mkdir(parents=True, exist_ok=True)
    stage_sources(files, run_dir)
    print(f"synth {config} {target.name}: yosys running in {shown(run_dir)} (log: yosys.log)", flush=True)
    start = time.monotonic()
    run_yosys(script, run_dir, echo=lambda line: print(line, flush=True))
    seconds = time.monotonic() - start
    rows, total = parse_stat(json.loads((run_dir / "stat.json").read_text()), top, target)
    doc = document(key, config_label(config), values, target, seconds, rows, total)
    result.write_text(json.dumps(doc, indent=1) + "\n")
    (run_dir / "resources.txt").write_text(table(doc) + "\n")
    print(f"synth {config} {target.name}: done in {seconds:.0f} s", flush=True)
    return doc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tb.synth", description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=DEFAULT_CONFIG,
                        help=f"a shipped configuration ({', '.join(SHIPPED_CONFIGS)}) or a JSON file")
    parser.add_argument("--target", default="xilinx", choices=sorted(TARGETS))
    parser.add_argument("--rtl", type=Path, default=RTL_DIR, help="the design directory (default rtl/)")
    args = parser.parse_args(argv)
    try:
        doc = synthesize(args.config, args.target, args.rtl.resolve())
    except (ConfigError, ProfileError, YosysError, StatError) as exc:
        print(f"make synth: {exc}", file=sys.stderr)
        return 2
    print(table(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
