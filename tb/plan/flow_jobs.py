"""The jobs of the flows that check the RTL with programs of their own (tb/plan/registry.py).

Each flow drives one contract between rtl/'s modules to its edge with a program built for
the run's configuration (tb/edge_programs.py, tb/sweep_programs.py), names what it must
reach there (tb/rules/reach.py) and, where its program breaks a checker rule on purpose,
which rules (``Job.accept``). These are the RTL checks ``make sim`` runs besides the
directed vectors and random programs; pytest only launches them (tb/tests/test_rtl_flows.py)
and shows that each catches its class of bug (tb/tests/test_breaks.py).

A flow's vector is written under build/uvm/flows/, in a directory named by its content, so
parallel runs (make mutate's jobs, Dask workers) never read one half-written and a saved
failure's repro points at the program that failed.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
from pathlib import Path

from models.config import VtaConfig
from models.spec.configs import load_config
from models.vector import Vector, save_vector
from tb import edge_programs as edge
from tb import sweep_programs as sweep
from tb.paths import ROOT
from tb.plan.jobs import Job
from tb.plan.makers import FLOW_CONFIG, JobRequest, config_name

FLOWS = ROOT / "build" / "uvm" / "flows"
#: The bursty memory's seed under which the contention program reaches every bound
#: (tb/rules/reach.py); another profile or seed is the user's to try.
CONTENTION_SEED = 3
#: The benchmark programs (tb/bench_rtl.py: PROGRAMS) and the configuration they are sized for.
PERF_PROGRAMS, PERF_CONFIG = ("perf_gemm", "perf_load_store", "perf_overlap"), "default"
#: The sweep's programs run on a memory that never stalls and on one that stalls every channel.
SWEEP_PROFILES = ("none", "heavy")


def materialize(vector: Vector, name: str) -> Path:
    """The vector saved as ``build/uvm/flows/<name>-<digest>``: written aside, then renamed,
    so that a reader sees a whole vector or none."""
    staging = FLOWS / f".{name}-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    save_vector(vector, staging)
    digest = hashlib.sha256()
    for f in sorted(staging.iterdir()):
        digest.update(f.name.encode() + f.read_bytes())
    final = FLOWS / f"{name}-{digest.hexdigest()[:12]}"
    if final.is_dir():
        shutil.rmtree(staging)
    else:
        try:
            staging.rename(final)
        except OSError:  # another process renamed the same content first
            shutil.rmtree(staging, ignore_errors=True)
    return final


def _one(req: JobRequest, name: str, vector: Vector, *, reach: str = "", accept: list[str] | None = None,
         fault: str = "none", profile: str | None = None) -> list[tuple[str, Job]]:
    """One job running ``vector`` on the request's configuration (the flows' default else)."""
    config = req.config or FLOW_CONFIG
    path = materialize(vector, f"{name}-{Path(config).stem}")
    return [(config, Job(name, vector=str(path), seed=req.seed, profile=profile or req.profile or "none",
                         fault=fault, reach=reach, accept=accept or []))]


def _cfg(req: JobRequest) -> VtaConfig:
    return load_config(req.config or FLOW_CONFIG)


def capacity_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Every token counter and command queue driven full, its producer then waiting."""
    return _one(req, "capacity", sweep.capacity(_cfg(req)), reach="capacity")


def push_pop_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """A pop meeting a push in one cycle at every count of every token counter."""
    return _one(req, "push-pop", edge.push_pop(_cfg(req)), reach="push-pop")


def contention_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """All three read clients at once on a bursty memory: the arbiter's and the port's bounds."""
    [(config, job)] = _one(req, "contention", sweep.contention(_cfg(req)), reach="contention",
                           profile=req.profile or "bursty")
    job.seed = CONTENTION_SEED if not req.profile else req.seed
    return [(config, job)]


def padding_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """A LOAD's padding rows holding the in-order R channel for their length, no longer."""
    return _one(req, "padding", sweep.padded_head(_cfg(req)), reach="padding")


def b_bound_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Write responses withheld until the design's bound of bursts awaiting B."""
    return _one(req, "b-bound", edge.b_bound(_cfg(req)), reach="b-bound", fault="b-hold")


def leftover_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """A program leaving a token in every counter, then one launched without a reset."""
    cfg = _cfg(req)
    [(config, first)] = _one(req, "leftover", edge.leftover_tokens(cfg),
                             accept=["token-imbalance", "store-after-finish"])
    after = materialize(sweep.mixed(cfg, 2), f"mixed-{Path(config).stem}")
    return [(config, first),
            (config, Job("leftover-next", vector=str(after), seed=req.seed, reset=False,
                         profile=first.profile))]


def illegal_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Illegal opcodes, memory types and ALU opcodes, as rtl/README.md documents them."""
    return _one(req, "illegal", edge.illegal_ops(_cfg(req)), accept=list(edge.ILLEGAL_RULES))


def pad_only_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Padding-only LOADs each followed at once by a LOAD into the same buffer."""
    return _one(req, "pad-only", edge.pad_only(_cfg(req)))


def edges_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Rows at 4 KiB boundaries through the gearboxes, every base at each byte offset of two
    bus words; on the configuration asked for, else on the flows' one and the same with a
    128-bit bus (a narrow and a wide bus: elements smaller than, equal to and larger than a
    beat); on the backpressure profile asked for, else ``heavy`` (the write gearbox then
    stalls too)."""
    configs = [req.config] if req.config else [FLOW_CONFIG, config_name(wide_bus(load_config(FLOW_CONFIG)))]
    out = []
    for config in configs:
        cfg, one = load_config(config), dataclasses.replace(req, config=config)
        out += [pair for k in edge.edge_offsets(cfg)
                for pair in _one(one, f"edges-bus{8 * cfg.bus_bytes}-o{k}", edge.edges(cfg, k),
                                 profile=req.profile or "heavy")]
    return out


def wide_bus(cfg: VtaConfig) -> VtaConfig:
    """``cfg`` with a 128-bit bus (the directed vectors' wide_bus_ configuration)."""
    return VtaConfig.from_dict({**cfg.overrides(), "LOG_BUS_WIDTH": 7}, "wide bus")


def perf_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """The benchmark programs of tb/bench_rtl.py (long GEMMs, long LOAD and STORE rows,
    double-buffered GEMM), on the default configuration unless the request names one: their
    results and work counters against the model."""
    config = req.config or PERF_CONFIG
    one, cfg = dataclasses.replace(req, config=config), load_config(config)
    return [pair for name in PERF_PROGRAMS for pair in _one(
        one, f"perf-{name.removeprefix('perf_').replace('_', '-')}", getattr(sweep, name)(cfg))]


def sweep_jobs(req: JobRequest) -> list[tuple[str, Job]]:
    """Every instruction form, odd bases and degenerate shapes, on an ideal and a stalling
    memory (the configuration sweep of tb/tests/test_rtl_programs.py, one configuration)."""
    cfg = _cfg(req)
    programs = {"sweep-mixed": sweep.mixed(cfg, 0),
                "sweep-oddbases": sweep.mixed(cfg, 1, bases=sweep.ODD_BASES),
                "sweep-edges": sweep.edges(cfg)}
    profiles = (req.profile,) if req.profile else SWEEP_PROFILES
    return [pair for name, vector in programs.items() for profile in profiles
            for pair in _one(req, f"{name}-{profile}", vector, profile=profile)]
