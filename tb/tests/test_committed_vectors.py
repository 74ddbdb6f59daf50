"""Every committed directed vector is well-formed and the executor reproduces its `expect`.

The vectors' expectations are computed by vectors/generate.py with plain numpy
(vectors/reference.py), never with the executor, so this is where the two independent
implementations check each other on every vector as committed (the bytes on disk, not the
builder's in-memory objects), in program order and under random token-respecting
interleavings. The committed files are also exactly what the generator writes today.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from models.checker import check_vector
from models.compare import compare_vector
from models.executor import run_vector
from models.vector import find_vectors, load_vector
from vectors.generate import generate

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


def test_the_generator_writes_exactly_the_committed_files(tmp_path: Path) -> None:
    """vectors/generate.py, called in-process, reproduces every committed byte (and no more)."""
    generate(tmp_path)

    def files(root: Path) -> dict[str, bytes]:
        found = {"README.md": (root / "README.md").read_bytes()}
        for directory in find_vectors([root]):
            for path in sorted(directory.iterdir()):
                found[f"{directory.name}/{path.name}"] = path.read_bytes()
        return found

    committed, generated = files(VECTORS), files(tmp_path)
    assert sorted(generated) == sorted(committed)
    differ = [name for name in committed if generated[name] != committed[name]]
    assert not differ, f"regenerate with `make vectors`: these files differ: {differ}"
