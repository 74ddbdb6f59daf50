"""Choosing which mutants to run: a reproducible sample spread over the modules.

A module gets a share of the N mutants in proportion to its number of sites (largest-remainder
apportionment, never more than it has), so the score weighs each module by how much logic it
has rather than by how many mutants chance gave it. Within a module the sites are drawn by a
random generator seeded with SEED and the module's name: adding a module or changing another
one's share does not change which sites this one gets. The run order is shuffled by SEED so
that partial progress already covers every module.
"""
from __future__ import annotations

import random
from collections import defaultdict

from tb.mutate.sites import Site


class SampleError(ValueError):
    """A sample that cannot be drawn (the message names the knob)."""


def allocate(n: int, sizes: dict[str, int]) -> dict[str, int]:
    """Split n over the keys in proportion to sizes (largest remainders, ties by name),
    capping each at its size; n beyond the total gives every key its size."""
    left = {k: v for k, v in sizes.items() if v > 0}
    share = {k: 0 for k in sizes}
    remaining = min(n, sum(left.values()))
    while remaining and left:
        total = sum(left.values())
        exact = {k: remaining * v / total for k, v in left.items()}
        got = {k: min(int(q), left[k]) for k, q in exact.items()}
        rest = remaining - sum(got.values())
        order = sorted(left, key=lambda k: (-(exact[k] - int(exact[k])), k))
        for k in order:
            if rest == 0:
                break
            if got[k] < left[k]:
                got[k] += 1
                rest -= 1
        for k, g in got.items():
            share[k] += g
            left[k] -= g
            remaining -= g
        left = {k: v for k, v in left.items() if v > 0}
    return share


def by_module(sites: list[Site]) -> dict[str, list[Site]]:
    groups: dict[str, list[Site]] = defaultdict(list)
    for s in sites:
        groups[s.module].append(s)
    return dict(groups)


def restrict(sites: list[Site], modules: list[str] | None) -> list[Site]:
    """The sites of the named modules (an unknown name is an error naming the known ones)."""
    if not modules:
        return sites
    known = sorted({s.module for s in sites})
    unknown = [m for m in modules if m not in known]
    if unknown:
        raise SampleError(f"--modules {','.join(unknown)}: no such module in the design "
                          f"(modules: {','.join(known)})")
    return [s for s in sites if s.module in modules]


def sample(sites: list[Site], n: int, seed: int, modules: list[str] | None = None) -> list[Site]:
    """N sites spread over the (chosen) modules in proportion to their sites, shuffled."""
    if n < 1:
        raise SampleError(f"--n {n}: must be 1 or more")
    groups = by_module(restrict(sites, modules))
    shares = allocate(n, {m: len(g) for m, g in groups.items()})
    chosen: list[Site] = []
    for module in sorted(groups):
        rng = random.Random(f"{seed}/{module}")
        chosen += rng.sample(groups[module], shares[module])
    random.Random(seed).shuffle(chosen)
    return chosen


def pick(sites: list[Site], ids: list[str]) -> list[Site]:
    """The sites with these ids, in that order (an unknown id is an error)."""
    by_id = {s.id: s for s in sites}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise SampleError(f"--ids {missing[0]}: no such mutant (ids look like "
                          f"'vta_token:30:45:arithmetic:-'; `--list` prints them)")
    return [by_id[i] for i in ids]
