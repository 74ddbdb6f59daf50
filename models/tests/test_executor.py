"""Executor tests: every expectation comes from the spec by hand or by small numpy
arithmetic written here, never from the executor itself."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import executor as ex
from models.dram import Dram
from models.executor import ProgramError, execute, expected_images
from models.isa import AluOp, MemType, insns_to_bytes
from models.spec.configs import load_config
from models.tests.progs import INSN_ADDR, Prog, alu, finish, gemm, load, store

DEFAULT = load_config(None)
SMALL = load_config("small")      # BLOCK 4, BATCH 1: 4 lanes per ACC element
BATCH2 = load_config("batch2")    # BATCH 2, BLOCK 16
I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1


def rand(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(-128, 128, shape)


def wrap8(values: np.ndarray) -> np.ndarray:
    """Low 8 bits as signed int8 (what a STORE keeps of an accumulator)."""
    return ((np.asarray(values) + 128) % 256 - 128).astype(np.int8)


def acc_prog(cfg, rows: list[list[int]], uops: list[tuple[int, int, int]], *insns: dict,
             bases: dict[str, int] | None = None) -> Prog:
    """Program that LOADs ACC rows and uops, runs insns, then FINISH."""
    p = Prog(cfg) if bases is None else Prog(cfg, bases=bases)
    p.put_acc(0, np.array(rows).reshape(len(rows), cfg.batch, cfg.block_out))
    p.put_uops(0, uops)
    p.insns = [load(MemType.ACC, 0, 0, x=len(rows)), load(MemType.UOP, 0, 0, x=len(uops)),
               *insns, finish()]
    return p


def acc_rows(result, count: int) -> list[list[int]]:
    return result.sram["acc"][:count].reshape(count, -1).tolist()


# --- GEMM ---------------------------------------------------------------------------------
@pytest.mark.parametrize("cfg", [DEFAULT, BATCH2], ids=["default", "batch2"])
def test_single_uop_gemm_matches_matmul(cfg):
    p = Prog(cfg)
    inp, wgt = rand((1, cfg.batch, cfg.block_in), 1), rand((1, cfg.block_out, cfg.block_in), 2)
    p.put_inp(3, inp)
    p.put_wgt(5, wgt)
    p.put_uops(0, [(7, 1, 2)])
    p.insns = [load(MemType.UOP, 0, 0), load(MemType.INP, 1, 3), load(MemType.WGT, 2, 5),
               gemm(0, 1, reset=True), gemm(0, 1), store(7, 4), finish()]
    result = p.run()
    expect = inp[0] @ wgt[0].T    # INP[b][k] * WGT[j][k], WGT row-major [BLOCK_OUT][BLOCK_IN]
    assert result.sram["acc"][7].tolist() == expect.tolist()
    assert (p.out(result, 4)[0] == wrap8(expect)).all()
    assert result.counters["gemm_uops"] == 1 and result.counters["gemm_reset_uops"] == 1


def reference_gemm(acc, inp, wgt, uops, iters, dst, src, wg):
    """Section 3's GEMM loop, literally."""
    for o in range(iters[0]):
        for i in range(iters[1]):
            for d, s, w in uops:
                a, x, k = d + o * dst[0] + i * dst[1], s + o * src[0] + i * src[1], w + o * wg[0] + i * wg[1]
                acc[a] += inp[x] @ wgt[k].T


@pytest.mark.parametrize("chunk", [ex.CHUNK, 7])
def test_gemm_loops_and_factors(monkeypatch, chunk):
    monkeypatch.setattr(ex, "CHUNK", chunk)
    cfg = SMALL
    inp, wgt = rand((16, 1, 4), 3), rand((8, 4, 4), 4)
    p = Prog(cfg)
    p.put_inp(0, inp)
    p.put_wgt(0, wgt)
    uops = [(0, 0, 0), (1, 2, 1), (0, 1, 3)]
    p.put_uops(0, uops)
    iters, dst, src, wg = (3, 2), (2, 1), (4, 1), (1, 2)
    p.insns = [load(MemType.UOP, 0, 0, x=3), load(MemType.INP, 0, 0, x=16),
               load(MemType.WGT, 0, 0, x=8), gemm(0, 1, iters=(1, 8), dst=(0, 1), reset=True),
               gemm(0, 3, iters=iters, dst=dst, src=src, wgt=wg), store(0, 0, x=8), finish()]
    result = p.run()
    acc = np.zeros((8, 1, 4), dtype=np.int64)
    reference_gemm(acc, inp, wgt, uops, iters, dst, src, wg)
    assert result.sram["acc"][:8].tolist() == acc.tolist()
    assert result.counters["gemm_uops"] == 18


def test_gemm_accumulates_with_32_bit_wrap():
    cfg = SMALL
    p = acc_prog(cfg, [[I32_MAX, I32_MIN, 5, 0]], [(0, 0, 0)])
    p.put_inp(0, np.array([[[1, 0, 0, 0]]]))
    p.put_wgt(0, np.array([[[1, 0, 0, 0], [-1, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0]]]))
    p.insns[2:2] = [load(MemType.INP, 0, 0), load(MemType.WGT, 0, 0), gemm(0, 1)]
    assert acc_rows(p.run(), 1) == [[I32_MIN, I32_MAX, 7, 0]]


def test_gemm_reset_zeroes_all_lanes_of_indexed_elements_only():
    p = acc_prog(SMALL, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9]], [(0, 0, 0)],
                 gemm(0, 1, iters=(1, 2), dst=(0, 2), reset=True))
    assert acc_rows(p.run(), 3) == [[0, 0, 0, 0], [5, 6, 7, 8], [0, 0, 0, 0]]


# --- ALU ------------------------------------------------------------------------------------
DST = [5, -7, I32_MAX, I32_MIN]
SRC = [3, -9, 1, -1]


@pytest.mark.parametrize("op, expect", [
    (AluOp.MIN, [3, -9, 1, I32_MIN]),
    (AluOp.MAX, [5, -7, I32_MAX, -1]),
    (AluOp.ADD, [8, -16, I32_MIN, I32_MAX]),
    (AluOp.MUL, [15, 63, I32_MAX, I32_MIN]),
])
def test_alu_register_operand(op, expect):
    p = acc_prog(SMALL, [DST, SRC], [(0, 1, 0)], alu(op, 0, 1))
    assert acc_rows(p.run(), 2) == [expect, SRC]


@pytest.mark.parametrize("op, imm, expect", [
    (AluOp.MIN, -3, [-3, -7, -3, I32_MIN]),
    (AluOp.MAX, -3, [5, -3, I32_MAX, -3]),
    (AluOp.ADD, -3, [2, -10, I32_MAX - 3, I32_MAX - 2]),
    (AluOp.MUL, -3, [-15, 21, -2147483645, I32_MIN]),
    (AluOp.SHR, 2, [1, -2, 536870911, -536870912]),
    (AluOp.SHR, -2, [20, -28, -4, 0]),
    (AluOp.ADD, -32768, [-32763, -32775, I32_MAX - 32768, I32_MAX - 32767]),
    (AluOp.MAX, 32767, [32767, 32767, I32_MAX, 32767]),
])
def test_alu_immediate(op, imm, expect):
    p = acc_prog(SMALL, [DST], [(0, 0, 0)], alu(op, 0, 1, imm=imm))
    assert acc_rows(p.run(), 1) == [expect]


@pytest.mark.parametrize("dst, src, expect", [
    ([-5, 7, I32_MIN, I32_MAX], [31, 31, 31, 30], [-1, 0, -1, 1]),
    ([-5, 7, -1, 3], [32, 32, 40, 100], [-1, 0, -1, 0]),
    ([1, 3, -1, 1], [-31, -31, -31, -30], [I32_MIN, I32_MIN, I32_MIN, 1 << 30]),
    ([1, 3, -1, 5], [-32, -33, -100, I32_MIN], [0, 0, 0, 0]),
    ([-8, 8, 0, I32_MIN], [I32_MAX, 0, -1, 0], [-1, 8, 0, I32_MIN]),
])
def test_shr_register_operand_large_and_negative_counts(dst, src, expect):
    p = acc_prog(SMALL, [dst, src], [(0, 1, 0)], alu(AluOp.SHR, 0, 1))
    assert acc_rows(p.run(), 1) == [expect]


def test_alu_reads_results_of_earlier_uops_in_order():
    # Running sum: ACC[1] += ACC[0]; ACC[2] += ACC[1]; ACC[3] += ACC[2]. Program order
    # gives prefix sums; evaluating all reads first would give [1, 11, 110, 1100].
    rows = [[1] * 4, [10] * 4, [100] * 4, [1000] * 4]
    p = acc_prog(SMALL, rows, [(1, 0, 0), (2, 1, 0), (3, 2, 0)], alu(AluOp.ADD, 0, 3))
    assert acc_rows(p.run(), 4) == [[1] * 4, [11] * 4, [111] * 4, [1111] * 4]


def test_alu_reads_before_later_writes():
    # ACC[0] += ACC[1]; ACC[1] += ACC[2]: the first uop sees the old ACC[1].
    rows = [[1] * 4, [10] * 4, [100] * 4]
    p = acc_prog(SMALL, rows, [(0, 1, 0), (1, 2, 0)], alu(AluOp.ADD, 0, 2))
    assert acc_rows(p.run(), 3) == [[11] * 4, [110] * 4, [100] * 4]


def test_alu_read_before_a_later_write_of_a_less_repeated_destination():
    # ACC[0] += ACC[5]; ACC[0] += ACC[1]; ACC[1] += ACC[5]: the second uop must see the old
    # ACC[1] although the third uop is the first write of ACC[1].
    rows = [[1] * 4, [10] * 4, [0] * 4, [0] * 4, [0] * 4, [100] * 4]
    p = acc_prog(SMALL, rows, [(0, 5, 0), (0, 1, 0), (1, 5, 0)], alu(AluOp.ADD, 0, 3))
    assert acc_rows(p.run(), 2) == [[111] * 4, [110] * 4]


def test_alu_loop_reading_a_destination_written_in_an_earlier_iteration():
    # iter_in 3, dst = i, src = i + 1 with uop (dst 1, src 0) first: i=0 writes ACC[1] from
    # ACC[0]; i=1 writes ACC[2] from the new ACC[1]; i=2 writes ACC[3] from the new ACC[2].
    rows = [[2] * 4, [3] * 4, [5] * 4, [7] * 4]
    p = acc_prog(SMALL, rows, [(1, 0, 0)], alu(AluOp.MUL, 0, 1, iters=(1, 3), dst=(0, 1), src=(0, 1)))
    assert acc_rows(p.run(), 4) == [[2] * 4, [6] * 4, [30] * 4, [210] * 4]


def test_alu_reduction_into_repeated_destination():
    rows = [[0, 0, 0, 0], [4, -1, 9, 0], [-3, 8, 2, 1], [7, 2, -5, -2]]
    p = acc_prog(SMALL, rows, [(0, 1, 0)],
                 alu(AluOp.ADD, 0, 1, iters=(1, 3), dst=(0, 0), src=(0, 1)))
    assert acc_rows(p.run(), 1) == [[8, 9, 6, -1]]


def test_alu_destination_as_its_own_source_repeated():
    p = acc_prog(SMALL, [[1, -2, 3, 0]], [(0, 0, 0)], alu(AluOp.ADD, 0, 1, iters=(3, 1)))
    assert acc_rows(p.run(), 1) == [[8, -16, 24, 0]]


@pytest.mark.parametrize("op, imm, expect", [
    (AluOp.ADD, 5, [20, 13, I32_MIN + 19, -20]),
    (AluOp.SHR, 1, [0, -1, 134217727, -3]),          # -7 -> -4 -> -2 -> -1 -> -1
    (AluOp.MUL, 3, [0, -567, 2147483567, -3240]),    # (2^31 - 1) * 81 mod 2^32
    (AluOp.MIN, -2, [-2, -7, -2, -40]),
])
def test_repeated_destination_with_immediate_applies_each_time(op, imm, expect):
    p = acc_prog(SMALL, [[0, -7, I32_MAX, -40]], [(0, 0, 0)], alu(op, 0, 1, iters=(2, 2), imm=imm))
    assert acc_rows(p.run(), 1) == [expect]


def _wrap32(v: int) -> int:
    return (v + (1 << 31)) % (1 << 32) - (1 << 31)


def _reference_alu(op: int, x: int, y: int) -> int:
    """Section 3's ALU on Python integers."""
    if op == AluOp.MIN:
        return min(x, y)
    if op == AluOp.MAX:
        return max(x, y)
    if op == AluOp.ADD:
        return _wrap32(x + y)
    if op == AluOp.MUL:
        return _wrap32(x * y)
    if y >= 0:
        return x >> min(y, 40)
    return _wrap32(x << min(-y, 40))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_alu_matches_sequential_reference(data):
    """Random overlapping uops/factors against a literal per-uop, per-lane loop."""
    draw = data.draw
    rows = draw(st.lists(st.lists(st.integers(I32_MIN, I32_MAX), min_size=4, max_size=4),
                         min_size=10, max_size=10))
    uops = draw(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.just(0)),
                         min_size=1, max_size=4))
    iters = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    dst = (draw(st.integers(0, 1)), draw(st.integers(0, 1)))
    src = (draw(st.integers(0, 1)), draw(st.integers(0, 1)))
    op = draw(st.sampled_from(list(AluOp)))
    imm = draw(st.one_of(st.none(), st.integers(-40, 40)))
    p = acc_prog(SMALL, rows, uops, alu(op, 0, len(uops), iters=iters, dst=dst, src=src, imm=imm))
    acc = [list(r) for r in rows]
    for o in range(iters[0]):
        for i in range(iters[1]):
            for d, s, _ in uops:
                a, b = d + o * dst[0] + i * dst[1], s + o * src[0] + i * src[1]
                acc[a] = [_reference_alu(op, x, imm if imm is not None else acc[b][n])
                          for n, x in enumerate(acc[a])]
    assert acc_rows(p.run(), 10) == acc


# --- LOAD / STORE ---------------------------------------------------------------------------
def test_load_pads_write_zeros_around_the_tile():
    # y_pad_0=1, y_pad_1=1, x_pad_0=1, x_pad_1=2: 4 rows of 6 elements from sram_base 2.
    cfg = SMALL
    p = Prog(cfg)
    p.put_inp(0, np.full((30, 1, 4), 99))
    p.put_inp(40, np.arange(1, 7).repeat(4).reshape(6, 1, 4))
    p.insns = [load(MemType.INP, 0, 0, x=30),
               load(MemType.INP, 2, 40, y=2, x=3, pads=(1, 1, 1, 2)), finish()]
    lane0 = p.run().sram["inp"][:30, 0, 0].tolist()
    tile = [0] * 6 + [0, 1, 2, 3, 0, 0] + [0, 4, 5, 6, 0, 0] + [0] * 6
    assert lane0 == [99, 99] + tile + [99] * 4


def test_load_x_stride_greater_than_x_size():
    p = Prog(SMALL)
    p.put_inp(10, np.arange(12).repeat(4).reshape(12, 1, 4))
    p.insns = [load(MemType.INP, 0, 10, y=3, x=2, stride=5), finish()]
    assert p.run().sram["inp"][:6, 0, 0].tolist() == [0, 1, 5, 6, 10, 11]


def test_load_acc_8bit_sign_extends_with_acc_base_and_8bit_elements():
    p = Prog(SMALL)
    p.put_acc8(2, np.array([[[-1, -128, 127, 0]], [[5, -6, 7, -8]]]))
    p.insns = [load(MemType.ACC_8BIT, 1, 2, x=2), finish()]
    assert acc_rows(p.run(), 3)[1:] == [[-1, -128, 127, 0], [5, -6, 7, -8]]


def test_load_acc_32bit_and_uop_words():
    p = Prog(SMALL)
    p.put_acc(1, np.array([[[I32_MIN, -1, 0x12345678, 7]]]))
    p.put_uops(3, [(1, 2, 3)])
    p.insns = [load(MemType.ACC, 0, 1), load(MemType.UOP, 5, 3), finish()]
    result = p.run()
    assert acc_rows(result, 1) == [[I32_MIN, -1, 0x12345678, 7]]
    f = {f.name: f for f in ex.layout(SMALL, "uop")}
    assert result.sram["uop"][5] == ((1 << f["dst_idx"].lsb) | (2 << f["src_idx"].lsb)
                                     | (3 << f["wgt_idx"].lsb))


def test_store_truncates_to_low_8_bits():
    p = acc_prog(SMALL, [[0x1FF, -129, 128, -1], [256, -256, 127, -128]], [(0, 0, 0)],
                 store(0, 3, x=2))
    out = p.out(p.run(), 3, 2)
    assert out.reshape(2, 4).tolist() == [[-1, 127, -128, -1], [0, 0, 127, -128]]


def test_store_with_stride_leaves_gaps_and_records_rows():
    p = acc_prog(SMALL, [[1] * 4, [2] * 4, [3] * 4, [4] * 4], [(0, 0, 0)],
                 store(0, 1, y=2, x=2, stride=3))
    result = p.run()
    assert p.out(result, 0, 6)[:, 0, 0].tolist() == [0, 1, 2, 0, 3, 4]
    out = p.bases["out"]
    assert result.store_rows == [(2, out + 4, 8), (2, out + 16, 8)]
    assert result.writer_of(out + 4) == 2 and result.writer_of(out + 12) is None
    assert result.counters["bytes_written"] == 16


def test_bases_are_added_to_element_addresses():
    for acc_base, out_base in ((0x5000, 0x9000), (0x7000, 0xA000)):
        bases = {"uop": 0x3000, "inp": 0, "wgt": 0, "acc": acc_base, "out": out_base}
        p = acc_prog(SMALL, [[0] * 4, [1, 2, 3, 4]], [(0, 0, 0)], store(1, 2), bases=bases)
        dram = p.dram()
        assert dram.read(acc_base + 16, 4).view(np.int32).tolist() == [1]
        assert p.run().dram.read(out_base + 2 * 4, 4).tolist() == [1, 2, 3, 4]


def test_zero_size_load_and_store_are_noops():
    p = acc_prog(SMALL, [[9] * 4], [(0, 0, 0)],
                 load(MemType.ACC, 0, 5, x=0, y=3, pads=(1, 1, 1, 1)),
                 store(0, 0, x=0, memory_type=MemType.UOP, y_pad_0=2))
    result = p.run()
    assert acc_rows(result, 2) == [[9] * 4, [0] * 4] and result.store_rows == []


def test_latest_store_owns_overwritten_bytes():
    p = acc_prog(SMALL, [[1] * 4, [2] * 4], [(0, 0, 0)], store(0, 0), store(1, 0))
    result = p.run()
    assert p.out(result, 0)[0, 0, 0] == 2 and result.writer_of(p.bases["out"]) == 3


def test_execution_stops_at_finish():
    p = acc_prog(SMALL, [[1] * 4], [(0, 0, 0)])
    p.insns.append(store(0, 0))
    dram = p.dram()
    dram.write(INSN_ADDR + 16 * len(p.insns), (7).to_bytes(16, "little"))  # illegal, never fetched
    result = execute(SMALL, dram, INSN_ADDR, len(p.insns) + 1, p.bases)
    assert result.store_rows == [] and len(result.insns) == 3 and result.finished


def test_caller_dram_is_not_modified():
    p = acc_prog(SMALL, [[1] * 4], [(0, 0, 0)], store(0, 0))
    dram = p.dram()
    execute(SMALL, dram, INSN_ADDR, len(p.insns), p.bases)
    assert dram.read(p.bases["out"], 4).tolist() == [0] * 4


def test_expected_images_merge_contiguous_store_ranges():
    p = acc_prog(SMALL, [[1] * 4, [2] * 4, [3] * 4], [(0, 0, 0)],
                 store(0, 0), store(1, 1), store(2, 5))
    images = expected_images(p.vector())
    out = p.bases["out"]
    assert [(i.addr, i.data) for i in images] == [(out, bytes([1] * 4 + [2] * 4)),
                                                   (out + 20, bytes([3] * 4))]


# --- schedules ------------------------------------------------------------------------------
def pipelined_prog() -> tuple[Prog, np.ndarray]:
    """Two GEMM tiles through one INP slot, one ACC element, all three modules, tokens
    correct; returns the program and the two expected OUT elements."""
    cfg = SMALL
    p = Prog(cfg)
    inp, wgt = rand((2, 1, 4), 7), rand((1, 4, 4), 8)
    p.put_inp(0, inp)
    p.put_wgt(0, wgt)
    p.put_uops(0, [(0, 0, 0)])
    p.insns = [
        load(MemType.WGT, 0, 0),
        load(MemType.INP, 0, 0, push_next_dep=1),                   # L2C
        load(MemType.UOP, 0, 0),
        gemm(0, 1, reset=True),
        gemm(0, 1, pop_prev_dep=1, push_prev_dep=1, push_next_dep=1),  # L2C in; C2L, C2S out
        store(0, 0, pop_prev_dep=1, push_prev_dep=1),               # C2S in; S2C out
        load(MemType.INP, 0, 1, pop_next_dep=1, push_next_dep=1),   # reuse the INP slot
        gemm(0, 1, reset=True, pop_next_dep=1),                     # ACC free once stored
        gemm(0, 1, pop_prev_dep=1, push_next_dep=1),
        store(0, 1, pop_prev_dep=1, push_prev_dep=1),
        finish(pop_next_dep=1),
    ]
    return p, np.stack([inp[0] @ wgt[0].T, inp[1] @ wgt[0].T])


def test_schedules_of_a_token_correct_program_agree():
    p, expect = pipelined_prog()
    reference = p.out(p.run(), 0, 2)
    assert (reference == wrap8(expect)).all()
    traces = set()
    for seed in range(25):
        result = p.run(schedule=seed)
        assert (p.out(result, 0, 2) == reference).all()
        traces.add(tuple(result.trace))
    assert len(traces) > 1, "random schedules never interleaved differently"


def test_schedule_noop_memory_instructions_still_carry_tokens():
    p = acc_prog(SMALL, [[1] * 4], [(0, 0, 0)], store(0, 0, x=0, memory_type=MemType.UOP,
                                                          push_prev_dep=1))
    p.insns[-1] = finish(pop_next_dep=1)
    assert p.run(schedule=3).finished


# --- program errors -----------------------------------------------------------------------
def raises(p: Prog, rule: str, index: int, module: str, schedule=None, count=None) -> ProgramError:
    with pytest.raises(ProgramError) as info:
        p.run(schedule=schedule, insn_count=count)
    err = info.value
    assert (err.rule, err.index, err.module) == (rule, index, module), str(err)
    assert f"instruction {index}" in str(err) and rule in str(err)
    return err


def simple(*insns: dict) -> Prog:
    p = Prog(SMALL)
    p.put_uops(0, [(0, 0, 0)])
    p.insns = [load(MemType.UOP, 0, 0), *insns, finish()]
    return p


def test_error_illegal_opcode():
    p = simple()
    dram = p.dram()
    dram.write(INSN_ADDR + 16, (5).to_bytes(16, "little"))
    with pytest.raises(ProgramError) as info:
        execute(SMALL, dram, INSN_ADDR, 2, p.bases)
    assert (info.value.rule, info.value.index) == ("illegal-opcode", 1)


def test_error_illegal_memory_type():
    err = raises(simple(load(6, 0, 0)), "illegal-memory-type", 1, "compute")
    assert "LOAD" in str(err)


def test_error_illegal_alu_opcode():
    raises(simple(alu(5, 0, 1)), "illegal-alu-opcode", 1, "compute")


def test_error_load_of_out():
    raises(simple(load(MemType.OUT, 0, 0)), "illegal-memory-type", 1, "compute")


def test_error_store_memory_type_and_pads():
    raises(simple(store(0, 0, memory_type=MemType.ACC)), "illegal-memory-type", 1, "store")
    raises(simple(store(0, 0, x_pad_1=1)), "store-pad", 1, "store")


def test_error_tile_beyond_sram():
    raises(simple(load(MemType.INP, 250, 0, y=2, x=4)), "index-overflow", 1, "load")
    raises(simple(load(MemType.INP, 250, 0, x=5, pads=(0, 1, 1, 0))), "index-overflow", 1, "load")
    simple(load(MemType.INP, 250, 0, x=5, pads=(0, 0, 1, 0))).run()   # exactly 256 fits
    raises(simple(store(250, 0, y=2, x=4)), "index-overflow", 1, "store")


@pytest.mark.parametrize("insn, what", [
    (gemm(0, 1, iters=(3, 1), dst=(128, 0)), "dst (ACC) index 256 >= depth 256 (o=2, i=0, uop 0)"),
    (gemm(0, 1, iters=(1, 3), src=(0, 128)), "src (INP) index 256 >= depth 256 (o=0, i=2, uop 0)"),
    (gemm(0, 1, iters=(3, 1), wgt=(128, 0)), "wgt (WGT) index 256"),
    (gemm(0, 1, reset=True, iters=(300, 1), dst=(1, 0)), "dst (ACC) index 256"),
    (alu(AluOp.ADD, 0, 1, iters=(3, 1), src=(128, 0)), "src (ACC) index 256"),
    (gemm(0, 257), "uop_end 257 > UOP depth 256"),
])
def test_error_index_overflow(insn, what):
    err = raises(simple(insn), "index-overflow", 1, "compute")
    assert what in str(err)


def test_unused_indices_are_not_checked():
    simple(gemm(0, 1, reset=True, iters=(3, 1), src=(128, 0), wgt=(128, 0)),
           alu(AluOp.ADD, 0, 1, iters=(3, 1), src=(128, 0), imm=1)).run()


def test_error_dram_beyond_4gib():
    raises(simple(load(MemType.WGT, 0, (1 << 32) // 16 - 1)), "index-overflow", 1, "load")
    p = simple(store(0, (1 << 32) // 4 - 1, y=2, stride=0xFFFF))
    raises(p, "index-overflow", 1, "store")


def test_error_insn_stream_beyond_4gib():
    p = simple()
    dram = Dram()
    dram.write((1 << 32) - 16, insns_to_bytes(SMALL, p.insns[:1]))
    with pytest.raises(ProgramError) as info:
        execute(SMALL, dram, (1 << 32) - 16, 2, p.bases)
    assert (info.value.rule, info.value.index) == ("index-overflow", 1)


def test_error_missing_finish():
    p = simple()
    raises(p, "missing-finish", 1, "compute", count=1)
    raises(p, "missing-finish", 0, "compute", count=0)


def test_error_illegal_flag_in_schedule_mode_only():
    p = simple(load(MemType.INP, 0, 0, pop_prev_dep=1))
    raises(p, "illegal-flag", 1, "load", schedule=0)
    p.run()   # program order ignores tokens: flag legality is the checker's job
    raises(simple(store(0, 0, push_next_dep=1)), "illegal-flag", 1, "store", schedule=0)


def test_error_deadlock():
    p = simple(gemm(0, 1, pop_prev_dep=1))
    err = raises(p, "deadlock", 1, "compute", schedule=0)
    assert "L2C" in str(err)
