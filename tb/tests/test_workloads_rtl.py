"""`make workloads` on the scaled-down ResNet-18 layers, both simulators (every layer on
Verilator, four on Icarus), both vt.

Runs the command's module (tb.workloads.run) as `make workloads SCALE=small` does and
checks what the report claims against what must hold: every layer verified byte for byte
by the testbench, the RTL never faster than the roofline bound (achieved <= 1: a cycle
count below the bound would mean the counters or the bound are wrong), the RTL's work
counters equal to the model's prediction, and the two virtual threads faster than one on
every layer whose schedule has something to overlap.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.workloads.layers import LAYER_NAMES
from tb.workloads.run import main

#: Counters the model predicts exactly for a well-formed program (models/predict.py).
EXACT = ("GEMM_UOPS", "ALU_UOPS", "RD_BYTES", "WR_BYTES", "LOAD_INSNS", "COMPUTE_INSNS", "STORE_INSNS")


#: Layers per simulator: every one on Verilator; on Icarus (four-state, ten times slower) a
#: 7x7 stride-2 convolution, a 3x3 one, a 1x1 one and the dense layer.
LAYERS = {"verilator": LAYER_NAMES, "icarus": ["C1", "C2", "C4", "dense"]}


@pytest.mark.sim
@pytest.mark.parametrize("sim", ["verilator", "icarus"])
def test_small_layers_on_the_rtl(sim: str, tmp_path: Path) -> None:
    layers = LAYERS[sim]
    assert main(["--scale", "small", "--sim", sim, "--vt", "1,2", "--layers", ",".join(layers),
                 "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    cases = report["cases"]
    assert sorted({c["layer"] for c in cases}) == sorted(layers) and len(cases) == 2 * len(layers)
    for c in cases:
        where = f"{c['layer']} vt={c['vt']}"
        assert c["passed"], f"{where}: {c['failure']}"
        measured, predicted = c["measured"], c["predicted"]
        assert measured["cycles"] >= measured["bound"], f"{where}: faster than the roofline bound"
        for name in EXACT:
            assert measured["counters"][name] == predicted["counters"][name], f"{where}: {name}"
        if c["vt"] == 2:
            assert c["vt2_speedup"] > 1.0, f"{where}: two virtual threads are not faster than one"
    assert (tmp_path / "roofline.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = (tmp_path / "report.md").read_text()
    assert all(f"| {name} |" in text for name in layers)


def test_bad_arguments_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for args, word in ((["--layers", "C12"], "C12"), (["--vt", "3"], "--vt"),
                       (["--config", "nope"], "nope")):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
        err = capsys.readouterr().err.strip()
        assert word in err and "\n" not in err, err
