"""The parts a synthesis result is judged against: capacity, and the share of it a design may use.

Issue 24 asks whether a configuration fits the FPGA the VTA paper runs it on with room for a
shell (the host interface, DMA and clocking that a board design adds around the core), so a
part has a budget per resource below 100 %. Block RAM is counted in 36 Kbit blocks: a
RAMB18E1 is half a RAMB36E1 (a Zynq-7020 has 140 RAMB36 = 280 RAMB18), and an ECP5 DP16KD is
one 18 Kbit block. Capacities are the vendors' data-sheet figures.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: How many of a part's block-RAM units one primitive takes.
BRAM_UNITS: dict[str, float] = {"RAMB36E1": 1.0, "RAMB18E1": 0.5, "DP16KD": 1.0}
#: LUTs a Xilinx distributed-RAM or shift-register primitive occupies: a 7-series part's LUT
#: count includes the LUTs used as memory, so they count against it (UG474, SLICEM).
LUTRAM_LUTS: dict[str, int] = {"RAM32M": 4, "RAM64M": 4, "RAM32X1D": 2, "RAM64X1D": 2,
                               "RAM128X1D": 4, "RAM32X1S": 1, "RAM64X1S": 1, "RAM128X1S": 2,
                               "SRL16E": 1, "SRLC32E": 1}


@dataclass(frozen=True)
class Part:
    """A device of one synthesis target: capacity and budget (fraction) per resource."""

    name: str
    target: str
    capacity: dict[str, int]
    budget: dict[str, float]
    #: what a block-RAM unit is on this part (for the line printed)
    bram_unit: str

    def usage(self, doc: dict[str, Any]) -> dict[str, float]:
        """The resources a synthesis result (resources.json) takes of this part: block RAM
        in the part's units, LUTs with those used as distributed RAM."""
        totals = doc["total"]["resources"]
        used: dict[str, float] = {r: float(totals.get(r) or 0) for r in self.capacity if r != "bram"}
        cells = doc["total"]["cells"]
        used["lut"] += sum(LUTRAM_LUTS.get(cell, 0) * n for cell, n in cells.items())
        used["bram"] = sum(BRAM_UNITS.get(cell, 0.0) * n for cell, n in cells.items())
        return used

    def verdict(self, doc: dict[str, Any]) -> dict[str, Any]:
        """Per resource: used, capacity, share and budget; and whether every share is within
        its budget."""
        used = self.usage(doc)
        rows = {r: {"used": used[r], "capacity": cap, "share": used[r] / cap, "budget": self.budget[r]}
                for r, cap in self.capacity.items()}
        return {"part": self.name, "rows": rows,
                "fits": all(row["share"] <= row["budget"] for row in rows.values())}


PARTS: dict[str, Part] = {
    # the Pynq's Zynq-7020 (upstream's pynq_sample.json): 80 % of the LUTs, 90 % of the block
    # RAM and every DSP for the core, the rest for the shell (issue 24, point 3)
    "xc7z020": Part("xc7z020 (Zynq-7020)", "xilinx",
                    {"lut": 53_200, "ff": 106_400, "bram": 140, "dsp": 220},
                    {"lut": 0.80, "ff": 0.80, "bram": 0.90, "dsp": 1.00}, "RAMB36"),
    # the part make timing places and routes on; the whole part for the core
    "LFE5UM5G-85F": Part("LFE5UM5G-85F (ECP5-85)", "ecp5",
                         {"lut": 83_640, "ff": 83_640, "bram": 208, "dsp": 156},
                         {"lut": 1.0, "ff": 1.0, "bram": 1.0, "dsp": 1.0}, "DP16KD"),
}


def parts_of(target: str) -> list[Part]:
    """The parts a target's results are judged against (none for the generic netlist)."""
    return [p for p in PARTS.values() if p.target == target]


def _number(x: float) -> str:
    """A count as printed: whole numbers without a fraction (half RAMB36s keep theirs)."""
    return f"{x:,.0f}" if x == int(x) else f"{x:,.1f}"


def fit_lines(doc: dict[str, Any]) -> list[str]:
    """One line per part: each resource as used / capacity (share, budget), then the verdict."""
    out = []
    for part in parts_of(doc["target"]):
        v = part.verdict(doc)
        shares = ", ".join(
            f"{part.bram_unit if r == 'bram' else r.upper()} {_number(row['used'])}/{row['capacity']:,} "
            f"({100 * row['share']:.1f} % of {100 * row['budget']:.0f} %)"
            for r, row in v["rows"].items())
        out.append(f"fits {v['part']}: {'yes' if v['fits'] else 'NO'} ({shares})")
    return out
