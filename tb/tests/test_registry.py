"""The test registry (tb/plan/registry.py) is the one list the CLI, the plan, the job kinds and
the coverage testplan read: every entry resolves, makes jobs of its own kind and name
prefixes, and has a launcher. Nothing here simulates."""
from __future__ import annotations

import inspect

import pytest
from pyuvm import uvm_sequence

from tb import run
from tb.cov import testplan
from tb.paths import ROOT, SIMS
from tb.plan import jobs, registry
from tb.plan.registry import ENTRIES, JobRequest
from tb.uvm.seq_lib.sequences import SEQUENCES


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
@pytest.mark.parametrize("sim", SIMS)
def test_entry_makes_jobs_of_its_kind_and_prefixes(entry: registry.Entry, sim: str) -> None:
    made = entry.make_jobs(JobRequest(sim, seed=3))
    assert made
    for config, job in made:
        assert job.kind == entry.kind, job
        assert testplan.job_prefix(job.name) in entry.prefixes, job.name
        assert isinstance(config, str)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_entry_sequence_and_launcher(entry: registry.Entry) -> None:
    sequence = SEQUENCES[entry.kind]
    assert issubclass(sequence, uvm_sequence)
    assert list(inspect.signature(sequence).parameters) == ["name", "env", "job", "vector", "plan"]
    assert (ROOT / entry.launcher).is_file(), entry.launcher


def test_every_job_kind_has_one_sequence_and_a_test() -> None:
    """jobs.JOB_KINDS, the registry's kinds and the simulator's sequence table name the same kinds."""
    assert set(SEQUENCES) == set(jobs.JOB_KINDS) == {e.kind for e in ENTRIES}


def test_readers_take_the_registry() -> None:
    assert run.TESTS == ("all", *registry.BY_NAME)
    assert set(jobs.JOB_KINDS) == {e.kind for e in ENTRIES}
    assert set(registry.job_prefixes()) <= set(testplan.JOB_PREFIXES)
    assert {t for tp in testplan.load() for t in tp.tests} <= set(testplan.JOB_PREFIXES)
    args = run.parse_args(["--sim", "icarus", "--test", "all"])
    assert {testplan.job_prefix(j.name) for _, j in run.choose_jobs(args)[0]} == \
        {k for name in registry.DEFAULT for k in registry.entry(name).prefixes}


def test_unknown_names_are_errors() -> None:
    with pytest.raises(ValueError, match="unknown test 'nosuch'"):
        registry.entry("nosuch")
    with pytest.raises(ValueError, match="unknown job kind 'fast'"):
        registry.for_kind("fast")
