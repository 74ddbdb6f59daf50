"""Every test of the testbench, declared once.

Each :class:`Entry` names a test: its ``--test`` name, the job kind its jobs carry, how its
jobs are made (a job maker of tb/plan/makers.py or tb/plan/flow_jobs.py), the prefixes of its
job names (the coverage testplan's tests), its group, and the pytest file that
launches it. Everything else reads this table:

* ``python -m tb.run`` (tb/run.py): the ``--test`` choices, the jobs of each test, and the
  tests of ``--test all`` (groups "programs" and "flow");
* the cocotb plan (tb/uvm/cocotb_plan.py): whether a job names a program (a vector, or a random one
  from its seed); the sequence a job of each kind runs is tb/uvm/seq_lib/sequences.py's, inside the
  simulator, so that this table imports nothing of cocotb;
* tb/cov/testplan.py: the job-name prefixes a testpoint may name; tb/cov/regression.py: the flows of
  its fixed suite (group "flow") and the negative tests (group "negative").

A job maker is called as ``make(JobRequest)`` and returns ``[(configuration, Job), ...]``.
An entry without a job maker gets one job, ``<first prefix>-s<seed>-<profile>`` of its kind,
on FLOW_CONFIG with FLOW_PROFILE unless the request names others.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from tb.plan import flow_jobs
from tb.plan import makers as mk
from tb.plan.jobs import JOB_KINDS, Job
from tb.plan.makers import FLOW_CONFIG, FLOW_PROFILE, JobRequest

GROUPS = ("programs", "flow", "negative")
#: A test's job maker.
Maker = Callable[[JobRequest], list[tuple[str, Job]]]


@dataclass(frozen=True)
class Entry:
    """One test: see the module docstring."""

    name: str  # --test NAME
    kind: str  # Job.kind of its jobs (jobs.JOB_KINDS)
    prefixes: tuple[str, ...]  # prefixes of its job names: the coverage testplan's tests
    group: str  # "programs", "flow" (both in --test all) or "negative"
    launcher: str  # the pytest file that runs it (tb/tests/)
    jobs: Maker | None = None  # making its jobs from a JobRequest (None: one job)
    program: bool = True  # its jobs name a program: a vector, or a random one from the seed
    #: what only rtl/ has that the test checks, so a foreign DUT cannot run it ("": any DUT
    #: runs it, held to what its profile states: tb/plan/applicable.py, tb/plan/claims.py)
    rtl_only: str = ""

    def make_jobs(self, request: JobRequest) -> list[tuple[str, Job]]:
        """The test's jobs as (configuration, Job) pairs."""
        if self.jobs:
            return self.jobs(request)
        profile = request.profile or FLOW_PROFILE
        return [(request.config or FLOW_CONFIG, Job(f"{self.prefixes[0]}-s{request.seed}-{profile}",
                                                    kind=self.kind, seed=request.seed,
                                                    profile=profile))]


ENTRIES: tuple[Entry, ...] = (
    Entry("directed", "program", ("vec",), "programs", "tb/tests/test_uvm_directed.py",
          jobs=mk.directed_jobs),
    Entry("random", "program", ("random",), "programs", "tb/tests/test_uvm_random.py",
          jobs=mk.random_test_jobs),
    Entry("regmap", "regmap", ("regmap",), "flow", "tb/tests/test_uvm_flows.py",
          jobs=mk.regmap_jobs, program=False),
    Entry("hostvar", "host-timing", ("hostvar",), "flow", "tb/tests/test_uvm_flows.py",
          jobs=mk.hostvar_jobs, program=False),
    Entry("reset", "reset-mid", ("reset-mid",), "flow", "tb/tests/test_uvm_flows.py",
          rtl_only="rtl/'s own register table after a reset and its token counters (tb/rules/regs.py)"),
    Entry("back2back", "program", ("b2b",), "flow", "tb/tests/test_uvm_flows.py",
          jobs=mk.back2back_jobs),
    *(Entry(name, "program", (name,), "flow", "tb/tests/test_rtl_flows.py",
            jobs=getattr(flow_jobs, f"{name.replace('-', '_')}_jobs"))
      for name in ("capacity", "push-pop", "leftover", "illegal", "contention", "padding", "b-bound",
                   "pad-only", "edges", "sweep", "perf")),
    Entry("negative", "program", ("fault", "deadlock", "no-compare"), "negative",
          "tb/tests/test_uvm_negative.py", jobs=mk.negative_test_jobs),
)

BY_NAME = {e.name: e for e in ENTRIES}
#: The tests of ``--test all`` (and of ``make sim`` without TEST=).
DEFAULT = tuple(e.name for e in ENTRIES if e.group in ("programs", "flow"))


def entry(name: str) -> Entry:
    if name not in BY_NAME:
        raise ValueError(f"unknown test {name!r} (one of {', '.join(BY_NAME)})")
    return BY_NAME[name]


def for_kind(kind: str) -> Entry:
    """The first entry of a job kind (all entries of a kind share its sequence and ``program``)."""
    for e in ENTRIES:
        if e.kind == kind:
            return e
    raise ValueError(f"unknown job kind {kind!r} (one of {', '.join(JOB_KINDS)})")


def group(name: str) -> tuple[Entry, ...]:
    return tuple(e for e in ENTRIES if e.group == name)


def job_prefixes() -> tuple[str, ...]:
    """Every job-name prefix a registered test produces."""
    return tuple(k for e in ENTRIES for k in e.prefixes)


def make_jobs(name: str, request: JobRequest) -> list[tuple[str, Job]]:
    """The jobs of test ``name``."""
    return entry(name).make_jobs(request)


def _check() -> None:
    """The table is consistent: unique names and prefixes, known groups and job kinds, every
    kind made by a test, and all tests of a kind agreeing on whether it names a program."""
    if len(BY_NAME) != len(ENTRIES) or len(set(job_prefixes())) != len(job_prefixes()):
        raise ValueError("registry: test names and job-name prefixes must be unique")
    if {e.kind for e in ENTRIES} != set(JOB_KINDS):
        raise ValueError(f"registry: the tests' job kinds differ from jobs.JOB_KINDS "
                         f"({', '.join(JOB_KINDS)})")
    for e in ENTRIES:
        first = for_kind(e.kind)
        if e.group not in GROUPS or e.program != first.program:
            raise ValueError(f"registry: {e.name}: group {e.group!r} or kind {e.kind!r} disagrees "
                             f"with {first.name}")


_check()
