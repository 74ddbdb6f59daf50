"""Tests of the static program checker: one hand-built failing program per rule, with the
rule and instruction index chosen by hand, plus well-formed programs that must pass."""
from __future__ import annotations

import re
import time

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from models.checker import RULES, CheckReport, check_program, check_vector, findings_of
from models.dram import Dram
from models.isa import AluOp, MemType, Opcode, insns_to_bytes, uops_to_bytes
from models.spec.configs import load_config
from models.vector import Image, Vector

CFG = load_config("small")  # every buffer 256 entries; INP/OUT elements 4 B, WGT/ACC 16 B
INSN_ADDR = 0x1000
UOP_ADDR = 0x0
BASES = {"uop": UOP_ADDR, "inp": 0x10000, "wgt": 0x20000, "acc": 0x30000, "out": 0x40000}
UOPS = [{"dst_idx": 0, "src_idx": 0, "wgt_idx": 0}, {"dst_idx": 1, "src_idx": 1, "wgt_idx": 1}]


# --- program builders ---------------------------------------------------------------------
def load(mt: int, sram: int = 0, dram: int = 0, y: int = 1, x: int = 1, stride: int | None = None,
         **kw: int) -> dict[str, int]:
    return {"opcode": Opcode.LOAD, "memory_type": mt, "sram_base": sram, "dram_base": dram,
            "y_size": y, "x_size": x, "x_stride": x if stride is None else stride, **kw}


def store(sram: int = 0, dram: int = 0, y: int = 1, x: int = 1, stride: int | None = None,
          **kw: int) -> dict[str, int]:
    return {**load(MemType.OUT, sram, dram, y, x, stride), "opcode": Opcode.STORE, **kw}


def gemm(bgn: int = 0, end: int = 1, iter_out: int = 1, iter_in: int = 1, **kw: int) -> dict[str, int]:
    return {"opcode": Opcode.GEMM, "uop_bgn": bgn, "uop_end": end, "iter_out": iter_out,
            "iter_in": iter_in, **kw}


def alu(op: int = AluOp.ADD, bgn: int = 0, end: int = 1, **kw: int) -> dict[str, int]:
    return {**gemm(bgn, end), "opcode": Opcode.ALU, "alu_opcode": op, **kw}


FINISH: dict[str, int] = {"opcode": Opcode.FINISH}


def image(insns: list[dict[str, int]], uops: list[dict[str, int]] = UOPS) -> Dram:
    dram = Dram()
    dram.write(INSN_ADDR, insns_to_bytes(CFG, insns))
    dram.write(UOP_ADDR, uops_to_bytes(CFG, uops))
    return dram


def check(insns: list[dict[str, int]], uops: list[dict[str, int]] = UOPS, **kw: int) -> CheckReport:
    return check_program(CFG, image(insns, uops), INSN_ADDR, len(insns), BASES, **kw)


def where(report: CheckReport, rule: str) -> list[int | None]:
    """Instruction indices of one rule's findings."""
    return [f.index for f in findings_of(report, rule)]


# --- well-formed programs -------------------------------------------------------------------
def pipelined() -> list[dict[str, int]]:
    """Two GEMM tiles with tokens among all three modules (L2C, C2L, C2S, S2C)."""
    return [
        load(MemType.UOP),                                     # 0 compute
        gemm(reset_reg=1),                                     # 1 compute: ACC[0] = 0
        load(MemType.INP),                                     # 2 load
        load(MemType.WGT, push_next_dep=1),                    # 3 load  -> L2C
        gemm(pop_prev_dep=1, push_prev_dep=1, push_next_dep=1),  # 4 compute -> C2L, C2S
        load(MemType.INP, dram=1, pop_next_dep=1),             # 5 load  <- C2L: INP[0] free again
        load(MemType.WGT, dram=1, push_next_dep=1),            # 6 load  -> L2C
        store(pop_prev_dep=1, push_prev_dep=1),                # 7 store <- C2S, -> S2C
        gemm(pop_prev_dep=1, pop_next_dep=1, push_next_dep=1),  # 8 compute: ACC[0] after STORE 7
        store(dram=1, pop_prev_dep=1, push_prev_dep=1),        # 9 store
        {**FINISH, "pop_next_dep": 1},                         # 10 compute <- S2C
    ]


def double_buffered(tiles: int = 6) -> list[dict[str, int]]:
    """Two virtual threads alternating halves of INP/WGT/ACC, as TVM emits them."""
    prog = [load(MemType.UOP, y=1, x=2)]
    for i in range(tiles):
        t, reuse, last = i % 2, i >= 2, i + 2 >= tiles
        prog += [
            load(MemType.INP, sram=t, dram=i, pop_next_dep=int(reuse)),
            load(MemType.WGT, sram=t, dram=i, push_next_dep=1),
            gemm(t, t + 1, reset_reg=1, pop_next_dep=int(reuse)),
            gemm(t, t + 1, pop_prev_dep=1, push_prev_dep=int(not last), push_next_dep=1),
            store(sram=t, dram=i, pop_prev_dep=1, push_prev_dep=int(not last or i == tiles - 1)),
        ]
    return prog + [{**FINISH, "pop_next_dep": 1}]


def test_pipelined_three_module_program_is_well_formed():
    report = check(pipelined())
    assert report.ok, report.format()
    assert report.modules[:4] == ["compute", "compute", "load", "load"]
    assert "well-formed" in report.format()


def test_double_buffered_gemm_with_two_virtual_threads_is_well_formed():
    report = check(double_buffered())
    assert report.ok, report.format()


def test_double_buffered_gemm_needs_no_queue_slack():
    # One token and one command of slack still suffice: each thread waits for its own buffer.
    assert check(double_buffered(), cmd_queue_depth=1, token_queue_depth=1).ok


# --- footprints -----------------------------------------------------------------------------
def test_load_with_pads_footprint_is_exact():
    insn = load(MemType.INP, sram=10, dram=7, y=2, x=3, stride=5,
                y_pad_0=1, y_pad_1=1, x_pad_0=1, x_pad_1=2)
    fp = check([insn, FINISH]).footprints[0]
    # X = 1 + 3 + 2 = 6, Y = 1 + 2 + 1 = 4: SRAM 10..33; DRAM rows 7 and 12 of 4-byte elements.
    assert fp.sram_writes["inp"].tolist() == list(range(10, 34))
    assert fp.dram_reads == [(0x10000 + 7 * 4, 12), (0x10000 + 12 * 4, 12)]
    assert fp.sram_reads == {} and fp.dram_writes == []


def test_store_with_stride_beyond_row_footprint_is_exact():
    insn = store(sram=4, dram=1, y=3, x=2, stride=5)
    report = check([insn, FINISH])
    fp = report.footprints[0]
    assert fp.sram_reads["acc"].tolist() == [4, 5, 6, 7, 8, 9]
    assert fp.dram_writes == [(0x40004, 8), (0x40018, 8), (0x4002C, 8)]
    assert report.dram_write_ranges() == [(0x40004, 8, 0), (0x40018, 8, 0), (0x4002C, 8, 0)]


def test_gemm_footprint_follows_uops_and_both_loop_strides():
    uops = [{"dst_idx": 0, "src_idx": 1, "wgt_idx": 2}, {"dst_idx": 3, "src_idx": 4, "wgt_idx": 5}]
    prog = [load(MemType.UOP, x=2),
            gemm(0, 2, iter_out=2, iter_in=3, dst_factor_out=10, dst_factor_in=1,
                 src_factor_out=20, src_factor_in=2), FINISH]
    fp = check(prog, uops).footprints[1]
    assert fp.sram_reads["uop"].tolist() == [0, 1]
    assert fp.sram_writes["acc"].tolist() == [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15]
    assert fp.sram_reads["inp"].tolist() == [1, 3, 4, 5, 6, 8, 21, 23, 24, 25, 26, 28]
    assert fp.sram_reads["wgt"].tolist() == [2, 5]


def test_alu_with_immediate_reads_no_source_and_reset_gemm_reads_no_operands():
    prog = [load(MemType.UOP, x=2), alu(use_imm=1, imm=-3), gemm(reset_reg=1), FINISH]
    report = check(prog)
    assert report.footprints[1].sram_reads == {"uop": np.array([0]), "acc": np.array([0])}
    assert set(report.footprints[2].sram_reads) == {"uop"}
    assert report.footprints[2].sram_writes["acc"].tolist() == [0]


def test_uops_never_loaded_read_as_zero():
    fp = check([gemm(0, 1), FINISH]).footprints[0]
    assert fp.sram_writes["acc"].tolist() == [0] and fp.sram_reads["inp"].tolist() == [0]


# --- one failing program per rule -----------------------------------------------------------
def test_illegal_opcode_is_reported_and_the_rest_still_checked():
    prog = [load(MemType.UOP), gemm(), store(), FINISH]
    raw = bytearray(insns_to_bytes(CFG, prog))
    raw[16:32] = (5 | 0xAB00).to_bytes(16, "little")
    dram = image(prog)
    dram.write(INSN_ADDR, bytes(raw))
    report = check_program(CFG, dram, INSN_ADDR, 4, BASES)
    assert where(report, "illegal-opcode") == [1]
    assert report.insns[1] is None and report.modules[1] == "compute"
    assert ".word" in findings_of(report, "illegal-opcode")[0].disasm
    # The STORE still gets a footprint; nothing orders it before FINISH.
    assert report.footprints[2].dram_writes == [(0x40000, 4)]
    assert where(report, "store-after-finish") == [2]


@pytest.mark.parametrize("insn", [load(6), load(7), load(MemType.OUT), store(memory_type=MemType.ACC)])
def test_illegal_memory_type(insn):
    report = check([insn, FINISH])
    assert where(report, "illegal-memory-type") == [0]


def test_illegal_alu_opcode():
    report = check([load(MemType.UOP), alu(op=6), FINISH])
    assert where(report, "illegal-alu-opcode") == [1]


@pytest.mark.parametrize("insn, index", [
    (load(MemType.INP, pop_prev_dep=1), 0),
    (load(MemType.WGT, push_prev_dep=1), 0),
    (store(pop_next_dep=1), 0),
    (store(push_next_dep=1), 0),
])
def test_illegal_flag(insn, index):
    report = check([insn, FINISH])
    assert where(report, "illegal-flag") == [index]
    # Illegal flags name no queue, so they neither deadlock nor unbalance anything.
    assert not findings_of(report, "deadlock") and not findings_of(report, "token-imbalance")


def test_store_pad():
    report = check([load(MemType.UOP), gemm(reset_reg=1, push_next_dep=1),
                    store(x_pad_0=1, pop_prev_dep=1, push_prev_dep=1), {**FINISH, "pop_next_dep": 1}])
    assert where(report, "store-pad") == [2]
    assert report.rules() == {"store-pad"}


@pytest.mark.parametrize("insn, text", [
    (load(MemType.INP, sram=250, y=2, x=4), "INP entries 250..257"),
    (load(MemType.ACC_8BIT, sram=255, y=1, x=1, x_pad_1=1), "ACC entries 255..256"),
    (store(sram=255, y=2, x=1), "ACC entries 255..256"),
    (gemm(0, 300), "uop_end 300"),
    (gemm(0, 1, iter_out=4, dst_factor_out=100), "dst (ACC) index reaches 300"),
    (gemm(0, 1, iter_in=3, wgt_factor_in=200), "wgt (WGT) index reaches 400"),
    (alu(iter_in=3, src_factor_in=200), "src (ACC) index reaches 400"),
    (alu(iter_in=3, src_factor_in=200, use_imm=1), None),
    (load(MemType.INP, dram=0x3FFFFFFF), "beyond 4 GiB"),
])
def test_index_overflow(insn, text):
    report = check([insn, FINISH])
    found = findings_of(report, "index-overflow")
    if text is None:
        assert not found
    else:
        assert [f.index for f in found] == [0] and text in found[0].message, report.format()


def test_overflowing_gemm_footprint_keeps_in_range_indices():
    fp = check([gemm(0, 1, iter_out=4, dst_factor_out=100), FINISH]).footprints[0]
    assert fp.sram_writes["acc"].tolist() == [0, 100, 200]


def test_token_imbalance_names_queue_and_last_push():
    prog = [load(MemType.INP, push_next_dep=1), load(MemType.INP, push_next_dep=1),
            gemm(pop_prev_dep=1), FINISH]
    report = check(prog)
    assert where(report, "token-imbalance") == [1]   # the push left without a pop
    assert "L2C" in findings_of(report, "token-imbalance")[0].message
    assert "2 push(es) but 1 pop(s)" in findings_of(report, "token-imbalance")[0].message
    assert not findings_of(report, "deadlock")


def test_pop_of_a_queue_nobody_pushes_is_a_deadlock():
    report = check([gemm(reset_reg=1, pop_next_dep=1), FINISH])
    assert where(report, "deadlock") == [0]
    assert ("waits to pop S2C (empty; no instruction left pushes it)"
            in findings_of(report, "deadlock")[0].message)
    assert "even with unbounded queues" in findings_of(report, "deadlock")[0].message
    assert where(report, "token-imbalance") == [0]


def test_token_cycle_deadlocks_at_any_depth():
    prog = [load(MemType.INP, pop_next_dep=1),          # 0 load waits for C2L ...
            load(MemType.WGT, push_next_dep=1),          # 1 ... before it pushes L2C
            gemm(pop_prev_dep=1, push_prev_dep=1),       # 2 compute waits for L2C before C2L
            FINISH]
    report = check(prog, cmd_queue_depth=64, token_queue_depth=255)
    assert sorted(where(report, "deadlock")) == [0, 2]
    assert not findings_of(report, "token-imbalance")


def flood(n: int = 6) -> list[dict[str, int]]:
    """After a LOAD UOP, n loads push L2C before any GEMM pops: fine only if the queues absorb them."""
    loads = [load(MemType.INP, sram=i, dram=i, push_next_dep=1) for i in range(n)]
    gemms = [gemm(0, 1, reset_reg=1, pop_prev_dep=1) for _ in range(n)]
    return [load(MemType.UOP)] + loads + gemms + [FINISH]


def test_deadlock_only_with_small_queue_depths():
    assert check(flood()).ok
    report = check(flood(), cmd_queue_depth=2, token_queue_depth=2)
    # Loads 1 and 2 fill L2C; load 3 waits to push; loads 4, 5 fill the load command queue,
    # so fetch cannot dispatch load 6 and no GEMM is ever dispatched.
    assert sorted(where(report, "deadlock")) == [3, 6]
    messages = " ".join(f.message for f in findings_of(report, "deadlock"))
    assert "waits to push L2C (full: 2 tokens" in messages
    assert "load command queue is full (2 commands)" in messages
    assert "completes with deeper queues" in messages
    assert report.rules() == {"deadlock"}
    assert check(flood(), cmd_queue_depth=8, token_queue_depth=2).ok
    assert check(flood(), cmd_queue_depth=2, token_queue_depth=6).ok


def test_tokens_are_popped_one_at_a_time_as_the_rtl_does():
    # GEMM 1 takes the L2C token at once although S2C is still empty, which lets LOAD 2 push
    # its token, the load queue drain and fetch reach STORE 6, which pushes S2C.
    prog = [load(MemType.UOP), gemm(reset_reg=1, pop_prev_dep=1, pop_next_dep=1),
            load(MemType.INP, push_next_dep=1), load(MemType.INP, sram=1, push_next_dep=1),
            load(MemType.INP, sram=2), load(MemType.INP, sram=3),
            store(x=0, push_prev_dep=1), gemm(reset_reg=1, pop_prev_dep=1), FINISH]
    # (The STORE moves no data, x_size = 0: it only carries the S2C token.)
    assert check(prog, cmd_queue_depth=1, token_queue_depth=1).ok


def test_queue_depths_default_to_the_configuration():
    small_queues = load_config("small").from_dict({**CFG.overrides(), "CMD_QUEUE_DEPTH": 2,
                                                   "TOKEN_QUEUE_DEPTH": 2})
    dram = image(flood())
    assert not check_program(small_queues, dram, INSN_ADDR, len(flood()), BASES).ok
    assert check_program(small_queues, dram, INSN_ADDR, len(flood()), BASES,
                         cmd_queue_depth=8, token_queue_depth=8).ok


def test_missing_finish():
    assert where(check([gemm(reset_reg=1)]), "missing-finish") == [0]
    assert where(check([]), "missing-finish") == [None]


def test_instructions_after_finish():
    report = check([FINISH, gemm(reset_reg=1), FINISH])
    assert where(report, "missing-finish") == [0]
    assert "followed by 2 instruction(s)" in findings_of(report, "missing-finish")[0].message


def test_store_not_ordered_before_finish():
    prog = [load(MemType.UOP), gemm(reset_reg=1, push_next_dep=1), store(pop_prev_dep=1), FINISH]
    report = check(prog)
    assert where(report, "store-after-finish") == [2]
    assert report.rules() == {"store-after-finish"}


def test_race_depends_on_a_missing_token():
    racy = pipelined()
    racy[7] = {**racy[7], "push_prev_dep": 0}   # STORE 7 no longer tells compute it is done
    racy[8] = {**racy[8], "pop_next_dep": 0}    # so GEMM 8 may overwrite ACC[0] under it
    report = check(racy)
    assert report.rules() == {"data-race"}, report.format()
    [race] = findings_of(report, "data-race")
    assert race.index == 8 and race.module == "compute"
    assert "ACC[0] written by insn 8 [compute] and accessed by insn 7 [store]" in race.message
    assert str(race).startswith("insn 8 [compute] ")


def test_race_on_input_buffer_without_c2l_token():
    racy = pipelined()
    racy[4] = {**racy[4], "push_prev_dep": 0}
    racy[5] = {**racy[5], "pop_next_dep": 0}   # LOAD 5 overwrites INP[0] while GEMM 4 reads it
    report = check(racy)
    # LOAD 5 overwrites INP[0] and LOAD 6 WGT[0] while GEMM 4 may still read them.
    assert [(f.index, f.rule) for f in report.findings] == [(5, "data-race"), (6, "data-race")]
    assert "INP[0] written by insn 5 [load] and accessed by insn 4 [compute]" in report.findings[0].message
    assert "WGT[0] written by insn 6 [load] and accessed by insn 4 [compute]" in report.findings[1].message


def test_dram_race_between_store_and_load():
    # STORE writes OUT element 0 (0x40000); a LOAD INP reads the same bytes via its own base.
    same = (0x40000 - BASES["inp"]) // CFG.inp_bytes
    prog = [load(MemType.UOP), gemm(reset_reg=1, push_next_dep=1), store(pop_prev_dep=1, push_prev_dep=1),
            load(MemType.INP, dram=same), {**FINISH, "pop_next_dep": 1}]
    report = check(prog)
    [race] = findings_of(report, "data-race")
    assert race.index == 3 and "DRAM 0x40000..0x40003" in race.message
    # Ordered through compute (STORE -S2C-> GEMM -C2L-> LOAD), the same accesses are fine.
    ordered = [load(MemType.UOP), gemm(reset_reg=1, push_next_dep=1), store(pop_prev_dep=1, push_prev_dep=1),
               gemm(reset_reg=1, pop_next_dep=1, push_prev_dep=1),
               load(MemType.INP, dram=same, pop_next_dep=1, push_next_dep=1),
               {**FINISH, "pop_prev_dep": 1}]
    assert check(ordered).ok, check(ordered).format()


def test_store_over_the_instruction_stream_is_a_race_with_fetch():
    prog = [gemm(reset_reg=1, push_next_dep=1),
            store(dram=(INSN_ADDR + 16) // CFG.out_bytes, pop_prev_dep=1, push_prev_dep=1),
            {**FINISH, "pop_next_dep": 1}]
    report = check_program(CFG, image(prog), INSN_ADDR, len(prog), {**BASES, "out": 0})
    assert where(report, "data-race") == [1]
    assert "instruction stream" in findings_of(report, "data-race")[0].message


def test_uops_loaded_from_stored_dram():
    # STORE writes OUT element 0x100 = byte 0x40400; LOAD UOP reads it as uop element 0x10100.
    prog = [load(MemType.UOP), gemm(reset_reg=1, push_next_dep=1),
            store(dram=0x100, pop_prev_dep=1, push_prev_dep=1),
            load(MemType.UOP, dram=(0x40400 - UOP_ADDR) // 4, pop_next_dep=1),
            gemm(0, 1, reset_reg=1), FINISH]
    report = check(prog)
    assert where(report, "uop-from-store") == [3]
    assert "STORE #2" in findings_of(report, "uop-from-store")[0].message
    assert report.rules() == {"uop-from-store"}
    # The GEMM reads uop 0 but its operands are unknown, so they are left out.
    assert set(report.footprints[4].sram_reads) == {"uop"}


# --- reports, vectors, speed ----------------------------------------------------------------
def test_every_rule_is_documented_and_findings_format():
    assert len(RULES) == 13 and all(RULES.values())
    report = check([load(MemType.INP, pop_prev_dep=1)])
    text = report.format()
    assert "illegal-flag" in text and "missing-finish" in text and not report.ok


def test_check_vector_uses_config_bases_image_and_depth_overrides():
    prog = flood()
    vec = Vector(CFG, INSN_ADDR, len(prog),
                 [Image(UOP_ADDR, uops_to_bytes(CFG, UOPS)), Image(INSN_ADDR, insns_to_bytes(CFG, prog))],
                 bases=dict(BASES))
    report = check_vector(vec)
    assert report.ok and report.footprints[1].dram_reads == [(BASES["inp"], 4)]
    assert check_vector(vec, cmd_queue_depth=2, token_queue_depth=2).rules() == {"deadlock"}


def test_instruction_stream_beyond_4gib():
    report = check_program(CFG, Dram(), (1 << 32) - 32, 4, BASES)
    assert where(report, "index-overflow") == [None]
    assert len(report.insns) == 2


def test_large_program_checks_in_seconds():
    prog = double_buffered(400)   # 2001 instructions
    start = time.perf_counter()
    report = check(prog)
    assert report.ok, report.format()
    assert time.perf_counter() - start < 5


def test_token_free_program_reports_races_without_blowing_up():
    prog = [load(MemType.UOP)] + [insn for i in range(300) for insn in
                                  (load(MemType.INP), gemm(0, 1), store())] + [FINISH]
    start = time.perf_counter()
    report = check(prog)
    assert time.perf_counter() - start < 5
    # Every LOAD INP races with every GEMM on INP[0], every GEMM with every STORE on ACC[0]:
    # 2 x 300^2 pairs, of which the first 20 per buffer are listed, then one summary each.
    races = findings_of(report, "data-race")
    listed = [f for f in races if f.index is not None]
    assert len(listed) == 2 * 20 and sum(f.index is None for f in races) == 2


# --- race detection against a brute-force reference ------------------------------------------
def _random_insn(kind: int, a: int, b: int, flags: int) -> dict[str, int]:
    """LOAD INP (reading DRAM that STOREs write), GEMM or STORE on a few shared entries."""
    bit = [flags >> k & 1 for k in range(4)]
    if kind == 0:
        return load(MemType.INP, sram=a, dram=b, x=1 + (flags >> 4 & 1),
                    pop_next_dep=bit[0], push_next_dep=bit[1])
    if kind == 1:
        return gemm(0, 1, iter_out=1 + a % 3, dst_factor_out=1, src_factor_out=1,
                    reset_reg=b % 2, pop_prev_dep=bit[0], pop_next_dep=bit[1],
                    push_prev_dep=bit[2], push_next_dep=bit[3])
    return store(sram=a, dram=b, x=1 + (flags >> 4 & 1), pop_prev_dep=bit[0], push_prev_dep=bit[1])


def _reference_accesses(insn: dict[str, int]) -> tuple[set, set]:
    """(reads, writes) as sets of ('inp'|'acc'|'wgt', entry) and ('dram', byte), by hand."""
    if insn["opcode"] == Opcode.LOAD:
        x, d = insn["x_size"], BASES["out"] + 4 * insn["dram_base"]
        return {("dram", d + k) for k in range(4 * x)}, {("inp", insn["sram_base"] + k) for k in range(x)}
    if insn["opcode"] == Opcode.GEMM:
        rows = range(insn["iter_out"])
        acc = {("acc", o) for o in rows}
        reads = set() if insn["reset_reg"] else acc | {("inp", o) for o in rows} | {("wgt", 0)}
        return reads, acc
    if insn["opcode"] == Opcode.FINISH:
        return set(), set()
    x, d = insn["x_size"], BASES["out"] + 4 * insn["dram_base"]
    return {("acc", insn["sram_base"] + k) for k in range(x)}, {("dram", d + k) for k in range(4 * x)}


def _reference_races(prog: list[dict[str, int]]) -> set[tuple[int, int]]:
    """Racing pairs from an explicit happens-before graph and its transitive closure."""
    from models.spec import module_of
    modules = [module_of(i) for i in prog]
    queue_of = {("load", "pop_next_dep"): "C2L", ("load", "push_next_dep"): "L2C",
                ("compute", "pop_prev_dep"): "L2C", ("compute", "pop_next_dep"): "S2C",
                ("compute", "push_prev_dep"): "C2L", ("compute", "push_next_dep"): "C2S",
                ("store", "pop_prev_dep"): "C2S", ("store", "push_prev_dep"): "S2C"}
    edges: dict[int, set[int]] = {n: set() for n in range(len(prog))}
    last: dict[str, int] = {}
    pushes: dict[str, list[int]] = {}
    pops: dict[str, list[int]] = {}
    for n, insn in enumerate(prog):
        if modules[n] in last:
            edges[last[modules[n]]].add(n)
        last[modules[n]] = n
        for (m, flag), q in queue_of.items():
            if m == modules[n] and insn.get(flag):
                (pushes if flag.startswith("push") else pops).setdefault(q, []).append(n)
    for q, ps in pushes.items():
        for p, c in zip(ps, pops.get(q, []), strict=False):
            edges[p].add(c)

    def reach(n: int) -> set[int]:
        seen: set[int] = set()
        todo = [n]
        while todo:
            for m in edges[todo.pop()] - seen:
                seen.add(m)
                todo.append(m)
        return seen

    # Only instructions that can run with unbounded queues take part: a least fixpoint of
    # "every happens-before predecessor can run" (a pop without its push never can).
    preds = {n: {m for m in edges if n in edges[m]} for n in edges}
    unmatched = {c for q, cs in pops.items() for c in cs[len(pushes.get(q, [])):]}
    runs: set[int] = set()
    while True:
        more = {n for n in edges if n not in runs and n not in unmatched and preds[n] <= runs}
        if not more:
            break
        runs |= more
    after = [reach(n) for n in range(len(prog))]
    access = [_reference_accesses(i) for i in prog]
    races = set()
    for a in sorted(runs):
        for b in sorted(runs):
            (ra, wa), (rb, wb) = access[a], access[b]
            conflict = wa & (rb | wb) or wb & ra
            if a < b and modules[a] != modules[b] and conflict and b not in after[a] and a not in after[b]:
                races.add((a, b))
    return races


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.integers(0, 3),
                          st.integers(0, 31)), min_size=1, max_size=14))
def test_races_match_a_brute_force_happens_before_reference(spec):
    prog = [_random_insn(*s) for s in spec] + [FINISH]
    same_dram = {**BASES, "inp": BASES["out"]}   # LOAD INP element k = OUT element k
    report = check_program(CFG, image(prog), INSN_ADDR, len(prog), same_dram,
                           cmd_queue_depth=64, token_queue_depth=255)
    races = findings_of(report, "data-race")
    assume(all(f.index is not None for f in races))
    found = set()
    for f in races:
        w, x = map(int, re.findall(r"insn (\d+) \[", f.message))
        found.add((min(w, x), max(w, x)))
    assert found == _reference_races(prog)


# --- uninitialized SRAM reads ----------------------------------------------------------------
def test_store_of_never_written_accumulators_is_an_uninitialized_read():
    report = check([gemm(reset_reg=1, push_next_dep=1) | {"uop_bgn": 0, "uop_end": 1},
                    store(sram=0, x=2, pop_prev_dep=1, push_prev_dep=1),
                    {**FINISH, "pop_next_dep": 1}], uops=UOPS)
    # No LOAD UOP: the reset GEMM itself reads a never-loaded micro-op (insn 0); taking
    # that uop as zero it resets ACC[0], and the STORE then reads ACC[1], never written.
    assert where(report, "uninitialized-read") == [0, 1]
    assert "UOP[0]" in str(findings_of(report, "uninitialized-read")[0])
    assert "reads ACC[1] " in str(findings_of(report, "uninitialized-read")[1])


def test_accumulating_gemm_must_follow_a_write_of_its_destination():
    base = [load(MemType.UOP, x=2), load(MemType.INP, x=2), load(MemType.WGT, x=2, push_next_dep=1)]
    bad = check(base + [gemm(pop_prev_dep=1), {**FINISH}])
    assert where(bad, "uninitialized-read") == [3]
    assert "ACC[0]" in str(findings_of(bad, "uninitialized-read")[0])
    good = check(base + [gemm(reset_reg=1), gemm(pop_prev_dep=1), {**FINISH}])
    assert "uninitialized-read" not in good.rules()


def test_write_in_another_module_counts_only_when_ordered_before_the_read():
    # INP[0] is loaded by the load module; the GEMM reads it. With the L2C token the load
    # happens-before the GEMM; without it the read is both a race and uninitialized.
    ordered = [load(MemType.UOP), gemm(reset_reg=1), load(MemType.INP), load(MemType.WGT, push_next_dep=1),
               gemm(pop_prev_dep=1), FINISH]
    assert check(ordered).ok
    unordered = [load(MemType.UOP), gemm(reset_reg=1), load(MemType.INP), load(MemType.WGT),
                 gemm(), FINISH]
    report = check(unordered)
    assert where(report, "uninitialized-read") == [4, 4]   # INP[0] and WGT[0]
    assert {"INP[0]", "WGT[0]"} == {f.message.split()[1] for f in findings_of(report, "uninitialized-read")}
    assert "data-race" in report.rules()


def test_alu_reads_destination_and_source():
    prog = [load(MemType.UOP, x=2), gemm(reset_reg=1),  # resets ACC[0] only (uop 0)
            alu(AluOp.ADD, bgn=1, end=2), FINISH]        # uop 1: ACC[1] += ACC[1]
    assert where(check(prog), "uninitialized-read") == [2]
    imm = [load(MemType.UOP, x=2), gemm(reset_reg=1), alu(AluOp.ADD, use_imm=1, imm=3), FINISH]
    assert check(imm).ok
