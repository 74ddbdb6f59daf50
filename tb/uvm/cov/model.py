"""The functional coverage model: the coverpoints of ``points`` as cocotb-coverage bins.

cocotb-coverage keeps one process-wide database keyed by dotted names, so each model
registers its points under its own root (``vta``, then ``vta_1``, ...): a second model in
the same process (the unit tests build many) starts from zero hits instead of sharing.
An observation may hit several bins of one point (``inj=False`` with a membership
relation), e.g. a pad of 15 is both ``nonzero`` and ``15``.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable

from cocotb_coverage.coverage import CoverPoint, coverage_db

from models.config import VtaConfig
from tb.uvm.cov.points import POINTS, Point

_roots = itertools.count()


def _contains(labels: frozenset[str], bin_label: str) -> bool:
    return bin_label in labels


class CovModel:
    """Samples observations into cocotb-coverage points and reads the hit counts back."""

    def __init__(self, points: tuple[Point, ...] = POINTS) -> None:
        n = next(_roots)
        self.root = "vta" if n == 0 else f"vta_{n}"
        self.points = points
        self._samplers: dict[str, list[Callable[[Any, VtaConfig | None], None]]] = {}
        for p in points:
            self._samplers.setdefault(p.source, []).append(self._sampler(p))

    def _sampler(self, p: Point) -> Callable[[Any, VtaConfig | None], None]:
        def xf(obs: Any, cfg: VtaConfig | None) -> frozenset[str]:
            return frozenset(p.hits(obs, cfg))

        @CoverPoint(f"{self.root}.{p.name}", xf=xf, rel=_contains, bins=list(p.bins), inj=False)
        def _cov_sample_obs(obs: Any, cfg: VtaConfig | None) -> None:
            """cocotb-coverage counts on each call of the decorated function."""

        return _cov_sample_obs

    def sample(self, source: str, obs: Any, cfg: VtaConfig | None = None) -> None:
        """Feed one observation of kind ``source`` (insn, axi, lite, cycle) to its points."""
        if source not in {p.source for p in POINTS}:
            raise ValueError(f"unknown observation source {source!r}")
        for sampler in self._samplers.get(source, ()):
            sampler(obs, cfg)

    def counts(self) -> dict[str, dict[str, int]]:
        """{coverpoint: {bin: hits}} in definition order."""
        return {p.name: {str(b): int(h) for b, h in
                         coverage_db[f"{self.root}.{p.name}"].detailed_coverage.items()}
                for p in self.points}
