"""Hand-built programs the runner needs besides directed and random vectors.

The deadlock program feeds the watchdog's negative test: a STORE pops a C2S token that
no instruction pushes, and FINISH waits for the S2C token that STORE would push, so a
correct RTL hangs with store waiting for C2S and compute (on FINISH) waiting for S2C.
The empty program feeds the scoreboard's "compared zero bytes" negative test. The
tokens-left program feeds the register-map flow's check that an accepted START empties
the token counters (tb/uvm/seq_lib/start_clears.py: StartClearsVseq).
"""
from __future__ import annotations

from pathlib import Path

from models.config import VtaConfig
from models.isa import MemType, Opcode, insns_to_bytes
from models.vector import Image, Vector, save_vector

INSN_ADDR, ACC_BASE, OUT_BASE = 0x1000, 0x2000, 0x3000


def deadlock_vector(cfg: VtaConfig) -> Vector:
    tile = {"sram_base": 0, "dram_base": 0, "y_size": 1, "x_size": 1, "x_stride": 1}
    insns = [
        {"opcode": Opcode.LOAD, "memory_type": MemType.ACC, **tile},
        {"opcode": Opcode.STORE, "memory_type": MemType.OUT, "pop_prev_dep": 1,
         "push_prev_dep": 1, **tile},
        {"opcode": Opcode.FINISH, "pop_next_dep": 1},
    ]
    init = [Image(INSN_ADDR, insns_to_bytes(cfg, insns), "insn.bin"),
            Image(ACC_BASE, bytes(range(cfg.acc_bytes)), "acc.bin")]
    bases = {"uop": 0, "inp": 0, "wgt": 0, "acc": ACC_BASE, "out": OUT_BASE}
    return Vector(cfg, INSN_ADDR, len(insns), init, None, bases,
                  "deadlock: STORE pops a C2S token nobody pushes; FINISH waits for S2C")


def write_deadlock_vector(cfg: VtaConfig, directory: Path) -> Path:
    return save_vector(deadlock_vector(cfg), directory)


def empty_vector(cfg: VtaConfig) -> Vector:
    """FINISH alone with an empty expect: a run that compares nothing must not pass."""
    insns = [{"opcode": Opcode.FINISH}]
    return Vector(cfg, INSN_ADDR, 1, [Image(INSN_ADDR, insns_to_bytes(cfg, insns), "insn.bin")],
                  [], description="FINISH only, expects nothing: the scoreboard must refuse it")


def write_empty_vector(cfg: VtaConfig, directory: Path) -> Path:
    return save_vector(empty_vector(cfg), directory)


def tokens_left_vector(cfg: VtaConfig) -> Vector:
    """One token pushed into each of the four counters and never popped, then FINISH: at DONE
    (and once the store's push is in) L2C, C2L, C2S and S2C hold one token each, which only
    a program that is not well-formed (token-imbalance) can leave; every instruction moves
    no data (sizes 0, no micro-ops), so nothing else is left behind."""
    empty = {"sram_base": 0, "dram_base": 0, "y_size": 0, "x_size": 0, "x_stride": 0}
    insns: list[dict[str, int]] = [
        {"opcode": Opcode.LOAD, "memory_type": MemType.INP, "push_next_dep": 1, **empty},
        {"opcode": Opcode.GEMM, "push_prev_dep": 1, "push_next_dep": 1},
        {"opcode": Opcode.STORE, "memory_type": MemType.OUT, "push_prev_dep": 1, **empty},
        {"opcode": Opcode.FINISH},
    ]
    return Vector(cfg, INSN_ADDR, len(insns), [Image(INSN_ADDR, insns_to_bytes(cfg, insns), "insn.bin")],
                  [], description="a token left in each counter at DONE (token-imbalance on purpose)")
