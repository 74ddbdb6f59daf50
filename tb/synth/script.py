"""The sources Yosys reads and the scripts it runs.

YoWASP's Yosys sees a private /tmp (tests keep their broken copies there), so the design is
first copied into the run's own directory under build/; the scripts then name the copies by
paths relative to it, which also makes the `src` attributes Yosys reports read `rtl/<file>`.
vta_top's parameters are the configuration's, as every simulator build passes them: the
suite's DUT profile (tb/duts/vta/profile.yaml) derives them.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from tb.duts.profile import DEFAULT_PROFILE, load
from tb.synth.targets import Target

#: Directory, inside a run's directory, holding its copy of the design.
STAGED = "rtl"


def top_and_parameters(config: str | None) -> tuple[str, dict[str, int]]:
    """vta_top and its parameters for a configuration (a shipped name or a JSON path)."""
    profile = load(DEFAULT_PROFILE, config)
    return profile.top, profile.parameters()


def design_files(rtl_dir: Path) -> list[Path]:
    """The design: its Verilog files and the headers they include, sorted."""
    return sorted(rtl_dir.glob("*.v")) + sorted(rtl_dir.glob("*.vh"))


def staged_names(files: list[Path]) -> list[str]:
    """The Verilog files (not the headers) as the scripts name their staged copies."""
    return [f"{STAGED}/{p.name}" for p in files if p.suffix == ".v"]


def stage_sources(files: list[Path], run_dir: Path) -> None:
    """Copy the design into run_dir/rtl, replacing an older copy."""
    dest = run_dir / STAGED
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for path in files:
        shutil.copyfile(path, dest / path.name)


def elaborate(files: list[str], top: str, params: dict[str, int],
              read_flags: tuple[str, ...] = ()) -> list[str]:
    """The script's first lines: read the staged files (headers from the staged rtl/), then
    elaborate the top with the given parameters."""
    chparams = " ".join(f"-chparam {k} {v}" for k, v in params.items())
    return [" ".join(["read_verilog", *read_flags, f"-I{STAGED}", *files]),
            f"hierarchy -check -top {top} {chparams}"]


def synth_script(files: list[str], top: str, params: dict[str, int], target: Target) -> str:
    """Elaborate, synthesize for the target (hierarchy kept) and write `stat -json` to stat.json."""
    lines = elaborate(files, top, params) + list(target.commands) + ["tee -q -o stat.json stat -json"]
    return "\n".join(lines) + "\n"


def lint_script(files: list[str], top: str, params: dict[str, int]) -> str:
    """The lint run: proc-level passes only, with what each rule reads written to a file.

    -nomem2reg keeps every Verilog array a memory, so an array Yosys would otherwise turn into
    flip-flops (one written whole on reset, say) shows up as a memory the memory rule judges.
    The driver check runs before anything is optimised; the loop check after flattening, so a
    loop through several modules is seen whole.
    """
    lines = elaborate(files, top, params, ("-nomem2reg",)) + [
        "proc",
        "write_json proc.json",             # latches ($dlatch cells) and the drivers' sources
        "tee -q -o drivers.txt check",
        "opt -nodffe -nosdff",
        "opt",
        "memory -nomap",
        "select t:$mem_v2",
        "write_json -selected memories.json",
        "select -clear",
        "flatten",
        "tee -q -o loops.txt check",
    ]
    return "\n".join(lines) + "\n"
