"""What a regression runs: its parameters, its run directory and its chunks.

A run is a pure function of its parameters (simulator, mode, seed, count, configuration,
profile, random-configuration pool, chunk size): the same parameters give the same chunks
with the same ids in the same run directory, which is what lets an interrupted run be
resumed (only chunks missing from its results file run again) and lets a chunk that a lost
worker ran twice be recognised by its id. The number of workers and the scheduler are not
parameters: they change where a chunk runs, never what it computes.

A chunk is the unit of work handed to a worker: programs of one configuration, run by one
simulator process (tb.launch.launch.run_plan), so a worker reuses that configuration's build
across its chunks.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from tb.launch.launch import by_config, split
from tb.paths import ROOT
from tb.plan.jobs import Job
from tb.plan.makers import random_jobs, resolve_random
from tb.plan.saved import safe_name

#: Where run directories go unless --run-dir names one.
RUNS = ROOT / "build" / "regress"
PARAMS_FILE = "params.json"
RESULTS_FILE = "results.jsonl"
DEFAULT_CHUNK = 10


class PlanError(ValueError):
    """A run directory that cannot be used (the message is the one-line error)."""


@dataclass(frozen=True)
class Params:
    """Everything that decides a run's programs and results."""

    sim: str
    mode: str
    seed: int
    count: int
    config: str | None
    profile: str | None
    random_configs: int
    chunk: int

    def dir_name(self) -> str:
        """The run directory's name: readable, and distinct for distinct parameters."""
        pool = f"-rc{self.random_configs}" if self.config == "random" else ""
        cfg = safe_name(Path(self.config).stem if self.config and self.config.endswith(".json")
                        else self.config or "drawn")
        return (f"{self.sim}-{self.mode}-seed{self.seed}-count{self.count}-{cfg}{pool}"
                f"-{self.profile or 'drawn'}-chunk{self.chunk}")

    def differences(self, other: Params) -> list[str]:
        """``key: ours != theirs`` for every parameter that differs."""
        return [f"{f.name}={getattr(other, f.name)} (this run: {getattr(self, f.name)})"
                for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)]


@dataclass
class Chunk:
    """Jobs of one configuration for one simulator process; ``id`` is unique in its run."""

    id: str
    sim: str
    config: str
    mode: str
    jobs: list[Job] = field(default_factory=list)
    coverage: bool = False  # run with functional and code coverage (tb/cov), return its files


def chunks(params: Params) -> list[Chunk]:
    """The run's chunks: programs grouped by configuration (first appearance first), each
    group cut into consecutive pieces of ``params.chunk`` programs."""
    pairs = resolve_random(random_jobs(params.seed, params.count, params.config, params.profile),
                           params.seed, params.random_configs)
    out: list[Chunk] = []
    for cfg, jobs in by_config(pairs).items():
        for first in range(0, len(jobs), params.chunk):
            out.append(Chunk(f"c{len(out):04d}", params.sim, cfg, params.mode,
                             jobs[first:first + params.chunk]))
    return out


def chunks_of(sim: str, pairs: list[tuple[str, Job]], mode: str, parts: int, prefix: str,
              coverage: bool = False) -> list[Chunk]:
    """Chunks for arbitrary jobs (tb/cov/regression.py): per configuration, ``parts`` pieces
    as tb.launch.launch.run_all makes them (back-to-back chains kept whole)."""
    return [Chunk(f"{prefix}-{n:04d}", sim, cfg, mode, part, coverage)
            for n, (cfg, part) in enumerate((cfg, part) for cfg, group in by_config(pairs).items()
                                             for part in split(group, parts))]


def save_params(run_dir: Path, params: Params) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / PARAMS_FILE).write_text(json.dumps(asdict(params), indent=1) + "\n")


def load_params(run_dir: Path) -> Params:
    """A run directory's parameters; anything else is a PlanError naming the directory."""
    path = run_dir / PARAMS_FILE
    if not run_dir.is_dir():
        raise PlanError(f"--resume {run_dir}: no such run directory")
    try:
        return Params(**json.loads(path.read_text()))
    except OSError:
        raise PlanError(f"--resume {run_dir}: not a regression run directory (no {PARAMS_FILE})") from None
    except (ValueError, TypeError) as exc:
        raise PlanError(f"--resume {run_dir}: unreadable {PARAMS_FILE}: {exc}") from None


def resume_dir(params: Params, run_dir: Path) -> Path:
    """The directory to resume, checked against ``params``: one line naming any mismatch."""
    theirs = load_params(run_dir)
    diff = params.differences(theirs)
    if diff:
        raise PlanError(f"--resume {run_dir}: that run has other parameters: {', '.join(diff)}")
    return run_dir
