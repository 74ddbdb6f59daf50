"""The mutation run end to end on a fixed sample (`make test`'s mutation check): five mutants
through `python -m tb.mutate --tests directed` on Icarus, the quicker simulator here (a
mutant's builds take it a second, Verilator over a minute), then the equivalence check.

    vta_token arithmetic:-         a token counter that decrements on push: the directed
                                   vectors must kill it
    vta_top (ARQOS) constant:+1    ARQOS 1 instead of 0: the protocol checker's attributes
                                   rule (rule 12 of the fast mode's Verilog checker, in the
                                   simulation) must kill it
    vta_ctrl case-arm              the micro-op base register's write arm dropped (it stays
                                   0): killed by the vectors whose micro-ops sit elsewhere
    vta_load shift:>>              a part-select that turns negative: lints, but Icarus
                                   rejects it, so the mutant is invalid (not scored)
    vta_rd_arb constant:+1         a constant in an unused wire (dead code): survives every
                                   test, and Yosys proves it equivalent

Each is found by its edit (EDITS below), not by an id: an id holds the line and column,
which any edit above them moves.

About 50-60 s on the 2-core machine (the unmutated run ~25 s, the survivor ~20 s, Yosys a
few seconds once its WebAssembly build is cached).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tb.mutate.runner import baseline_key
from tb.mutate.sites import file_sites
from tb.mutate.source import load
from tb.mutate.testsets import stages
from tb.paths import ROOT

#: The sample's mutants by what they change: (file, operator, the text its line starts with,
#: original, replacement), so each is found wherever its line now is.
TOKEN = ("vta_token.v", "arithmetic", "else if (do_push && !do_pop) cnt <= cnt", "+", "-")
ARQOS = ("vta_top.v", "constant", "assign m_axi_gmem_arqos", "4'b0000", "4'b0001")
UOP_BASE = ("vta_ctrl.v", "case-arm", "", "14'd4: uop_base   <= merge(uop_base, w_data, w_strb);", "")
PART_SELECT = ("vta_load.v", "shift", "assign inp_wdata = e_wdata[(8", "<<", ">>")
DEAD = ("vta_rd_arb.v", "constant", "wire unused_c", "1'b0", "1'b1")


def mutant_id(file: str, operator: str, line_start: str, original: str, replacement: str,
              rtl_dir: Path = ROOT / "rtl") -> str:
    """The id of the one mutant of ``file`` whose ``operator`` edits ``original`` into
    ``replacement`` on the line beginning (after indentation) with ``line_start``."""
    design = load(rtl_dir)
    rtl = next(f for f in design.files if f.name == file)
    found = []
    for site in file_sites(rtl, design, [operator]):
        before = rtl.text[rtl.text.rfind(b"\n", 0, site.start) + 1:site.start].decode()
        if (site.original, site.replacement) == (original, replacement) and \
                before.strip().startswith(line_start):
            found.append(site.id)
    assert len(found) == 1, f"{file}: {operator} {original} -> {replacement} on '{line_start}': {found}"
    return found[0]


@pytest.fixture(scope="module")
def arqos() -> str:
    return mutant_id(*ARQOS)


@pytest.fixture(scope="module")
def ids(arqos: str) -> dict[str, str]:
    """The sample's ids, by role."""
    return {"token": mutant_id(*TOKEN), "arqos": arqos, "uop": mutant_id(*UOP_BASE),
            "part": mutant_id(*PART_SELECT), "dead": mutant_id(*DEAD)}


@pytest.fixture(scope="module")
def sample(ids: dict[str, str]) -> dict[str, str]:
    """The fixed sample: each mutant's id and the status it must end with, in run order."""
    return {ids["token"]: "killed", ids["arqos"]: "killed", ids["uop"]: "killed",
            ids["part"]: "invalid", ids["dead"]: "equivalent"}


def test_arqos_mutant_is_found_by_its_edit(tmp_path: Path) -> None:
    """The attributes mutant is the one ARQOS edit, and is still found after an edit above it
    moves its line (the id follows: same column, line one further)."""
    found = mutant_id(*ARQOS)
    module, line, col, operator, variant = found.split(":")
    assert (module, operator, variant) == ("vta_top", "constant", "+1")
    text = (ROOT / "rtl" / "vta_top.v").read_text().splitlines()[int(line) - 1]
    assert text.strip().startswith("assign m_axi_gmem_arqos") and text[int(col) - 1:].startswith("4'b0000")
    moved = tmp_path / "rtl"
    shutil.copytree(ROOT / "rtl", moved)
    (moved / "vta_top.v").write_text("// one line more\n" + (ROOT / "rtl" / "vta_top.v").read_text())
    assert mutant_id(*ARQOS, rtl_dir=moved) == f"{module}:{int(line) + 1}:{col}:{operator}:{variant}"


@pytest.mark.sim
def test_fixed_sample_end_to_end(tmp_path: Path, sample: dict[str, str], ids: dict[str, str]) -> None:
    out = tmp_path / "mutate"
    t0 = time.monotonic()
    cmd = [sys.executable, "-m", "tb.mutate", "--ids", ",".join(sample), "--tests", "directed",
           "--sim", "icarus", "--jobs", "2", "--out", str(out)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - t0
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "[mutate] unmutated run passed" in proc.stdout and "[mutate] 5/5 " in proc.stdout, proc.stdout
    data = json.loads((out / "report.json").read_text())
    got = {m["id"]: m for m in data["mutants"]}
    assert {k: got[k]["status"] for k in sample} == sample, \
        {k: (m["status"], m["message"]) for k, m in got.items()}
    for mid, status in sample.items():
        m = got[mid]
        assert m["diff"].startswith("--- rtl/") and "\n+" in m["diff"], m["diff"]
        if status == "killed":
            assert m["stage"] == "directed-icarus" and m["job"].startswith("vec-") and m["kind"], m
            assert 0 < m["seconds"] < 120 and m["repro"].startswith("VTA_RTL_DIR="), m
    assert "[attributes]: arqos = 0x1" in got[ids["arqos"]]["message"]
    assert "part select" in got[ids["part"]]["message"], got[ids["part"]]
    eq = got[ids["dead"]]["equivalence"]
    assert eq["status"] == "equivalent" and "Yosys proved vta_rd_arb" in eq["reason"], eq
    score = data["score"]
    assert (score["killed"], score["equivalent"], score["invalid"], score["scored"], score["score"]) == \
        (3, 1, 1, 3, 1.0), score
    assert data["by_module"]["vta_token"]["killed"] == 1 and data["by_operator"]["case-arm"]["killed"] == 1
    html = (out / "report.html").read_text()
    assert "Score 100.0 %" in html and ids["dead"] in html
    assert not list(out.glob("*/sim")), "a finished mutant's builds are deleted"
    print(f"fixed sample: {wall:.0f} s")


def seed_baseline(out: Path, tests: str, sim: str, stage_walls: dict[str, float]) -> None:
    """Write ``out``'s cached unmutated run (tb/mutate/runner.py reuses it while rtl/, the
    test set and the simulator are unchanged), for a test about what follows it; the
    unmutated runs themselves are tested elsewhere (directed: test_fixed_sample_end_to_end;
    formal: tb/tests/test_formal.py). The walls set generous limits."""
    out.mkdir(parents=True)
    (out / "baseline.json").write_text(json.dumps({
        "key": baseline_key(ROOT / "rtl", stages(tests, sim), sim),
        "stage_walls": stage_walls, "job_walls": [10.0]}))


def processes_naming(text: str) -> list[str]:
    """Command lines of the live processes whose command line or environment (a stage's
    VTA_RTL_DIR) mentions ``text``."""
    found = []
    for pid in Path("/proc").glob("[0-9]*"):
        try:
            args = (pid / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            env = (pid / "environ").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if text in args or text in env:
            found.append(args)
    return found


@pytest.mark.sim
def test_sigterm_stops_every_running_mutant(tmp_path: Path, sample: dict[str, str]) -> None:
    """A SIGTERM while two mutants run: exit 130 with one line, and none of their simulators
    or testbench runners (each in its own session) is left running."""
    out = tmp_path / "mutate"
    seed_baseline(out, "directed", "icarus", {"directed-icarus": 60.0})
    proc = subprocess.Popen([sys.executable, "-m", "tb.mutate", "--ids", ",".join(list(sample)[:2]),
                             "--tests", "directed", "--out", str(out)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("[mutate] start 002"):
            break
    time.sleep(2)
    assert processes_naming(str(out)), "the mutants' stages should be running now"
    proc.terminate()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip() == ("python -m tb.mutate: error: interrupted: the running mutants were "
                           "stopped, no report written"), err
    time.sleep(1)
    assert processes_naming(str(out)) == []
    assert not (out / "report.json").exists()


UNREADABLE = """\
module top (input wire [7:0] a, output wire [7:0] y);
    let inc(x) = x + 8'd1;
    assign y = inc(a) & 8'h7f;
endmodule
"""


@pytest.mark.sim
def test_verilog_yosys_cannot_read_is_reported(tmp_path: Path) -> None:
    """slang reads SystemVerilog's `let`, Yosys does not: the check says so, with Yosys's error."""
    from tb.mutate.equiv import check
    from tb.mutate.mutant import write_mutant
    from tb.mutate.sites import find_sites
    from tb.mutate.source import load

    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "top.v").write_text(UNREADABLE)
    design = load(gold, top="top")
    site = next(s for s in find_sites(design) if s.operator == "bitwise")
    assert write_mutant(gold, site, tmp_path / "gate") == []
    result = check(design, "top", gold, tmp_path / "gate", tmp_path / "equiv", [{}], timeout=300)
    assert result.status == "unreadable", result
    assert result.reason.startswith("Yosys cannot read or elaborate the Verilog: ") and \
        "top.v:2: ERROR: syntax error" in result.reason, result.reason
