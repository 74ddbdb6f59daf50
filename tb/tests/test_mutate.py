"""Mutation engine (tb/mutate): each operator finds its sites in a small design written here
and every mutant parses; sampling is reproducible and proportional; the runner's pieces
(results watcher, Yosys log reading, score) and the knobs' one-line errors.

The end-to-end sample through the simulator and Yosys is tb/tests/test_mutate_sim.py.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tb.mutate import report
from tb.mutate.equiv import check, explain_failure, memory_modules, script
from tb.mutate.execute import Watcher
from tb.mutate.mutant import mutate, unified_diff, write_mutant
from tb.mutate.operators import OPERATORS
from tb.mutate.sample import SampleError, allocate, pick, restrict, sample
from tb.mutate.sites import Site, find_sites
from tb.mutate.source import load, parameter_sets
from tb.paths import ROOT

SNIPPET = """\
`default_nettype none
module sub (
    input  wire       clk,
    input  wire       rst,
    input  wire       en,
    input  wire [7:0] d,
    output reg  [7:0] q
);
    reg [7:0] mem [0:3];
    always @(posedge clk) begin
        if (rst) q <= 8'd0;
        else if (en) q <= d + 8'd1;
    end
    always @(posedge clk) mem[0] <= d;
endmodule

module top #(
    parameter integer W = 8
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [W-1:0] a,
    input  wire [7:0]   b,
    input  wire [1:0]   op,
    output wire [7:0]   y,
    output reg  [7:0]   z,
    output wire         lt
);
    localparam [2:0] OPC = 3'd5;
    wire [7:0] q;
    sub u_sub (.clk(clk), .rst(rst), .en(a[0]), .d(b), .q(q));
    assign lt = $signed(a) < $signed(b);
    assign y = (a < b) ? (a & b) : (q - a);
    integer i;
    always @* begin
        z = 8'd0;
        for (i = 0; i < 2; i = i + 1) z = z + 8'd3;
        case (op)
            2'd0: z = a << 1;
            2'd1: z = {7'd0, a && b};
            default: z = {a[3:0], b[7:4]};
        endcase
    end
endmodule
`default_nettype wire
"""

#: operator -> (original text, replacement) pairs it must find in SNIPPET.
EXPECTED = {
    "relational": [("<", "<=")],
    "arithmetic": [("+", "-"), ("-", "+")],
    "bitwise": [("&", "|")],
    "logical": [("&&", "||")],
    "shift": [("<<", ">>")],
    "constant": [("8'd1", "8'd2"), ("3'd5", "3'd6"), ("2'd1", "2'd2"), ("1", "2"), ("8'd3", "8'd4")],
    "condition": [("(a < b)", "!((a < b))"), ("en", "!(en)")],
    "case-arm": [("2'd0: z = a << 1;", ""), ("default: z = {a[3:0], b[7:4]};", "")],
    "index": [("0", "1"), ("3:0", "4:1"), ("7:4", "6:3")],
    "signedness": [("$signed(a)", "(a)"), ("a < b", "$signed(a) < $signed(b)")],
    "reset-value": [("8'd0", "~(8'd0)")],
    "enable": [("en", "1'b1"), ("en", "1'b0")],
    "tie-off": [("rst", "'0"), ("a[0]", "'0"), ("b", "'0")],
}


@pytest.fixture(scope="module")
def snippet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rtl = tmp_path_factory.mktemp("snippet")
    (rtl / "top.v").write_text(SNIPPET)
    return rtl


@pytest.fixture(scope="module")
def snippet_sites(snippet: Path) -> list[Site]:
    return find_sites(load(snippet, top="top"))


def test_every_operator_has_an_expectation() -> None:
    assert set(EXPECTED) == set(OPERATORS)


@pytest.mark.parametrize("operator", sorted(EXPECTED))
def test_operator_finds_its_sites_and_each_mutant_parses(operator: str, snippet: Path,
                                                         snippet_sites: list[Site], tmp_path: Path) -> None:
    mine = [s for s in snippet_sites if s.operator == operator]
    found = {(s.original, s.replacement) for s in mine}
    for pair in EXPECTED[operator]:
        assert pair in found, f"{operator} misses {pair}; found {sorted(found)}"
    for n, site in enumerate(mine):
        assert write_mutant(snippet, site, tmp_path / str(n)) == [], site.describe()
        text = (tmp_path / str(n) / "top.v").read_text()
        assert text == SNIPPET[:site.start] + site.replacement + SNIPPET[site.end:]


def test_shapes_loop_steps_and_clock_are_never_mutated(snippet_sites: list[Site]) -> None:
    lines = SNIPPET.splitlines()
    for s in snippet_sites:
        line = lines[s.line - 1].strip()
        assert not line.startswith("parameter"), s.describe()  # a parameter port's default
        declaration = line.startswith(("input", "output", "reg ", "wire [")) and "=" not in line
        assert not declaration, s.describe()  # dimensions
    step = SNIPPET.index("i = i + 1")
    assert not [s.describe() for s in snippet_sites if s.start < step + 9 and s.end > step]
    # only the instance's inputs are tied off, and not its clock
    assert {s.variant for s in snippet_sites if s.operator == "tie-off"} == {"rst", "en", "d"}


def test_index_shift_stays_in_range(snippet_sites: list[Site]) -> None:
    shifts = {(s.original, s.replacement) for s in snippet_sites if s.operator == "index"}
    assert ("7:4", "8:5") not in shifts  # b is [7:0]: up would leave the range, so down
    assert ("0", "1") in shifts and ("0", "-1") not in shifts


def test_ids_are_unique_and_stable(snippet: Path, snippet_sites: list[Site]) -> None:
    ids = [s.id for s in snippet_sites]
    assert len(ids) == len(set(ids))
    assert ids == [s.id for s in find_sites(load(snippet, top="top"))]
    assert all(s.id.startswith(("top:", "sub:")) for s in snippet_sites)


def test_diff_shows_the_edit(snippet: Path, snippet_sites: list[Site]) -> None:
    site = next(s for s in snippet_sites if s.operator == "arithmetic" and s.original == "+")
    diff = unified_diff(snippet, site)
    assert "-        else if (en) q <= d + 8'd1;" in diff and "+        else if (en) q <= d - 8'd1;" in diff
    with pytest.raises(ValueError, match="source changed"):
        mutate(b"x" * (site.end + 1), site)


# --- the real design -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rtl_sites() -> list[Site]:
    return find_sites(load(ROOT / "rtl"))


def test_rtl_has_sites_of_every_operator_in_every_module(rtl_sites: list[Site]) -> None:
    assert {s.operator for s in rtl_sites} == set(OPERATORS)
    assert {s.module for s in rtl_sites} == {p.stem for p in (ROOT / "rtl").glob("*.v")}


def test_sampling_is_reproducible(rtl_sites: list[Site]) -> None:
    a = [s.id for s in sample(rtl_sites, 30, seed=7)]
    assert a == [s.id for s in sample(rtl_sites, 30, seed=7)]
    assert a != [s.id for s in sample(rtl_sites, 30, seed=8)]
    assert len(set(a)) == 30


def test_sampling_is_proportional_to_module_size(rtl_sites: list[Site]) -> None:
    n = 100
    sizes = Counter(s.module for s in rtl_sites)
    got = Counter(s.module for s in sample(rtl_sites, n, seed=3))
    total = sum(sizes.values())
    for module, size in sizes.items():
        assert abs(got[module] - n * size / total) < 1, (module, got[module], n * size / total)


def test_a_module_draw_does_not_depend_on_the_others(rtl_sites: list[Site]) -> None:
    """vta_token's share of a draw over two modules is exactly the draw of that many sites
    of vta_token alone: adding a module to the sample does not change the others' mutants."""
    both = sample(rtl_sites, 10, seed=4, modules=["vta_token", "vta_ram"])
    tokens = sum(s.module == "vta_token" for s in rtl_sites)
    rams = sum(s.module == "vta_ram" for s in rtl_sites)
    k = allocate(10, {"vta_token": tokens, "vta_ram": rams})["vta_token"]
    assert 0 < k < 10 and len(both) == 10
    alone = {s.id for s in sample(rtl_sites, k, seed=4, modules=["vta_token"])}
    assert {s.id for s in both if s.module == "vta_token"} == alone


def test_allocate() -> None:
    assert allocate(10, {"a": 50, "b": 30, "c": 20}) == {"a": 5, "b": 3, "c": 2}
    assert allocate(3, {"a": 1, "b": 1, "c": 1, "d": 1}) == {"a": 1, "b": 1, "c": 1, "d": 0}
    assert allocate(10, {"a": 2, "b": 100}) == {"a": 0, "b": 10}  # 0.2 and 9.8: largest remainder
    assert allocate(10, {"a": 8, "b": 12}) == {"a": 4, "b": 6}
    assert allocate(100, {"a": 2, "b": 3}) == {"a": 2, "b": 3}  # capped at the sites there are


def test_bad_sample_arguments_are_one_line(rtl_sites: list[Site]) -> None:
    with pytest.raises(SampleError, match=r"^--modules nope: no such module .*vta_token"):
        restrict(rtl_sites, ["nope"])
    with pytest.raises(SampleError, match=r"^--n 0: must be 1 or more"):
        sample(rtl_sites, 0, 1)
    with pytest.raises(SampleError, match=r"^--ids x:1: no such mutant"):
        pick(rtl_sites, ["x:1"])


# --- knobs (the bad ones are cases of tb/tests/test_bad_input.py) -------------------------
def make_n(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(["make", "-n", "mutate", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def test_make_mutate_passes_the_knobs() -> None:
    proc = make_n("N=5", "SEED=3", "MODULES=vta_token,vta_fifo", "TESTS=directed", "SIM=verilator")
    text = " ".join(proc.stdout.replace("\\\n", " ").split())
    assert proc.returncode == 0, proc.stderr
    want = ("-m tb.mutate --n 5 --tests directed --jobs 2 --seed 3 --modules vta_token,vta_fifo "
            "--sim verilator")
    assert want in text, text


# --- runner pieces ---------------------------------------------------------------------------
def test_watcher_reports_the_first_failure_and_job_walls(tmp_path: Path) -> None:
    path = tmp_path / "sim" / "uvm-x" / "run-1-default-0-0" / "results.jsonl"
    path.parent.mkdir(parents=True)
    w = Watcher(tmp_path)
    records = [{"event": "start", "job": "a"}, {"event": "end", "job": "a", "passed": True, "wall": 1.5},
               {"event": "start", "job": "b"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + '{"event": "fail')  # half a line
    assert w.failure() is None and w.job_walls == [1.5]
    with path.open("a") as fh:
        fh.write('ure", "kind": "scoreboard", "message": "first line\\nsecond", "cycle": 9}\n')
    assert w.failure() == ("b", "scoreboard", "first line")


def test_yosys_failures_are_explained() -> None:
    log = ("Executing EQUIV_STATUS pass.\n  Unproven $equiv $auto$x:1: \\cnt_gold [0] \\cnt_gate [0]\n"
           "Executing EQUIV_STATUS pass.\n  Unproven $equiv $auto$x:2: \\cnt_gold [1] \\cnt_gate [1]\n"
           "  Unproven $equiv $auto$x:3: \\cnt_gold [0] \\cnt_gate [0]\nERROR: Found 2 unproven\n")
    assert explain_failure(log) == ("not-proven", "not equivalent or not provable: 2 signal bit(s) "
                                                  "unproven, first cnt")
    status, why = explain_failure("1. Executing Verilog-2005 frontend: a.v\n"
                                  "ERROR: syntax error, unexpected x\n")
    assert status == "unreadable" and "cannot read or elaborate the Verilog: ERROR: syntax error" in why
    status, why = explain_failure("3. Executing FLATTEN pass.\n", 134)
    assert status == "unreadable" and "exit 134" in why and "FLATTEN" in why


def test_yosys_script_boxes_memories_and_sets_parameters(snippet: Path) -> None:
    design = load(snippet, top="top")
    assert memory_modules(design) == {"sub"}
    text = script("gold", "gate", ["top.v"], ["lib.v"], "top", [{"W": 8}, {"W": 4}])
    assert text.count("chparam -set W 8 top") == 2 and text.count("chparam -set W 4 top") == 2
    assert "read_verilog -sv -lib -Igold gold/lib.v" in text
    assert text.count("equiv_status -assert") == 2
    assert text.count("rename -top gold") == 2 and text.count("rename -top gate") == 2


def test_vector_parameters_reach_the_equivalence_proof() -> None:
    """Each gearbox's LESZ_SET, a [15:0] parameter pyslang prints as a sized literal, is in the
    parameter sets the proofs use. When it was dropped, vta_unpack was proven only at its
    default 16'hffff (every size) and a mutant of the one-size branch that fetch's gearbox
    uses (vta_unpack:68:37, ONE_S's test inverted) was called equivalent. By hand from rtl/ at
    `default`: fetch passes 16'h0010 (16-byte instructions), vta_load INP and WGT (16 and 256
    bytes: bits 4 and 8), vta_compute UOP, ACC and 8-bit ACC (4, 64 and 16 bytes: 2, 6, 4)."""
    sets = parameter_sets(load(ROOT / "rtl"), [{}])
    assert sorted(sets["vta_unpack"], key=lambda s: s["LOG_EMAX"]) == [
        {"LOG_B": 3, "LOG_EMAX": 4, "LESZ_SET": 0x0010},
        {"LOG_B": 3, "LOG_EMAX": 6, "LESZ_SET": (1 << 2) | (1 << 6) | (1 << 4)},
        {"LOG_B": 3, "LOG_EMAX": 8, "LESZ_SET": (1 << 4) | (1 << 8)}]


@pytest.mark.sim
def test_a_fetch_mutant_reaches_the_proof(tmp_path: Path) -> None:
    """vta_fetch with its burst generator's row length tied to 0 (the mutant
    vta_fetch:68:39:tie-off:row_bytes) comes out of `hierarchy` as a $paramod module, so
    renamed by its plain name it was "not found" and the survivor reported unreadable. It
    is not equivalent (fetch then requests nothing): Yosys must say not proven (a proof
    that does succeed: test_mutate_sim.py's dead-code mutant)."""
    design = load(ROOT / "rtl")
    sets = parameter_sets(design, [{}])["vta_fetch"]
    gate = tmp_path / "rtl"
    shutil.copytree(ROOT / "rtl", gate)
    old = ".addr0(insn_addr), .row_bytes({insn_count[27:0], 4'b0000})"
    text = (gate / "vta_fetch.v").read_text()
    assert text.count(old) == 1
    (gate / "vta_fetch.v").write_text(text.replace(old, ".addr0(insn_addr), .row_bytes('0)"))
    result = check(design, "vta_fetch", ROOT / "rtl", gate, tmp_path / "equiv", sets)
    assert result.status == "not-proven", result


def test_score_leaves_out_invalid_equivalent_and_errors() -> None:
    mutants = [{"status": s, "module": "m", "operator": "o", "id": str(n)} for n, s in
               enumerate(["killed", "killed", "timeout", "survived", "equivalent", "invalid", "error"])]
    t = report.tally(mutants)
    assert (t["scored"], t["score"]) == (4, 0.75)
    data = report.build({}, mutants)
    assert data["mutants"][0]["status"] == "survived"  # survivors first
    assert data["by_module"]["m"]["score"] == 0.75


def test_rtl_directory_override_keys_the_build_directory(tmp_path: Path) -> None:
    """VTA_RTL_DIR points the testbench at another design; its builds get their own directory."""
    copy = tmp_path / "rtl"
    copy.mkdir()
    for p in (ROOT / "rtl").glob("*.v*"):
        (copy / p.name).write_bytes(p.read_bytes())
    code = ("from models.spec.configs import load_config; from tb.launch.simbuild import build_dir, sources; "
            "from tb.paths import RTL_DIR; print(RTL_DIR); "
            "print(build_dir('icarus', load_config('default'), False, 'fast').name); "
            "print(sources()[0].parent)")

    def run(env_dir: str | None) -> list[str]:
        env = {k: v for k, v in os.environ.items() if k != "VTA_RTL_DIR"}
        if env_dir:
            env["VTA_RTL_DIR"] = env_dir
        return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                              check=True).stdout.split()

    plain, same, edited = run(None), run(str(copy)), None
    (copy / "vta_token.v").write_text((copy / "vta_token.v").read_text().replace("8'd1", "8'd2"))
    edited = run(str(copy))
    assert plain[0] == str(ROOT / "rtl") and not plain[1].endswith(("-rtl",)) and "-rtl" not in plain[1]
    assert same[0] == str(copy) and same[2] == str(copy) and "-rtl" in same[1]
    assert edited[1] != same[1]  # the key follows the files' contents


def test_a_stage_without_records_is_read_from_its_log(tmp_path: Path) -> None:
    from tb.mutate.execute import from_log
    from tb.mutate.testsets import stages

    stage = stages("directed", "icarus")[0]
    log = tmp_path / "x.log"
    log.write_text("table\nFAILED icarus vec-a-none: [error] the simulator stopped during this job: killed "
                   "after 48 s without returning to Python (the --timeout backstop); see sim.log\n")
    out = from_log(stage, log, 1, 0.0)
    assert (out.status, out.job, out.kind) == ("timeout", "vec-a-none", "error")
    log.write_text("FAILED icarus vec-b-none: [scoreboard] 3 bytes differ\n")
    assert from_log(stage, log, 1, 0.0).status == "killed"
    log.write_text("error: icarus build of vta_tb_fast failed; see /nonexistent/build.log\n")
    out = from_log(stage, log, 2, 0.0)
    assert out.status == "invalid" and "icarus build of vta_tb_fast failed" in out.message
    log.write_text("error: --config nope: unknown configuration\n")
    assert from_log(stage, log, 2, 0.0).status == "error"
