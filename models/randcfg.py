"""Random VTA configurations: ``random:SEED`` wherever a configuration is accepted.

The RTL takes any configuration :class:`models.config.VtaConfig` accepts, but a regression
on the three shipped ones never sees BLOCK 2 or 8, BATCH 4 or 8, a 32- or 512-bit bus or
queues of depth 1-3. :func:`sample_config` draws one from a seed, within the ranges below:

* BLOCK 2..32, each value equally likely, and BATCH 1..8, equally likely among the values
  that keep at most ``MAX_MACS`` multipliers in the GEMM core (BATCH x BLOCK x BLOCK): the
  core is what makes a Verilator build slow (1,024 of them build in about 40 s on the
  2-core machine, 256 in about 25 s), so BLOCK 32 comes only with BATCH 1 and BATCH 8 with
  BLOCK up to 8;
* buffer depths (not byte sizes) of 2^LOG_DEPTHS entries: small, so a random program's
  windows and slots often reach entry 0 and the last entry, and the instruction still fits
  its 128 bits (ACC 2^10, INP 2^10 and WGT 2^9 at most keep a GEMM's six factor fields,
  2A + 2I + 2W bits, and an ALU's four plus its 20-bit tail within a 64-bit word);
* LOG_BUS_WIDTH 5..9 (32..512-bit AXI), command and token queue depths from QUEUE_DEPTHS,
  PIPE_STAGES 0..3 (drawn last, so the keys above are the draws they were before it).

Widths stay at 8/8/32 (the only ones models/config.py accepts). A draw is a pure function
of the seed (``random.Random`` seeded with a string, never hash order or time), so
``random:SEED`` names one configuration for good; every draw is validated by VtaConfig.
"""
from __future__ import annotations

import random

from models.config import RANGES, ConfigError, VtaConfig

#: Multipliers of the GEMM core (BATCH * BLOCK * BLOCK) a sampled configuration may have.
MAX_MACS = 1024
#: log2 of the entries of each buffer, inclusive ranges.
LOG_DEPTHS = {"UOP": (4, 11), "INP": (4, 10), "WGT": (3, 9), "ACC": (4, 10)}
#: Command queue and token counter depths drawn from (1 and 2 are where deadlock rules bite).
QUEUE_DEPTHS = (1, 2, 3, 4, 6, 8, 12, 16)
PREFIX = "random:"
#: Seeds of ``random:SEED``: as any seed of the suite (models/argtypes.py).
SEED_LIMIT = 1 << 64


def _log2(n: int) -> int:
    return n.bit_length() - 1


def sample_values(seed: int) -> dict[str, int]:
    """The configuration keys of random configuration ``seed`` (see the module docstring)."""
    rng = random.Random(f"vta-config-{seed}")
    log_block = rng.randint(1, 5)
    log_batch = rng.choice([b for b in range(4) if (1 << b) << (2 * log_block) <= MAX_MACS])
    batch, block = 1 << log_batch, 1 << log_block
    elem = {"UOP": 4, "INP": batch * block, "WGT": block * block, "ACC": batch * block * 4}
    values = {"LOG_BATCH": log_batch, "LOG_BLOCK": log_block}
    for buf, (lo, hi) in LOG_DEPTHS.items():
        key = f"LOG_{buf}_BUFF_SIZE"
        values[key] = max(rng.randint(lo, hi) + _log2(elem[buf]), RANGES[key][0])
    values["LOG_BUS_WIDTH"] = rng.randint(RANGES["LOG_BUS_WIDTH"][0], RANGES["LOG_BUS_WIDTH"][1])
    values["CMD_QUEUE_DEPTH"] = rng.choice(QUEUE_DEPTHS)
    values["TOKEN_QUEUE_DEPTH"] = rng.choice(QUEUE_DEPTHS)
    values["PIPE_STAGES"] = rng.randint(RANGES["PIPE_STAGES"][0], RANGES["PIPE_STAGES"][1])
    return values


def sample_config(seed: int) -> VtaConfig:
    """Random configuration ``seed``, validated, with ``random:SEED`` as its source."""
    if not 0 <= seed < SEED_LIMIT:
        raise ConfigError(f"'{PREFIX}{seed}': the seed of a random configuration must be "
                          f"0 .. 2^64-1")
    return VtaConfig.from_dict(sample_values(seed), f"{PREFIX}{seed}")


def parse(text: str) -> VtaConfig:
    """The configuration named ``random:SEED``; anything else after the prefix is an error."""
    digits = text[len(PREFIX):]
    if not digits.isdigit() or not digits.isascii():
        raise ConfigError(f"{text!r}: a random configuration is 'random:SEED' with SEED a "
                          f"non-negative decimal integer")
    if len(digits) > 20:
        raise ConfigError(f"{text[:32]!r}...: the seed of a random configuration must be 0 .. 2^64-1")
    return sample_config(int(digits))
