"""Running one design (the unmutated baseline or a mutant) through a test set's stages.

Each stage is the suite's own command, run in a process group of its own with the design
named by VTA_RTL_DIR and everything it writes (builds, run directories, saved failures) kept
in the design's work directory (VTA_BUILD_ROOT, VTA_FAILURES_DIR). The testbench appends a
record per job event to results.jsonl as it goes; this module watches those files and ends
the stage at the first failure, so a killed mutant costs only the jobs up to its first
failing one. A stage that outlives its time limit (derived from the baseline's wall time) is
ended too, and the mutant counts as killed by time-out.

Outcomes: ``killed`` (a job failed), ``timeout`` (the stage's limit, or a job's --timeout),
``survived`` (every stage passed), ``invalid`` (lint or build of the mutant failed),
``error`` (the harness itself failed: reported, not scored).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from tb.mutate.testsets import Stage
from tb.paths import ROOT, RTL_VAR, sim_env

POLL = 0.5  # seconds between looks at the results files
KILL_GRACE = 5.0  # seconds between SIGTERM and SIGKILL of a stage's process group
#: Set when the run is interrupted: every running stage ends its process group and raises
#: Interrupted (stages run in their own sessions, so a Ctrl-C or SIGTERM of the run alone
#: would leave their simulators running).
STOPPING = threading.Event()


class Interrupted(Exception):
    """The run was interrupted while this stage ran (its processes are stopped)."""
#: in a job's failure when a time limit ended it: the watchdog's --timeout, or the backstop
#: that kills a simulator which never returns to Python (a zero-delay loop)
TIME_LIMIT_TEXTS = ("wall-time limit", "--timeout backstop")


@dataclass
class Limits:
    """Time limits of one design's run: per stage (seconds of wall time) and per job (the
    testbench's --timeout)."""

    stage: dict[str, float] = field(default_factory=dict)
    job: float | None = None


@dataclass
class Outcome:
    status: str
    stage: str = ""
    job: str = ""
    kind: str = ""
    message: str = ""
    seconds: float = 0.0
    stage_walls: dict[str, float] = field(default_factory=dict)
    job_walls: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"status": self.status, "stage": self.stage, "job": self.job, "kind": self.kind,
                "message": self.message, "seconds": round(self.seconds, 1),
                "stage_walls": {k: round(v, 1) for k, v in self.stage_walls.items()}}


def design_env(rtl: Path, work: Path) -> dict[str, str]:
    """The environment of every command run on this design."""
    env = sim_env()
    env.update({RTL_VAR: str(rtl.resolve()), "VTA_BUILD_ROOT": str((work / "sim").resolve()),
                "VTA_FAILURES_DIR": str((work / "failures").resolve()),
                "VTA_PROGRESS_INTERVAL": "60", "PYTHONHASHSEED": "0",
                # a mutant stuck in a zero-delay loop never returns to Python: end it soon
                "VTA_BACKSTOP_GRACE": "10"})
    return env


def lint(rtl: Path, top: str = "vta_top") -> str:
    """Verilator's lint of the design at its default parameters: '' when it has no error
    (warnings are allowed: a mutant may well truncate or extend), else the first error."""
    cmd = ["verilator", "--lint-only", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", top,
           f"-I{rtl}", *map(str, sorted(rtl.glob("*.v")))]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, env=sim_env(), timeout=300)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"verilator --lint-only could not run: {exc}"
    if res.returncode == 0:
        return ""
    errors = [ln for ln in (res.stderr + res.stdout).splitlines() if ln.startswith("%Error")]
    first = errors[0] if errors else f"verilator --lint-only exited {res.returncode}"
    return first.replace(str(rtl) + "/", "")


class Watcher:
    """Reads the results.jsonl files under a work directory as they grow; reports the first
    failure (job, kind, message) and collects the wall time of every finished job."""

    def __init__(self, work: Path) -> None:
        self.root = work / "sim"
        self.offsets: dict[Path, int] = {}
        self.current: dict[Path, str] = {}
        self.job_walls: list[float] = []
        self.passed = 0

    def failure(self) -> tuple[str, str, str] | None:
        for path in sorted(self.root.glob("*/run-*/results.jsonl")):
            found = self._read(path)
            if found:
                return found
        return None

    def _read(self, path: Path) -> tuple[str, str, str] | None:
        try:
            with path.open("rb") as fh:
                fh.seek(self.offsets.get(path, 0))
                data = fh.read()
        except OSError:
            return None
        end = data.rfind(b"\n") + 1  # only whole lines; the rest is read next time
        self.offsets[path] = self.offsets.get(path, 0) + end
        for raw in data[:end].splitlines():
            try:
                rec = json.loads(raw)
            except ValueError:
                continue
            event = rec.get("event")
            if event == "start":
                self.current[path] = str(rec.get("job", ""))
            elif event == "failure":
                return (self.current.get(path, "?"), str(rec.get("kind", "?")),
                        str(rec.get("message", "")).splitlines()[0] if rec.get("message") else "")
            elif event == "end":
                if not rec.get("passed", True):
                    first = (rec.get("failures") or [{}])[0]
                    return (str(rec.get("job", "?")), str(first.get("kind", "?")),
                            str(first.get("message", "")).splitlines()[0] if first.get("message") else "")
                self.passed += 1
                if isinstance(rec.get("wall"), (int, float)):
                    self.job_walls.append(float(rec["wall"]))
        return None


def stop(proc: subprocess.Popen[bytes]) -> None:
    """End a stage's whole process group (the runner, its simulators, their compilers):
    SIGTERM, then SIGKILL to whatever is left, the leader's children too (a simulator that
    outlived its runner would write into the build directory about to be deleted)."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=KILL_GRACE)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    proc.wait(timeout=30.0)


def run_stage(stage: Stage, env: dict[str, str], work: Path, watcher: Watcher, limits: Limits,
              t_start: float) -> Outcome | None:
    """One stage: None when it passed, else the outcome that ends the design's run."""
    log = work / f"{stage.name}.log"
    argv = [sys.executable, *stage.argv(str(work.resolve()), limits.job)]
    limit = limits.stage.get(stage.name) if stage.limited else None
    t0 = time.monotonic()
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            while proc.poll() is None:
                if STOPPING.is_set():
                    stop(proc)
                    raise Interrupted(stage.name)
                found = watcher.failure()
                if found:
                    stop(proc)
                    return killed(stage, found, t_start)
                if limit is not None and time.monotonic() - t0 > limit:
                    stop(proc)
                    return Outcome("timeout", stage.name, message=f"the stage ran past its limit of "
                                   f"{limit:.0f} s (3x the unmutated run + margin)",
                                   seconds=time.monotonic() - t_start)
                time.sleep(POLL)
        except BaseException:
            stop(proc)
            raise
    found = watcher.failure()
    if found:
        return killed(stage, found, t_start)
    if proc.returncode == 0:
        return None
    return from_log(stage, log, proc.returncode, t_start)


def killed(stage: Stage, found: tuple[str, str, str], t_start: float) -> Outcome:
    job, kind, message = found
    return Outcome(kill_status(message), stage.name, job, kind, message, time.monotonic() - t_start)


def kill_status(message: str) -> str:
    """'timeout' when a time limit ended the job, else 'killed'."""
    return "timeout" if any(t in message for t in TIME_LIMIT_TEXTS) else "killed"


def from_log(stage: Stage, log: Path, code: int, t_start: float) -> Outcome:
    """A stage that failed without a failure record: a job the simulator died in (FAILED
    line of the summary), a build that failed (invalid), or the harness's own error."""
    lines = log.read_text(errors="replace").splitlines()
    seconds = time.monotonic() - t_start
    for line in lines:
        if line.startswith(("FAILED ", "FAIL ")):
            head, _, rest = line.partition(": ")
            kind = rest[1:rest.index("]")] if rest.startswith("[") and "]" in rest else "?"
            return Outcome(kill_status(rest), stage.name, head.split()[-1], kind, rest, seconds)
    errors = [ln for ln in lines if ln.startswith("error:") or ": error:" in ln]
    first = errors[0] if errors else (lines[-1] if lines else f"exit status {code}")
    if "build of" in first:
        return Outcome("invalid", stage.name, message=build_error(first), seconds=seconds)
    return Outcome("error", stage.name, message=f"{first} (exit {code}; see {log})", seconds=seconds)


def build_error(line: str) -> str:
    """The simulator's first error from the build log a failed build names (the log goes
    with the mutant's builds), prefixed by the runner's line."""
    head, sep, path = line.partition("; see ")
    log = Path(path.strip())
    if sep and log.is_file():
        errors = [ln.strip() for ln in log.read_text(errors="replace").splitlines()
                  if "error" in ln.lower() and not ln.lstrip().startswith("-")]
        if errors:
            design = log.parents[2] / "rtl"  # WORK/sim/<build>/build.log -> WORK/rtl
            return f"{head.removeprefix('error: ')}: {errors[0].replace(str(design) + '/', '')}"
    return line


def run_design(rtl: Path, work: Path, stages: list[Stage], limits: Limits,
               check_lint: bool = True) -> Outcome:
    """Lint, then every stage in order until one fails; the outcome and the walls measured."""
    t_start = time.monotonic()
    work.mkdir(parents=True, exist_ok=True)
    if check_lint:
        problem = lint(rtl)
        if problem:
            return Outcome("invalid", "lint", message=problem, seconds=time.monotonic() - t_start)
    env = design_env(rtl, work)
    watcher = Watcher(work)
    walls: dict[str, float] = {}
    for stage in stages:
        t0 = time.monotonic()
        outcome = run_stage(stage, env, work, watcher, limits, t_start)
        walls[stage.name] = time.monotonic() - t0
        if outcome is not None:
            outcome.stage_walls, outcome.job_walls = walls, watcher.job_walls
            return outcome
    return Outcome("survived", seconds=time.monotonic() - t_start, stage_walls=walls,
                   job_walls=watcher.job_walls)
