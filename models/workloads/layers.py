"""The layer table: ResNet-18's convolutions and its final dense layer, as TVM's VTA
ResNet-18 benchmark lists them, plus a scaled-down variant of each.

A layer is the operator's shape only; the workload compiler (lower.py) decides tiles and
the reference (reference.py) computes its result. The scaled-down variants keep each
layer's kernel, stride and padding but have few channels and rows, and they carry tile
limits that split them into several tiles, input-channel chunks and output-channel chunks
so that the schedule's pipelining (virtual threads, ACC accumulation across chunks,
reused micro-op kernels) is exercised in a few thousand cycles.
"""
from __future__ import annotations

from dataclasses import dataclass, replace


class WorkloadError(ValueError):
    """A layer or a workload request that cannot be lowered; the message names the layer."""


@dataclass(frozen=True)
class TileLimits:
    """Upper bounds on a tile, below what the buffers allow (0: no bound)."""

    rows: int = 0      # output rows per tile
    cols: int = 0      # output columns per tile
    oc_blocks: int = 0  # output-channel blocks per tile
    ic_blocks: int = 0  # input-channel blocks per reduction chunk


@dataclass(frozen=True)
class Layer:
    """conv2d (NCHW activations, OIHW weights, symmetric padding) or dense (a 1x1 conv on a
    1x1 image: in_channels -> out_channels). A program computes the configuration's BATCH
    images at once, one per batch lane of an INP element."""

    name: str
    kind: str           # "conv2d" or "dense"
    height: int
    width: int
    in_channels: int
    out_channels: int
    kernel: int = 1
    stride: int = 1
    pad: int = 0
    limits: TileLimits = TileLimits()

    def __post_init__(self) -> None:
        if self.kind not in ("conv2d", "dense"):
            raise WorkloadError(f"layer {self.name}: kind {self.kind!r} is neither conv2d nor dense")
        for key in ("height", "width", "in_channels", "out_channels", "kernel", "stride"):
            if getattr(self, key) < 1:
                raise WorkloadError(f"layer {self.name}: {key} must be >= 1")
        if self.pad < 0 or self.pad >= self.kernel:
            raise WorkloadError(f"layer {self.name}: pad {self.pad} must be in [0, kernel)")
        if self.out_height < 1 or self.out_width < 1:
            raise WorkloadError(f"layer {self.name}: the kernel does not fit the padded input")

    @property
    def out_height(self) -> int:
        return (self.height + 2 * self.pad - self.kernel) // self.stride + 1

    @property
    def out_width(self) -> int:
        return (self.width + 2 * self.pad - self.kernel) // self.stride + 1

    @property
    def macs(self) -> int:
        """Multiply-accumulates of one image (the real channels, not the padded blocks)."""
        return (self.out_height * self.out_width * self.out_channels * self.in_channels
                * self.kernel * self.kernel)

    def describe(self) -> str:
        if self.kind == "dense":
            return f"dense {self.in_channels}->{self.out_channels}"
        return (f"conv2d {self.height}x{self.width} {self.in_channels}->{self.out_channels} "
                f"k{self.kernel} s{self.stride} p{self.pad}")


def _conv(name: str, hw: int, cin: int, cout: int, k: int, s: int, p: int,
          limits: TileLimits = TileLimits()) -> Layer:
    return Layer(name, "conv2d", hw, hw, cin, cout, k, s, p, limits)


#: Full-size layers: TVM's VTA ResNet-18 benchmark table (C1's 3 input channels are padded
#: to the block by the compiler) and the classifier.
FULL: dict[str, Layer] = {layer.name: layer for layer in (
    _conv("C1", 224, 3, 64, 7, 2, 3),
    _conv("C2", 56, 64, 64, 3, 1, 1),
    _conv("C3", 56, 64, 128, 3, 2, 1),
    _conv("C4", 56, 64, 128, 1, 2, 0),
    _conv("C5", 28, 128, 128, 3, 1, 1),
    _conv("C6", 28, 128, 256, 3, 2, 1),
    _conv("C7", 28, 128, 256, 1, 2, 0),
    _conv("C8", 14, 256, 256, 3, 1, 1),
    _conv("C9", 14, 256, 512, 3, 2, 1),
    _conv("C10", 14, 256, 512, 1, 2, 0),
    _conv("C11", 7, 512, 512, 3, 1, 1),
    Layer("dense", "dense", 1, 1, 512, 1000),
)}

#: Scaled-down variants: the same kernel, stride and padding; channels in units of the
#: block (``c`` below is resolved against the configuration's BLOCK), and tile limits
#: that force several spatial tiles, output-channel chunks and input-channel chunks.
_SMALL_SHAPES: dict[str, tuple[int, int, int, TileLimits]] = {
    # name: (spatial size, input channel blocks, output channel blocks, limits)
    "C1": (12, 1, 2, TileLimits(rows=2)),
    "C2": (8, 2, 2, TileLimits(rows=4, oc_blocks=1, ic_blocks=1)),
    "C3": (8, 2, 2, TileLimits(rows=2, oc_blocks=1, ic_blocks=1)),
    "C4": (8, 2, 2, TileLimits(rows=2, oc_blocks=1, ic_blocks=1)),
    "C5": (6, 2, 2, TileLimits(rows=3, oc_blocks=1, ic_blocks=1)),
    "C6": (8, 2, 2, TileLimits(rows=2, cols=2, oc_blocks=1, ic_blocks=1)),
    "C7": (8, 2, 3, TileLimits(rows=2, oc_blocks=1, ic_blocks=1)),
    "C8": (6, 3, 2, TileLimits(rows=2, oc_blocks=1, ic_blocks=2)),
    "C9": (6, 2, 3, TileLimits(rows=1, oc_blocks=1, ic_blocks=1)),
    "C10": (6, 2, 3, TileLimits(rows=1, oc_blocks=1, ic_blocks=1)),
    "C11": (4, 3, 3, TileLimits(rows=2, oc_blocks=1, ic_blocks=1)),
    "dense": (1, 4, 3, TileLimits(oc_blocks=1, ic_blocks=2)),
}

LAYER_NAMES: tuple[str, ...] = tuple(FULL)
SCALES = ("full", "small")


def small_layer(name: str, block_in: int, block_out: int) -> Layer:
    """The scaled-down variant of ``name`` for a configuration's block sizes.

    C1 keeps its 3 real input channels (padded to the block, as at full size) and the dense
    layer keeps an output count that is not a multiple of the block (1000 is not either)."""
    full = FULL[name]
    size, icb, ocb, limits = _SMALL_SHAPES[name]
    cin = 3 if name == "C1" else icb * block_in
    cout = ocb * block_out - (block_out // 2 if name == "dense" else 0)
    return replace(full, name=f"{name}-small", height=size, width=size, in_channels=cin,
                   out_channels=cout, limits=limits)


def get_layer(name: str, scale: str, block_in: int, block_out: int) -> Layer:
    """A layer of the table by name and scale; errors name the unknown value."""
    if scale not in SCALES:
        raise WorkloadError(f"scale {scale!r} is not one of {', '.join(SCALES)}")
    if name not in FULL:
        raise WorkloadError(f"layer {name!r} is not one of {', '.join(LAYER_NAMES)}")
    return FULL[name] if scale == "full" else small_layer(name, block_in, block_out)


def select(names: str) -> list[str]:
    """Layer names from a comma-separated list or ``all``, in table order."""
    if names.strip() == "all":
        return list(LAYER_NAMES)
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    for n in wanted:
        if n not in FULL:
            raise WorkloadError(f"layer {n!r} is not one of {', '.join(LAYER_NAMES)} (or all)")
    if not wanted:
        raise WorkloadError("no layer named (give NAME[,NAME...] or all)")
    return [n for n in LAYER_NAMES if n in wanted]

#: How often each layer occurs in ResNet-18 (its basic blocks repeat C2, C5, C8 and C11):
#: the weights of the whole-network figure.
OCCURRENCES = {"C1": 1, "C2": 4, "C3": 1, "C4": 1, "C5": 3, "C6": 1, "C7": 1, "C8": 3, "C9": 1,
               "C10": 1, "C11": 3, "dense": 1}
