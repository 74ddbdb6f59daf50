"""Small builders for hand-written test programs (used by the executor and compare tests).

A :class:`Prog` places data in DRAM by element index relative to each base register and
collects instructions, so a test reads like the assembly it stands for. The bases are
distinct and non-zero so every test also exercises base addition.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.config import VtaConfig
from models.dram import Dram
from models.executor import ExecResult, execute
from models.isa import AluOp, MemType, Opcode, insns_to_bytes, uops_to_bytes
from models.vector import Image, Vector

BASES = {"uop": 0x10000, "inp": 0x20000, "wgt": 0x40000, "acc": 0x80000, "out": 0xC0000}
INSN_ADDR = 0x1000


def load(mem: MemType, sram: int, dram: int, y: int = 1, x: int = 1, stride: int | None = None,
         pads: tuple[int, int, int, int] = (0, 0, 0, 0), **flags: int) -> dict:
    """LOAD; pads are (y_pad_0, y_pad_1, x_pad_0, x_pad_1)."""
    return {"opcode": Opcode.LOAD, "memory_type": mem, "sram_base": sram, "dram_base": dram,
            "y_size": y, "x_size": x, "x_stride": x if stride is None else stride,
            "y_pad_0": pads[0], "y_pad_1": pads[1], "x_pad_0": pads[2], "x_pad_1": pads[3], **flags}


def store(sram: int, dram: int, y: int = 1, x: int = 1, stride: int | None = None,
          **fields: int) -> dict:
    """STORE of OUT (extra fields may override memory_type or pads)."""
    return {"opcode": Opcode.STORE, "memory_type": MemType.OUT, "sram_base": sram,
            "dram_base": dram, "y_size": y, "x_size": x,
            "x_stride": x if stride is None else stride, **fields}


def gemm(bgn: int, end: int, iters: tuple[int, int] = (1, 1), dst: tuple[int, int] = (0, 0),
         src: tuple[int, int] = (0, 0), wgt: tuple[int, int] = (0, 0), reset: bool = False,
         **flags: int) -> dict:
    """GEMM; each factor pair is (out, in)."""
    return {"opcode": Opcode.GEMM, "reset_reg": int(reset), "uop_bgn": bgn, "uop_end": end,
            "iter_out": iters[0], "iter_in": iters[1],
            "dst_factor_out": dst[0], "dst_factor_in": dst[1],
            "src_factor_out": src[0], "src_factor_in": src[1],
            "wgt_factor_out": wgt[0], "wgt_factor_in": wgt[1], **flags}


def alu(op: AluOp, bgn: int, end: int, iters: tuple[int, int] = (1, 1),
        dst: tuple[int, int] = (0, 0), src: tuple[int, int] = (0, 0), imm: int | None = None,
        **flags: int) -> dict:
    """ALU; imm=None means the source operand is ACC[src]."""
    return {"opcode": Opcode.ALU, "uop_bgn": bgn, "uop_end": end,
            "iter_out": iters[0], "iter_in": iters[1],
            "dst_factor_out": dst[0], "dst_factor_in": dst[1],
            "src_factor_out": src[0], "src_factor_in": src[1], "alu_opcode": op,
            "use_imm": int(imm is not None), "imm": imm or 0, **flags}


def finish(**flags: int) -> dict:
    return {"opcode": Opcode.FINISH, **flags}


@dataclass
class Prog:
    """DRAM contents plus an instruction list for one test."""

    cfg: VtaConfig
    insns: list[dict] = field(default_factory=list)
    images: list[tuple[int, bytes]] = field(default_factory=list)
    bases: dict[str, int] = field(default_factory=lambda: dict(BASES))

    def put(self, base: str, elem_bytes: int, index: int, data: np.ndarray) -> None:
        """Raw little-endian data at element index of a base register."""
        self.images.append((self.bases[base] + index * elem_bytes,
                            np.ascontiguousarray(data).astype(data.dtype.newbyteorder("<")).tobytes()))

    def put_uops(self, index: int, uops: list[tuple[int, int, int]]) -> None:
        """Micro-ops (dst_idx, src_idx, wgt_idx) at UOP element index."""
        raw = uops_to_bytes(self.cfg, [{"dst_idx": d, "src_idx": s, "wgt_idx": w}
                                       for d, s, w in uops])
        self.images.append((self.bases["uop"] + index * 4, raw))

    def put_inp(self, index: int, data: np.ndarray) -> None:
        self.put("inp", self.cfg.inp_bytes, index, data.astype(np.int8))

    def put_wgt(self, index: int, data: np.ndarray) -> None:
        self.put("wgt", self.cfg.wgt_bytes, index, data.astype(np.int8))

    def put_acc(self, index: int, data: np.ndarray) -> None:
        self.put("acc", self.cfg.acc_bytes, index, data.astype(np.int32))

    def put_acc8(self, index: int, data: np.ndarray) -> None:
        self.put("acc", self.cfg.acc8_bytes, index, data.astype(np.int8))

    def dram(self) -> Dram:
        dram = Dram.from_images(self.images)
        dram.write(INSN_ADDR, insns_to_bytes(self.cfg, self.insns))
        return dram

    def run(self, schedule: int | None = None, insn_count: int | None = None) -> ExecResult:
        count = len(self.insns) if insn_count is None else insn_count
        return execute(self.cfg, self.dram(), INSN_ADDR, count, self.bases, schedule=schedule)

    def out(self, result: ExecResult, index: int, count: int = 1) -> np.ndarray:
        """OUT elements as int8, shape (count, batch, block_out)."""
        raw = result.dram.read(self.bases["out"] + index * self.cfg.out_bytes,
                               count * self.cfg.out_bytes)
        return raw.view(np.int8).reshape(count, self.cfg.batch, self.cfg.block_out)

    def vector(self) -> Vector:
        """The program as an in-memory vector without 'expect'."""
        dram_image = insns_to_bytes(self.cfg, self.insns)
        return Vector(self.cfg, INSN_ADDR, len(self.insns),
                      [Image(a, d) for a, d in self.images] + [Image(INSN_ADDR, dram_image)],
                      None, dict(self.bases))
