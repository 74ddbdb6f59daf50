"""Lowering a layer to a VTA program, the way TVM's VTA schedules do it (written here from
the spec): tiles of output pixels x output-channel blocks, a reduction over chunks of
input-channel blocks, virtual threads for latency hiding, and the ResNet epilogue on the
ALU.

Per tile (ACC slot ``u``) and input-channel chunk (step ``i``, INP/WGT slot ``t``):

    compute  GEMM reset of the tile's ACC slot          (first chunk; pops S2C once the slot
                                                          was stored by tile - vt)
    load     LOAD INP window of each input block (pads)  (first pops C2L once slot t was
             LOAD WGT of the chunk                        used by step - vt; last pushes L2C)
    compute  GEMM over the kernel, loops = tile rows x columns (pops L2C; pushes C2L for
                                                          step + vt)
    compute  SHR 8, ADD bias, MIN 127, MAX 0              (last chunk; the last pushes C2S)
    store    STORE of each output block                   (pops C2S; pushes S2C)

The micro-op kernel of a GEMM is (output block, input block, dy, dx) with the tile's rows
and columns in the instruction's two loops (dst factors: columns, 1; src factors:
stride x window columns, stride), so one kernel per slot pair serves every tile.
Padding is done by the LOADs' pads, never by a padded copy in DRAM. The bias of every
output block is loaded into the top of ACC once, at the start.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from models.config import VtaConfig
from models.isa import AluOp
from models.progbuild import Program
from models.vector import Vector
from models.workloads.layers import Layer, WorkloadError
from models.workloads.reference import CLIP_HI, CLIP_LO, SHIFT
from models.workloads.tiling import Geometry, Tiling

#: DRAM regions, relative to each base; far enough apart for C1's 800 KiB input.
REGIONS = {"uop": 0x0, "inp": 0x0100_0000, "wgt": 0x0200_0000, "acc": 0x0300_0000,
           "acc8": 0x0310_0000, "out": 0x0400_0000}
INSN_ADDR = 0x0080_0000


@dataclass(frozen=True)
class Tensors:
    """The layer's packed DRAM images (layout.py)."""

    activations: bytes
    weights: bytes
    bias: bytes
    output: bytes  # the reference's result, packed: the vector's expect


@dataclass(frozen=True)
class Tile:
    """One output tile: its first output-channel block, row and column."""

    index: int
    oc0: int
    oy0: int
    ox0: int


def _tiles(geo: Geometry, t: Tiling) -> Iterator[Tile]:
    """Tiles in the order the program computes them: output-channel chunks outermost."""
    n = 0
    for oc0 in range(0, geo.ocb, t.oc_blocks):
        for oy0 in range(0, geo.oh, t.rows):
            for ox0 in range(0, geo.ow, t.cols):
                yield Tile(n, oc0, oy0, ox0)
                n += 1


class _Lowering:
    """The program of one layer under one tiling; methods emit its instruction groups."""

    def __init__(self, layer: Layer, cfg: VtaConfig, vt: int, tiling: Tiling, data: Tensors) -> None:
        self.layer, self.cfg, self.vt, self.t = layer, cfg, vt, tiling
        self.geo = Geometry.of(layer, cfg)
        self.p = Program(cfg, insn_addr=INSN_ADDR, regions=REGIONS)
        self.inp = self.p.alloc("inp", self.geo.icb * layer.height * layer.width, data.activations, "inp")
        self.wgt = self.p.alloc("wgt", self.geo.ocb * self.geo.icb * layer.kernel ** 2, data.weights, "wgt")
        self.bias = self.p.alloc("acc", self.geo.ocb, data.bias, "bias")
        self.out = self.p.alloc("out", self.geo.ocb * self.geo.oh * self.geo.ow)
        self.p.expect("out", self.out, data.output, "out")
        self.bias_sram = cfg.acc_depth - self.geo.ocb
        self.steps = tiling.steps(self.geo)
        self.ntiles = tiling.tiles(self.geo)

    # --- micro-op kernels ----------------------------------------------------------------
    def kernel(self, slot: int, acc: int) -> list[tuple[int, int, int]]:
        """GEMM micro-ops (output block, input block, dy, dx) for INP/WGT slot and ACC slot."""
        t, k = self.t, self.layer.kernel
        window = t.in_rows * t.in_cols
        return [(acc * t.acc_slot + oc * t.rows * t.cols,
                 slot * t.inp_slot + ic * window + dy * t.in_cols + dx,
                 slot * t.wgt_slot + ((oc * t.ic_blocks + ic) * k + dy) * k + dx)
                for oc in range(t.oc_blocks) for ic in range(t.ic_blocks)
                for dy in range(k) for dx in range(k)]

    # --- instruction groups --------------------------------------------------------------
    def reset(self, tile: Tile) -> None:
        acc = tile.index % self.vt
        self.p.gemm([(acc * self.t.acc_slot, 0, 0)], (self.t.acc_slot, 1), dst=(1, 0), reset=True,
                    pop_next=tile.index >= self.vt)

    def loads(self, step: int, tile: Tile, chunk: int) -> None:
        """The input windows of the chunk's input blocks, then its weights."""
        layer, t, geo = self.layer, self.t, self.geo
        slot = step % self.vt
        iy, ix = tile.oy0 * layer.stride - layer.pad, tile.ox0 * layer.stride - layer.pad
        y0, y1 = max(iy, 0), min(iy + t.in_rows, layer.height)
        x0, x1 = max(ix, 0), min(ix + t.in_cols, layer.width)
        pads = (y0 - iy, iy + t.in_rows - y1, x0 - ix, ix + t.in_cols - x1)
        if y1 <= y0 or x1 <= x0:
            raise WorkloadError(f"layer {layer.name}: a tile's input window lies in the padding")
        if max(pads) > 15:
            raise WorkloadError(f"layer {layer.name}: padding {max(pads)} exceeds a LOAD's pad field (15)")
        first = True
        for ic in range(t.ic_blocks):
            cb = chunk * t.ic_blocks + ic
            self.p.load("inp", slot * t.inp_slot + ic * t.in_rows * t.in_cols,
                        self.inp + (cb * layer.height + y0) * layer.width + x0, y1 - y0, x1 - x0,
                        layer.width, pads, pop_next=first and step >= self.vt)
            first = False
        per_oc = geo.icb * layer.kernel ** 2
        self.p.load("wgt", slot * t.wgt_slot,
                    self.wgt + tile.oc0 * per_oc + chunk * t.ic_blocks * layer.kernel ** 2,
                    t.oc_blocks, t.ic_blocks * layer.kernel ** 2, per_oc, push_next=True)

    def gemm(self, step: int, tile: Tile) -> None:
        t, s = self.t, self.layer.stride
        self.p.gemm(self.kernel(step % self.vt, tile.index % self.vt), (t.rows, t.cols),
                    dst=(t.cols, 1), src=(s * t.in_cols, s), pop_prev=True,
                    push_prev=step + self.vt < self.steps)

    def epilogue(self, tile: Tile) -> None:
        t = self.t
        base = tile.index % self.vt * t.acc_slot
        # An immediate operation names its destination as its source too, as TVM's ALU
        # lowering does (the operand it rewrites): the spec ignores the source then, and
        # upstream's Chisel reads it (tb/duts/upstream-chisel: isa.alu-imm-reads-src).
        whole = [(base, base, 0)]
        self.p.alu(AluOp.SHR, whole, (t.acc_slot, 1), dst=(1, 0), src=(1, 0), imm=SHIFT)
        pixels = t.rows * t.cols
        bias = [(base + oc * pixels, self.bias_sram + tile.oc0 + oc, 0) for oc in range(t.oc_blocks)]
        self.p.alu(AluOp.ADD, bias, (pixels, 1), dst=(1, 0))
        self.p.alu(AluOp.MIN, whole, (t.acc_slot, 1), dst=(1, 0), src=(1, 0), imm=CLIP_HI)
        self.p.alu(AluOp.MAX, whole, (t.acc_slot, 1), dst=(1, 0), src=(1, 0), imm=CLIP_LO,
                   push_next=True)

    def stores(self, tile: Tile) -> None:
        t, geo = self.t, self.geo
        base = tile.index % self.vt * t.acc_slot
        last = tile.index == self.ntiles - 1
        for oc in range(t.oc_blocks):
            self.p.store(base + oc * t.rows * t.cols,
                         self.out + ((tile.oc0 + oc) * geo.oh + tile.oy0) * geo.ow + tile.ox0,
                         t.rows, t.cols, geo.ow, pop_prev=oc == 0,
                         push_prev=oc == t.oc_blocks - 1 and (tile.index + self.vt < self.ntiles or last))

    def program(self, description: str) -> Vector:
        chunks = self.geo.icb // self.t.ic_blocks
        self.p.load("acc", self.bias_sram, self.bias, 1, self.geo.ocb)
        step = 0
        for tile in _tiles(self.geo, self.t):
            self.reset(tile)
            for chunk in range(chunks):
                self.loads(step, tile, chunk)
                self.gemm(step, tile)
                step += 1
            self.epilogue(tile)
            self.stores(tile)
        self.p.finish(pop_next=True)
        return self.p.build(description)


def lower(layer: Layer, cfg: VtaConfig, vt: int, data: Tensors, t: Tiling) -> Vector:
    """The layer under tiling ``t`` as a vector whose expect is ``data.output``."""
    desc = (f"workload {layer.name}: {layer.describe()}, vt={vt}, tiles {t.rows}x{t.cols} pixels x "
            f"{t.oc_blocks} output blocks, input chunks of {t.ic_blocks} blocks")
    return _Lowering(layer, cfg, vt, t, data).program(desc)
