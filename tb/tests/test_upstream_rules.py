"""The rules that keep upstream's documented differences out of its runs, without simulating:
the variant model (tb/duts/semantics.py) finds exactly the programs whose stored bytes
depend on a difference, the restricted generator (models/genlib/restrict.py) builds none,
and a saved failure names the DUT it ran on. Expectations come from the spec's arithmetic
and the model, never from the DUT."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from models.checker import check_vector
from models.decode import decode_program
from models.gen import generate
from models.genlib.restrict import Limits
from models.isa import AluOp, Opcode
from models.progbuild import Program, UopRange, as_bytes
from models.spec.configs import load_config
from models.vector import Vector
from models.workloads import workload
from models.workloads.layers import LAYER_NAMES
from tb.duts.semantics import MODELLED, divergences, first_divergence
from tb.plan.applicable import job_reasons, program_reasons
from tb.plan.claims import RTL_CLAIMS, RTL_ONLY, view
from tb.plan.jobs import Job
from tb.plan.saved import SAVED_FILE, SavedError, SavedFailure, failure_dir
from tb.tests.test_duts import need_netlist
from tb.uvm.checkers.scoreboard import count_mismatches
from tb.uvm.seq_lib.launch_flow import launch_program
from tb.uvm.seq_lib.regmap import sweep_offsets

CFG = load_config("upstream_chisel")
IMM, OUT, RAW = "isa.alu-imm-reads-src", "store.out-buffer", "isa.alu-no-bypass"


def program(body: str) -> Vector:
    """ACC entries 0..3 loaded with distinct values, then ``body``, then STORE of entry 1."""
    p = Program(CFG)
    acc = p.alloc("acc", 4, as_bytes(np.arange(64, dtype=np.int64).reshape(4, 1, 16) * 3 + 1, np.int32))
    out = p.alloc("out", 1)
    p.load("acc", 0, acc, 1, 4, push_next=body == "load")
    if body == "alu-src0":
        p.alu(AluOp.ADD, [(1, 0, 0)], imm=5, push_next=True)   # dst 1, src 0
    elif body == "alu-in-place":
        p.alu(AluOp.ADD, [(1, 1, 0)], imm=5, push_next=True)
    elif body == "alu-register":
        p.alu(AluOp.ADD, [(1, 0, 0)], push_next=True)          # the register form reads dst
    elif body == "alu-raw":
        p.alu(AluOp.ADD, [(0, 2, 0), (1, 0, 0)], push_next=True)  # the 2nd reads what the 1st wrote
    elif body == "alu-raw-apart":
        p.alu(AluOp.ADD, [(0, 2, 0), (3, 2, 0), (1, 0, 0)], push_next=True)
    elif body == "reset":
        p.gemm([(1, 0, 0)], reset=True, push_next=True)
    p.store(1, out, 1, 1, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    return p.build(f"upstream rules: {body}")


@pytest.mark.parametrize("body, imm, out, raw", [
    ("alu-src0", 16, None, None),        # op(ACC[0], 5) != op(ACC[1], 5) in all 16 lanes
    ("alu-in-place", None, None, None),  # src = dst: the same; an ALU wrote entry 1 last
    ("alu-register", None, None, None),
    ("alu-raw", None, None, 16),         # ACC[1] += ACC[0] sees ACC[0] before += ACC[2]
    ("alu-raw-apart", None, None, None), # one iteration between the write and the read
    ("load", None, 16, None),            # LOAD ACC last wrote entry 1: OUT is stale
    ("reset", None, 16, None),           # a reset GEMM writes no OUT entry either
])
def test_variants_find_the_programs_that_depend_on_a_difference(body: str, imm: int | None,
                                                                 out: int | None, raw: int | None) -> None:
    vector = program(body)
    for name, changed in ((IMM, imm), (OUT, out), (RAW, raw)):
        hit = first_divergence(vector, name)
        assert (hit[1] if hit else None) == changed, (body, name, hit)


def test_the_restricted_generator_builds_programs_clear_of_the_modelled_differences() -> None:
    limits = Limits(frozenset(MODELLED), 2048)
    for seed in range(1, 13):
        vector = generate(seed, CFG, limits=limits)
        assert all(hit is None for hit in divergences(vector, MODELLED).values()), seed
        alus = [i for i in vector_insns(vector) if i["opcode"] == Opcode.ALU]
        assert alus and any(a["use_imm"] and a["imm"] == 0 for a in alus)  # the refresh ALUs


def test_workloads_are_lowered_in_tvms_form_and_clear_of_the_differences() -> None:
    """Every scaled-down ResNet layer, both virtual-thread counts: the epilogue's immediate
    ALU operations name their destination as their source (as TVM's lowering does), so no
    stored byte depends on a modelled difference and upstream runs the layers."""
    for name in LAYER_NAMES:
        for vt in (1, 2):
            vector = workload(name, "small", CFG, vt).vector
            imms = [i for i in vector_insns(vector) if i["opcode"] == Opcode.ALU and i["use_imm"]]
            assert imms and all((i["src_factor_out"], i["src_factor_in"]) ==
                                (i["dst_factor_out"], i["dst_factor_in"]) for i in imms), (name, vt)
            assert all(hit is None for hit in divergences(vector, MODELLED).values()), (name, vt)


def token_flood(loads: int) -> Vector:
    """``loads`` LOADs of nothing (x_size 0) that each push L2C, then as many GEMMs of no
    micro-op that each pop one: every token can be outstanding at once."""
    p = Program(CFG)
    for _ in range(loads):
        p.load("inp", 0, 0, 1, 0, push_next=True)
    for _ in range(loads):
        p.gemm(UopRange(0, 0), pop_prev=True)
    p.finish()
    return p.build(f"{loads} L2C tokens", queues_may_fill=True)


def test_a_token_queue_is_ruled_out_only_when_it_can_overflow() -> None:
    """Upstream's counters hold 255 and drop a push beyond (tokens.full-push-dropped): 256
    tokens that can all be outstanding are ruled out, 255 are not, and the full-size C11
    layer with two virtual threads (843 instructions, 256 L2C pushes, never more than two
    outstanding) runs."""
    need_netlist()
    assert check_vector(token_flood(256)).ok
    over = program_reasons(token_flood(256), "upstream-chisel")
    assert len(over) == 1 and over[0].startswith("tokens.full-push-dropped: 256 tokens of L2C"), over
    assert program_reasons(token_flood(255), "upstream-chisel") == []
    assert program_reasons(workload("C11", "full", CFG, 2).vector, "upstream-chisel") == []


def vector_insns(vector: Vector) -> list[dict]:
    decoded = decode_program(vector.config, vector.dram(), vector.insn_addr, vector.insn_count)
    return [i for i in decoded.insns if i is not None]


def test_the_restricted_generator_shifts_only_by_immediates_within_the_width() -> None:
    """isa.alu-shr-negative: upstream shifts by an immediate in [-31, 31] as spec section 3
    says and otherwise by five bits of the operand, so its programs keep SHR in that form."""
    limits = Limits(frozenset({"isa.alu-shr-negative", *MODELLED}), 2048)
    shrs = [a for seed in range(1, 25) for a in vector_insns(generate(seed, CFG, limits=limits))
            if a["opcode"] == Opcode.ALU and a["alu_opcode"] == AluOp.SHR]
    assert len(shrs) >= 5 and all(a["use_imm"] for a in shrs)
    shifts = {a["imm"] - (1 << 16) if a["imm"] >= 1 << 15 else a["imm"] for a in shrs}
    assert max(abs(v) for v in shifts) <= CFG.acc_width - 1 and min(shifts) < 0 < max(shifts), shifts


def test_without_limits_the_generator_is_unchanged() -> None:
    """The new knobs draw nothing when off: rtl/'s random programs stay byte for byte."""
    a, b = generate(7, CFG), generate(7, CFG, limits=Limits())
    assert [(i.addr, i.data) for i in a.init] == [(i.addr, i.data) for i in b.init]


def test_a_saved_failure_names_its_dut(tmp_path: Path) -> None:
    job = Job("vec-x-none", vector="x")
    repro = "python -m tb.run --sim icarus --mode fast"
    SavedFailure("icarus", "small", job, "fast", "upstream-chisel", repro).write(tmp_path)
    assert SavedFailure.read(tmp_path).dut == "upstream-chisel"
    # written before ``dut`` was a field: the repro command's --dut, else rtl/'s
    side = tmp_path / SAVED_FILE
    raw = json.loads(side.read_text())
    del raw["dut"]
    side.write_text(json.dumps({**raw, "repro": repro + " --dut upstream-chisel --vector x"}))
    assert SavedFailure.read(tmp_path).dut == "upstream-chisel"
    side.write_text(json.dumps(raw))
    assert SavedFailure.read(tmp_path).dut == "vta"
    side.write_text(json.dumps({**raw, "dut": 3}))
    with pytest.raises(SavedError, match="dut must be"):
        SavedFailure.read(tmp_path)
    assert failure_dir(tmp_path, "icarus", job, "fast").name == "icarus-fast-vec-x-none"
    assert failure_dir(tmp_path, "icarus", job, "fast", "upstream-chisel").name == \
        "icarus-fast-upstream-chisel-vec-x-none"


def test_a_counted_register_is_held_to_the_sum_of_the_model_counters() -> None:
    """The scoreboard's rule for a foreign DUT's documented counter (upstream's ACC_WRITES =
    GEMM_UOPS + ALU_UOPS): equal passes, one write short is named with both values."""
    counts: dict[str, tuple[str, ...]] = {"ACC_WRITES": ("GEMM_UOPS", "ALU_UOPS")}
    want = {"GEMM_UOPS": 32, "ALU_UOPS": 4, "RD_BYTES": 999}
    assert count_mismatches(counts, want, {"ACC_WRITES": 36}) == []
    assert count_mismatches(counts, want, {"ACC_WRITES": 35}) == [
        "ACC_WRITES reads 35, the model predicts 36 (GEMM_UOPS + ALU_UOPS)"]


def test_upstreams_register_flows_check_what_its_profile_states() -> None:
    """The register-map and host-timing flows run on upstream, held to its profile: INSN_COUNT
    and the twelve pointer words (0x0C..0x38, low word first) hold writes, nothing is read-only
    once the profile states host.cycles-writable, every other offset of the sweep is unmapped;
    every claim only rtl/README.md makes, and each a difference denies, is named with its
    reason. The reset flow stays rtl/'s."""
    need_netlist()
    v = view("upstream-chisel", CFG)
    assert not v.native and v.held[0] == ("INSN_COUNT", 0x08)
    assert [o for _, o in v.held[1:]] == list(range(0x0C, 0x3C, 4))
    assert v.held[1:3] == (("INSN_ADDR[31:0]", 0x0C), ("INSN_ADDR[63:32]", 0x10))
    assert v.read_only == () and sorted(v.names) == list(range(0, 0x40, 4)) and v.spare == 0x40
    assert v.reset_value(0) is None  # the profile states no reset values
    unmapped = {a for a in sweep_offsets([o for _, o in v.held]) if a not in v.names}
    assert unmapped >= set(range(0x40, 0x400, 4))
    rtl_only = {c: why for c, why in v.not_checked.items() if why == RTL_ONLY}
    assert rtl_only == dict.fromkeys(RTL_CLAIMS, RTL_ONLY)
    others = {c: why.split(":")[0] for c, why in v.not_checked.items() if c not in RTL_CLAIMS}
    assert others == {"byte-strobes": "host.wstrb-ignored", "w-first": "host.aw-before-w",
                      "cycles-read-only": "host.cycles-writable",
                      "extra-registers": "the profile states no access, value after reset or launch "
                                         "behaviour of ACC_WRITES"}
    assert "w-first" not in v.unchecked("regmap") and "insn-idx" not in v.unchecked("hostvar")
    assert v.checks("read-write") and v.checks("unmapped") and v.checks("done")
    for job in (Job("regmap", kind="regmap"), Job("hostvar-s1", kind="host-timing")):
        assert job_reasons(job, "upstream_chisel", "upstream-chisel") == []
    [why] = job_reasons(Job("reset-mid-s1-light", kind="reset-mid"), "upstream_chisel", "upstream-chisel")
    assert why.startswith("rtl/ only: reset checks rtl/'s own register table"), why


def test_the_launch_flows_program_for_upstream_avoids_its_differences() -> None:
    """mixed uses ALU MUL and ACC_8BIT, which upstream does not decode: the launch flows run
    the first random program the profile allows instead."""
    need_netlist()
    assert program_reasons(launch_program(CFG, "vta"), "upstream-chisel")  # mixed: ruled out
    vector = launch_program(CFG, "upstream-chisel")
    assert program_reasons(vector, "upstream-chisel") == [] and vector.description.startswith("random")
