"""Run a Yosys script, keeping its log and reporting progress while it runs.

A synthesis of `small` takes a minute or three and `default` a quarter of an hour, with
nothing on the terminal unless we echo something: each top-level pass header Yosys prints
(`12.` or `12.3.`, not the deeper ones) is echoed with the elapsed time, at most one every
PROGRESS_GAP seconds, and a line saying which pass is still running when none came for
HEARTBEAT seconds (tb/synth/progress.py). Yosys is the pinned YoWASP build, reached through
the formal tools' wrappers (tb/formal/tools.py) under its bare name.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from tb.formal.tools import ToolMissing, formal_env
from tb.synth.progress import Phases, run_logged

#: seconds between two echoed pass headers at most (the heartbeat: progress.HEARTBEAT)
PROGRESS_GAP = 2.0
#: "12. Executing SYNTH_XILINX pass." or "12.3. Executing ABC pass (...)."; not "12.3.4."
HEADER = re.compile(r"^(\d+(?:\.\d+)?)\. Executing (.+?)\.?$")


class YosysError(RuntimeError):
    """Yosys is missing or stopped with an error; the message says which and where the log is."""


def _pass(line: str) -> str | None:
    match = HEADER.match(line)
    return f"{match.group(1)} {match.group(2)}" if match else None


PHASES = Phases(first="elaboration", phase=_pass, gap=PROGRESS_GAP)


def run_yosys(script: str, run_dir: Path, echo: Callable[[str], None] | None = None) -> Path:
    """Write script to run_dir/run.ys and run it there; the log is run_dir/yosys.log.

    echo receives progress lines; None runs silently (the lint, which takes seconds).
    YoWASP's Yosys prints nothing on stdout after its first ABC call (the pinned 0.70: the
    passes after ``abc`` in a script, its ERROR line included, never reach the pipe), so the
    log is Yosys's own (``-l``), complete; the progress follows stdout (yosys.stdout), whose
    last phase then stays the ABC pass until Yosys ends.
    """
    (run_dir / "run.ys").write_text(script)
    log_path = run_dir / "yosys.log"
    try:
        env = formal_env()
    except ToolMissing as exc:
        raise YosysError(str(exc)) from None
    stdout = run_dir / "yosys.stdout"
    status = run_logged(["yosys", "-l", log_path.name, "-s", "run.ys"], run_dir, env, stdout, PHASES, echo)
    if status != 0:
        text = "\n".join(p.read_text() for p in (log_path, stdout) if p.is_file())
        errors = [line.rstrip() for line in text.splitlines() if line.startswith("ERROR")]
        raise YosysError(f"yosys stopped ({errors[0] if errors else f'status {status}'}); log: {log_path}")
    return log_path
