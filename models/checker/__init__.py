"""Static well-formedness checker for VTA programs (spec sections 3 and 4).

Only well-formed programs have one defined result, so before a program is run on the RTL
or the golden model we decide, from the DRAM image alone, every rule of spec section 4 it
breaks and at which instruction (rule ids: :data:`models.spec.RULES`). The checker never
executes arithmetic; it derives what each instruction touches (its :class:`Footprint`,
:mod:`models.checker.footprints`) and how the three modules are ordered by dependency
tokens (:mod:`models.checker.tokens`), then checks the rules in turn
(:mod:`models.checker.rules`). The decisions taken where the spec leaves room are listed
in those modules.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from models.checker.footprints import Footprint
from models.checker.report import CheckReport, Finding, disasm
from models.checker.rules import Checker
from models.decode import DecodedProgram, decode_program, reachable
from models.dram import Dram
from models.isa import Opcode
from models.spec import RULES
from models.vector import check_insn_range

if TYPE_CHECKING:
    from models.config import VtaConfig
    from models.vector import Vector

__all__ = ["RULES", "CheckReport", "Finding", "Footprint", "check_decoded", "check_program",
           "check_vector", "findings_of", "reads_past_images"]


def check_program(cfg: "VtaConfig", dram: Dram, insn_addr: int, insn_count: int,
                  bases: dict[str, int] | None = None, *, cmd_queue_depth: int | None = None,
                  token_queue_depth: int | None = None) -> CheckReport:
    """Check every rule of spec section 4 on the program held in `dram`.

    The queue depths default to the configuration's; override them to judge the RTL build
    actually being simulated.
    """
    return check_decoded(decode_program(cfg, dram, insn_addr, insn_count), dram, bases,
                         cmd_queue_depth=cmd_queue_depth, token_queue_depth=token_queue_depth)


def check_decoded(program: DecodedProgram, dram: Dram, bases: dict[str, int] | None = None, *,
                  cmd_queue_depth: int | None = None, token_queue_depth: int | None = None) -> CheckReport:
    """:func:`check_program` on a stream already decoded in full (every reachable word, not
    only up to FINISH: ``decode_program`` without ``stop_at_finish``)."""
    if len(program.words) != reachable(program.insn_addr, program.insn_count):
        raise ValueError("the checker needs every instruction word, not only those up to FINISH")
    cfg = program.cfg
    checker = Checker(program, dram, bases or {})
    checker.check_fields()
    checker.compute_footprints()
    checker.build_ops()
    checker.check_finish()
    checker.check_tokens()
    checker.check_deadlock(cmd_queue_depth or cfg.cmd_queue_depth,
                           token_queue_depth or cfg.token_queue_depth)
    checker.check_stores_before_finish()
    checker.check_races()
    checker.check_uninitialized()
    return checker.report()


def check_vector(vector: "Vector", **kw: int | None) -> CheckReport:
    """Check the program of a test vector (its DRAM image, instruction stream and bases).

    An instruction stream that runs beyond the init images is a malformed vector, not a
    finding about the program: :class:`~models.vector.VectorError`
    (:func:`~models.vector.check_insn_range`). A LOAD reading DRAM that no image holds is
    legal and reads zeros (spec section 6); :func:`reads_past_images` names the ones that
    may be a truncated file.
    """
    check_insn_range(vector)
    return check_program(vector.config, vector.dram(), vector.insn_addr, vector.insn_count,
                         vector.bases, **kw)


def reads_past_images(vector: "Vector", report: CheckReport) -> list[str]:
    """One note per LOAD that starts reading inside an init image and runs on into bytes
    no image holds.

    Such a LOAD is legal: those bytes read as 0 (spec section 6), and a compiler may leave
    zeros out of its DRAM image on purpose. But a truncated image file reads the same way,
    so the model's command line says where it happens (a note, never an error). A LOAD
    wholly outside the images reads zeros by intent and gets no note.
    """
    cov = vector.coverage()
    notes = []
    for n, insn in enumerate(report.insns):
        reads = report.footprints[n].dram_reads
        if insn is None or insn["opcode"] != Opcode.LOAD or not reads:
            continue
        start = cov.image_at(reads[0][0])
        gap = next((g for a, ln in reads if (g := cov.first_gap(a, a + ln)) is not None), None)
        if start is None or gap is None:
            continue
        lo, hi = reads[0][0], reads[-1][0] + reads[-1][1]
        notes.append(f"{vector.manifest}: insn {n} ({disasm(vector.config, insn, 0)}) reads DRAM "
                     f"[{lo:#x}, {hi:#x}) starting inside {cov.describe(start)}, but bytes "
                     f"[{gap[0]:#x}, {gap[1]:#x}) are in no init image: they read as 0 (spec "
                     f"section 6; a truncated file would read the same)")
    return notes


def findings_of(report: CheckReport, rule: str) -> list[Finding]:
    """The findings of one rule, for callers that act on a specific problem."""
    return [f for f in report.findings if f.rule == rule]
