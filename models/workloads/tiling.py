"""Choosing a layer's tiles: the largest work per instruction that fits the configuration's
buffers, by a small cost model of the RTL (one GEMM/ALU micro-op per cycle, one SRAM
element per cycle on LOAD/STORE, per-instruction overheads).

A tile is ``rows x cols`` output pixels of ``oc_blocks`` output-channel blocks; its
reduction runs over chunks of ``ic_blocks`` input-channel blocks, each chunk one LOAD
step (its input window and weights) and one GEMM. Every tile dimension divides the
layer's, so all tiles share one shape, one SRAM geometry and one micro-op kernel per
virtual-thread slot. With ``vt`` virtual threads each of INP, WGT and ACC is split into
``vt`` slots that the token protocol hands between load, compute and store.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from models.config import VtaConfig
from models.widths import LOOP_ITER_BITS
from models.workloads.layers import Layer, WorkloadError
from models.workloads.layout import blocks

#: Cycles an instruction costs beyond its work (pops, pipeline drain, pushes), a row of a
#: LOAD/STORE beyond its elements (burst set-up and read latency), as estimated for the
#: choice of tiles; models/timing.py holds the calibrated estimate of the whole program.
INSN_OVERHEAD = 8
ROW_OVERHEAD = 12


@dataclass(frozen=True)
class Geometry:
    """The layer in blocks: what the tiles divide."""

    icb: int   # input-channel blocks
    ocb: int   # output-channel blocks
    oh: int
    ow: int

    @classmethod
    def of(cls, layer: Layer, cfg: VtaConfig) -> "Geometry":
        return cls(blocks(layer.in_channels, cfg.block_in), blocks(layer.out_channels, cfg.block_out),
                   layer.out_height, layer.out_width)


@dataclass(frozen=True)
class Tiling:
    """One tile shape and the SRAM slots it occupies (sizes in elements)."""

    rows: int
    cols: int
    oc_blocks: int
    ic_blocks: int
    in_rows: int    # input rows of a tile's window: (rows - 1) * stride + kernel
    in_cols: int
    inp_slot: int   # INP elements of one slot: ic_blocks * in_rows * in_cols
    wgt_slot: int   # WGT elements: oc_blocks * ic_blocks * kernel^2
    acc_slot: int   # ACC elements: oc_blocks * rows * cols
    kernel_uops: int  # micro-ops of one GEMM kernel: oc_blocks * ic_blocks * kernel^2
    estimate: int   # the cost model's cycles for the whole layer

    def steps(self, geo: Geometry) -> int:
        """LOAD-GEMM steps of the layer: tiles x input-channel chunks."""
        return self.tiles(geo) * (geo.icb // self.ic_blocks)

    def tiles(self, geo: Geometry) -> int:
        return (geo.oh // self.rows) * (geo.ow // self.cols) * (geo.ocb // self.oc_blocks)


def divisors(n: int, limit: int = 0) -> list[int]:
    """Divisors of n, up to ``limit`` when it is nonzero."""
    return [d for d in range(1, n + 1) if n % d == 0 and (not limit or d <= limit)]


def _per_element(elem_bytes: int, bus_bytes: int) -> int:
    """Cycles to move one SRAM element over the bus (at least one: one element per cycle)."""
    return max(1, -(-elem_bytes // bus_bytes))


def _cost(layer: Layer, cfg: VtaConfig, geo: Geometry, vt: int, t: Tiling) -> int:
    """Cycles of the layer under tiling ``t``: compute, load and store streams, which
    overlap with two virtual threads and run one after the other with one."""
    steps, tiles = t.steps(geo), t.tiles(geo)
    outputs = geo.ocb * geo.oh * geo.ow
    compute = (geo.ocb * geo.icb * layer.kernel ** 2 * geo.oh * geo.ow  # GEMM
               + 5 * outputs                                             # reset + 4 ALU ops
               + (steps + 5 * tiles) * INSN_OVERHEAD)
    load = steps * (t.ic_blocks * (t.in_rows * (t.in_cols * _per_element(cfg.inp_bytes, cfg.bus_bytes)
                                                + ROW_OVERHEAD))
                    + t.oc_blocks * (t.ic_blocks * layer.kernel ** 2
                                     * _per_element(cfg.wgt_bytes, cfg.bus_bytes) + ROW_OVERHEAD)
                    + (t.ic_blocks + 1) * INSN_OVERHEAD)
    store = tiles * t.oc_blocks * (t.rows * (t.cols * _per_element(cfg.out_bytes, cfg.bus_bytes)
                                             + ROW_OVERHEAD) + INSN_OVERHEAD)
    if vt == 1:
        return compute + load + store
    first_load, last_store = load // steps, store // tiles
    return max(compute, load, store) + first_load + last_store


def candidates(layer: Layer, cfg: VtaConfig, vt: int, count: int) -> list[Tiling]:
    """The ``count`` cheapest tilings that fit by the cost model, cheapest first, under the
    layer's own tile limits; a layer that no tiling fits is an error naming it."""
    if vt not in (1, 2):
        raise WorkloadError(f"layer {layer.name}: vt must be 1 or 2, not {vt}")
    geo = Geometry.of(layer, cfg)
    lim = layer.limits
    k, s = layer.kernel, layer.stride
    inp_cap, wgt_cap = cfg.inp_depth // vt, cfg.wgt_depth // vt
    acc_cap = (cfg.acc_depth - geo.ocb) // vt  # the bias of every output block stays in ACC
    iter_max = 2 ** LOOP_ITER_BITS - 1
    found: list[Tiling] = []
    for toc in divisors(geo.ocb, lim.oc_blocks):
        for ticb in divisors(geo.icb, lim.ic_blocks):
            wgt_slot = toc * ticb * k * k
            kernel_uops = wgt_slot
            # vt x vt kernel copies (INP/WGT slot x ACC slot), plus reset/ALU micro-ops
            if wgt_slot > wgt_cap or vt * vt * kernel_uops + 4 * vt * geo.ocb > cfg.uop_depth:
                continue
            for th in divisors(geo.oh, lim.rows):
                in_rows = (th - 1) * s + k
                for tw in divisors(geo.ow, lim.cols):
                    in_cols = (tw - 1) * s + k
                    inp_slot, acc_slot = ticb * in_rows * in_cols, toc * th * tw
                    if (inp_slot > inp_cap or acc_slot > acc_cap or th > iter_max
                            or acc_slot > iter_max or s * in_cols >= cfg.inp_depth):
                        continue
                    t = Tiling(th, tw, toc, ticb, in_rows, in_cols, inp_slot, wgt_slot,
                               acc_slot, kernel_uops, 0)
                    found.append(replace(t, estimate=_cost(layer, cfg, geo, vt, t)))
    if not found:
        raise WorkloadError(f"layer {layer.name}: no tile fits the buffers of this configuration "
                            f"with vt={vt} (INP {inp_cap}, WGT {wgt_cap}, ACC {acc_cap} elements "
                            f"per slot, UOP {cfg.uop_depth})")
    return sorted(found, key=lambda t: (t.estimate, -t.acc_slot))[:count]
