"""Synthesis targets: the Yosys commands of each, and which of its cells count as which resource.

Each target keeps the hierarchy (no flattening) so that `stat` can report every module; the
numbers are therefore without cross-module optimisation, a little above a flattened run's.
A resource class a target has no primitive for (carry chains, block RAM and DSPs of the
generic netlist) has no patterns and is shown as "-", not as a misleading 0.
"""
from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase

#: Resource classes in table order: key -> column header.
RESOURCES: dict[str, str] = {
    "lut": "LUT",
    "ff": "FF",
    "carry": "carry",
    "bram": "BRAM",
    "dsp": "DSP",
    "lutram": "LUTRAM",
    "memory": "MEM",
}


@dataclass(frozen=True)
class Target:
    """A synthesis target: the commands after elaboration and the cell types of each resource."""

    name: str
    description: str
    commands: tuple[str, ...]   # with {top} for the top module
    #: resource key -> cell-type patterns (fnmatch, case-sensitive); absent: not applicable
    cells: dict[str, tuple[str, ...]]

    def classify(self, cell_type: str) -> str | None:
        """The resource a cell type counts as, or None (muxes, buffers, ...)."""
        for resource, patterns in self.cells.items():
            if any(fnmatchcase(cell_type, p) for p in patterns):
                return resource
        return None

    def script(self, top: str) -> list[str]:
        """The commands for a design whose top is ``top``."""
        return [c.format(top=top) for c in self.commands]

    def columns(self) -> list[str]:
        """The resource keys shown for this target: the five common ones always, the
        distributed-RAM and unmapped-memory columns only where the target has them."""
        return [r for r in RESOURCES if r in ("lut", "ff", "carry", "bram", "dsp") or r in self.cells]


TARGETS: dict[str, Target] = {
    "xilinx": Target(
        "xilinx", "Xilinx 7-series (synth_xilinx; no I/O buffers: the accelerator is a core)",
        ("synth_xilinx -top {top} -noiopad",),
        {"lut": ("LUT[1-6]", "LUT6_2"), "ff": ("FD[CPRS]E",), "carry": ("CARRY4", "CARRY8"),
         "bram": ("RAMB18E1", "RAMB36E1"), "dsp": ("DSP48E1",),
         "lutram": ("RAM32M", "RAM64M", "RAM32X1D", "RAM64X1D", "RAM128X1D", "RAM*X1S",
                    "SRL16E", "SRLC32E")}),
    "ecp5": Target(
        "ecp5", "Lattice ECP5 (synth_ecp5 -noflatten, so that every module is reported)",
        ("synth_ecp5 -top {top} -noflatten",),
        {"lut": ("LUT4",), "ff": ("TRELLIS_FF",), "carry": ("CCU2C",), "bram": ("DP16KD",),
         "dsp": ("MULT18X18D", "ALU54B"), "lutram": ("TRELLIS_DPR16X4",)}),
    # The coarse part of `synth`, then its fine part without memory_map: memories stay
    # $mem_v2 cells (counted as MEM) instead of becoming thousands of flip-flops.
    "generic": Target(
        "generic", "technology-independent 4-LUT netlist, memories left unmapped (synth -lut 4)",
        ("synth -top {top} -lut 4 -run :fine", "opt -fast -full", "techmap", "opt -fast",
         "abc -lut 4", "opt -fast"),
        {"lut": ("$lut",), "ff": ("$_*DFF*_", "$_DLATCH*_"), "memory": ("$mem_v2",)}),
}
