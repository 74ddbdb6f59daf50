"""The sources Yosys reads and the scripts it runs.

YoWASP's Yosys sees a private /tmp (tests keep their broken copies there), so the design is
first copied into the run's own directory under build/; the scripts then name the copies by
paths relative to it, which also makes the `src` attributes Yosys reports read `rtl/<file>`.
The top's parameters are the design's (tb/synth/design.py): rtl/'s configuration, as every
simulator build passes them, or none for a fixed foreign netlist.

Generated Chisel prints its assertions with `$fwrite` (one call per line), which Yosys's
Verilog reader refuses ("Can't resolve task name"); the copies have those calls replaced by
an empty statement on the same line, so that every line number Yosys reports is the
original's. They drive no logic, so the netlist is the same.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from tb.synth.design import Design
from tb.synth.targets import Target

#: Directory, inside a run's directory, holding its copy of the design.
STAGED = "rtl"
#: `$fwrite(...);` up to the line's last `);` (the message may hold parentheses and `;`)
FWRITE = re.compile(r"\$fwrite\(.*\);")


def staged_names(design: Design) -> list[str]:
    """The sources (not the headers) as the scripts name their staged copies."""
    return [f"{STAGED}/{p.name}" for p in design.sources]


def synthesizable(text: str) -> str:
    """A source without its `$fwrite` calls, each line where it was."""
    return FWRITE.sub(";", text)


def stage_sources(design: Design, run_dir: Path) -> None:
    """Copy the design into run_dir/rtl, replacing an older copy."""
    dest = run_dir / STAGED
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for path in design.headers:
        shutil.copyfile(path, dest / path.name)
    for path in design.sources:
        (dest / path.name).write_text(synthesizable(path.read_text(errors="replace")))


def elaborate(files: list[str], top: str, params: dict[str, int],
              read_flags: tuple[str, ...] = ()) -> list[str]:
    """The script's first lines: read the staged files (headers from the staged rtl/), then
    elaborate the top with the given parameters."""
    chparams = " ".join(f"-chparam {k} {v}" for k, v in params.items())
    return [" ".join(["read_verilog", *read_flags, f"-I{STAGED}", *files]),
            f"hierarchy -check -top {top} {chparams}"]


def synth_script(design: Design, target: Target) -> str:
    """Elaborate, synthesize for the target (hierarchy kept) and write `stat -json` to stat.json."""
    lines = elaborate(staged_names(design), design.top, design.parameters) + target.script(design.top) + [
        "tee -q -o stat.json stat -json"]
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
