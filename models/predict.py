"""One prediction step: everything the testbench expects of one program, from one decode.

Before a program runs on the RTL the testbench needs the checker's verdict and footprints
(well-formedness, stray writes), the golden model's result (the expected DRAM), the work
each instruction asks for (watchdog bounds, coverage, performance figures) and the values
the RTL's counters must show at DONE. :func:`predict` reads the vector's DRAM image and
decodes its instruction stream once, and hands that one decoded program to the checker and
the executor, so they cannot disagree about what the program is.

Counters (rtl/README.md, register map and "Queues, tokens and flow control"), predicted
for a well-formed program, which completes with every instruction done:

* GEMM_UOPS, ALU_UOPS: iter_out * iter_in * (uop_end - uop_bgn) summed over the GEMMs
  (reset ones included) and over the ALUs;
* WR_BYTES: y_size * x_size * OUT element bytes summed over the STOREs (x_size 0: none);
* RD_BYTES: whole bus beats received. Fetch reads the stream as one row of
  16 * INSN_COUNT bytes from INSN_ADDR; a LOAD of a legal memory type with x_size > 0 reads
  each of its y_size rows as the bus-aligned beats covering it; pads need no DRAM data;
* DISPATCHED: INSN_COUNT; LOAD_INSNS / COMPUTE_INSNS / STORE_INSNS: the instructions
  routed to each module (:func:`models.spec.module_of`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.checker import CheckReport, check_decoded
from models.config import VtaConfig
from models.decode import DecodedProgram, decode_program
from models.executor import ExecResult, ProgramError, executable, execute_program, written_images
from models.isa import Insn, MemType, Opcode
from models.spec import MEMORY, MODULES, loads_nothing
from models.vector import Image, Vector, check_insn_range
from models.widths import INSN_BYTES

#: The RTL counters predicted (tb/rules/regs.py: COUNTERS names them all).
COUNTERS = ("GEMM_UOPS", "ALU_UOPS", "RD_BYTES", "WR_BYTES", "DISPATCHED", "LOAD_INSNS",
            "COMPUTE_INSNS", "STORE_INSNS")


@dataclass(frozen=True)
class InsnCost:
    """The work one instruction asks for."""

    dram_read: int = 0     # bytes of the DRAM rows a LOAD reads (pads excluded)
    bus_read: int = 0      # bytes of the whole bus beats those rows take on the read channel
    dram_written: int = 0  # bytes a STORE writes
    uops: int = 0          # micro-ops a GEMM/ALU executes (iterations x micro-op range)


@dataclass
class Prediction:
    """What one vector's program must do: the checker's report, the executor's result, costs.

    ``expect`` is the vector's own expectation, else the bytes the executor's STOREs leave
    (None when there is neither: the executor stopped with ``error``). ``counters`` holds
    the RTL counter values at DONE (:data:`COUNTERS`) for a well-formed program, else None.
    """

    vector: Vector
    program: DecodedProgram
    report: CheckReport
    expect: list[Image] | None
    result: ExecResult | None
    error: ProgramError | None
    costs: list[InsnCost]
    counters: dict[str, int] | None

    @property
    def insns(self) -> list[Insn]:
        """Every decodable instruction word, in program order."""
        return [i for i in self.program.insns if i is not None]


def predict(vector: Vector, accept: tuple[str, ...] = ()) -> Prediction:
    """Check, run and cost a vector's program from one read of its DRAM image and one decode.

    ``accept`` names checker rules the program breaks on purpose (a flow that shows what the
    RTL documents for such a program, e.g. its illegal opcodes or tokens left at the end):
    with only those findings the counters are still predicted, since every instruction
    completes. Raises :class:`~models.vector.VectorError` where
    :func:`models.checker.check_vector` does (an instruction stream running beyond the init
    images); a LOAD reading DRAM no image holds reads zeros (spec section 6), as in the
    executor and the testbench's memories.
    """
    check_insn_range(vector)
    cfg, dram = vector.config, vector.dram()
    program = decode_program(cfg, dram, vector.insn_addr, vector.insn_count)
    report = check_decoded(program, dram, vector.bases)
    result, error = None, None
    try:
        result = execute_program(cfg, dram, executable(program), vector.bases)
    except ProgramError as exc:
        error = exc
    expect = vector.expect if vector.expect is not None else (
        written_images(result) if result is not None else None)
    costs = [insn_cost(cfg, insn, vector.bases) if insn is not None else InsnCost()
             for insn in program.insns]
    accepted = all(f.rule in accept for f in report.findings)
    counters = rtl_counters(program, costs, cfg.bus_bytes) if accepted else None
    return Prediction(vector, program, report, expect, result, error, costs, counters)


def bus_bytes(addrs: np.ndarray, length: int, bus: int) -> int:
    """Bytes of the bus-aligned beats covering rows of ``length`` bytes from each address."""
    if length <= 0 or addrs.size == 0:
        return 0
    beats = (addrs + length + bus - 1) // bus - addrs // bus
    return int(beats.sum()) * bus


def insn_cost(cfg: VtaConfig, insn: Insn, bases: dict[str, int]) -> InsnCost:
    """The DRAM bytes and micro-ops of one instruction, as the RTL moves and executes them."""
    op = insn["opcode"]
    if op in (Opcode.GEMM, Opcode.ALU):
        return InsnCost(uops=insn["iter_out"] * insn["iter_in"] * max(0, insn["uop_end"] - insn["uop_bgn"]))
    if op not in (Opcode.LOAD, Opcode.STORE) or insn["x_size"] == 0:
        return InsnCost()
    if op == Opcode.STORE:  # the store module ignores memory_type and pads
        return InsnCost(dram_written=insn["y_size"] * insn["x_size"] * cfg.out_bytes)
    if loads_nothing(insn):  # executed as a no-op
        return InsnCost()
    mt = insn["memory_type"]
    info = MEMORY[MemType(mt)]
    elem = info.elem_bytes(cfg)
    rows = bases.get(info.base, 0) + (insn["dram_base"]
                                      + np.arange(insn["y_size"], dtype=np.int64) * insn["x_stride"]) * elem
    length = insn["x_size"] * elem
    return InsnCost(dram_read=insn["y_size"] * length, bus_read=bus_bytes(rows, length, cfg.bus_bytes))


def rtl_counters(program: DecodedProgram, costs: list[InsnCost], bus: int) -> dict[str, int]:
    """The RTL's counters after DONE for a program that completes every instruction."""
    def uops(opcode: Opcode) -> int:
        return sum(c.uops for i, c in zip(program.insns, costs, strict=True)
                   if i is not None and i["opcode"] == opcode)
    fetch = bus_bytes(np.array([program.insn_addr], dtype=np.int64), INSN_BYTES * program.insn_count, bus)
    counters = {"GEMM_UOPS": uops(Opcode.GEMM), "ALU_UOPS": uops(Opcode.ALU),
                "RD_BYTES": fetch + sum(c.bus_read for c in costs),
                "WR_BYTES": sum(c.dram_written for c in costs),
                "DISPATCHED": program.insn_count}
    counters.update({f"{m.upper()}_INSNS": program.modules.count(m) for m in MODULES})
    return counters
