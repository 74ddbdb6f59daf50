"""Backpressure and response-latency profiles of the memory agent.

A profile gives each AXI channel of the memory slave a cocotbext-axi pause generator
(one bool per clock: True = hold ready low on AW/W/AR, or hold back the response on
B/R, which is how response latency is modelled). Generators are seeded from the job's
seed and the channel name, so a failing run replays cycle for cycle.

* none:   ready always high, responses as fast as the slave model goes;
* light:  each channel stalls on ~10 % of cycles, independently;
* heavy:  ready stalls ~50 %, responses wait in runs of up to 24 cycles (~60 % stalled);
* bursty: long stall windows (8..64 cycles) alternating with free-running windows.
"""
from __future__ import annotations

import itertools
import random
from typing import Iterator

PROFILES = ("none", "light", "heavy", "bursty")
READY_CHANNELS = ("aw", "w", "ar")
RESPONSE_CHANNELS = ("b", "r")
CHANNELS = READY_CHANNELS + RESPONSE_CHANNELS

#: Worst-case slowdown of a profile relative to "none", used by the watchdog bound.
SLOWDOWN = {"none": 1, "light": 2, "heavy": 8, "bursty": 6}


def _random(rng: random.Random, p: float) -> Iterator[bool]:
    while True:
        yield rng.random() < p


def _runs(rng: random.Random, stall: tuple[int, int], free: tuple[int, int]) -> Iterator[bool]:
    while True:
        yield from itertools.repeat(True, rng.randint(*stall))
        yield from itertools.repeat(False, rng.randint(*free))


def _make(profile: str, channel: str, rng: random.Random) -> Iterator[bool] | None:
    if profile == "none":
        return None
    if profile == "light":
        return _random(rng, 0.1)
    if profile == "heavy":
        return _random(rng, 0.5) if channel in READY_CHANNELS else _runs(rng, (0, 24), (1, 12))
    if profile == "bursty":
        return _runs(rng, (8, 64), (16, 96))
    raise ValueError(f"unknown backpressure profile {profile!r} (one of {', '.join(PROFILES)})")


def pause_generators(profile: str, seed: int) -> dict[str, Iterator[bool] | None]:
    """Generator per channel ('aw', 'w', 'b', 'ar', 'r'); None where the channel never stalls."""
    return {ch: _make(profile, ch, random.Random(f"{seed}:{profile}:{ch}")) for ch in CHANNELS}


def check_profile(name: str) -> str:
    """Validate a profile name for command-line use."""
    if name not in PROFILES:
        raise ValueError(f"unknown backpressure profile {name!r} (one of {', '.join(PROFILES)})")
    return name

