"""The figures of one workload run, from the RTL's counters and the model's prediction.

Definitions (README "Workloads"):

* compute roof: GEMM_UOPS + ALU_UOPS cycles, plus one more per micro-op of an ALU with
  use_imm 0 and min(PIPE_STAGES, 2) more per micro-op of an ALU MUL. The compute module
  executes one micro-op per cycle, GEMM or ALU, but a two-operand ALU micro-op reads the ACC
  buffer's one port twice and a MUL leaves min(PIPE_STAGES, 2) bubbles for its multi-cycle
  write-back (rtl/README.md, "GEMM/ALU pipeline"), so the epilogue's ALU work is part of
  the compute bound;
* bandwidth roof: max(RD_BYTES, WR_BYTES) / bus bytes per cycle. AXI's read and write
  channels each move one beat per cycle at the same time, so the busier channel, not the
  sum, bounds the cycles from below (with the sum, BLOCK 32 layers "beat" the bound by up
  to 25 %);
* roofline bound: the larger of the two, and the layer is "compute" or "bandwidth" bound;
* achieved: bound / CYCLES (1.0 = at the roof); GEMM utilisation: GEMM_UOPS / CYCLES;
* where the rest goes (from the exec, busy and stall counters, in cycles): compute idle
  (CYCLES - COMPUTE_BUSY: nothing queued), compute token waits (COMPUTE_STALL),
  compute overhead (COMPUTE_BUSY - GEMM_EXEC - ALU_EXEC - CLOAD_EXEC - COMPUTE_STALL:
  instruction pops, drains and pushes), and the load and store modules' exec and waits.
"""
from __future__ import annotations

from typing import Mapping

from models.decode import DecodedProgram
from models.isa import Opcode
from models.predict import InsnCost
from models.timing import uop_cycles


def extra_uop_cycles(program: DecodedProgram, costs: list[InsnCost], pipe_stages: int) -> int:
    """Compute cycles of the program's micro-ops beyond one each (models/timing.py
    ``uop_cycles``): one more per micro-op of an ALU with use_imm 0, min(``pipe_stages``, 2)
    more per micro-op of an ALU MUL."""
    return sum(c.uops * (uop_cycles(i, pipe_stages) - 1)
               for i, c in zip(program.insns, costs, strict=True)
               if i is not None and i["opcode"] in (Opcode.GEMM, Opcode.ALU))


def roofline(cfg_bus_bytes: int, counters: Mapping[str, int], extra: int) -> dict[str, float | str]:
    """Compute roof, bandwidth roof, the bound and which one binds."""
    compute = counters["GEMM_UOPS"] + counters["ALU_UOPS"] + extra
    bandwidth = max(counters["RD_BYTES"], counters["WR_BYTES"]) / cfg_bus_bytes
    return {"compute_roof": compute, "bandwidth_roof": round(bandwidth, 1),
            "bound": max(compute, bandwidth),
            "bound_by": "compute" if compute >= bandwidth else "bandwidth"}


def losses(counters: Mapping[str, int], cycles: int) -> dict[str, int]:
    """Where the compute module's cycles go besides micro-ops, and the other modules' work."""
    busy = counters["COMPUTE_BUSY"]
    work = counters["GEMM_EXEC"] + counters["ALU_EXEC"] + counters["CLOAD_EXEC"]
    return {"compute_idle": cycles - busy,
            "compute_token_wait": counters["COMPUTE_STALL"],
            "compute_overhead": busy - work - counters["COMPUTE_STALL"],
            "load_exec": counters["LOAD_EXEC"], "load_token_wait": counters["LOAD_STALL"],
            "store_exec": counters["STORE_EXEC"], "store_token_wait": counters["STORE_STALL"]}


def figures(bus_bytes: int, counters: Mapping[str, int], cycles: int,
            extra: int) -> dict[str, float | str | int]:
    """Every figure of one run (RTL counters or a prediction); ``extra`` is
    :func:`extra_uop_cycles` of its program."""
    roof = roofline(bus_bytes, counters, extra)
    out: dict[str, float | str | int] = dict(roof)
    out["cycles"] = cycles
    out["dram_bytes"] = counters["RD_BYTES"] + counters["WR_BYTES"]
    out["gemm_utilisation"] = round(counters["GEMM_UOPS"] / cycles, 4)
    out["achieved"] = round(float(roof["bound"]) / cycles, 4)
    return out
