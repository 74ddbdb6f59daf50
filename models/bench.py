"""Executor throughput: GEMM and ALU micro-ops per second.

Vectors with hundreds of thousands of micro-ops must run in well under a second for the
regression suite to stay fast, so this measures the three execution paths separately:
GEMM, an ALU the executor can vectorise (waves of unique destinations) and an ALU whose
sources read results of earlier uops of the same instruction, which must run uop by uop.
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np

from models.config import VtaConfig
from models.dram import Dram
from models.executor import execute
from models.isa import AluOp, MemType, Opcode, insns_to_bytes, uops_to_bytes

BASES = {"uop": 0x100000, "inp": 0x200000, "wgt": 0x400000, "acc": 0x800000, "out": 0xC00000}
INSN_ADDR = 0x1000


def _mem(opcode: Opcode, mtype: MemType, count: int) -> dict:
    return {"opcode": opcode, "memory_type": mtype, "y_size": 1, "x_size": count,
            "x_stride": count}


def _loop(opcode: Opcode, uops: int, iters: tuple[int, int], dst: tuple[int, int],
          src: tuple[int, int], **extra: int) -> dict:
    return {"opcode": opcode, "uop_end": uops, "iter_out": iters[0], "iter_in": iters[1],
            "dst_factor_out": dst[0], "dst_factor_in": dst[1],
            "src_factor_out": src[0], "src_factor_in": src[1], **extra}


def _program(cfg: VtaConfig, uops: list[tuple[int, int, int]], body: dict) -> tuple[Dram, int]:
    """DRAM holding random INP/WGT/ACC, the micro-ops and LOADs + body + STORE + FINISH."""
    rng = np.random.default_rng(0)
    dram = Dram()
    dram.write(BASES["uop"], uops_to_bytes(cfg, [{"dst_idx": d, "src_idx": s, "wgt_idx": w}
                                                 for d, s, w in uops]))
    for name, depth, size in (("inp", cfg.inp_depth, cfg.inp_bytes),
                              ("wgt", cfg.wgt_depth, cfg.wgt_bytes),
                              ("acc", cfg.acc_depth, cfg.acc_bytes)):
        dram.write(BASES[name], rng.integers(0, 256, depth * size, dtype=np.uint8))
    insns = [_mem(Opcode.LOAD, MemType.UOP, len(uops)),
             _mem(Opcode.LOAD, MemType.INP, cfg.inp_depth),
             _mem(Opcode.LOAD, MemType.WGT, cfg.wgt_depth),
             _mem(Opcode.LOAD, MemType.ACC, cfg.acc_depth),
             body,
             _mem(Opcode.STORE, MemType.OUT, cfg.acc_depth),
             {"opcode": Opcode.FINISH}]
    dram.write(INSN_ADDR, insns_to_bytes(cfg, insns))
    return dram, len(insns)


def gemm_case(cfg: VtaConfig) -> tuple[Dram, int, int]:
    """One GEMM of 16 uops x 128 x 100 = 204,800 micro-ops over many INP/WGT/ACC rows."""
    uops = [(0, k, k) for k in range(16)]
    body = _loop(Opcode.GEMM, 16, (128, 100), dst=(8, 1), src=(1, 1),
                 wgt_factor_out=4, wgt_factor_in=0)
    dram, count = _program(cfg, uops, body)
    return dram, count, 16 * 128 * 100


def alu_vector_case(cfg: VtaConfig) -> tuple[Dram, int, int]:
    """ADD ACC[d] += ACC[s] with s disjoint from d and every d repeated 200 times."""
    uops = [(k, 1024 + k, 0) for k in range(16)]
    body = _loop(Opcode.ALU, 16, (64, 200), dst=(16, 0), src=(16, 0), alu_opcode=AluOp.ADD)
    dram, count = _program(cfg, uops, body)
    return dram, count, 16 * 64 * 200


def alu_ordered_case(cfg: VtaConfig) -> tuple[Dram, int, int]:
    """Running sum ACC[d+1] += ACC[d]: each uop reads the previous uop's result."""
    uops = [(k + 1, k, 0) for k in range(16)]
    body = _loop(Opcode.ALU, 16, (64, 20), dst=(16, 0), src=(16, 0), alu_opcode=AluOp.ADD)
    dram, count = _program(cfg, uops, body)
    return dram, count, 16 * 64 * 20


CASES: dict[str, Callable[[VtaConfig], tuple[Dram, int, int]]] = {
    "gemm": gemm_case, "alu_vector": alu_vector_case, "alu_ordered": alu_ordered_case}


def _rate(cfg: VtaConfig, case: Callable, seconds: float) -> float:
    """Best micro-ops per second over repeated runs lasting about `seconds`."""
    dram, count, uops = case(cfg)
    best, deadline = 0.0, time.perf_counter() + seconds
    while True:
        start = time.perf_counter()
        execute(cfg, dram, INSN_ADDR, count, BASES)
        best = max(best, uops / (time.perf_counter() - start))
        if time.perf_counter() >= deadline:
            return best


def run_bench(cfg: VtaConfig | None = None, seconds: float = 1.0) -> dict[str, float]:
    """Micro-ops per second of each case, in the default configuration unless given."""
    cfg = cfg or VtaConfig()
    return {f"{name}_uops_per_s": _rate(cfg, case, seconds) for name, case in CASES.items()}


def print_bench(cfg: VtaConfig | None = None, seconds: float = 1.0) -> None:
    """Print the benchmark as a small table."""
    rates = run_bench(cfg, seconds)
    print(f"{'case':24s} {'uops/s':>14s}")
    for name, rate in rates.items():
        print(f"{name:24s} {rate:14,.0f}")


if __name__ == "__main__":
    print_bench()
