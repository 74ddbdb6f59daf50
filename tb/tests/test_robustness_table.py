"""The README's robustness table is the count of what the tests try (tb/tests/robustness.py)."""
from __future__ import annotations

from tb.tests.robustness import readme_section, rows, table


def test_readme_table_matches_the_tests() -> None:
    assert readme_section() == table(), \
        "README.md's robustness table is stale: run `.venv/bin/python -m tb.tests.robustness --write`"


def test_every_class_is_tried() -> None:
    for cls, n, _ in rows():
        assert n > 0, cls
