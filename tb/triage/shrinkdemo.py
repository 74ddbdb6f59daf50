"""A failure made on purpose, for the shrinker's test and the README's figure.

The RTL built with the test-only define VTA_TEST_BREAK_ALU_MAX (rtl/README.md) returns the
smaller operand for ALU MAX. A random program of a few tens of instructions with an ALU MAX
then fails on the scoreboard, and its saved failure directory is what a real regression
leaves behind: ``python -m tb.triage.shrink --demo`` and tb/tests/test_shrink.py shrink it.
"""
from __future__ import annotations

import os
from pathlib import Path

from models.gen import generate
from models.isa import AluOp, Opcode
from models.spec.configs import load_config
from tb.launch.launch import run_plan
from tb.launch.simbuild import DEFINES_VAR
from tb.plan.jobs import Job
from tb.triage.progedit import Program

BREAK = "VTA_TEST_BREAK_ALU_MAX"
CONFIG = "small"
#: Instructions of the demo program: large enough that shrinking has work to do.
INSNS = (50, 100)
TRIES = 200  # seeds looked at for such a program
RUN = 4  # of which at most this many are simulated to find one that fails


class DemoError(ValueError):
    """No seed gave a failing program (the message says which were tried)."""


def demo_seeds(seed: int) -> list[int]:
    """Seeds from ``seed`` on whose program (configuration small) has INSNS instructions and
    an ALU MAX, at most RUN of them."""
    cfg, out = load_config(CONFIG), []
    for s in range(seed, seed + TRIES):
        v = generate(s, cfg)
        if not INSNS[0] <= v.insn_count <= INSNS[1]:
            continue
        if any(i["opcode"] == Opcode.ALU and i["alu_opcode"] == AluOp.MAX
               for i in Program.from_vector(v).insns):
            out.append(s)
            if len(out) == RUN:
                break
    return out


def demo_failure(seed: int, sim: str = "icarus", mode: str = "fast") -> Path:
    """Build the broken RTL (VTA_DEFINES set for this process), run demo programs and return
    the saved failure directory of the first that fails."""
    os.environ[DEFINES_VAR] = BREAK
    seeds = demo_seeds(seed)
    jobs = [Job(f"demo-s{s}", seed=s) for s in seeds]
    records = run_plan(sim, CONFIG, jobs, f"demo-{os.getpid()}", False, mode=mode) if jobs else []
    for r in records:
        if not r["passed"] and r.get("saved"):
            print(f"[demo] {r['job']} fails on the broken RTL ({BREAK}): {r['saved']}")
            return Path(r["saved"])
    raise DemoError(f"no program of seeds {seeds or 'none'} (from {seed}) fails on the RTL built "
                    f"with {BREAK}")
