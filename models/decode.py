"""Instruction fetch: the one decoder of a program's instruction stream.

Checker, executor, statistics and prediction all start from the same words, so they read
and decode them here, once: :func:`decode_program` returns every word that lies below 4 GiB
with its decoded fields (None for an undecodable opcode 5..7) and the module fetch
dispatches it to. Judging the stream (a missing FINISH, an illegal opcode, a stream that
runs past 4 GiB) is left to the callers, which differ in how they report it.
"""
from __future__ import annotations

from dataclasses import dataclass

from models.config import VtaConfig
from models.dram import ADDR_LIMIT, Dram
from models.isa import Insn, Opcode, decode_insn
from models.spec import module_of
from models.widths import INSN_BYTES

#: Instructions read per DRAM access when decoding stops at the first FINISH.
BATCH = 4096


@dataclass
class DecodedProgram:
    """The instruction stream of one program as fetch sees it.

    ``words`` holds the raw 128-bit words that lie below 4 GiB (``insn_count`` of them
    unless the stream runs past 4 GiB, or fewer when decoding stopped at FINISH);
    ``insns[n]`` is word n decoded, None when its opcode is 5..7; ``modules[n]`` the module
    fetch dispatches it to (compute for an undecodable word, as in the RTL).
    """

    cfg: VtaConfig
    insn_addr: int
    insn_count: int
    words: list[int]
    insns: list[Insn | None]
    modules: list[str]


def reachable(insn_addr: int, insn_count: int) -> int:
    """How many of insn_count instructions from insn_addr lie below 4 GiB."""
    room = (ADDR_LIMIT - insn_addr) // INSN_BYTES if insn_addr >= 0 else 0
    return max(0, min(insn_count, room))


def decode_program(cfg: VtaConfig, dram: Dram, insn_addr: int, insn_count: int, *,
                   stop_at_finish: bool = False) -> DecodedProgram:
    """Read and decode the stream word by word, so one bad opcode spoils nothing else.

    With stop_at_finish, words after the first FINISH are neither read nor decoded (the
    executor's view: FINISH completes the program), which keeps a huge insn_count cheap.
    """
    fit = reachable(insn_addr, insn_count)
    program = DecodedProgram(cfg, insn_addr, insn_count, [], [], [])
    step = BATCH if stop_at_finish else max(fit, 1)
    for first in range(0, fit, step):
        count = min(step, fit - first)
        raw = dram.read_bytes(insn_addr + first * INSN_BYTES, count * INSN_BYTES)
        for n in range(count):
            word = int.from_bytes(raw[INSN_BYTES * n:INSN_BYTES * (n + 1)], "little")
            insn = decode_insn(cfg, word) if word & 7 <= Opcode.ALU else None
            program.words.append(word)
            program.insns.append(insn)
            program.modules.append("compute" if insn is None else module_of(insn))
            if stop_at_finish and insn is not None and insn["opcode"] == Opcode.FINISH:
                return program
    return program
