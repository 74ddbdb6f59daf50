"""A whole-top counterexample becomes a vector (tb/formal/cex.py) that `make sim` replays.

The recorded trace (tb/tests/data/formal_top_4k, kept by ``python -m tb.formal.cex ...
--record``) is the broken copy formal_top/small:VTA_TEST_BREAK_4K_DISTANCE failing a_ar_4k
at step 10: the host writes INSN_COUNT 0x04000000 (WSTRB 0x8), INSN_ADDR 0x08203fc8 and START,
then rewrites INSN_ADDR under WSTRB 0x6 after START, and the fetch's first AR (0x08203fc8,
8 beats) crosses 4 KiB. Its vector must fail in simulation with the protocol checker's rule
7 on the broken RTL and pass on the real one."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from models.isa import insns_from_bytes
from models.progbuild import Program
from models.vector import load_vector
from tb.formal import cli
from tb.formal.cex import CexError, Waves, main, translate, write_vcd
from tb.formal.sby import Check, JobResult
from tb.launch.pytest_support import run
from tb.launch.simbuild import DEFINES_VAR
from tb.paths import ROOT
from tb.plan.makers import vector_jobs

RECORDED = ROOT / "tb" / "tests" / "data" / "formal_top_4k"
DEFINE = "VTA_TEST_BREAK_4K_DISTANCE"


def test_recorded_trace_becomes_a_vector(tmp_path: Path) -> None:
    t = translate(RECORDED, tmp_path / "vec")
    v = load_vector(t.directory)
    assert (v.insn_addr, v.insn_count) == (0x08203FC8, 4)  # INSN_ADDR as at START, not as rewritten
    assert not t.kept and t.defines == (DEFINE,) and t.label == "u_mon_mem.a_ar_4k"
    assert t.checker == "the protocol checker's [4k-crossing]"
    assert t.command() == f"VTA_DEFINES={DEFINE} make sim VECTOR={t.directory}"
    assert v.expect and "INSN_COUNT 0x4000000 cut to 4" in v.description


@pytest.mark.sim
def test_counterexample_reproduces_in_simulation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Icarus, fast mode: the broken RTL fails first with [4k-crossing] at the trace's
    address; the real RTL runs the same vector to DONE and matches the model's DRAM."""
    vec = translate(RECORDED, tmp_path / "cex4k").directory
    monkeypatch.setenv(DEFINES_VAR, DEFINE)
    (broken,) = run("icarus", vector_jobs([vec], "none", 1), "fast").values()
    assert not broken["passed"]
    first = broken["failures"][0]
    assert first["kind"] == "protocol" and "[4k-crossing]" in first["message"], first
    assert "araddr=0x08203fc8" in first["message"], first
    monkeypatch.delenv(DEFINES_VAR)
    (real,) = run("icarus", vector_jobs([vec], "none", 1), "fast").values()
    assert real["passed"] and real["compared_bytes"] > 0, real["failures"]


def _trace(steps: list[dict[str, int]], where: Path) -> Path:
    names = {n for s in steps for n in s}
    write_vcd(Waves("vta_formal_top", [dict(s) for s in steps], names), where / "trace.vcd",
              {"m_axi_gmem_rdata": 64})
    return where / "trace.vcd"


IDLE = {"s_axi_control_awvalid": 0, "s_axi_control_wvalid": 0, "s_axi_control_awready": 1,
        "s_axi_control_wready": 1, "m_axi_gmem_arvalid": 0, "m_axi_gmem_arready": 1,
        "m_axi_gmem_rvalid": 0, "m_axi_gmem_rready": 1, "m_axi_gmem_bvalid": 0,
        "m_axi_gmem_bready": 1, "m_axi_gmem_arburst": 1, "s_axi_control_awaddr": 0,
        "s_axi_control_wdata": 0, "s_axi_control_wstrb": 0, "m_axi_gmem_araddr": 0,
        "m_axi_gmem_arlen": 0, "m_axi_gmem_arsize": 0, "m_axi_gmem_arid": 0, "m_axi_gmem_rid": 0,
        "m_axi_gmem_rdata": 0, "m_axi_gmem_rresp": 0, "m_axi_gmem_rlast": 0, "m_axi_gmem_bresp": 0}


def _write(addr: int, data: int, strb: int) -> dict[str, int]:
    return {**IDLE, "s_axi_control_awvalid": 1, "s_axi_control_awaddr": addr,
            "s_axi_control_wvalid": 1, "s_axi_control_wdata": data, "s_axi_control_wstrb": strb}


def _read(addr: int, image: bytes, base: int, beats: int) -> list[dict[str, int]]:
    out = [{**IDLE, "m_axi_gmem_arvalid": 1, "m_axi_gmem_araddr": addr,
            "m_axi_gmem_arlen": beats - 1, "m_axi_gmem_arsize": 3}]
    for b in range(beats):
        at = (addr & ~7) + 8 * b
        word = bytes(image[a - base] if 0 <= a - base < len(image) else 0 for a in range(at, at + 8))
        out.append({**IDLE, "m_axi_gmem_rvalid": 1, "m_axi_gmem_rdata": int.from_bytes(word, "little"),
                    "m_axi_gmem_rlast": int(b == beats - 1)})
    return out


def test_a_fetched_legal_program_is_kept(tmp_path: Path) -> None:
    """Every instruction word fetched and legal: the vector holds the trace's own program and
    the data its loads read, at the addresses the ARs asked (an unaligned stream, byte lanes);
    INSN_ADDR is the merge of two writes under their strobes."""
    from vectors.data import SMALL
    p = Program(SMALL, insn_addr=0x1004)
    acc = bytes(range(1, 33))
    src = p.alloc("acc", 2, acc, "acc")
    out = p.alloc("out", 2)
    p.load("acc", 0, src, 1, 2, push_next=True)
    p.store(0, out, 1, 2, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    prog = p.build("")
    insns = next(i.data for i in prog.init if i.file == "insns.bin")
    steps = [{**IDLE, "s_axi_control_awvalid": 0}, _write(8, 3, 0xF), _write(0xC, 0xAAAA1004, 0x3),
             _write(0xC, 0x55550000, 0x0), _write(0x0, 1, 0x1)]
    steps += _read(0x1004, insns, 0x1004, 7) + _read(p.addr("acc", src), acc, p.addr("acc", src), 4)
    t = translate(_trace(steps, tmp_path), tmp_path / "vec", "small")
    v = load_vector(t.directory)
    assert t.kept and (v.insn_addr, v.insn_count) == (0x1004, 3)
    assert v.dram().read_bytes(0x1004, 48) == insns
    assert v.dram().read_bytes(p.addr("acc", src), 32) == acc
    assert [i["opcode"] for i in insns_from_bytes(SMALL, insns)] == [i["opcode"] for i in p.insns]
    assert v.expect and v.expect[0].addr == p.addr("out", out)


def test_untranslatable_traces_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    no_start = _trace([IDLE, _write(8, 3, 0xF), IDLE], tmp_path / "a")
    with pytest.raises(CexError, match="never writes START"):
        translate(no_start, tmp_path / "va")
    (tmp_path / "b").mkdir()
    slverr = _trace([IDLE, _write(8, 1, 0xF), _write(0xC, 0x100, 0xF), _write(0, 1, 1),
                     {**IDLE, "m_axi_gmem_arvalid": 1, "m_axi_gmem_araddr": 0x100,
                      "m_axi_gmem_arlen": 1, "m_axi_gmem_arsize": 3},
                     {**IDLE, "m_axi_gmem_rvalid": 1, "m_axi_gmem_rresp": 2}], tmp_path / "b")
    with pytest.raises(CexError, match="RRESP=2 at step 5"):
        translate(slverr, tmp_path / "vb")
    assert main([str(tmp_path / "none"), "--out", str(tmp_path / "vc")]) == 1
    assert "cannot translate" in capsys.readouterr().err


def test_make_formal_writes_the_vector_of_a_failing_whole_top_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The runner's hook: a failing broken copy of the whole-top job gets its vector next to
    the trace and the `make sim` line (the recorded trace stands in for the 90 s BMC run)."""
    run_dir = tmp_path / "run"
    shutil.copytree(RECORDED, run_dir)
    vcd = run_dir / "job_bmc" / "engine_0" / "trace.vcd"

    def fake_run_job(job, workdir, env, negative=None):  # noqa: ANN001, ANN202 - run_job's shape
        c = Check("a_ar_4k", "assert", "vta_formal_axi.v", 86, failed_step=10)
        return JobResult(job.name, "bmc", job.engine, "FAILED", "counterexample at step 10", 1.0,
                         failed=[c], trace_vcd=vcd, log=run_dir / "sby.log")

    monkeypatch.setattr(cli, "run_job", fake_run_job)
    monkeypatch.setattr(cli, "formal_env", lambda: {})
    jobs, negs = cli.plan(["formal_top"], None, False)
    monkeypatch.setattr(cli, "plan", lambda *a: ([], negs))
    (tmp_path / "out").mkdir()
    cli.main(["--modules", "formal_top", "--out", str(tmp_path / "out")])
    text = capsys.readouterr().out
    where = vcd.parent / "vector"
    assert (where / "manifest.json").exists()
    assert f"counterexample as a vector: {where} (expect the protocol checker's [4k-crossing])" in text
    assert f"  reproduce: VTA_DEFINES={DEFINE} make sim VECTOR={where}" in text, text


#: the broken copy formal_top/small:a_done_after_b under the witness hint: the host writes
#: INSN_COUNT 2 and START (bases and INSN_ADDR stay 0), the memory returns STORE + FINISH
DONE_AFTER_B = ROOT / "tb" / "tests" / "data" / "formal_top_done_after_b"


def test_replacement_data_moves_past_an_instruction_stream_at_zero(tmp_path: Path) -> None:
    """The trace's STORE reads OUT never written (the model refuses it), so a legal program
    replaces it at INSN_ADDR 0; with every base 0 its micro-ops would sit on the instructions,
    so every base moves to the first page past them (0x1000), and the harness's own
    define (VTA_FORMAL_HINT) is not part of the `make sim` line."""
    t = translate(DONE_AFTER_B, tmp_path / "vec")
    v = load_vector(t.directory)
    assert not t.kept and (v.insn_addr, v.insn_count) == (0, 4)
    assert set(v.bases.values()) == {0x1000}, v.bases
    spans = sorted((i.addr, i.addr + len(i.data)) for i in v.init)
    assert all(a1 <= b0 for (_, a1), (b0, _) in zip(spans, spans[1:], strict=False)), spans
    assert t.defines == () and t.command() == f"make sim VECTOR={t.directory}"
    assert "every base 0x1000" in v.description
