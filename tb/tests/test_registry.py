"""The test registry (tb/plan/registry.py) is the one list the CLI, the plan, the job modes and
the coverage testplan read: every entry resolves, makes jobs of its own mode and kinds, and
has a launcher. Nothing here simulates."""
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
def test_entry_makes_jobs_of_its_mode_and_kinds(entry: registry.Entry, sim: str) -> None:
    made = entry.make_jobs(JobRequest(sim, seed=3))
    assert made
    for config, job in made:
        assert job.mode == entry.mode, job
        assert testplan.job_kind(job.name) in entry.kinds, job.name
        assert isinstance(config, str)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_entry_sequence_and_launcher(entry: registry.Entry) -> None:
    sequence = SEQUENCES[entry.mode]
    assert issubclass(sequence, uvm_sequence)
    assert list(inspect.signature(sequence).parameters) == ["name", "env", "job", "vector", "plan"]
    assert (ROOT / entry.launcher).is_file(), entry.launcher


def test_every_mode_has_one_sequence_and_a_test() -> None:
    """jobs.MODES, the registry's modes and the simulator's sequence table name the same modes."""
    assert set(SEQUENCES) == set(jobs.MODES) == {e.mode for e in ENTRIES}


def test_readers_take_the_registry() -> None:
    assert run.TESTS == ("all", *registry.BY_NAME)
    assert set(jobs.MODES) == {e.mode for e in ENTRIES}
    assert set(registry.job_kinds()) <= set(testplan.JOB_KINDS)
    assert {t for tp in testplan.load() for t in tp.tests} <= set(testplan.JOB_KINDS)
    args = run.parse_args(["--sim", "icarus", "--test", "all"])
    assert {testplan.job_kind(j.name) for _, j in run.choose_jobs(args)[0]} == \
        {k for name in registry.DEFAULT for k in registry.entry(name).kinds}


def test_unknown_names_are_errors() -> None:
    with pytest.raises(ValueError, match="unknown test 'nosuch'"):
        registry.entry("nosuch")
    with pytest.raises(ValueError, match="unknown job mode 'fast'"):
        registry.for_mode("fast")
