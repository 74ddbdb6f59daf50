"""Run a long tool with its output kept in a log and a few lines of progress on the terminal.

Yosys (make synth) and nextpnr (make timing) run for minutes and print thousands of lines,
none of which a user wants to read while waiting, yet silence looks like a hang. Both go
through run_logged: every line goes to the log; a line that opens a new phase (the tool's
own function says which) is echoed with the elapsed seconds, at most one every `gap`
seconds; and after `heartbeat` seconds without an echo, a line says which phase is still
running, with the tool's latest status line where it gives one (nextpnr's iteration counts).
"""
from __future__ import annotations

import queue
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, TextIO

#: seconds of silence on the terminal before a heartbeat line
HEARTBEAT = 10.0


@dataclass(frozen=True)
class Phases:
    """How to read one tool's output: ``phase(line)`` names the phase a line opens (None for
    any other line), ``status(line)`` the short status a heartbeat may show (None: not one).
    ``first`` is the phase before the tool's first phase line; ``gap`` the least time between
    two echoed phase lines (Yosys opens dozens of passes a second)."""

    first: str
    phase: Callable[[str], str | None]
    gap: float = 0.0
    status: Callable[[str], str | None] | None = None
    heartbeat: float = HEARTBEAT


def run_logged(argv: list[str], run_dir: Path, env: dict[str, str], log_path: Path,
               phases: Phases, echo: Callable[[str], None] | None) -> int:
    """Run argv in run_dir with stdout and stderr into log_path; return its exit status.

    echo receives the progress lines; None runs silently (the synthesis lint, seconds long).
    """
    start = time.monotonic()
    with log_path.open("w") as log, subprocess.Popen(
            argv, cwd=run_dir, env=env, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as proc:
        assert proc.stdout is not None
        follow(proc.stdout, log, start, phases, echo)
        return proc.wait()


def follow(stream: IO[str], log: TextIO, start: float, phases: Phases,
           echo: Callable[[str], None] | None) -> None:
    """Copy the tool's output to the log, echoing phases and heartbeats until it ends.

    A reader thread feeds a queue so that the heartbeat can fire while the tool prints nothing.
    """
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    current, status, last_echo = phases.first, "", start
    while True:
        try:
            line = lines.get(timeout=1.0)
        except queue.Empty:
            line = ""
        if line is None:
            return
        log.write(line)
        now = time.monotonic()
        opened = phases.phase(line.rstrip("\n")) if line else None
        if opened is not None:
            current, status = opened, ""
        elif line and phases.status is not None:
            status = phases.status(line.rstrip("\n")) or status
        if echo is None:
            continue
        if opened is not None and now - last_echo >= phases.gap:
            echo(f"  [{now - start:5.0f} s] {current}")
            last_echo = now
        elif now - last_echo >= phases.heartbeat:
            echo(f"  [{now - start:5.0f} s] ... still in {current}" + (f": {status}" if status else ""))
            last_echo = now
