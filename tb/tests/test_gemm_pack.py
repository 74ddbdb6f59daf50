"""Two GEMM products per multiplier (rtl/vta_gemm_alu.v; rtl/README.md, "Two GEMM products
per DSP"): the packed product's recovery equals the two plain products for every input.

* The arithmetic, for all 2^24 triples (x, wh, wl) of 8-bit signed values, in numpy: the
  design's form (x * (wh*2^S + wl) + acc*2^S + 2^(S-1), fields read back) and the textbook
  form it is equal to (p_lo = the low S bits sign-extended, p_hi = (pp >>> S) + pp[S-1]),
  and that the packed weights fit the DSP48E1's 25-bit port. Each wrong variant fails on
  exactly the triples it must: no correction, S one bit short (only x = wl = -128), and
  S = 17 with the packed weights cut to 25 bits (only wh = -128 with wl < 0).
* The RTL itself (tb/rtl/bench/vta_tb_gemm_pack_tb.v): vta_gemm_alu's GEMM data path
  (default PIPE_STAGES 3: read data registered in R, products in M1, sums in M2) on every
  triple at both input positions of BLOCK 2 (Verilator, 2 x 2^24 micro-op inputs), a sample
  on Icarus at every PIPE_STAGES (0: the post-adder chain form, combinational in stage C;
  1, 2, 3: the pipelined form), the plain path of an unpaired BLOCK, and a copy of the design without
  the correction, which the sample must catch on exactly the triples where x*wl < 0.
"""
from __future__ import annotations

import hashlib
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tb.bench.plain import VERILATOR_MAKEFLAGS
from tb.paths import BUILD_ROOT, RTL_DIR, rtl_headers, sim_env

INP_W = WGT_W = 8
S = INP_W + WGT_W                       # the design's shift (PK_S)
PK_W = S + WGT_W + 1                    # packed weights (25)
ACC_W = 32
HARNESS = Path(__file__).resolve().parents[1] / "rtl" / "bench" / "vta_tb_gemm_pack_tb.v"
TOP = "vta_tb_gemm_pack_tb"
V = np.arange(-(1 << 7), 1 << 7, dtype=np.int64)
WH, WL = (a.ravel() for a in np.meshgrid(V, V, indexing="ij"))   # every (wh, wl)
#: (x, wl) pairs with x*wl < 0: where the correction matters
NEGATIVE_PRODUCTS = 2 * 128 * 127
#: (acc + x*wh modulo 2^32, x*wl) over every (wh, wl), both signed
Pair = tuple[np.ndarray, np.ndarray]
#: a recovery: (x, acc over every (wh, wl)) -> Pair
Recover = Callable[[int, np.ndarray], Pair]


def sx(v: np.ndarray, bits: int) -> np.ndarray:
    """The low `bits` bits of v as a signed value."""
    v = v & ((1 << bits) - 1)
    return v - ((v >> (bits - 1)) << bits)


def design(x: int, acc: np.ndarray, s: int = S, pk_bits: int = PK_W,
           correct: bool = True) -> Pair:
    """rtl/vta_gemm_alu.v's mul_pair and field reads: (acc + x*wh mod 2^32, x*wl)."""
    pk = sx((WH << s) + WL, pk_bits)
    r = x * pk + (acc << s) + ((1 << (s - 1)) if correct else 0)
    r &= (1 << (s + ACC_W)) - 1
    hi = sx(r >> s, ACC_W)
    lo = sx((r & ((1 << s) - 1)) ^ ((1 << (s - 1)) if correct else 0), s)
    return hi, lo


def textbook(x: int, s: int = S, correct: bool = True) -> Pair:
    """p_hi = (pp >>> S) + pp[S-1], p_lo = pp's low S bits sign-extended."""
    pp = x * ((WH << s) + WL)
    return (pp >> s) + (((pp >> (s - 1)) & 1) if correct else 0), sx(pp, s)


def count_wrong(recover: Recover) -> int:
    """Triples (x, wh, wl) whose recovered pair differs from (x*wh, x*wl)."""
    wrong = 0
    for x in range(-128, 128):
        acc = sx((WH * 0x1F3D5B79 + WL * 0x9E3779B1 + x * 0x7F4A7C15) & 0xFFFFFFFF, ACC_W)
        hi, lo = recover(x, acc)
        wrong += int(np.count_nonzero((hi != sx(acc + x * WH, ACC_W)) | (lo != x * WL)))
    return wrong


def test_packed_weights_fit_the_dsp_port() -> None:
    pk = (WH << S) + WL
    assert -(1 << (PK_W - 1)) <= pk.min() and pk.max() < 1 << (PK_W - 1) and PK_W == 25
    wide = (WH << (S + 1)) + WL            # S = 17: one bit more than the port has
    assert wide.min() < -(1 << (PK_W - 1))


def with_acc(x: int, acc: np.ndarray, correct: bool = True) -> Pair:
    """The textbook form, the accumulator added afterwards."""
    hi, lo = textbook(x, correct=correct)
    return sx(acc + hi, ACC_W), lo


def test_recovery_is_exact_for_every_triple() -> None:
    assert count_wrong(design) == 0
    assert count_wrong(with_acc) == 0


@pytest.mark.parametrize("name, recover, wrong", [
    # no +pp[S-1]: x*wh one too small wherever x*wl < 0, for every wh
    ("no correction", lambda x, acc: design(x, acc, correct=False), 256 * NEGATIVE_PRODUCTS),
    ("textbook, no correction", lambda x, acc: with_acc(x, acc, correct=False), 256 * NEGATIVE_PRODUCTS),
    # S = 15: x*wl = 2^14 (x = wl = -128 only) no longer fits the low field
    ("S one bit short", lambda x, acc: design(x, acc, s=S - 1, pk_bits=PK_W - 1), 256),
    # S = 17 in a 25-bit port: wh*2^17 + wl wraps for wh = -128, wl < 0 (wrong for x != 0)
    ("S = 17 cut to 25 bits", lambda x, acc: design(x, acc, s=S + 1, pk_bits=PK_W), 128 * 255),
])
def test_each_wrong_recovery_fails_where_it_must(name: str, recover: Recover, wrong: int) -> None:
    assert count_wrong(recover) == wrong, name


# --- the RTL ------------------------------------------------------------------------------

def _harness_output(out: str) -> tuple[int, int, int]:
    pack = re.search(r"^PACK (\d+)", out, re.M)
    res = re.search(r"^GEMM_PACK (\d+) (\d+)", out, re.M)
    assert pack and res, out[-2000:]
    return int(pack[1]), int(res[1]), int(res[2])


def run_icarus(rtl_dir: Path, tmp_path: Path, log_block: int = 1,
               pipe_stages: int = 3) -> tuple[int, int, int, str]:
    """The harness's sample sweep (SWEEP 1) on Icarus: (PACK, checked, mismatches, output)."""
    vvp = tmp_path / f"gemm_pack_{log_block}_{pipe_stages}.vvp"
    subprocess.run(["iverilog", "-g2012", "-I", str(rtl_dir), "-s", TOP, "-o", str(vvp),
                    f"-P{TOP}.SWEEP=1", f"-P{TOP}.LOG_BLOCK={log_block}",
                    f"-P{TOP}.PIPE_STAGES={pipe_stages}",
                    str(rtl_dir / "vta_gemm_alu.v"), str(HARNESS)], check=True, capture_output=True)
    out = subprocess.run(["vvp", "-n", str(vvp)], capture_output=True, text=True, check=True).stdout
    return (*_harness_output(out), out)


def verilator_build() -> Path:
    """The harness's exhaustive build (SWEEP 0), reused while its sources are unchanged."""
    sources = [RTL_DIR / "vta_gemm_alu.v", HARNESS]
    h = hashlib.sha1()
    for path in sources + rtl_headers():
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    bdir = BUILD_ROOT / f"gemm-pack-{h.hexdigest()[:10]}"
    exe = bdir / "obj" / "gemm_pack"
    if exe.exists():
        return exe
    bdir.mkdir(parents=True, exist_ok=True)
    env = sim_env()
    env["MAKEFLAGS"] = " ".join(filter(None, (env.get("MAKEFLAGS", ""), VERILATOR_MAKEFLAGS)))
    proc = subprocess.run(["verilator", "--binary", "--timing", "-O3", "-Wno-fatal", "-Wno-lint",
                           "-Wno-style", f"-I{RTL_DIR}", "--top-module", TOP, "-o", "gemm_pack",
                           "--Mdir", str(bdir / "obj"), *map(str, sources)],
                          cwd=bdir, env=env, capture_output=True, text=True)
    (bdir / "build.log").write_text(proc.stdout + proc.stderr)
    assert proc.returncode == 0, f"Verilator build failed; see {bdir / 'build.log'}"
    return exe


@pytest.mark.sim
def test_rtl_packed_products_exact_for_every_triple() -> None:
    exe = verilator_build()
    out = subprocess.run([str(exe)], cwd=exe.parent, env=sim_env(), capture_output=True,
                         text=True, check=True).stdout
    assert _harness_output(out) == (1, 2 << 24, 0), out[-2000:]


@pytest.mark.sim
@pytest.mark.parametrize("pipe_stages", [0, 1, 2, 3])
def test_rtl_sample_on_icarus_and_the_plain_path(tmp_path: Path, pipe_stages: int) -> None:
    pack, checked, bad, out = run_icarus(RTL_DIR, tmp_path, pipe_stages=pipe_stages)
    assert (pack, checked, bad) == (1, 2 << 16, 0), out[-2000:]
    # BLOCK 1 has no lane to pair with: the plain products, every (x, w)
    pack, checked, bad, out = run_icarus(RTL_DIR, tmp_path, log_block=0, pipe_stages=pipe_stages)
    assert (pack, checked, bad) == (0, 1 << 16, 0), out[-2000:]


@pytest.mark.sim
def test_rtl_without_the_correction_is_caught(tmp_path: Path) -> None:
    """A copy of the design whose hi product is pp >>> S alone (no 2^(S-1), lo read as is):
    wrong exactly where x*wl < 0, for each of the sample's two wh."""
    broken = tmp_path / "rtl"
    broken.mkdir()
    for path in [RTL_DIR / "vta_gemm_alu.v", *rtl_headers()]:
        (broken / path.name).write_text(path.read_text())
    src = (broken / "vta_gemm_alu.v").read_text()
    edits = [("+ {acc, 1'b1, {(PK_S-1){1'b0}}};", "+ {acc, 1'b0, {(PK_S-1){1'b0}}};"),
             ("sx_prod({~r[PK_S-1], r[PK_S-2:0]})", "sx_prod({r[PK_S-1], r[PK_S-2:0]})")]
    for old, new in edits:
        assert src.count(old) == 1, f"rtl/vta_gemm_alu.v no longer has {old!r}: update this test"
        src = src.replace(old, new)
    (broken / "vta_gemm_alu.v").write_text(src)
    pack, checked, bad, out = run_icarus(broken, tmp_path)
    assert (pack, checked, bad) == (1, 2 << 16, 2 * NEGATIVE_PRODUCTS), out[-2000:]
    assert re.search(r"^MISMATCH 1 -?\d+ -?\d+ -?\d+ hi ", out, re.M), out[-2000:]
