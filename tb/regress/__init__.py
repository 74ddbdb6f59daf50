"""Parallel random regression under pytest-xdist (``make regress``); see conftest.py."""
