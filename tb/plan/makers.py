"""The job makers: which jobs a test or a command line asks for, as (configuration, Job) pairs.

A test of the registry (tb/plan/registry.py) makes its jobs from a :class:`JobRequest`;
``--vector`` directories, random programs and the negative tests' faults become jobs here
too. Nothing here starts a simulator (tb/launch/launch.py does) or imports cocotb: the
registry, the command line, the regression and the coverage driver all choose jobs with it.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from models.checker import check_vector
from models.config import VtaConfig
from models.spec import SHIPPED_CONFIGS as SHIPPED
from models.spec.configs import load_config
from models.vector import Vector, VectorError, find_vectors, load_vector
from tb.paths import ROOT
from tb.plan.jobs import RANDOM, Job, draw_random, random_config
from tb.plan.negative_programs import write_deadlock_vector, write_empty_vector
from tb.plan.saved import SAVED_FILE, SavedError, read_job, safe_name
from tb.rules.faults import FAULTS

#: Work files of runs: configurations written as JSON, the negative tests' programs.
WORK = ROOT / "build" / "uvm"
DEFAULT_RANDOM_COUNT = 10
FLOW_CONFIG = "small"  # configuration of a flow's jobs unless the request names one
FLOW_PROFILE = "light"  # profile of a flow's programs unless the request names one


@dataclass(frozen=True)
class JobRequest:
    """What the command line (or a launcher) asks of a test's job maker; None: the test's default."""

    sim: str = "icarus"
    config: str | None = None
    seed: int = 1
    count: int | None = None
    profile: str | None = None


class UsageError(ValueError):
    """An argument that cannot be used (its message is the one-line error)."""


def config_name(cfg: VtaConfig) -> str:
    """A shipped configuration's name, or a JSON file under build/uvm/configs/."""
    for name in SHIPPED:
        if load_config(name) == cfg:
            return name
    path = WORK / "configs" / f"{safe_name(json.dumps(cfg.overrides(), sort_keys=True))}.json"
    text = json.dumps(cfg.overrides())
    if not path.is_file() or path.read_text() != text:
        # written aside and renamed: parallel runs (make mutate's JOBS, Dask workers) read
        # this file while another process may be writing it
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(text)
        tmp.replace(path)
    return str(path)


# --- choosing jobs ----------------------------------------------------------------------
def vector_jobs(dirs: list[Path], profile: str | None, seed: int,
                config: str | None = None) -> list[tuple[str, Job]]:
    """Jobs for vector directories (:func:`vector_job`); a vector that cannot be loaded
    raises :class:`VectorError` (:func:`runnable_vector_jobs` makes it a row instead)."""
    return [vector_job(d, load_vector(d).config, profile, seed, config) for d in dirs]


def vector_job(d: Path, own: VtaConfig, profile: str | None, seed: int,
               config: str | None = None) -> tuple[str, Job]:
    """The job of vector directory ``d`` (of configuration ``own``); a tb_uvm.json next to a
    saved failure restores its settings.

    A vector runs on its own configuration; ``config`` (``--config`` with ``--vector``) only
    names it, e.g. ``random:N`` in a repro command, and must be that configuration.
    """
    cfg = vector_config(d, own, config)
    side = d / SAVED_FILE
    if side.exists():
        try:
            saved = read_job(side)
        except SavedError as exc:
            raise VectorError(str(exc)) from None
        saved.vector, saved.name = str(d.resolve()), f"{saved.name}-repro"
        if profile:
            saved.profile = profile
        return cfg, saved
    prof = profile or "none"
    return cfg, Job(f"vec-{d.name}-{prof}", vector=str(d.resolve()), seed=seed, profile=prof)


def vector_config(vector: Path, own: VtaConfig, config: str | None) -> str:
    """The configuration name a vector of configuration ``own`` runs under: ``config`` if
    given (it must be ``own``), else the shipped name or a JSON file of ``own``."""
    if config is None:
        return config_name(own)
    if config == RANDOM:
        raise UsageError(f"--config {RANDOM} draws configurations for random programs; vector "
                         f"{vector} runs on its own (omit --config)")
    if load_config(config) != own:
        raise UsageError(f"--config {config}: vector {vector} has another configuration "
                         f"({own.overrides() or 'the defaults'}); omit --config to run each "
                         f"vector on its own")
    return config


def runnable_vector_jobs(dirs: list[Path], profile: str | None, seed: int, config: str | None = None
                         ) -> tuple[list[tuple[str, Job]], list[dict]]:
    """The jobs of the vectors that can run, and a refused record for each that cannot.

    A vector is refused when validation rejects it (:class:`VectorError`: a malformed
    manifest or tb_uvm.json, a missing file, an insn_count beyond its image) or when the
    checker finds its program ill-formed (:func:`ill_formed`). One bad vector among many is
    one ERROR row of the summary, not a stopped run; a bad argument (``config``) still stops
    it, as :class:`UsageError`.
    """
    jobs, refused = [], []
    for d in dirs:
        try:
            vector = load_vector(d)
            cfg, job = vector_job(d, vector.config, profile, seed, config)
        except VectorError as exc:
            prof = profile or "none"
            refused.append(refused_record(Job(f"vec-{d.name}-{prof}", vector=str(d.resolve()),
                                              seed=seed, profile=prof), str(exc)))
            continue
        why = ill_formed(vector, job)
        if why:
            refused.append(refused_record(job, why, cfg))
        else:
            jobs.append((cfg, job))
    return jobs, refused


def ill_formed(vector: Vector, job: Job) -> str:
    """Why the checker refuses the job's program, in one line ('' if it does not, or if the
    job is meant to deadlock): an ill-formed program has no single defined result to hold
    the DUT's to, so running it would only show which of its possible results the DUT chose."""
    report = check_vector(vector)
    if report.ok or job.deadlock:
        return ""
    return (f"{vector.path}: the program is not well-formed, so it has no single defined result "
            f"({len(report.findings)} finding(s) of `python -m models check`; the first: "
            f"{report.findings[0]})")


def refused_record(job: Job, reason: str, config: str = "-") -> dict:
    """A result record for a job refused before it runs (tb/launch/summary.py shows it as an
    ERROR row with ``reason``, one line); ``config`` is '-' when the vector has none to tell."""
    return {"job": job.name, "passed": False, "refused": reason, "config": config,
            "failures": [{"kind": "error", "cycle": 0, "message": reason}], "job_spec": job.__dict__}


def random_jobs(seed: int, count: int, config: str | None, profile: str | None) -> list[tuple[str, Job]]:
    """Random programs seed..seed+count-1; configuration and profile drawn from each seed
    unless given (a ``random`` configuration is left for :func:`resolve_random`)."""
    out = []
    for s in range(seed, seed + count):
        cfg, prof = draw_random(s)
        cfg, prof = config or cfg, profile or prof
        out.append((cfg, Job(f"random-s{s}-{prof}", seed=s, profile=prof)))
    return out


def resolve_random(jobs: list[tuple[str, Job]], run_seed: int, pool: int) -> list[tuple[str, Job]]:
    """Each job of configuration ``random`` (``--config random``) given its own, one of the
    ``pool`` configurations of the run from ``run_seed``, chosen by the job's seed
    (jobs.random_config)."""
    return [(random_config(run_seed, job.seed, pool) if cfg == RANDOM else cfg, job)
            for cfg, job in jobs]


# --- the job makers of tb/plan/registry.py: JobRequest -> [(configuration, Job)] -------------
def directed_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Every directed vector under vectors/."""
    return vector_jobs(find_vectors([ROOT / "vectors"]), req.profile, req.seed)


def random_test_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """req.count random programs from req.seed on (DEFAULT_RANDOM_COUNT without --count)."""
    return random_jobs(req.seed, req.count or DEFAULT_RANDOM_COUNT, req.config, req.profile)


def regmap_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """The register map and launch semantics (its launch program is the flow's own)."""
    return [(req.config or FLOW_CONFIG, Job("regmap", kind="regmap"))]


def hostvar_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """The register map under every host write timing (lags and BREADY and RREADY holds from the seed)."""
    return [(req.config or FLOW_CONFIG, Job(f"hostvar-s{req.seed}", kind="host-timing", seed=req.seed))]


def back2back_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Three random programs, launched one after the other without reset in between."""
    prof, seed = req.profile or FLOW_PROFILE, req.seed
    return [(req.config or FLOW_CONFIG, Job(f"b2b-s{s}-{prof}", seed=s, profile=prof,
                                            reset=(s == seed))) for s in range(seed, seed + 3)]


def negative_test_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    return negative_jobs(req.seed, req.sim)


def negative_jobs(seed: int, sim: str) -> list[tuple[str, Job]]:
    """One job per fault (each must be caught by its checker) plus the watchdog's deadlock.

    Faults run on fixed directed vectors (faults.py names them), so they do not depend on
    the random generator. The deadlock program uses the same configuration.
    """
    jobs = []
    for name, f in FAULTS.items():
        if not f.expect or (f.four_state and sim != "icarus") or f.needs_timeout:
            continue
        vector = ROOT / "vectors" / f.vector
        config = config_name(load_vector(vector).config)
        prof = "heavy" if f.needs_backpressure else "none"
        jobs.append((config, Job(f"fault-{name}", vector=str(vector), seed=seed, profile=prof,
                                 fault=name)))
    config = jobs[0][0]
    dead = write_deadlock_vector(load_config(config), WORK / f"deadlock-{safe_name(config)}")
    jobs.append((config, Job("deadlock", vector=str(dead), deadlock=True)))
    empty = write_empty_vector(load_config(config), WORK / f"empty-{safe_name(config)}")
    jobs.append((config, Job("no-compare", vector=str(empty), expect_kind="no-compare")))
    return jobs
