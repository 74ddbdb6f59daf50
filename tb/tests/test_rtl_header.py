"""rtl/vta_isa.vh, the RTL's instruction field positions, is what models/hdl_isa.py generates
from models/isa.py, and the positions the header computes in Verilog (Icarus) equal
``models.isa.layout`` field by field for every shipped configuration and more."""
from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from models import hdl_isa
from models.config import ConfigError, VtaConfig
from models.isa import FIELDS, layout
from models.spec.configs import load_config
from tb.paths import RTL_DIR

#: LOG_BLOCK 1..5 with small buffers (LOG_BATCH varied too).
SMALL_BLOCKS = {f"block{1 << b}_batch{1 << (b % 3)}": {
    "LOG_BLOCK": b, "LOG_BATCH": b % 3, "LOG_UOP_BUFF_SIZE": 8 + b, "LOG_INP_BUFF_SIZE": 8 + 2 * b,
    "LOG_WGT_BUFF_SIZE": 9 + 2 * b, "LOG_ACC_BUFF_SIZE": 9 + 2 * b} for b in range(1, 6)}
#: The 64-bit rule moves a GEMM and an ALU field; the smallest buffers.
EXTREMES = {"two_skips": {"LOG_BLOCK": 1, "LOG_UOP_BUFF_SIZE": 11, "LOG_INP_BUFF_SIZE": 9,
                          "LOG_WGT_BUFF_SIZE": 18, "LOG_ACC_BUFF_SIZE": 11},
            "shallowest": {"LOG_BLOCK": 1, "LOG_UOP_BUFF_SIZE": 3, "LOG_INP_BUFF_SIZE": 4,
                           "LOG_WGT_BUFF_SIZE": 5, "LOG_ACC_BUFF_SIZE": 6}}


def configs() -> dict[str, VtaConfig]:
    out = {name: load_config(name) for name in ("default", "small", "batch2")}
    out.update({n: VtaConfig.from_dict(v, n) for n, v in {**SMALL_BLOCKS, **EXTREMES}.items()})
    rng = random.Random(7)  # and some random valid ones
    while len(out) < 40:
        values = {"LOG_BATCH": rng.randint(0, 3), "LOG_BLOCK": rng.randint(1, 5),
                  "LOG_UOP_BUFF_SIZE": rng.randint(3, 18),
                  **{f"LOG_{m}_BUFF_SIZE": rng.randint(4, 24) for m in ("INP", "WGT", "ACC")}}
        try:
            out[f"random{len(out)}"] = VtaConfig.from_dict(values, "random")
        except ConfigError:
            continue
    return out


def test_header_is_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    assert hdl_isa.HEADER == RTL_DIR / "vta_isa.vh"
    assert hdl_isa.HEADER.read_text() == hdl_isa.render()
    assert "do not edit" in hdl_isa.render().splitlines()[1]
    assert hdl_isa.main(["--check"]) == 0
    stale = tmp_path / "vta_isa.vh"
    stale.write_text(hdl_isa.render().replace("= 10;", "= 11;"))
    monkeypatch.setattr(hdl_isa, "HEADER", stale)
    monkeypatch.setattr(hdl_isa, "ROOT", tmp_path)
    assert hdl_isa.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "vta_isa.vh is stale" in err, err


def probe_source(cfgs: dict[str, VtaConfig]) -> str:
    """A test-only top that includes the header once per configuration and prints every
    field's position and width."""
    shows = [f'        $display("%0d {kind}.{name} %0d %0d", ID, {ident}, {ident}_W);'
             for kind, fields in FIELDS.items() for name, _ in fields
             for ident in [hdl_isa.hdl_name(kind, name)]]
    insts = [f"    isa_probe #(.ID({n}), .LOG_UOP_DEPTH({c.log_uop_depth}), "
             f".LOG_INP_DEPTH({c.log_inp_depth}), .LOG_WGT_DEPTH({c.log_wgt_depth}), "
             f".LOG_ACC_DEPTH({c.log_acc_depth})) u{n} ();"
             for n, c in enumerate(cfgs.values())]
    return "\n".join([
        "module isa_probe #(parameter integer ID = 0, parameter integer LOG_UOP_DEPTH = 1,",
        "    parameter integer LOG_INP_DEPTH = 1, parameter integer LOG_WGT_DEPTH = 1,",
        "    parameter integer LOG_ACC_DEPTH = 1) ();",
        f"`define {hdl_isa.LOOP_MACRO}",
        '`include "vta_isa.vh"',
        "    initial begin", *shows, "    end",
        "endmodule",
        "module isa_probe_top;", *insts, "endmodule", ""])


def test_header_positions_equal_layout(tmp_path: Path) -> None:
    cfgs = configs()
    src = tmp_path / "isa_probe.v"
    src.write_text(probe_source(cfgs))
    vvp = tmp_path / "isa_probe.vvp"
    res = subprocess.run(["iverilog", "-g2012", "-Wall", "-I", str(RTL_DIR), "-s", "isa_probe_top",
                          "-o", str(vvp), str(src)], capture_output=True, text=True)
    assert res.returncode == 0 and not res.stdout + res.stderr, res.stdout + res.stderr
    res = subprocess.run(["vvp", "-n", str(vvp)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    got: dict[tuple[int, str], tuple[int, int]] = {}
    for line in res.stdout.splitlines():
        ident, field, lsb, width = line.split()
        got[(int(ident), field)] = (int(lsb), int(width))
    want = {(n, f"{kind}.{f.name}"): (f.lsb, f.width)
            for n, cfg in enumerate(cfgs.values()) for kind in FIELDS for f in layout(cfg, kind)}
    names = list(cfgs)
    bad = [f"{names[n]} {field}: header {got.get((n, field))}, layout {pos}"
           for (n, field), pos in want.items() if got.get((n, field)) != pos]
    assert got.keys() == want.keys() and not bad, "\n".join(bad[:20])
    # the 64-bit rule was exercised: in some GEMM/ALU layouts a field skips bits to a word start
    assert any(b.lsb > a.lsb + a.width for cfg in cfgs.values() for kind in ("gemm", "alu")
               for a, b in zip(layout(cfg, kind), layout(cfg, kind)[1:], strict=False))
