"""The coverage model itself: hand-built observations hit exactly the expected bins."""
from __future__ import annotations

import random

from models.asm import parse_line
from models.config import VtaConfig
from models.gen import generate
from models.isa import decode_insn
from models.spec import module_of
from models.spec.configs import load_config
from models.stats import program_of
from tb.cov import steer
from tb.uvm.agents.txn import AxiBurst, AxiLiteAccess, InsnEvent
from tb.uvm.cov.model import CovModel
from tb.uvm.cov.points import CycleSample

CFG = load_config("small")


def event(text: str, cfg: VtaConfig = CFG, name: str = "small") -> InsnEvent:
    word = parse_line(cfg, text, "test")
    assert word is not None, f"not an instruction: {text!r}"
    insn = decode_insn(cfg, word)
    return InsnEvent(0, module_of(insn), insn, text, name)


def hits(model: CovModel) -> set[str]:
    return {f"{p}/{b}" for p, bins in model.counts().items() for b, h in bins.items() if h}


def test_load_with_pad_15_hits_exactly_its_bins() -> None:
    m = CovModel()
    m.sample("insn", event("LOAD INP sram_base=0 y_size=1 x_size=3 x_stride=5 x_pad_0=15 push_next"), CFG)
    assert hits(m) == {
        "insn.opcode/LOAD", "insn.memory_type/load/INP", "load.x_pad_0/nonzero", "load.x_pad_0/15",
        "load.y_pad_0/0", "load.y_pad_1/0", "load.x_pad_1/0", "mem.size/load/y_size/1",
        "mem.x_stride/load/greater", "insn.tokens/load/push_next_dep", "sram.index/inp/0"}


def test_full_buffer_store_hits_max_and_last_entry() -> None:
    m = CovModel()
    depth = CFG.out_depth
    m.sample("insn", event(f"STORE OUT pop_prev push_prev y_size=1 x_size={depth} x_stride={depth}"), CFG)
    got = hits(m)
    assert {"mem.size/store/x_size/max", "sram.index/out/0", "sram.index/out/last",
            "insn.tokens/store/pop_prev_dep+push_prev_dep", "mem.x_stride/store/equal"} <= got
    assert "mem.size/store/y_size/max" not in got


def test_alu_shift_by_width_minus_one() -> None:
    m = CovModel()
    w = CFG.acc_width
    m.sample("insn", event(f"ALU SHR use_imm imm=-{w - 1} uop_end=3 iter_out=1 iter_in=2"), CFG)
    got = hits(m)
    assert {"alu.op_x_imm/SHR/imm", "alu.imm/SHR/-(W-1)", "uop.loops/alu/uops/many",
            "uop.loops/alu/iter_out/1", "uop.loops/alu/iter_in/>1", "insn.tokens/compute/none"} <= got
    assert not any(h.startswith("alu.imm/") and h != "alu.imm/SHR/-(W-1)" for h in got)


def test_gemm_reset_and_counts_accumulate() -> None:
    m = CovModel()
    for _ in range(3):
        m.sample("insn", event("GEMM pop_prev reset uop_end=1 iter_out=2 iter_in=1"), CFG)
    counts = m.counts()
    assert counts["gemm.reset"] == {"reset": 3, "accumulate": 0}
    assert counts["uop.loops"]["gemm/iter_out/>1"] == 3


def test_axi_burst_of_256_ending_at_4k() -> None:
    m = CovModel()
    m.sample("axi", AxiBurst("read", 0, 0x1000 - 256 * 8, 256, 8, 1, 8))
    m.sample("axi", AxiBurst("write", 0, 0x2000, 1, 8, 1, 8))
    assert hits(m) == {"axi.burst_len/read/256", "axi.4k_boundary/read/ends_at_4k",
                       "axi.burst_len/write/1"}


def test_cycle_and_register_observations() -> None:
    m = CovModel()
    m.sample("cycle", CycleSample(frozenset({"aw_stall", "r_delay"}), 3, 2))
    m.sample("lite", AxiLiteAccess("write", 0x04, 5))
    m.sample("lite", AxiLiteAccess("read", 0x40, 0))    # STORE_BUSY (rtl/README.md)
    m.sample("lite", AxiLiteAccess("write", 0xA0, 1))   # STORE_EXEC, read-only
    m.sample("lite", AxiLiteAccess("read", 0xA4, 0))    # first offset past the map
    assert hits(m) == {"axi.backpressure/aw_stall", "axi.backpressure/r_delay", "modules.concurrent/busy/2+",
                       "modules.concurrent/busy/3", "modules.concurrent/executing/2+",
                       "host.registers/write/CYCLES(read-only)", "host.registers/read/status",
                       "host.registers/write/status(read-only)", "host.registers/read/unmapped"}


def test_models_do_not_share_hits() -> None:
    a, b = CovModel(), CovModel()
    a.sample("insn", event("FINISH pop_next"), CFG)
    assert "insn.opcode/FINISH" in hits(a) and not hits(b)


def test_closure_programs_reach_their_bins(tmp_path) -> None:
    from models.stats import program_of
    from models.vector import load_vector
    from tb.cov.closure import write_programs

    m = CovModel()
    for d in write_programs(CFG, tmp_path):
        for n, insn in enumerate(program_of(load_vector(d))):
            assert insn is not None, f"{d.name}: instruction {n} does not decode"
            m.sample("insn", InsnEvent(n, module_of(insn), insn, "", "small"), CFG)
    got = hits(m)
    assert {f"mem.size/{k}/{f}/max" for k in ("load", "store") for f in ("x_size", "y_size")} <= got
    assert {f"sram.index/{b}/last" for b in ("uop", "inp", "wgt", "acc", "out")} <= got
    assert {"insn.tokens/compute/pop_next_dep+push_prev_dep",
            "insn.tokens/compute/pop_next_dep+push_prev_dep+push_next_dep",
            "insn.tokens/compute/pop_prev_dep+pop_next_dep+push_prev_dep",
            "insn.tokens/compute/pop_prev_dep+pop_next_dep+push_next_dep"} <= got


def test_wide_forms_hit_their_bins() -> None:
    m = CovModel()
    default = load_config("default")
    m.sample("insn", event("GEMM uop_bgn=3 uop_end=1203 iter_out=16383 iter_in=1 dst_factor_out=1 "
                           "dst_factor_in=1 src_factor_out=1 src_factor_in=1 wgt_factor_out=1 "
                           "wgt_factor_in=1", default, "default"), default)
    m.sample("insn", event("ALU MIN uop_end=200 iter_out=1 iter_in=1000"), CFG)
    m.sample("insn", event("LOAD UOP sram_base=0 y_size=2 x_size=3 x_stride=5 y_pad_1=15"), CFG)
    m.sample("insn", event("STORE OUT pop_prev y_size=16 x_size=1 x_stride=1"), CFG)
    long = parse_line(CFG, "FINISH", "test")
    assert long is not None
    finish = decode_insn(CFG, long)
    for n in (48, 49, 199, 999, 1500):
        m.sample("insn", InsnEvent(n, module_of(finish), finish, "FINISH", "small"), CFG)
    got = hits(m)
    assert {"uop.range/gemm/1000+", "uop.iter_max/gemm/iter_out/1000+", "uop.iter_max/gemm/iter_out/max",
            "gemm.factors/all_nonzero", "uop.range/alu/128-999", "uop.iter_max/alu/iter_in/1000+",
            "load.uop_form/padded", "load.uop_form/strided", "load.uop_form/2d", "mem.rows/store/16+",
            "program.length/50+", "program.length/200+", "program.length/1000+"} <= got
    assert "uop.iter_max/alu/iter_in/max" not in got and "mem.rows/load/16+" not in got
    assert m.counts()["program.length"] == {"50+": 1, "200+": 1, "1000+": 1}


def test_steering_reaches_the_wide_bins() -> None:
    """Each wide bin's steering rule makes a program (on the configuration it asks for) that
    hits it; the expensive ones are aimed at alone."""
    wide = [("program.length", "1000+"), ("uop.range", "alu/1000+"), ("uop.range", "gemm/16-127"),
            ("uop.iter_max", "alu/iter_in/max"), ("uop.iter_max", "gemm/iter_out/1000+"),
            ("load.uop_form", "2d"), ("load.uop_form", "padded"), ("gemm.factors", "all_nonzero"),
            ("mem.rows", "load/16+")]
    for target in wide:
        knobs, _, aimed = steer.pick([target, ("gemm.reset", "reset")], random.Random(1))
        if target[1] in ("1000+", "alu/1000+", "alu/iter_in/max", "gemm/iter_out/1000+"):
            assert aimed == [target] and steer.alone(aimed)
        config = load_config(steer.config_for(aimed) or "small")
        m = CovModel()
        hit = False
        for seed in range(4):
            vector = generate(seed, config, knobs, max_retries=0)
            for n, insn in enumerate(program_of(vector)):
                assert insn is not None
                m.sample("insn", InsnEvent(n, module_of(insn), insn, "", "steered"), config)
            hit = f"{target[0]}/{target[1]}" in hits(m)
            if hit:
                break
        assert hit, f"steering for {target} missed it in 4 programs"
