"""The knobs of `make timing` (SEED, FREQ; PART in tb/timing/parts.py), each checked before
anything runs, so a bad value costs one line and exit status 2, not a minute of synthesis
followed by a nextpnr usage message."""
from __future__ import annotations

import re

#: nextpnr reads --seed as a C++ int
SEED_MAX = 2**31 - 1
#: the fixed default seed, so that two runs of the same design give the same figures
DEFAULT_SEED = 1
#: the default constraint (MHz): above what `small` reaches (about 56 MHz), as usual when
#: measuring fmax: the timing-driven placer and router weight each net by its slack against it
DEFAULT_FREQ = 100.0
#: more than this is a typo: ECP5 fabric logic runs at a few hundred MHz at most
FREQ_MAX = 1000.0
NUMBER = re.compile(r"^\d+(\.\d+)?$")


class KnobError(ValueError):
    """A knob's value is unusable; the message names the knob, the value and the rule."""


def parse_seed(text: str) -> int:
    """SEED: an integer 0..SEED_MAX."""
    if not text.strip().isdigit() or int(text) > SEED_MAX:
        raise KnobError(f"SEED={text}: must be an integer from 0 to {SEED_MAX} "
                        "(nextpnr's --seed is a 32-bit int)")
    return int(text)


def parse_freq(text: str) -> float:
    """FREQ: the constraint in MHz, above 0 and at most FREQ_MAX."""
    if not NUMBER.match(text.strip()) or not 0 < float(text) <= FREQ_MAX:
        raise KnobError(f"FREQ={text}: must be a clock constraint in MHz, above 0 and at most {FREQ_MAX:g}")
    return float(text)
