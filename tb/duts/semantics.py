"""Does a program's result depend on a documented semantic difference of a DUT?

Some differences (tb/duts/differences.py) change what an instruction computes only for
some operands: upstream's ALU with an immediate reads the micro-op's *src* entry instead of
*dst*, which is the same thing when the two coincide, as in every in-place ALU a compiler
emits; upstream's STORE reads a separate OUT buffer that LOAD ACC and reset GEMMs leave
alone, which only matters if a STORE reads an entry whose last writer was one of them.
Ruling out every program that merely *could* meet such a difference would rule out most
of them, so this runs the golden model twice: as the spec says, and with the difference
applied (:class:`VariantMachine`); the program exercises the difference when the DRAM
its STOREs write differs. The variant only decides which jobs run; what a job is checked
against is always the spec's model.

A variant also predicts the DUT's output for a failure, which is how FINDINGS.md checks
that a divergence is the documented difference and nothing else
(``python -m tb.duts.semantics VECTOR NAME``).
"""
from __future__ import annotations

import argparse
import sys
from typing import Iterable, Mapping

import numpy as np

from models.config import VtaConfig
from models.dram import Dram
from models.executor import ALU_FUNCS, _Machine, fetch_program
from models.vector import Vector, load_vector

#: The differences a variant models, and what it changes.
MODELLED: dict[str, str] = {
    "isa.alu-imm-reads-src": "ALU with an immediate computes ACC[dst] = op(ACC[src], imm)",
    "store.out-buffer": "STORE reads an OUT buffer written only by accumulating GEMMs and ALUs",
    "isa.alu-no-bypass": "an ALU iteration reading the entry the previous iteration wrote gets "
                         "its old value",
}
#: The differences that change how an ALU executes (iteration by iteration in the variant).
ALU_NAMES = frozenset({"isa.alu-imm-reads-src", "isa.alu-no-bypass"})
#: What a variant's ACC holds before anything writes it: the DUT's buffers are not reset
#: (state.buffers-not-reset), so a read the spec does not make (upstream's immediate ALU reads
#: src) must not find the zeros the spec's model starts with.
UNWRITTEN = 0x5A3C_96E1


class VariantMachine(_Machine):
    """The model's machine with some of :data:`MODELLED` applied.

    The OUT buffer holds, per ACC entry, the value the last accumulating GEMM or ALU wrote
    (``fresh`` marks entries one wrote). An entry no such instruction wrote holds whatever
    the DUT's unreset buffer held; it is stored here as the spec's byte inverted, so that
    any STORE of it counts as a divergence.
    """

    def __init__(self, cfg: VtaConfig, dram: Dram, bases: Mapping[str, int], names: frozenset[str]) -> None:
        super().__init__(cfg, dram, bases)
        unknown = names - set(MODELLED)
        if unknown:
            raise ValueError(f"no variant models {', '.join(sorted(unknown))} (known: {', '.join(MODELLED)})")
        self.names = names
        self.out = np.zeros_like(self.sram["acc"])
        self.fresh = np.zeros(cfg.acc_depth, dtype=bool)
        if names:
            acc = self.sram["acc"]
            acc[:] = (np.arange(acc.size, dtype=np.int64).reshape(acc.shape) * UNWRITTEN
                      % (1 << 32) - (1 << 31)).astype(np.int32)

    def _dst(self, insn: Mapping[str, int]) -> np.ndarray:
        """Every ACC entry a GEMM/ALU writes (indices beyond the depth were refused already)."""
        parts = [build("dst_idx", "dst_factor_out", "dst_factor_in") for _, build in self._loop_chunks(insn)]
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)

    def _refresh(self, insn: Mapping[str, int]) -> None:
        idx = self._dst(insn)
        self.out[idx] = self.sram["acc"][idx]
        self.fresh[idx] = True

    def gemm(self, insn: Mapping[str, int]) -> None:
        super().gemm(insn)
        if not insn["reset_reg"]:
            self._refresh(insn)

    def alu(self, insn: Mapping[str, int]) -> None:
        if self.names & ALU_NAMES and insn["alu_opcode"] in ALU_FUNCS:
            super().alu(dict(insn, iter_out=0))  # the spec's checks and counters, no iteration
            self._alu_iterations(insn)
        else:
            super().alu(insn)
        self._refresh(insn)

    def _alu_iterations(self, insn: Mapping[str, int]) -> None:
        """Iteration by iteration, in loop order, as the pipelined ALU does it: with an
        immediate the one operand is read at src (isa.alu-imm-reads-src), else at dst; the
        register form reads dst and src. A read at the entry the previous iteration wrote
        gets the value from before that write (isa.alu-no-bypass): the write lands one cycle
        after the next read (TensorAlu.scala:386-391). A src index beyond the buffer wraps."""
        acc, func, depth = self.sram["acc"], ALU_FUNCS[insn["alu_opcode"]], self.cfg.acc_depth
        from_src, stale = "isa.alu-imm-reads-src" in self.names, "isa.alu-no-bypass" in self.names
        prev: tuple[int, np.ndarray] | None = None  # (entry, its value before the last write)

        def read(entry: int) -> np.ndarray:
            old = prev[1] if stale and prev is not None and prev[0] == entry else acc[entry]
            return old.astype(np.int64)

        for _, build in self._loop_chunks(insn):
            d = build("dst_idx", "dst_factor_out", "dst_factor_in")
            s = build("src_idx", "src_factor_out", "src_factor_in") % depth
            for dst, src in zip(d.tolist(), s.tolist(), strict=True):
                if insn["use_imm"]:
                    value = func(read(src if from_src else dst), insn["imm"])
                else:
                    value = func(acc[dst].astype(np.int64), read(src))
                prev = (dst, acc[dst].copy())
                acc[dst] = value

    def store(self, insn: Mapping[str, int]) -> None:
        if "store.out-buffer" not in self.names:
            super().store(insn)
            return
        acc = self.sram["acc"]
        self.sram["acc"] = np.where(self.fresh[:, None, None], self.out, acc ^ 0xFF)
        try:
            super().store(insn)
        finally:
            self.sram["acc"] = acc


def _run(vector: Vector, names: frozenset[str]) -> VariantMachine:
    """The machine after running the vector's program in order with ``names`` applied (none:
    the spec's model)."""
    machine = VariantMachine(vector.config, vector.dram(), vector.bases, names)
    for index, insn in enumerate(fetch_program(vector.config, machine.dram, vector.insn_addr,
                                               vector.insn_count)):
        machine.step(index, insn)
    return machine


def divergences(vector: Vector, names: Iterable[str]) -> dict[str, tuple[int, int] | None]:
    """For each difference in ``names``: (address of the first stored byte it changes, how
    many it changes), or None when the program's result does not depend on it. The spec's
    model runs once for all of them."""
    spec = _run(vector, frozenset())
    out: dict[str, tuple[int, int] | None] = {}
    for name in names:
        variant = _run(vector, frozenset({name})).dram
        changed, first = 0, None
        for _, addr, size in spec.store_rows:
            diff = np.flatnonzero(spec.dram.read(addr, size) != variant.read(addr, size))
            if diff.size:
                changed += int(diff.size)
                first = addr + int(diff[0]) if first is None else min(first, addr + int(diff[0]))
        out[name] = None if first is None else (first, changed)
    return out


def first_divergence(vector: Vector, name: str) -> tuple[int, int] | None:
    """:func:`divergences` of one difference."""
    return divergences(vector, [name])[name]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tb.duts.semantics",
                                description="Where a documented difference changes a vector's stored bytes.")
    p.add_argument("vector", help="a vector directory")
    p.add_argument("names", nargs="+", choices=sorted(MODELLED))
    args = p.parse_args(argv)
    for name, hit in divergences(load_vector(args.vector), args.names).items():
        print(f"{name}: " + ("no stored byte changes" if hit is None else
                             f"{hit[1]} stored byte(s) change, the first at {hit[0]:#x}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
