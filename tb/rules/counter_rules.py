"""Relations among the RTL's cycle counters that every completed program must satisfy.

The work counters (micro-ops, bytes, instructions) are predicted by the model
(models/predict.py); the cycle counters (*_BUSY, *_STALL, *_EXEC) depend on timing, so the
model cannot give their values, and a design that counts them wrongly gets every byte
right. These relations follow from how rtl/README.md ("Counter relations") defines the
counters, not from their values on any run, so they hold under every memory profile:

* GEMM_EXEC and ALU_EXEC: an instruction of n > 0 micro-ops keeps the pipeline busy for
  n * per_uop + 2 + P cycles, P the configuration's PIPE_STAGES (one micro-op per cycle,
  2 + P to drain), per_uop = 1, + 1 for an ALU with use_imm 0 (two reads of the ACC
  buffer's one port per micro-op), + min(P, 2) for an ALU MUL (its multi-cycle
  write-back); none
  for 0 (models/timing.py: ``loop_cycles``);
* per module (load, compute, store): BUSY = STALL + EXEC + 3 * INSNS, because every
  instruction spends exactly one non-waiting cycle in POP, one in EXEC after its engine is
  idle and one in PUSH (compute's EXEC is GEMM_EXEC + ALU_EXEC + CLOAD_EXEC);
* FETCH_STALL <= FETCH_BUSY <= CYCLES and FETCH_BUSY >= DISPATCHED (one dispatch a cycle);
* STORE_EXEC * bus bytes >= WR_BYTES (at most one W beat a cycle).
"""
from __future__ import annotations

from models.isa import Opcode
from models.predict import Prediction
from models.timing import TimingEstimate, loop_cycles, mul_bubbles

#: Cycles of a module's instruction in no counter but BUSY: POP, the EXEC cycle that sees
#: the engine idle, PUSH.
PHASE_CYCLES = 3
#: Cycles the GEMM/ALU pipeline needs beyond its micro-ops' cycles, without PIPE_STAGES
#: (the drain is PIPELINE_DRAIN + PIPE_STAGES).
PIPELINE_DRAIN = 2
#: The execution counters of each module.
MODULE_EXEC = {"LOAD": ("LOAD_EXEC",), "COMPUTE": ("GEMM_EXEC", "ALU_EXEC", "CLOAD_EXEC"),
               "STORE": ("STORE_EXEC",)}


def pipeline_cycles(prediction: Prediction, opcode: Opcode) -> int:
    """Expected GEMM_EXEC or ALU_EXEC: n * per_uop + 2 + P for each instruction of n > 0
    micro-ops (models/timing.py: ``uop_cycles``, ``loop_cycles``)."""
    p = prediction.vector.config.pipe_stages
    return sum(loop_cycles(i, p)
               for i, c in zip(prediction.program.insns, prediction.costs, strict=True)
               if i is not None and i["opcode"] == opcode and c.uops)


def violations(prediction: Prediction, counters: dict[str, int], cycles: int,
               bus_bytes: int) -> list[str]:
    """Every relation the counters break, one sentence each (empty: all hold)."""
    c = counters
    p = prediction.vector.config.pipe_stages
    drain = PIPELINE_DRAIN + p
    alu_rule = f" (2n + {drain} with use_imm 0, {mul_bubbles(p)} more per MUL micro-op)" if p else \
        f" (2n + {drain} with use_imm 0)"
    out = [f"{name} reads {c[name]}, but the program's {opcode.name}s of n > 0 micro-ops "
           f"take n + {drain} cycles each{alu_rule if opcode == Opcode.ALU else ''}: {want}"
           for name, opcode in (("GEMM_EXEC", Opcode.GEMM), ("ALU_EXEC", Opcode.ALU))
           if c[name] != (want := pipeline_cycles(prediction, opcode))]
    for module, execs in MODULE_EXEC.items():
        busy, stall, insns = c[f"{module}_BUSY"], c[f"{module}_STALL"], c[f"{module}_INSNS"]
        spent = stall + sum(c[e] for e in execs) + PHASE_CYCLES * insns
        if busy != spent:
            out.append(f"{module}_BUSY reads {busy}, but {module}_STALL + "
                       f"{' + '.join(execs)} + {PHASE_CYCLES} x {module}_INSNS = {spent}")
    if not c["FETCH_STALL"] <= c["FETCH_BUSY"] <= cycles:
        out.append(f"FETCH_STALL {c['FETCH_STALL']} <= FETCH_BUSY {c['FETCH_BUSY']} <= CYCLES "
                   f"{cycles} does not hold")
    if c["FETCH_BUSY"] < c["DISPATCHED"]:
        out.append(f"FETCH_BUSY reads {c['FETCH_BUSY']}, fewer cycles than the "
                   f"{c['DISPATCHED']} instructions dispatched")
    if c["STORE_EXEC"] * bus_bytes < c["WR_BYTES"]:
        out.append(f"STORE_EXEC reads {c['STORE_EXEC']}: too few cycles to write WR_BYTES "
                   f"{c['WR_BYTES']} at one {bus_bytes}-byte beat a cycle")
    return out


def timing_mismatches(estimate: TimingEstimate, counters: dict[str, int], cycles: int) -> list[str]:
    """CYCLES and every BUSY, STALL and EXEC counter against models/timing.py's estimate.

    Only for programs whose timing the model gives exactly (memory profile none, no read
    contention the model approximates): the launch flows' mixed and status-probe programs.
    A design that keeps its results but loses throughput (a FIFO slot, a beat of credit, an
    engine that emits every other cycle) shows here and nowhere else."""
    want = {"CYCLES": estimate.cycles, **estimate.exec_cycles, **estimate.busy, **estimate.stall}
    got = {"CYCLES": cycles, **counters}
    return [f"{name} reads {got[name]}, models/timing.py gives {value}"
            for name, value in want.items() if got[name] != value]
