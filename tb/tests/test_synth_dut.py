"""`make synth DUT=` and `make timing DUT=` (tb/synth/design.py): another design's netlist,
read from its DUT profile, through the same synthesis scripts, wrapper, report and cache as
rtl/, without the minutes of a real netlist or of place and route.

The stand-in is a small foreign design of its own profile (Chisel-style port names, a
submodule, a memory and a `$fwrite` assertion as generated Chisel prints them): real Yosys
synthesizes it in seconds, for `make synth` and for `make timing`'s netlist; nextpnr is a
stand-in writing a report in nextpnr's format for the stand-in's names. Then the errors a
user meets: the profile's netlist missing (upstream's lives beside the checkout, absent
elsewhere), an unknown profile, a configuration a fixed design refuses, --rtl with a foreign
design; each one line and status 2, from Python and through make.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

import tb.synth.__main__ as synth_cli
import tb.timing.__main__ as timing_cli
from tb.paths import ROOT
from tb.synth.design import design
from tb.synth.report import document
from tb.synth.script import synthesizable
from tb.synth.stat import parse_stat
from tb.synth.targets import TARGETS
from tb.synth.yosys import YosysError
from tb.tests.test_duts import TOY_PORTS
from tb.tests.test_make import make
from tb.tests.test_timing_pnr import make_env
from tb.timing.nextpnr import REPORT
from tb.timing.parts import DEFAULT_PART
from tb.timing.wrapper import DUT_INSTANCE, WRAPPER_TOP

#: The stand-in's ports are those of test_duts.py's toy DUT (a profile that lacks most
#: optional AXI signals); its body holds a submodule with a memory, a register file read
#: through it, and an assertion print whose message holds `;` and parentheses.
STAND_IN = TOY_PORTS + """\
    wire [31:0] q;
    toy_buffer u_buf (.clk(clk), .we(io_host_w_valid & io_spare), .waddr(io_host_aw_bits_addr),
                      .wdata(io_host_w_bits_data), .raddr(io_host_ar_bits_addr), .q(q));
    reg [63:0] beat;
    always @(posedge clk) begin
        if (rst_x) beat <= 64'd0;
        else if (io_mem_r_valid) beat <= beat ^ io_mem_r_bits_data ^ {60'd0, io_mem_r_bits_id};
        if (~rst_x & io_mem_r_valid & ~io_mem_ar_ready)
            $fwrite(32'h80000002, "Assertion failed: no read (x; y)\\n    at Toy.scala:1 assert(ok)\\n");
    end
    assign io_host_r_bits_data = q;
    assign io_mem_w_bits_data = beat;
    assign io_mem_ar_bits_addr = {32'd0, q};
    assign io_mem_ar_bits_id = q[3:0];
    assign {io_host_aw_ready, io_host_w_ready, io_host_b_valid, io_host_ar_ready, io_host_r_valid,
            io_mem_aw_valid, io_mem_w_valid, io_mem_w_bits_last, io_mem_ar_valid, io_debug} =
           {q[9:0] ^ {9'd0, io_host_b_ready ^ io_host_r_ready ^ io_host_ar_valid ^ io_host_aw_valid
                              ^ io_mem_aw_ready ^ io_mem_w_ready ^ io_mem_b_valid}};
    assign io_mem_aw_bits_addr = beat;
    assign {io_mem_aw_bits_len, io_mem_ar_bits_len} = q[31:16];
endmodule

module toy_buffer (input clk, input we, input [7:0] waddr, input [31:0] wdata, input [7:0] raddr,
                   output reg [31:0] q);
    reg [31:0] mem [0:255];
    always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
        q <= mem[raddr];
    end
endmodule
"""


def stand_in(tmp_path: Path, source: str = "./toy.v") -> Path:
    """The stand-in netlist and its profile (test_duts.py's toy profile, sources replaced)."""
    from tb.tests.test_duts import TOY_PROFILE
    (tmp_path / "toy.v").write_text(STAND_IN)
    assert "sources: [./toy.v]" in TOY_PROFILE
    profile = TOY_PROFILE.replace("sources: [./toy.v]", f"sources: [{source}]")
    path = tmp_path / "toy.yaml"
    path.write_text(profile)
    return path


def test_fwrite_calls_are_removed_line_by_line() -> None:
    text = STAND_IN + "always @(posedge clk) if (a) $fwrite(32'h80000002, \"b(c);\\n\"); else x <= 1;\n"
    out = synthesizable(text)
    assert "$fwrite" not in out and out.count("\n") == text.count("\n")
    assert "if (a) ; else x <= 1;" in out
    assert "Toy.scala" not in out and "beat <= beat ^" in out


def test_a_foreign_design_is_its_profiles_netlist(tmp_path: Path) -> None:
    d = design(str(stand_in(tmp_path)), None, "default", None)
    assert (d.dut, d.top, d.clock, d.parameters, d.config) == ("toy", "toy", "clk", {}, "default")
    assert d.sources == ((tmp_path / "toy.v").resolve(),) and d.foreign
    assert (d.label, d.title) == ("toy", "toy (default)")
    assert list(d.top_ports())[:2] == ["clk", "rst_x"]
    rtl = design("vta", None, "small", None)
    assert (rtl.label, rtl.title, rtl.top, rtl.foreign) == ("small", "small", "vta_top", False)
    assert rtl.parameters and all(p.suffix == ".vh" for p in rtl.headers)


# --- make synth DUT= ---------------------------------------------------------------------------

def test_a_plain_submodule_is_counted_under_its_parent() -> None:
    """Yosys's `stat -json` names a module without parameters `\\toy_buffer` but counts its
    instances as cell type `toy_buffer` (generated netlists have no parameters at all)."""
    stat = {"modules": {"\\toy": {"num_cells_by_type": {"FDRE": 2, "toy_buffer": 3}},
                        "\\toy_buffer": {"num_cells_by_type": {"RAMB18E1": 1, "LUT2": 1}}}}
    rows, total = parse_stat(stat, "toy", TARGETS["xilinx"])
    assert {m: (u.instances, dict(u.resources)) for m, u in rows.items()} == \
        {"toy": (1, {"ff": 2}), "toy_buffer": (3, {"bram": 3, "lut": 3})}
    assert "toy_buffer" not in total.cells and total.resources["bram"] == 3


@pytest.mark.sim
def test_synth_of_a_foreign_netlist_per_module_and_cached(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Real Yosys on the stand-in: the target's script with the profile's top, a row per
    Verilog module (the submodule's block RAM in its own row), the run named after the
    profile; a second run is cached; an edit of the netlist synthesizes again."""
    profile = stand_in(tmp_path)
    out = tmp_path / "out"
    doc = synth_cli.synthesize(None, "xilinx", out=out, dut=str(profile))
    run_dir = out / "toy-xilinx"
    assert "synth_xilinx -top toy -noiopad" in (run_dir / "run.ys").read_text()
    assert "$fwrite" not in (run_dir / "rtl" / "toy.v").read_text()
    assert (doc["dut"], doc["top"], doc["config"]) == ("toy", "toy", "default")
    assert set(doc["modules"]) == {"toy", "toy_buffer"}
    assert doc["modules"]["toy_buffer"]["resources"]["bram"] == 1, doc["modules"]["toy_buffer"]
    assert doc["modules"]["toy"]["resources"]["ff"] >= 64 and doc["total"]["resources"]["lut"] > 0
    text = (run_dir / "resources.txt").read_text()
    assert text.startswith("toy (default) on xilinx:") and re.search(r"^toy_buffer\s+1\s", text, re.M), text
    capsys.readouterr()
    assert synth_cli.synthesize(None, "xilinx", out=out, dut=str(profile)) == doc
    assert "synth toy (default) xilinx: cached" in capsys.readouterr().out
    with (tmp_path / "toy.v").open("a") as f:
        f.write("// an edit\n")
    synth_cli.synthesize(None, "xilinx", out=out, dut=str(profile))
    assert "yosys running" in capsys.readouterr().out


# --- make timing DUT= --------------------------------------------------------------------------

def stand_in_report(instances: dict[str, str]) -> dict[str, Any]:
    """nextpnr's --report JSON (the fields tb/timing/results.py reads) for a path from the
    stand-in's buffer to its beat register."""
    clock = "$glbnet$clk$TRELLIS_IO_IN"
    cells = ("u_vta.u_buf.mem.0.0", "u_vta.beat_LUT4_Z", "u_vta.beat_TRELLIS_FF_Q_3")
    steps = [{"type": "clk-to-q", "delay": 1.5, "from": {"cell": cells[0], "port": "CLKB"},
              "to": {"cell": cells[0], "port": "DOB3"}},
             {"type": "routing", "delay": 2.0, "net": "u_vta.q[3]", "sources": ["rtl/toy.v:17.17-17.18"],
              "from": {"cell": cells[0], "port": "DOB3"}, "to": {"cell": cells[1], "port": "A"}},
             {"type": "logic", "delay": 0.5, "from": {"cell": cells[1], "port": "A"},
              "to": {"cell": cells[1], "port": "Z"}},
             {"type": "routing", "delay": 1.0, "net": "u_vta.beat_LUT4_Z", "sources": [],
              "from": {"cell": cells[1], "port": "Z"}, "to": {"cell": cells[2], "port": "DI"}},
             {"type": "setup", "delay": 0.2, "from": {"cell": cells[2], "port": "DI"},
              "to": {"cell": cells[2], "port": "DI"}}]
    assert set(instances) == {"", "u_buf"}
    return {"fmax": {clock: {"achieved": 192.31, "constraint": 100.0}},
            "critical_paths": [{"from": f"posedge {clock}", "to": f"posedge {clock}", "path": steps}],
            "utilization": {"TRELLIS_COMB": {"used": 120, "available": 83640},
                            "TRELLIS_FF": {"used": 300, "available": 83640},
                            "DP16KD": {"used": 2, "available": 208},
                            "TRELLIS_IO": {"used": 6, "available": 365}}}


@pytest.mark.sim
def test_timing_of_a_foreign_netlist_in_its_own_wrapper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The wrapper is generated from the stand-in's ports and real Yosys (synth_ecp5) makes
    the netlist; nextpnr is a stand-in. The instance map, the path read in the stand-in's
    names, the table naming its top, the cache (a second run cached, a new seed reusing the
    netlist)."""
    profile = stand_in(tmp_path)
    runs: list[str] = []

    def fake_nextpnr(argv: list[str], run_dir: Path, echo: object) -> Path:
        runs.append(argv[argv.index("--seed") + 1])
        from tb.timing.netlist import instances
        netlist = json.loads((run_dir / "netlist.json").read_text())
        (run_dir / REPORT).write_text(json.dumps(stand_in_report(instances(netlist))))
        return run_dir / REPORT

    monkeypatch.setattr(timing_cli, "run_nextpnr", fake_nextpnr)
    out = tmp_path / "out"
    doc = timing_cli.timing(None, out=out, dut=str(profile))
    run_dir = out / f"toy-{DEFAULT_PART}"
    wrapper = (run_dir / f"{WRAPPER_TOP}.v").read_text()
    assert re.search(rf"^    toy {DUT_INSTANCE} \($", wrapper, re.M) and ".io_spare(in_sr[" in wrapper
    assert ".clk(clk)" in wrapper and ".rst_x(in_sr[" in wrapper
    assert doc["instances"] == {"": "toy", "u_buf": "toy_buffer"}
    assert (doc["dut"], doc["top"], doc["clock"], doc["fmax_mhz"]) == ("toy", "toy", "clk", 192.31)
    path = doc["critical_path"]
    assert (path["from"]["path"], path["from"]["module"]) == ("u_buf.mem", "toy_buffer")
    assert [(n["path"], n["module"]) for n in path["nets"]] == [("toy.q[3]", "toy"), ("toy.beat", "toy")]
    text = (run_dir / "timing.txt").read_text()
    assert text.startswith(f"timing toy (default) on {DEFAULT_PART}")
    assert "net (instance.signal under toy)" in text and "pins: toy's" in text
    w = doc["wrapper"]
    assert (w["input_bits"], w["output_bits"]) == (128, 254) and w["pins"] == 6
    capsys.readouterr()
    assert timing_cli.timing(None, out=out, dut=str(profile)) == doc and runs == ["1"]
    assert f"timing toy (default) {DEFAULT_PART} seed 1: cached" in capsys.readouterr().out
    again = timing_cli.timing(None, seed=3, out=out, dut=str(profile))
    assert runs == ["1", "3"] and again["netlist_reused"]


# --- errors --------------------------------------------------------------------------------

def one_line(err: str, said: str) -> None:
    assert said in err and err.count("\n") == 1, err


@pytest.mark.parametrize("cli, name", [(synth_cli, "synth"), (timing_cli, "timing")])
def test_a_missing_netlist_is_one_line_and_status_2(tmp_path: Path, cli: Any, name: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Upstream's profile with its netlist moved away (as on a machine without
    ../shared/upstream-vta/): one line naming the file, status 2, nothing made."""
    text = (ROOT / "tb" / "duts" / "upstream-chisel" / "profile.yaml").read_text()
    moved = text.replace("sources: [../shared/upstream-vta/VTAShell.v]", "sources: [./VTAShell.v]")
    assert moved != text
    (tmp_path / "upstream.yaml").write_text(moved)
    assert cli.main(["--dut", str(tmp_path / "upstream.yaml")]) == 2
    captured = capsys.readouterr()
    one_line(captured.err, f"make {name}: DUT={tmp_path / 'upstream.yaml'}: ")
    assert "rtl.sources[0]: ./VTAShell.v: no such file" in captured.err and not captured.out


@pytest.mark.parametrize("cli, name", [(synth_cli, "synth"), (timing_cli, "timing")])
@pytest.mark.parametrize("args, said", [
    (["--dut", "nosuch"], "DUT=nosuch: nosuch: no such profile (shipped: upstream-chisel, vta)"),
    (["--dut", "TOY", "--config", "small"], "config: the design is built for 'default' only"),
    (["--dut", "TOY", "--rtl", "rtl"], "DUT=TOY: --rtl names a copy of rtl/"),
    (["--config", "nosuch"], "CONFIG=nosuch: 'nosuch': configuration file not found"),
])
def test_a_bad_dut_knob_is_one_line_and_status_2(tmp_path: Path, cli: Any, name: str, args: list[str],
                                                 said: str, capsys: pytest.CaptureFixture[str]) -> None:
    toy = str(stand_in(tmp_path))
    args = [toy if a == "TOY" else a for a in args]
    assert cli.main(args) == 2
    captured = capsys.readouterr()
    one_line(captured.err, said.replace("TOY", toy))
    assert captured.err.startswith(f"make {name}: ") and not captured.out


@pytest.mark.sim
@pytest.mark.parametrize("target", ["synth", "timing"])
def test_make_dut_errors(tmp_path: Path, target: str) -> None:
    """Through make: DUT= reaches the flow, an unknown profile and a missing netlist are one
    line of ours (then make's own `Error 2` line), before any tool runs."""
    toy = stand_in(tmp_path, "./absent.v")
    for knob, said in [("DUT=nosuch", f"make {target}: DUT=nosuch: nosuch: no such profile"),
                       (f"DUT={toy}", "rtl.sources[0]: ./absent.v: no such file")]:
        proc = make(target, knob, timeout=120)
        assert proc.returncode == 2 and said in proc.stderr, proc.stdout + proc.stderr
        ours = [x for x in proc.stderr.splitlines() if x.strip() and not x.startswith("make: ***")]
        assert len(ours) == 1 and not proc.stdout.strip(), proc.stdout + proc.stderr


# --- README's commands ---------------------------------------------------------------------

#: README's synthesis commands of "Ours and upstream's, side by side" and of the design space
#: ("Workloads"), as written there, with the design and target each names
DOCUMENTED = [
    ("make synth CONFIG=default TARGET=xilinx", "vta", "default", "xilinx"),
    ("make synth CONFIG=default TARGET=ecp5", "vta", "default", "ecp5"),
    ("make synth DUT=upstream-chisel TARGET=xilinx", "upstream-chisel", None, "xilinx"),
    ("make synth DUT=upstream-chisel TARGET=ecp5", "upstream-chisel", None, "ecp5"),
    *[(f"make synth CONFIG=models/workloads/designs/{point}.json TARGET={target}", "vta",
       f"models/workloads/designs/{point}.json", target)
      for point in ("block8", "small-buffers", "batch2", "block32") for target in ("xilinx", "ecp5")],
]


def documented(command: str) -> bool:
    """COMMAND is in README in backquotes or as a line of a command block (`command  # note`)."""
    text = (ROOT / "README.md").read_text()
    return bool(re.search(rf"`{re.escape(command)}`|^{re.escape(command)}\s+#", text, re.M))


@pytest.mark.sim
@pytest.mark.parametrize("command, dut, config, target", DOCUMENTED, ids=[c[0] for c in DOCUMENTED])
def test_make_synth_as_documented_against_a_cache(tmp_path: Path, command: str, dut: str,
                                                   config: str | None, target: str) -> None:
    """Each command exactly as README writes it, with VTA_SYNTH_DIR pointing at a cache this
    test seeds under the key the current sources give: the command reaches the design and
    target it names and prints the stored table in seconds (the synthesis itself is README's
    figure, minutes long, not run here)."""
    if dut != "vta":
        from tb.tests.test_duts import need_netlist
        need_netlist()
    assert documented(command), command
    d = design(dut, config, "default", None)
    _, key = synth_cli.script_and_key(d, TARGETS[target])
    stat = {"modules": {f"\\{d.top}": {"num_cells_by_type": {"LUT4": 7}}}}
    rows, total = parse_stat(stat, d.top, TARGETS[target])
    doc = document(key, d.config, d.values, TARGETS[target], 1.0, rows, total, d.dut, d.top)
    run_dir = tmp_path / f"{d.label}-{target}"
    run_dir.mkdir()
    (run_dir / "resources.json").write_text(json.dumps(doc))
    proc = subprocess.run(command.split(), cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**make_env(), "VTA_SYNTH_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"synth {d.title} {target}: cached" in proc.stdout, proc.stdout + proc.stderr
    assert f"{d.title} on {target}:" in proc.stdout and re.search(r"^total\s+7\s", proc.stdout, re.M)


def test_yosys_stopping_is_status_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A bad knob is status 2 (above); the tool stopping is status 1 with its one line, as in
    make timing (README, "Timing"), so a script can tell the two apart."""
    def stops(*_: Any) -> None:
        raise YosysError("yosys stopped: ERROR: something; see build/synth/x/yosys.log")
    monkeypatch.setattr(synth_cli, "synthesize_design", stops)
    assert synth_cli.main(["--dut", str(stand_in(tmp_path))]) == 1
    one_line(capsys.readouterr().err, "make synth: yosys stopped: ERROR: something")
