"""Jobs: what one simulation runs, as JSON the runner writes and the cocotb test reads.

One cocotb simulation runs many jobs (a reset between them unless a job says otherwise),
because simulator start-up costs far more than a small program. A job is a directed
vector, a random program (generated in the simulation from its seed) or a flow of its own (its job kind).
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path

from models.spec import RULES
from tb.plan.backpressure import check_profile
from tb.rules.failure import KINDS, Failure
from tb.rules.faults import fault
from tb.rules.reach import REACH

#: Job kinds: what a job runs (a program; the register-map, host-timing and mid-program reset
#: flows). Each test of tb/plan/registry.py makes jobs of one kind, and each kind has one
#: virtual sequence (tb/uvm/seq_lib/sequences.py); tests check that the three agree.
JOB_KINDS = ("program", "regmap", "host-timing", "reset-mid")

#: Configurations random programs are drawn from, with weights (small dominates: speed).
RANDOM_CONFIGS = (("small", 8), ("default", 1), ("batch2", 1))
#: ``--config random``: configurations drawn per job (random_config) instead of these.
RANDOM = "random"
RANDOM_PREFIX = "random:"
#: Distinct random configurations (builds) of a run with ``--config random`` unless
#: ``--random-configs`` says otherwise.
DEFAULT_RANDOM_POOL = 3
RANDOM_PROFILES = (("none", 3), ("light", 3), ("heavy", 2), ("bursty", 2))


@dataclass
class Job:
    """One unit of work in a simulation; ``name`` is unique within a plan."""

    name: str
    kind: str = "program"  # what it runs (JOB_KINDS); "mode" is the testbench's, Plan.mode
    vector: str | None = None  # directory of a vector (else a random program from seed)
    seed: int = 1  # random program seed, and seed of the backpressure generators
    profile: str = "none"
    fault: str = "none"
    reset: bool = True  # reset the DUT before this job (False: back-to-back launch)
    deadlock: bool = False  # the program is meant to hang: only the watchdog may end it
    expect_kind: str = ""  # failure kind a negative job must end with (else from fault/deadlock)
    reach: str = ""  # the state the job's program exists to reach (tb/rules/reach.py), checked after it
    accept: list[str] = field(default_factory=list)  # checker rules its program breaks on purpose

    def __post_init__(self) -> None:
        """Refuse values no job can have (a saved tb_uvm.json is read back through here: tb/plan/saved.py)."""
        types = {"name": str, "kind": str, "seed": int, "profile": str, "fault": str,
                 "reset": bool, "deadlock": bool, "expect_kind": str}
        for key, kind in types.items():
            value = getattr(self, key)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise ValueError(f"job {self.name!r}: {key} must be a {kind.__name__}, got {value!r}")
        if self.vector is not None and not isinstance(self.vector, str):
            raise ValueError(f"job {self.name!r}: vector must be a path string, got {self.vector!r}")
        if self.seed < 0:
            raise ValueError(f"job {self.name!r}: seed {self.seed} is negative")
        if self.kind not in JOB_KINDS:
            raise ValueError(f"job {self.name!r}: unknown kind {self.kind!r} (one of {', '.join(JOB_KINDS)})")
        if self.expect_kind and self.expect_kind not in KINDS:
            raise ValueError(f"job {self.name!r}: expect_kind {self.expect_kind!r} is not a failure kind "
                             f"({', '.join(KINDS)})")
        if not isinstance(self.reach, str) or (self.reach and self.reach not in REACH):
            raise ValueError(f"job {self.name!r}: reach {self.reach!r} is not one of {', '.join(REACH)}")
        if not isinstance(self.accept, list) or any(r not in RULES for r in self.accept):
            raise ValueError(f"job {self.name!r}: accept {self.accept!r} must list checker rules "
                             f"({', '.join(RULES)})")
        check_profile(self.profile)
        fault(self.fault)

    @property
    def expect(self) -> str:
        """Failure kind this job must end with ('' for a job that must pass)."""
        if self.expect_kind:
            return self.expect_kind
        return "watchdog" if self.deadlock else fault(self.fault).expect

    def passed(self, failures: list[dict]) -> bool:
        """A normal job passes without failures; a negative one when its checker fired first."""
        if not self.expect:
            return not failures
        return bool(failures) and failures[0]["kind"] == self.expect

    def no_result(self, why: str) -> dict:
        """The record of this job when its simulator gave none: one ``error`` failure saying why."""
        return {"job": self.name, "passed": False, "job_spec": self.__dict__,
                "failures": [Failure("error", why, rule="no-result").to_json()]}


@dataclass
class Plan:
    """Everything a simulation needs: its configuration name, jobs and output paths."""

    sim: str
    config: str
    jobs: list[Job]
    results: str
    failures_dir: str
    repro: dict[str, str] = field(default_factory=dict)  # job name -> command line
    timeout: float | None = None  # wall seconds each program job may run (None: no limit)
    mode: str = "full"  # testbench mode: "full" (Python bus models) or "fast" (tb/uvm/env/fast.py)
    dut: str = "vta"  # DUT profile, a name or a path (tb/duts; tb/plan/dutmap.py)
    queue: str | None = None  # after ``jobs``, run the batches handed in here (tb/launch/session.py)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=1))

    @classmethod
    def load(cls, path: Path) -> "Plan":
        raw = json.loads(Path(path).read_text())
        raw["jobs"] = [Job(**j) for j in raw["jobs"]]
        return cls(**raw)


@dataclass
class Results:
    """What a plan's results file (``Plan.results``, one JSON event per line) says: the end
    record of every job that finished, and the job that started but never ended (the
    simulator died in it) with the failures it had recorded."""

    ends: list[dict]
    unfinished: str | None
    failures: list[dict]

    @classmethod
    def read(cls, path: Path, names: set[str] | None = None) -> "Results":
        """The file's events, of the jobs in ``names`` only if given (a missing file: none)."""
        out = cls([], None, [])
        lines = path.read_text().splitlines() if path.exists() else []
        for rec in map(json.loads, lines):
            if names is not None and rec.get("job") not in names:
                continue
            if rec["event"] == "start":
                out.unfinished, out.failures = rec["job"], []
            elif rec["event"] == "failure":
                out.failures.append({k: v for k, v in rec.items() if k not in ("event", "job")})
            elif rec["event"] == "end":
                out.ends.append(rec)
                out.unfinished = None
        return out


def random_config(run_seed: int, seed: int, pool: int) -> str:
    """The configuration of job ``seed`` under ``--config random``: one of the ``pool``
    configurations of the run from ``run_seed`` (``random:N``, models/randcfg.py).

    Each distinct configuration is a build, so a run draws at most ``pool`` of them; which
    one a job gets comes from its own seed, and the run's seed picks the pool, so runs from
    different seeds see different configurations.
    """
    index = random.Random(f"vta-random-config-{seed}").randrange(pool)
    digest = hashlib.sha256(f"vta-config-pool-{run_seed}-{index}".encode()).digest()
    return f"{RANDOM_PREFIX}{int.from_bytes(digest[:4], 'little')}"


def draw_random(seed: int) -> tuple[str, str]:
    """Configuration and profile of random program ``seed`` (a pure function of the seed)."""
    rng = random.Random(f"vta-random-{seed}")
    config = rng.choices([c for c, _ in RANDOM_CONFIGS], [w for _, w in RANDOM_CONFIGS])[0]
    profile = rng.choices([p for p, _ in RANDOM_PROFILES], [w for _, w in RANDOM_PROFILES])[0]
    return config, profile
