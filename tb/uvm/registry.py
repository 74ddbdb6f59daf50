"""Every test of the testbench, declared once.

Each :class:`Entry` names a test: its ``--test`` name, the job mode its jobs carry, the
virtual sequence a job of that mode runs, how its jobs are made, the prefixes of its job
names (the job kinds of the coverage testplan), its group, and the pytest file that
launches it. Everything else reads this table:

* ``python -m tb.uvm.run`` (run.py): the ``--test`` choices, the jobs of each test, and the
  tests of ``--test all`` (groups "programs" and "flow");
* the cocotb plan (plan_test.py): which sequence runs a job, and whether the job names a
  program (a vector, or a random one from its seed);
* jobs.py: the valid job modes;
* tb/cov/testplan.py: the job kinds a testpoint may name; tb/cov/regression.py: the flows of
  its fixed suite (group "flow") and the negative tests (group "negative").

Sequences and job makers are named "module:attribute" and imported when used, so that this
table imports nothing of the testbench. A sequence is constructed as
``Sequence(name, env, job, vector, plan)`` (``vector`` is None for a mode without a program);
a job maker is called as ``make(JobRequest)`` and returns ``[(configuration, Job), ...]``.
An entry without a job maker gets one job, ``<first kind>-s<seed>-<profile>`` of its mode,
on FLOW_CONFIG with FLOW_PROFILE unless the request names others.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from tb.uvm.jobs import Job

#: The sequence of every job that runs one program (tb/uvm/vseq.py).
PROGRAM_SEQUENCE = "tb.uvm.vseq:RunProgramVseq"
GROUPS = ("programs", "flow", "negative")
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


@dataclass(frozen=True)
class Entry:
    """One test: see the module docstring."""

    name: str  # --test NAME
    mode: str  # Job.mode of its jobs
    sequence: str  # "module:Class" of the virtual sequence a job of this mode runs
    kinds: tuple[str, ...]  # prefixes of its job names: the coverage testplan's job kinds
    group: str  # "programs", "flow" (both in --test all) or "negative"
    launcher: str  # the pytest file that runs it (tb/tests/)
    jobs: str = ""  # "module:function" making its jobs from a JobRequest ("": one job)
    program: bool = True  # its jobs name a program: a vector, or a random one from the seed
    #: what only rtl/ has that the test checks, so a foreign DUT cannot run it ("": any DUT
    #: runs it, held to what its profile states: tb/uvm/applicable.py, tb/uvm/claims.py)
    rtl_only: str = ""

    def make_jobs(self, request: JobRequest) -> list[tuple[str, "Job"]]:
        """The test's jobs as (configuration, Job) pairs."""
        if self.jobs:
            return _resolve(self.jobs)(request)
        job = _resolve("tb.uvm.jobs:Job")
        profile = request.profile or FLOW_PROFILE
        return [(request.config or FLOW_CONFIG, job(f"{self.kinds[0]}-s{request.seed}-{profile}",
                                                    mode=self.mode, seed=request.seed,
                                                    profile=profile))]

    def sequence_class(self) -> Any:
        return _resolve(self.sequence)


ENTRIES: tuple[Entry, ...] = (
    Entry("directed", "program", PROGRAM_SEQUENCE, ("vec",), "programs", "tb/tests/test_uvm_directed.py",
          jobs="tb.uvm.run:directed_jobs"),
    Entry("random", "program", PROGRAM_SEQUENCE, ("random",), "programs", "tb/tests/test_uvm_random.py",
          jobs="tb.uvm.run:random_test_jobs"),
    Entry("regmap", "regmap", "tb.uvm.flows:RegMapVseq", ("regmap",), "flow", "tb/tests/test_uvm_flows.py",
          jobs="tb.uvm.run:regmap_jobs", program=False),
    Entry("hostvar", "host-timing", "tb.uvm.hostvar:HostTimingVseq", ("hostvar",), "flow",
          "tb/tests/test_uvm_flows.py", jobs="tb.uvm.run:hostvar_jobs", program=False),
    Entry("reset", "reset-mid", "tb.uvm.flows:ResetMidVseq", ("reset-mid",), "flow",
          "tb/tests/test_uvm_flows.py",
          rtl_only="rtl/'s own register table after a reset and its token counters (tb/uvm/regs.py)"),
    Entry("back2back", "program", PROGRAM_SEQUENCE, ("b2b",), "flow", "tb/tests/test_uvm_flows.py",
          jobs="tb.uvm.run:back2back_jobs"),
    *(Entry(name, "program", PROGRAM_SEQUENCE, (name,), "flow", "tb/tests/test_rtl_flows.py",
            jobs=f"tb.uvm.flow_jobs:{name.replace('-', '_')}_jobs")
      for name in ("capacity", "push-pop", "leftover", "illegal", "contention", "padding", "b-bound",
                   "pad-only", "edges", "sweep", "perf")),
    Entry("negative", "program", PROGRAM_SEQUENCE, ("fault", "deadlock", "no-compare"), "negative",
          "tb/tests/test_uvm_negative.py", jobs="tb.uvm.run:negative_test_jobs"),
)

BY_NAME = {e.name: e for e in ENTRIES}
#: Job modes, each with the sequence its jobs run and whether they name a program.
MODES = tuple(dict.fromkeys(e.mode for e in ENTRIES))
#: The tests of ``--test all`` (and of ``make sim`` without TEST=).
DEFAULT = tuple(e.name for e in ENTRIES if e.group in ("programs", "flow"))


def _resolve(ref: str) -> Callable[..., Any]:
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def entry(name: str) -> Entry:
    if name not in BY_NAME:
        raise ValueError(f"unknown test {name!r} (one of {', '.join(BY_NAME)})")
    return BY_NAME[name]


def for_mode(mode: str) -> Entry:
    """The first entry of a mode (all entries of a mode share its sequence and ``program``)."""
    for e in ENTRIES:
        if e.mode == mode:
            return e
    raise ValueError(f"unknown job mode {mode!r} (one of {', '.join(MODES)})")


def group(name: str) -> tuple[Entry, ...]:
    return tuple(e for e in ENTRIES if e.group == name)


def job_kinds() -> tuple[str, ...]:
    """Every job-name prefix a registered test produces."""
    return tuple(k for e in ENTRIES for k in e.kinds)


def make_jobs(name: str, request: JobRequest) -> list[tuple[str, "Job"]]:
    """The jobs of test ``name``."""
    return entry(name).make_jobs(request)


def _check() -> None:
    """The table is consistent: unique names and kinds, known groups, one sequence per mode."""
    if len(BY_NAME) != len(ENTRIES) or len(set(job_kinds())) != len(job_kinds()):
        raise ValueError("registry: test names and job kinds must be unique")
    for e in ENTRIES:
        first = for_mode(e.mode)
        if e.group not in GROUPS or (e.sequence, e.program) != (first.sequence, first.program):
            raise ValueError(f"registry: {e.name}: group {e.group!r} or mode {e.mode!r} disagrees "
                             f"with {first.name}")


_check()
