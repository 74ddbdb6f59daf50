"""What the directed vectors put into DRAM, and in which layout.

Every vector is written for one of three shipped configurations (or `small` on a wider
bus) and draws its random data from a generator seeded by its own name, so regenerating
one vector never changes another and two runs give byte-identical files. The shape helpers name the element
layouts of spec section 1 (an INP element is BATCH x BLOCK_IN lanes, ...); :func:`tiles`
cuts whole matrices into those elements, and :func:`put_matrices` / :func:`random_inp_wgt`
place GEMM operands the way most vectors do.
"""
from __future__ import annotations

import zlib

import numpy as np

from models.config import VtaConfig
from models.spec.configs import load_config
from vectors.programs import Program, as_bytes
from vectors.reference import I32_MAX, I32_MIN

SMALL = load_config("small")
DEFAULT = load_config("default")
BATCH2 = load_config("batch2")
#: `small` on a 128-bit bus: its 4-byte INP, UOP, ACC_8BIT and OUT elements sit at every
#: offset of a 16-byte beat, which no shipped configuration (all 64-bit) shows.
SMALL_WIDE_BUS = VtaConfig.from_dict({**SMALL.overrides(), "LOG_BUS_WIDTH": 7}, "small, 128-bit bus")


def rng_for(name: str) -> np.random.Generator:
    """A generator seeded by the vector name, so each vector is reproducible on its own."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def i8(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Random int8 values (held as int64)."""
    return rng.integers(-128, 128, size=shape, dtype=np.int64)


def i32(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Random int32 values with the extremes and small values mixed in (held as int64)."""
    vals = rng.integers(I32_MIN, I32_MAX + 1, size=shape, dtype=np.int64)
    flat = vals.reshape(-1)
    specials = [I32_MIN, I32_MAX, 0, -1, 1, 127, -128, 255]
    for n in range(0, flat.size, 3):
        flat[n] = specials[(n // 3) % len(specials)] if n % 2 == 0 else rng.integers(-300, 300)
    return vals


def acc_shape(cfg: VtaConfig, n: int) -> tuple[int, int, int]:
    """Shape of n ACC/OUT elements: (n, BATCH, BLOCK_OUT)."""
    return (n, cfg.batch, cfg.block_out)


def inp_shape(cfg: VtaConfig, n: int) -> tuple[int, int, int]:
    """Shape of n INP elements: (n, BATCH, BLOCK_IN)."""
    return (n, cfg.batch, cfg.block_in)


def wgt_shape(cfg: VtaConfig, n: int) -> tuple[int, int, int]:
    """Shape of n WGT elements: (n, BLOCK_OUT, BLOCK_IN)."""
    return (n, cfg.block_out, cfg.block_in)


def tiles(mat: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Split a matrix into (R/rows, C/cols, rows, cols) blocks, block-row-major.

    This is the DRAM layout of VTA tensors: INP blocks are BATCH x BLOCK_IN slices of
    the activation matrix, WGT blocks BLOCK_OUT x BLOCK_IN slices of the weight matrix
    (row-major [out][in]) and ACC/OUT blocks BATCH x BLOCK_OUT slices of the result.
    """
    r, c = mat.shape
    return mat.reshape(r // rows, rows, c // cols, cols).transpose(0, 2, 1, 3)


def acc_elements(cfg: VtaConfig, mat: np.ndarray) -> np.ndarray:
    """A result matrix (a multiple of BATCH rows and BLOCK_OUT columns) as ACC/OUT elements,
    block-row-major: the order in which a blocked GEMM's accumulators are stored."""
    return tiles(mat, cfg.batch, cfg.block_out).reshape(acc_shape(cfg, -1))


def put_matrices(p: Program, a: np.ndarray, b: np.ndarray) -> tuple[int, int]:
    """Place activations ``a`` (rows x K) as INP and weights ``b`` (cols x K) as WGT elements,
    block-row-major (images inp.bin, wgt.bin); returns their dram_bases."""
    cfg = p.cfg
    inp = tiles(a, cfg.batch, cfg.block_in)
    wgt = tiles(b, cfg.block_out, cfg.block_in)
    return (p.alloc("inp", inp.shape[0] * inp.shape[1], as_bytes(inp, np.int8), "inp"),
            p.alloc("wgt", wgt.shape[0] * wgt.shape[1], as_bytes(wgt, np.int8), "wgt"))


def random_inp_wgt(p: Program, rng: np.random.Generator, n_inp: int,
                   n_wgt: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """n_inp random INP and n_wgt random WGT elements placed in DRAM (inp.bin, wgt.bin).

    Returns (inp, wgt, inp dram_base, wgt dram_base).
    """
    cfg = p.cfg
    inp = i8(rng, *inp_shape(cfg, n_inp))
    wgt = i8(rng, *wgt_shape(cfg, n_wgt))
    return (inp, wgt, p.alloc("inp", n_inp, as_bytes(inp, np.int8), "inp"),
            p.alloc("wgt", n_wgt, as_bytes(wgt, np.int8), "wgt"))


def fill_bytes(n: int, value: int) -> bytes:
    """An init pattern for output regions, so untouched bytes are distinguishable from 0."""
    return bytes([value]) * n
