"""`make workloads` on the scaled-down ResNet-18 layers, both simulators (every layer on
Verilator, two on Icarus), both vt.

Runs the command's module (tb.workloads.run) as `make workloads SCALE=small` does and
checks what the report claims against what must hold: every layer verified byte for byte
by the testbench, the RTL never faster than the roofline bound (achieved <= 1: a cycle
count below the bound would mean the counters or the bound are wrong), the RTL's work
counters equal to the model's prediction, and the two virtual threads faster than one on
every layer whose schedule has something to overlap.
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from models.config import VtaConfig
from models.workloads import Workload, WorkloadError, workload
from models.workloads.layers import LAYER_NAMES
from tb.workloads import run as workloads
from tb.workloads.run import main

#: Counters the model predicts exactly for a well-formed program (models/predict.py).
EXACT = ("GEMM_UOPS", "ALU_UOPS", "RD_BYTES", "WR_BYTES", "LOAD_INSNS", "COMPUTE_INSNS", "STORE_INSNS")


#: Layers per simulator: every one on Verilator; on Icarus (four-state, ten times slower) a
#: 3x3 convolution and the dense layer.
LAYERS = {"verilator": LAYER_NAMES, "icarus": ["C4", "dense"]}


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


@pytest.mark.sim
def test_a_refused_layer_is_one_error_row_and_the_others_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """C1's lowering fails and C2's vector has one instruction more than its image holds (the
    lowering itself stands in for a broken one): each is an ERROR row with its reason, dense
    still runs and passes on the RTL, and the run exits 1."""
    def lower(name: str, scale: str, cfg: VtaConfig, vt: int) -> Workload:
        if name == "C1":
            raise WorkloadError("C1: stands in for a layer that cannot be lowered")
        w = workload(name, scale, cfg, vt)
        if name != "C2":
            return w
        longer = dataclasses.replace(w.vector, insn_count=w.vector.insn_count + 1)
        return dataclasses.replace(w, vector=longer)

    monkeypatch.setattr(workloads, "workload", lower)
    status = main(["--scale", "small", "--sim", "icarus", "--vt", "1", "--layers", "C1,C2,dense",
                   "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "1 of 3 passed, 0 excluded, 2 refused (ERROR), in " in out, out
    assert "\nERROR default C1 vt=1: not lowered: C1: stands in for a layer that cannot be lowered\n" in out
    assert re.search(r"\nERROR default C2 vt=1: the lowered vector is refused: \S+/C2-vt1/manifest\.json: "
                     r"insn_count \d+: the instructions are .* but they run beyond the end of init\[\d+\]",
                     out), out
    cases = {c["layer"]: c for c in json.loads((tmp_path / "report.json").read_text())["cases"]}
    assert cases["dense"]["passed"] and cases["dense"]["measured"]["cycles"] > 0
    assert not cases["C1"]["passed"] and not cases["C2"]["passed"] and not cases["C2"]["measured"]
    md = (tmp_path / "report.md").read_text()
    assert re.search(r"^\| C1 \| [^|]+ \| 1 \| [^|]+ \| ERROR \|", md, re.M), md
    assert re.search(r"^\| dense \| [^|]+ \| 1 \| [^|]+ \| PASS \|", md, re.M), md
    assert "- ERROR C2 vt=1: the lowered vector is refused: " in md
