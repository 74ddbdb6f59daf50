"""A typical quantized layer (bias, GEMM, ALU requantization, strided STORE) on each config.

The one workload that goes through every module with realistic data: strided and junk-
padded loads, upstream's blocked GEMM form, requantization by immediate and a gapped
STORE. :func:`layer_vector` is also the program of the base-address vectors
(vectors.families.bases), which is why its shape (and so the size of its OUT region)
is public.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from models.config import VtaConfig
from models.isa import AluOp
from models.vector import Vector
from vectors.data import BATCH2, DEFAULT, SMALL, fill_bytes, i8, rng_for, tiles
from vectors.programs import Builder, Program, as_bytes
from vectors.reference import matmul_wt, store_2d

#: The layer in blocks: MB row blocks of BATCH rows, KB k-blocks, NB column blocks. Its
#: output rows are OUT_STRIDE elements apart (two gap elements after each row), so the
#: OUT region is OUT_ELEMENTS elements long.
MB, KB, NB = 2, 2, 3
OUT_STRIDE = NB + 2
OUT_ELEMENTS = MB * OUT_STRIDE


def layer_vector(name: str, cfg: VtaConfig, bases: dict[str, int] | None = None,
                 insn_addr: int = 0x2000, regions: dict[str, int] | None = None,
                 extra: str = "") -> Vector:
    """bias (ACC_8BIT) + A . B^T, then SHR 3, MAX -20, MIN 100, STORE with gaps."""
    rng = rng_for(name)
    p = Program(cfg, bases, insn_addr, regions)
    mb, kb, nb = MB, KB, NB
    A = i8(rng, mb * cfg.batch, kb * cfg.block_in)
    B = i8(rng, nb * cfg.block_out, kb * cfg.block_in)
    bias = i8(rng, mb * cfg.batch, nb * cfg.block_out)
    # INP in DRAM with one junk element after each row block: row stride kb + 1.
    inp_t = tiles(A, cfg.batch, cfg.block_in)
    inp_dram = np.concatenate([inp_t, i8(rng, mb, 1, cfg.batch, cfg.block_in)], axis=1)
    inp_d = p.alloc("inp", mb * (kb + 1), as_bytes(inp_dram, np.int8), "inp")
    wgt_d = p.alloc("wgt", nb * kb, as_bytes(tiles(B, cfg.block_out, cfg.block_in), np.int8),
                    "wgt")
    bias_d = p.alloc("acc8", mb * nb, as_bytes(tiles(bias, cfg.batch, cfg.block_out), np.int8),
                     "bias8")
    init = fill_bytes(OUT_ELEMENTS * cfg.out_bytes, 0x5A)
    out = p.alloc("out", OUT_ELEMENTS, init, "out_init")
    p.load("acc8", 0, bias_d, 1, mb * nb)
    p.load("inp", 0, inp_d, mb, kb, stride=kb + 1)
    p.load("wgt", 0, wgt_d, 1, nb * kb, push_next=True)
    p.gemm([(0, k, k) for k in range(kb)], iters=(mb, nb), dst=(nb, 1), src=(kb, 0),
           wgt=(0, kb), pop_prev=True)
    n = mb * nb
    p.alu(AluOp.SHR, [(0, 0, 0)], iters=(1, n), dst=(0, 1), src=(0, 1), imm=3)
    p.alu(AluOp.MAX, [(0, 0, 0)], iters=(1, n), dst=(0, 1), src=(0, 1), imm=-20)
    p.alu(AluOp.MIN, [(0, 0, 0)], iters=(1, n), dst=(0, 1), src=(0, 1), imm=100, push_next=True)
    p.store(0, out, mb, nb, stride=OUT_STRIDE, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    C = np.clip((bias + matmul_wt(A, B)) >> 3, -20, 100)
    p.expect("out", out, store_2d(init, tiles(C, cfg.batch, cfg.block_out), OUT_STRIDE), "out")
    return p.build(f"""A typical quantized layer: LOAD ACC_8BIT bias, LOAD INP with x_stride
        > x_size (a junk element after each row), LOAD WGT, one GEMM with iter_out=mb, iter_in=nb
        and kb micro-ops (upstream's blocked form), then ALU SHR 3, MAX -20, MIN 100 by immediate,
        and a STORE of 2 rows of 3 elements with x_stride 5 into a region pre-filled with 0x5A
        (gaps must keep it). BATCH={cfg.batch}, BLOCK={cfg.block}. {extra} Expected =
        clip((bias + A . B^T) >> 3, -20, 100) with numpy.""")


VECTORS: list[tuple[str, Builder]] = [
    ("layer_small", partial(layer_vector, cfg=SMALL)),
    ("default_layer", partial(layer_vector, cfg=DEFAULT)),
    ("batch2_layer", partial(layer_vector, cfg=BATCH2)),
]
