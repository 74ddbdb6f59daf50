"""Every committed directed vector is well-formed and the executor reproduces its `expect`.

The vectors' expectations are computed by vectors/build.py with plain numpy, never with the
executor, so this is where the two independent implementations check each other on every
vector as committed (the bytes on disk, not the builder's in-memory objects), in program
order and under random token-respecting interleavings.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from models.checker import check_vector
from models.compare import compare_vector
from models.executor import run_vector
from models.vector import find_vectors, load_vector

VECTORS = Path(__file__).resolve().parents[2] / "vectors"
COMMITTED = find_vectors([VECTORS])


def test_there_are_committed_vectors() -> None:
    assert len(COMMITTED) >= 40


@pytest.mark.parametrize("directory", COMMITTED, ids=lambda d: d.name)
def test_vector_is_well_formed_and_matches_its_expect(directory: Path) -> None:
    vector = load_vector(directory)
    assert vector.expect, f"{directory.name}: a committed vector carries its own expect"
    report = check_vector(vector)
    assert report.ok, f"{directory.name}: {report.format()}"
    for schedule in (None, 1, 2):
        result = run_vector(vector, schedule=schedule)
        cmp = compare_vector(vector, result.dram)
        assert cmp.ok and cmp.compared_bytes > 0, f"{directory.name} schedule {schedule}: {cmp.format()}"
