"""Run a Yosys script, keeping its log and reporting progress while it runs.

A synthesis of `small` takes a minute or three and `default` a quarter of an hour, with
nothing on the terminal unless we echo something: each top-level pass header Yosys prints
(`12.` or `12.3.`, not the deeper ones) is echoed with the elapsed time, at most one every
PROGRESS_GAP seconds, and a line saying which pass is still running when none came for
HEARTBEAT seconds. Yosys is the pinned YoWASP build, reached through the formal tools'
wrappers (tb/formal/tools.py) under its bare name.
"""
from __future__ import annotations

import queue
import re
import subprocess
import threading
import time
from pathlib import Path
from typing import IO, Callable, TextIO

from tb.formal.tools import ToolMissing, formal_env

#: seconds between two echoed pass headers at most, and of silence before a heartbeat line
PROGRESS_GAP = 2.0
HEARTBEAT = 10.0
#: "12. Executing SYNTH_XILINX pass." or "12.3. Executing ABC pass (...)."; not "12.3.4."
HEADER = re.compile(r"^(\d+(?:\.\d+)?)\. Executing (.+?)\.?$")


class YosysError(RuntimeError):
    """Yosys is missing or stopped with an error; the message says which and where the log is."""


def run_yosys(script: str, run_dir: Path, echo: Callable[[str], None] | None = None) -> Path:
    """Write script to run_dir/run.ys and run it there; the log is run_dir/yosys.log.

    echo receives progress lines; None runs silently (the lint, which takes seconds).
    """
    (run_dir / "run.ys").write_text(script)
    log_path = run_dir / "yosys.log"
    try:
        env = formal_env()
    except ToolMissing as exc:
        raise YosysError(str(exc)) from None
    start = time.monotonic()
    with log_path.open("w") as log, subprocess.Popen(
            ["yosys", "-s", "run.ys"], cwd=run_dir, env=env, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as proc:
        assert proc.stdout is not None
        _follow(proc.stdout, log, start, echo)
        status = proc.wait()
    if status != 0:
        errors = [line.rstrip() for line in log_path.read_text().splitlines() if line.startswith("ERROR")]
        raise YosysError(f"yosys stopped ({errors[0] if errors else f'status {status}'}); log: {log_path}")
    return log_path


def _follow(stream: IO[str], log: TextIO, start: float, echo: Callable[[str], None] | None) -> None:
    """Copy Yosys's output to the log, echoing pass headers and heartbeats until it ends.

    A reader thread feeds a queue so that the heartbeat can fire while Yosys prints nothing.
    """
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    current, last_echo = "elaboration", start
    while True:
        try:
            line = lines.get(timeout=1.0)
        except queue.Empty:
            line = ""
        if line is None:
            return
        log.write(line)
        now = time.monotonic()
        match = HEADER.match(line)
        if match:
            current = f"{match.group(1)} {match.group(2)}"
        if echo is None:
            continue
        if match and now - last_echo >= PROGRESS_GAP:
            echo(f"  [{now - start:5.0f} s] {current}")
            last_echo = now
        elif now - last_echo >= HEARTBEAT:
            echo(f"  [{now - start:5.0f} s] ... still in {current}")
            last_echo = now
