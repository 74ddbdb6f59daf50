"""models.workloads: the reference against hand computation and a naive loop, the layouts by
index, the tiler's limits, and every lowered layer against the reference on the executor."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from models.compare import compare_vector
from models.config import VtaConfig
from models.predict import predict
from models.spec.configs import load_config
from models.vector import load_vector
from models.workloads import layout, reference, workload
from models.workloads.designs import design_points, macs_per_cycle, resolve, sram_bytes
from models.workloads.layers import FULL, LAYER_NAMES, Layer, TileLimits, WorkloadError, get_layer, select
from models.workloads.tiling import candidates

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = load_config("default")


# --- reference ------------------------------------------------------------------------------
def test_epilogue_by_hand() -> None:
    acc = np.array([[1000, -256, 200 << 8, -5 << 8, 255]], dtype=np.int64)
    bias = np.array([5], dtype=np.int64)
    # 1000>>8 = 3, +5 = 8; -256>>8 = -1 (arithmetic), +5 = 4; 200+5 clips to 127; -5+5 = 0; 0+5
    assert reference.epilogue(acc.reshape(1, 1, 5), bias).ravel().tolist() == [8, 4, 127, 0, 5]


def test_conv_padding_by_hand() -> None:
    """A 2x2 image of ones, a 3x3 kernel of ones, pad 1: every output sees all 4 pixels."""
    x = np.ones((1, 1, 2, 2), dtype=np.int64)
    w = np.ones((1, 1, 3, 3), dtype=np.int64)
    assert reference.conv2d_acc(x, w, 1, 1).ravel().tolist() == [4, 4, 4, 4]
    # stride 2 over a 3x3 image with pad 1: outputs at (0,0), (0,2), (2,0), (2,2) centres
    x = np.arange(9, dtype=np.int64).reshape(1, 1, 3, 3)
    acc = reference.conv2d_acc(x, w, 2, 1).ravel().tolist()
    assert acc == [0 + 1 + 3 + 4, 1 + 2 + 4 + 5, 3 + 4 + 6 + 7, 4 + 5 + 7 + 8]


def naive_conv(x: np.ndarray, w: np.ndarray, stride: int, pad: int) -> np.ndarray:
    """Seven nested loops: the definition of a convolution, nothing shared with im2col."""
    n, c, h, wd = x.shape
    o, _, k, _ = w.shape
    oh, ow = (h + 2 * pad - k) // stride + 1, (wd + 2 * pad - k) // stride + 1
    out = np.zeros((n, o, oh, ow), dtype=np.int64)
    for b in range(n):
        for oc in range(o):
            for y in range(oh):
                for xx in range(ow):
                    total = 0
                    for ic in range(c):
                        for dy in range(k):
                            for dx in range(k):
                                iy, ix = y * stride - pad + dy, xx * stride - pad + dx
                                if 0 <= iy < h and 0 <= ix < wd:
                                    total += int(x[b, ic, iy, ix]) * int(w[oc, ic, dy, dx])
                    out[b, oc, y, xx] = total
    return out


@pytest.mark.parametrize("k, s, p", [(1, 1, 0), (1, 2, 0), (3, 1, 1), (3, 2, 1), (7, 2, 3)])
def test_conv_matches_naive_loops(k: int, s: int, p: int) -> None:
    rng = np.random.default_rng(k * 10 + s)
    x = rng.integers(-128, 128, size=(2, 3, 9, 8))
    w = rng.integers(-128, 128, size=(4, 3, k, k))
    assert np.array_equal(reference.conv2d_acc(x, w, s, p), naive_conv(x, w, s, p))


def test_dense_by_hand() -> None:
    x = np.array([[1, 2, 3]])
    w = np.array([[256, 0, 0], [0, 256, 256], [-256, 0, 0]])
    assert reference.dense(x, w, np.array([1, 0, 0])).tolist() == [[2, 5, 0]]


# --- layouts --------------------------------------------------------------------------------
def test_activation_layout_by_index() -> None:
    x = np.arange(2 * 5 * 3 * 2).reshape(2, 5, 3, 2) % 100  # N=2, C=5 (2 blocks of 4), H=3, W=2
    data = np.frombuffer(layout.pack_activations(x.astype(np.int8), 4), dtype=np.int8)
    elems = data.reshape(2, 3, 2, 2, 4)  # (cb, y, x, b, k)
    assert elems[1, 2, 1, 1, 0] == x[1, 4, 2, 1]
    assert elems[0, 1, 0, 0, 3] == x[0, 3, 1, 0]
    assert (elems[1, :, :, :, 1:] == 0).all()  # channels 5..7 are padding


def test_weight_layout_by_index() -> None:
    w = (np.arange(6 * 5 * 3 * 3).reshape(6, 5, 3, 3) % 101).astype(np.int8)
    data = np.frombuffer(layout.pack_weights(w, 4, 4), dtype=np.int8).reshape(2, 2, 3, 3, 4, 4)
    assert data[1, 0, 2, 1, 1, 3] == w[5, 3, 2, 1]      # (ob, ib, dy, dx, j, k)
    assert (data[1, :, :, :, 2:, :] == 0).all()         # output channels 6, 7 are padding


def test_bias_layout_repeats_per_image() -> None:
    data = np.frombuffer(layout.pack_bias(np.array([7, -3, 9]), 2, 2), dtype="<i4").reshape(2, 2, 2)
    assert data[0].tolist() == [[7, -3], [7, -3]] and data[1].tolist() == [[9, 0], [9, 0]]


# --- layers and tiling ----------------------------------------------------------------------
def test_layer_table_shapes() -> None:
    """Output sizes as TVM's ResNet-18 table has them."""
    assert [(FULL[n].out_height, FULL[n].out_channels) for n in ("C1", "C2", "C3", "C4", "C11")] == [
        (112, 64), (56, 64), (28, 128), (28, 128), (7, 512)]
    assert select("C5,C2") == ["C2", "C5"] and select("all") == list(LAYER_NAMES)


@pytest.mark.parametrize("bad, rule", [
    (dict(pad=3, kernel=3), "pad 3 must be in"), (dict(height=0), "height must be >= 1"),
    (dict(kind="pool"), "neither conv2d nor dense"), (dict(kernel=9, height=4, width=4), "does not fit")])
def test_bad_layer_is_named(bad: dict, rule: str) -> None:
    args = dict(name="L", kind="conv2d", height=8, width=8, in_channels=16, out_channels=16, kernel=3, pad=1)
    args.update(bad)
    with pytest.raises(WorkloadError, match=rule):
        Layer(**args)  # type: ignore[arg-type]


def test_unknown_names_are_errors() -> None:
    with pytest.raises(WorkloadError, match="'C12' is not one of"):
        select("C2,C12")
    with pytest.raises(WorkloadError, match="scale 'huge'"):
        get_layer("C2", "huge", 16, 16)


@pytest.mark.parametrize("name", LAYER_NAMES)
@pytest.mark.parametrize("vt", [1, 2])
def test_tiles_fit_the_buffers(name: str, vt: int) -> None:
    layer = FULL[name]
    t = candidates(layer, DEFAULT, vt, 1)[0]
    assert t.inp_slot * vt <= DEFAULT.inp_depth and t.wgt_slot * vt <= DEFAULT.wgt_depth
    assert t.acc_slot * vt + -(-layer.out_channels // 16) <= DEFAULT.acc_depth
    assert t.in_rows == (t.rows - 1) * layer.stride + layer.kernel


def test_tile_limits_are_respected() -> None:
    layer = Layer("L", "conv2d", 8, 8, 64, 64, 3, 1, 1, TileLimits(rows=2, cols=4, oc_blocks=1, ic_blocks=2))
    t = candidates(layer, DEFAULT, 2, 1)[0]
    assert t.rows <= 2 and t.cols <= 4 and t.oc_blocks == 1 and t.ic_blocks <= 2


def test_no_fit_is_a_named_error() -> None:
    """A 23x23 kernel needs 529 weight elements for one block pair: more than half of WGT."""
    layer = Layer("huge", "conv2d", 24, 24, 16, 16, 23, 1, 0)
    with pytest.raises(WorkloadError, match="layer huge: no tile fits"):
        candidates(layer, DEFAULT, 2, 1)


# --- lowered programs against the reference ---------------------------------------------------
def _agrees(cfg: VtaConfig, name: str, scale: str, vt: int) -> None:
    w = workload(name, scale, cfg, vt)
    pred = predict(w.vector)
    assert pred.report.ok, pred.report.format()
    assert pred.result is not None, pred.error
    report = compare_vector(w.vector, pred.result.dram)
    assert report.ok, report.format()


@pytest.mark.parametrize("config", ["default", "small", "batch2"])
@pytest.mark.parametrize("vt", [1, 2])
def test_small_layers_agree_with_reference(config: str, vt: int) -> None:
    cfg = load_config(config)
    for name in LAYER_NAMES:
        _agrees(cfg, name, "small", vt)


@pytest.mark.parametrize("name", LAYER_NAMES)
def test_full_layers_agree_with_reference(name: str) -> None:
    """Every full-size layer, both virtual-thread counts, default configuration."""
    for vt in (1, 2):
        _agrees(DEFAULT, name, "full", vt)


def test_small_layers_pipeline() -> None:
    """The scaled-down variants exist to exercise the schedule: several tiles and chunks."""
    for name in LAYER_NAMES:
        w = workload(name, "small", DEFAULT, 2)
        layer = w.layer
        chunks = -(-layer.in_channels // 16) // w.tiling.ic_blocks
        tiles = (layer.out_height // w.tiling.rows) * (-(-layer.out_channels // 16) // w.tiling.oc_blocks)
        assert tiles * chunks >= 3, name


def test_design_points() -> None:
    points = design_points()
    assert {"block8", "block32", "batch2", "small-buffers"} <= set(points)
    assert list(resolve("designs"))[0] == "default" and len(resolve("designs")) == len(points) + 1
    b32 = VtaConfig.from_file(points["block32"])
    assert macs_per_cycle(b32) == 32 * 32
    # default: UOP 32 KiB, INP 32 KiB, WGT 256 KiB, ACC 128 KiB + OUT 2048 x 16 B
    assert sram_bytes(DEFAULT) == (32 + 32 + 256 + 128 + 32) * 1024


def test_cli_writes_vectors(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "models", "workload", "C2,dense", "--scale", "small",
                          "--vt", "1", "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    vec = load_vector(tmp_path / "C2-small-vt1")
    assert vec.expect and (tmp_path / "dense-small-vt1" / "manifest.json").is_file()
    bad = subprocess.run([sys.executable, "-m", "models", "workload", "C12", "--out", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "C12" in bad.stderr
