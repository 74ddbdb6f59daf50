"""DRAM that no init image holds reads as 0 (spec section 6), and programs rely on it.

A compiler may write only the non-zero part of a tensor into its DRAM image: a LOAD then
starts inside an image and runs past its end, or reads where no image is at all. These
vectors do that for every memory type a LOAD reads (INP, WGT, UOP, ACC, ACC_8BIT), on the
default configuration, and their references compute with those zeros.

The places read as zero are chosen for the testbench's fast memory (tb/rtl/vta_tb_mem.v),
which maps 64 KiB pages and must clear a page an image covers only in part: the images end
inside a page, mid-element and mid-bus-beat; one LOAD runs from an image into a page no
image, STORE or expect touches (unmapped); and, in one simulator process the family runs in
name order, ``zero_dram_load_no_image`` reads as zero the very bytes where
``zero_dram_load_half_image`` held its operands and results, so a memory that kept a job's
bytes into the next fails there.
"""
from __future__ import annotations

import numpy as np

from models.isa import AluOp, uops_to_bytes
from models.vector import Vector
from vectors.data import DEFAULT, acc_shape, i8, i32, inp_shape, rng_for, wgt_shape
from vectors.programs import Builder, Program, UopRange, as_bytes, emit_expose, emit_fill, emit_reset
from vectors.reference import Uop, alu_ref, byte_planes, gemm_ref, loop_nest, low8, matmul_wt

#: Where zero_dram_load_half_image keeps its operands and results, and where
#: zero_dram_load_no_image reads zeros (see the module docstring).
INP_AT, WGT_AT, OUT_AT = 0x4000, 0x8000, 0x10000
#: The last 128 bytes of 64 KiB page 1: an ACC image there ends where page 2 begins.
ACC_AT_PAGE_END = 0x20000 - 128


def zero_dram_matmul(name: str) -> Vector:
    """The program of the report that led to these vectors, as a third-party compiler wrote it."""
    cfg, rng = DEFAULT, rng_for(name)
    rows = 16
    p = Program(cfg, regions={"inp": 0x1000})
    a = np.zeros((rows * cfg.batch, cfg.block_in), dtype=np.int64)
    a[0] = i8(rng, cfg.block_in)  # the only non-zero row: the image holds it alone
    w = i8(rng, cfg.block_out, cfg.block_in)
    inp_d = p.alloc("inp", rows)
    p.put("inp", inp_d, as_bytes(a[:cfg.batch], np.int8), "input")
    wgt_d = p.alloc("wgt", 1, as_bytes(w, np.int8), "weight")
    p.load("wgt", 0, wgt_d, 1, 1)
    p.load("inp", 0, inp_d, 1, rows, push_next=True)
    emit_reset(p, 0, rows)
    p.gemm([(0, 0, 0)], iters=(1, rows), dst=(0, 1), src=(0, 1), pop_prev=True)
    p.alu(AluOp.SHR, [(0, 0, 0)], iters=(1, rows), dst=(0, 1), src=(0, 1), imm=4, push_next=True)
    out = p.alloc("out", rows)
    p.store(0, out, 1, rows, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    # Reference: rows 1..15 of A are the zeros DRAM holds past input.bin, so only output
    # row 0 can be non-zero: OUT = low 8 bits of (A . W^T) >> 4.
    p.expect("out", out, low8(alu_ref(AluOp.SHR, matmul_wt(a, w), 4)), "output")
    return p.build("""The program of a third-party VTA compiler (default configuration): LOAD
        UOP, LOAD WGT of one 16x16 block, LOAD INP of a row of 16 INP elements from input.bin at
        0x1000, which holds only the first element (16 bytes; the other 240 bytes the LOAD reads
        are in no image and read as 0), GEMM reset, GEMM over the 16 elements, ALU SHR by 4
        (requantization), STORE of the low 8 bits, FINISH, with the tokens L2C, C2S and S2C.
        Expected: numpy A . W^T with rows 1..15 of A zero, shifted right by 4; only row 0 of the
        output is non-zero.""")


def zero_dram_load_half_image(name: str) -> Vector:
    """LOADs of UOP, WGT and ACC that start inside an image and run past its end."""
    cfg, rng = DEFAULT, rng_for(name)
    p = Program(cfg, regions={"inp": INP_AT, "wgt": WGT_AT, "acc": ACC_AT_PAGE_END, "out": OUT_AT})
    table: list[Uop] = [(1, 1, 1), (2, 0, 1)]
    uop_d = p.alloc("uop", 4)
    p.put("uop", uop_d, uops_to_bytes(cfg, [{"dst_idx": d, "src_idx": s, "wgt_idx": w}
                                            for d, s, w in table]), "uop_table")
    inp = i8(rng, *inp_shape(cfg, 2))
    inp_d = p.alloc("inp", 2, as_bytes(inp, np.int8), "inp")
    wgt = i8(rng, *wgt_shape(cfg, 2))
    held = cfg.wgt_bytes + 100  # element 1 ends after 100 of its 256 bytes, inside a bus beat
    wgt.reshape(-1)[held:] = 0
    wgt_d = p.alloc("wgt", 2)
    p.put("wgt", wgt_d, as_bytes(wgt, np.int8)[:held], "wgt_head", partial=True)
    acc = np.zeros(acc_shape(cfg, 4), dtype=np.int64)
    acc[:2] = i32(rng, *acc_shape(cfg, 2))
    acc_d = p.alloc("acc", 4)
    p.put("acc", acc_d, as_bytes(acc[:2], np.int32), "bias")  # ACC 2, 3 lie in page 2
    p.load("inp", 0, inp_d, 1, 2)
    p.load("wgt", 0, wgt_d, 1, 2, push_next=True)
    p.load("uop", 64, uop_d, 1, 4)  # micro-ops 66, 67 read as 0: (dst 0, src 0, wgt 0)
    p.load("acc", 0, acc_d, 1, 4)
    p.gemm(UopRange(64, 68), pop_prev=True)
    out = emit_expose(p, 4)
    # Reference: the micro-op buffer [t0, t1, 0, 0], WGT element 1 zero from byte 100 on,
    # ACC 2 and 3 zero; GEMM visits them in order.
    uops = [*table, (0, 0, 0), (0, 0, 0)]
    ref = gemm_ref(acc, inp, wgt, loop_nest(uops, (1, 1), (0, 0), (0, 0)))
    p.expect("out", out, byte_planes(ref), "out")
    return p.build("""LOADs that start inside an init image and run past its end (default
        configuration): LOAD UOP of 4 micro-ops from a 2-micro-op image (the other two read as
        zero micro-ops, dst 0 src 0 wgt 0, which the GEMM then executes); LOAD WGT of 2 blocks
        from an image ending 100 bytes into the second (inside a bus beat; the rest of the block
        is zero); LOAD ACC of 4 elements from a 2-element image ending at 0x20000, so elements
        2 and 3 come from a 64 KiB page nothing else touches. One GEMM over the 4 micro-ops on
        that data; every 32-bit result exposed byte by byte. Expected by numpy from the arrays
        with those zeros.""")


def zero_dram_load_no_image(name: str) -> Vector:
    """LOADs of INP, WGT, ACC and ACC_8BIT wholly outside every image."""
    cfg = DEFAULT
    far = 0x30000  # a page no image, STORE or expect of this vector touches
    p = Program(cfg, regions={"inp": INP_AT, "wgt": WGT_AT, "acc": OUT_AT, "acc8": far,
                              "out": OUT_AT + 0x8000})
    n, fill = 8, 0x5A
    inp_d, wgt_d = p.alloc("inp", 2), p.alloc("wgt", 1)
    acc_d, acc8_d = p.alloc("acc", 2), p.alloc("acc8", 2)
    p.load("inp", 0, inp_d, 1, 2)
    p.load("wgt", 0, wgt_d, 1, 1, push_next=True)
    emit_fill(p, n, fill)
    p.load("acc", 0, acc_d, 1, 2)
    p.load("acc8", 2, acc8_d, 1, 2)
    p.gemm([(4, 0, 0)], iters=(2, 2), dst=(2, 1), src=(0, 1), pop_prev=True, push_next=True)
    out = p.alloc("out", n)
    p.store(0, out, 1, n, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    # Reference by hand: ACC 0..3 are loaded zeros (ACC and ACC_8BIT), ACC 4..7 keep the fill
    # plus zero INP . zero WGT products; STORE keeps the low byte of every lane.
    ref = np.full(acc_shape(cfg, n), fill, dtype=np.int64)
    ref[:4] = 0
    p.expect("out", out, low8(ref), "out")
    return p.build(f"""LOADs wholly outside every init image read zeros (default configuration):
        ACC 0..{n - 1} are first filled with {fill:#x}; LOAD ACC of 2 elements and LOAD ACC_8BIT
        of 2 elements (from page 0x30000, which nothing maps) overwrite ACC 0..3 with zeros; a
        GEMM adds the product of 2 INP elements and a WGT block, all loaded from no image, to ACC
        4..7. Expected: 0 in ACC 0..3, the fill in ACC 4..7. Run after zero_dram_load_half_image,
        it reads as zero the places where that vector held its INP, WGT and results.""")


VECTORS: list[tuple[str, Builder]] = [
    ("zero_dram_matmul", zero_dram_matmul),
    ("zero_dram_load_half_image", zero_dram_load_half_image),
    ("zero_dram_load_no_image", zero_dram_load_no_image),
]
