"""The virtual sequence a job of each kind runs (jobs.JOB_KINDS), inside the simulator.

The test registry (tb/plan/registry.py) says which jobs each test makes and imports nothing
of cocotb; this table, read by the cocotb test (tb/uvm/cocotb_plan.py), says what runs them.
A sequence is constructed as ``Sequence(name, env, job, vector, plan)`` (``vector`` is None
for a kind without a program).
"""
from __future__ import annotations

from typing import Any

from tb.uvm.seq_lib.hostvar import HostTimingVseq
from tb.uvm.seq_lib.regmap_flow import RegMapVseq
from tb.uvm.seq_lib.reset_mid import ResetMidVseq
from tb.uvm.seq_lib.vseq import RunProgramVseq

SEQUENCES: dict[str, Any] = {
    "program": RunProgramVseq,
    "regmap": RegMapVseq,
    "host-timing": HostTimingVseq,
    "reset-mid": ResetMidVseq,
}
