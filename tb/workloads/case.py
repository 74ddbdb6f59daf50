"""One case of `make workloads`: a (configuration, layer, vt) with its lowering, prediction
and RTL result. The runner (run.py) fills cases, the report (report.py) and the hardware
figures read them; the record sits apart from both so that neither imports the other."""
from __future__ import annotations

from dataclasses import dataclass, field

from tb.plan.dutmap import NATIVE, is_native


@dataclass
class Case:
    """One (configuration, layer, vt): its lowering, prediction and RTL result."""

    config: str
    layer: str
    vt: int
    description: str = ""
    tiling: dict = field(default_factory=dict)
    insns: int = 0
    predicted: dict = field(default_factory=dict)
    measured: dict = field(default_factory=dict)
    passed: bool = False
    failure: str = ""
    error: str = ""  # why it never ran: its lowering or its vector refused (an ERROR row)
    excluded: str = ""
    vector: str = ""
    wall: float = 0.0
    dut: str = NATIVE
    extra_cycles: int = 0  # micro-op cycles beyond one each (figures.extra_uop_cycles)

    def repro(self, sim: str) -> str:
        """The command that runs this program alone (the vector carries its configuration)."""
        if not self.vector:
            return ""
        dut = "" if is_native(self.dut) else f" --dut {self.dut}"
        return f"python -m tb.run --sim {sim} --mode fast --vector {self.vector}{dut}"
