"""Static well-formedness checker for VTA programs (spec sections 3 and 4).

Only well-formed programs have one defined result, so before a program is run on the RTL
or the golden model we decide, from the DRAM image alone, every rule of spec section 4 it
breaks and at which instruction. The checker never executes arithmetic; it derives what
each instruction touches (its :class:`Footprint`) and how the three modules are ordered
by dependency tokens:

* happens-before is program order within a module plus push->pop edges (the k-th pop of a
  queue synchronises with its k-th push), computed with one vector clock per instruction;
* each token counter and each command queue has a single producer and a single consumer,
  so an enabled step stays enabled until it is taken and a greedy simulation of the finite
  hardware decides deadlock independently of the schedule.

Decisions where the spec leaves room (documented in :data:`RULES` and here):

* As in the RTL, a module takes the next command out of its command queue when idle
  (freeing the slot), pops each named token as soon as it is there, executes once all are
  popped, then pushes each token as soon as its counter has room.
* Undecodable instructions (opcode 5..7) go to the compute module, as fetch dispatches
  them in the RTL, and keep their dependency flags (they touch no memory); set flags that
  a module has no queue for are ignored by the token model, as the RTL ignores them.
* LOADs with an illegal memory type touch nothing; a STORE's footprint is computed as OUT
  whatever its memory_type says (the store module has only one buffer).
* Data races are judged with the token protocol alone (unbounded queues); instructions
  that cannot run even then are excluded, as the deadlock finding already covers them.
* Indices beyond a buffer are reported; the footprint keeps only the in-range ones.
* SRAM contents are undefined at launch (reset does not clear SRAM, and a second launch
  sees what the first left), so reading an entry that no earlier write, ordered before
  the read by program order or tokens, has set is a finding (``uninitialized-read``).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

import numpy as np

from models.dram import ADDR_LIMIT, Dram
from models.isa import DEP_FLAGS, AluOp, MemType, Opcode, decode_insn, layout, module_of
from models.vector import VectorError, check_insn_range

if TYPE_CHECKING:
    from models.config import VtaConfig
    from models.vector import Vector

RULES: dict[str, str] = {
    "illegal-opcode": "opcode 5..7: the instruction cannot be decoded",
    "illegal-memory-type": "LOAD/STORE memory_type 6 or 7, a LOAD of OUT, or a STORE of anything but OUT",
    "illegal-alu-opcode": "ALU alu_opcode 5..7",
    "illegal-flag": "a dependency flag the module has no queue for (load: pop_prev/push_prev; "
                    "store: pop_next/push_next)",
    "store-pad": "a STORE with a non-zero pad",
    "index-overflow": "an SRAM index beyond its buffer depth, uop_end beyond the micro-op buffer, "
                      "or a DRAM access (or the instruction stream) beyond 4 GiB",
    "token-imbalance": "a token queue whose pushes and pops differ at the end of the program",
    "deadlock": "the program cannot complete with the hardware's command and token queue depths",
    "missing-finish": "no FINISH, or instructions after the first FINISH",
    "store-after-finish": "a STORE that does not happen-before FINISH, so DONE would not mean "
                          "its results are in DRAM",
    "data-race": "two accesses from different modules to one SRAM entry or DRAM byte, one a write, "
                 "not ordered by tokens; or a STORE that overwrites the instruction stream",
    "uop-from-store": "a LOAD UOP reads DRAM that a STORE of the program writes, so the micro-ops "
                      "(and the footprints of the GEMM/ALU using them) cannot be checked statically",
    "uninitialized-read": "an SRAM entry read before any write to it happens-before the read "
                          "(SRAM is not cleared by reset or launch, so its value is undefined)",
}

MODULES = ("load", "compute", "store")
MODULE_INDEX = {m: n for n, m in enumerate(MODULES)}
#: Module named by findings about the whole program (index None).
PROGRAM = "program"
#: Bit of each dependency flag in the head every instruction shares, undecodable ones too.
FLAG_BITS = {"pop_prev_dep": 3, "pop_next_dep": 4, "push_prev_dep": 5, "push_next_dep": 6}

#: Token queue -> (producer, consumer).
QUEUES: dict[str, tuple[str, str]] = {
    "L2C": ("load", "compute"), "C2L": ("compute", "load"),
    "C2S": ("compute", "store"), "S2C": ("store", "compute"),
}
#: (module, flag) -> queue, the table of spec section 4; pairs absent here are illegal flags.
FLAG_QUEUE: dict[tuple[str, str], str] = {
    ("load", "pop_next_dep"): "C2L", ("load", "push_next_dep"): "L2C",
    ("compute", "pop_prev_dep"): "L2C", ("compute", "pop_next_dep"): "S2C",
    ("compute", "push_prev_dep"): "C2L", ("compute", "push_next_dep"): "C2S",
    ("store", "pop_prev_dep"): "C2S", ("store", "push_prev_dep"): "S2C",
}
#: The only module that writes each resource. This follows from which module executes which
#: instruction, and it is what lets race detection compare each access with a contiguous
#: window of one module's writes instead of with every other instruction.
WRITER = {"uop": "compute", "inp": "load", "wgt": "load", "acc": "compute", "dram": "store"}
BUFFERS = ("uop", "inp", "wgt", "acc")
#: Racing pairs listed per resource before the list is cut short (a token-free program
#: has O(n^2) of them).
MAX_RACES = 20

Range = tuple[int, int]  # (byte address, length)
_EMPTY = np.zeros(0, dtype=np.int64)


# --- results --------------------------------------------------------------------------
@dataclass
class Footprint:
    """What one instruction touches: SRAM entries per buffer and DRAM byte ranges.

    SRAM keys are 'uop', 'inp', 'wgt', 'acc' (present only when touched) with sorted
    unique indices; DRAM ranges are merged (address, length) pairs in address order.
    """

    sram_reads: dict[str, np.ndarray] = field(default_factory=dict)
    sram_writes: dict[str, np.ndarray] = field(default_factory=dict)
    dram_reads: list[Range] = field(default_factory=list)
    dram_writes: list[Range] = field(default_factory=list)

    def sram(self, buf: str) -> np.ndarray:
        """Every entry of one buffer read or written."""
        return np.union1d(self.sram_reads.get(buf, _EMPTY), self.sram_writes.get(buf, _EMPTY))


@dataclass
class Finding:
    """One broken rule at one instruction (index None: the program as a whole)."""

    index: int | None
    module: str
    disasm: str
    rule: str
    message: str

    def __str__(self) -> str:
        where = "program" if self.index is None else f"insn {self.index} [{self.module}] {self.disasm}"
        return f"{where}: {self.rule}: {self.message}"


@dataclass
class CheckReport:
    """Decoded program, per-instruction footprints and every finding."""

    insns: list[dict[str, int] | None]
    modules: list[str]
    findings: list[Finding]
    footprints: list[Footprint]

    @property
    def ok(self) -> bool:
        return not self.findings

    def rules(self) -> set[str]:
        """The rule ids broken, for quick assertions."""
        return {f.rule for f in self.findings}

    def format(self) -> str:
        if self.ok:
            return f"well-formed: {len(self.insns)} instructions, no findings"
        lines = [f"{len(self.findings)} finding(s) in {len(self.insns)} instructions:"]
        return "\n".join(lines + [f"  {f}" for f in self.findings])

    def dram_write_ranges(self) -> list[tuple[int, int, int]]:
        """(address, length, instruction index) of every STORE write, by instruction."""
        return [(a, n, i) for i, fp in enumerate(self.footprints) for a, n in fp.dram_writes]


# --- range and index helpers ----------------------------------------------------------
def merge_ranges(starts: np.ndarray, lengths: np.ndarray) -> list[Range]:
    """Merge overlapping or touching (start, length) ranges, clipped to 4 GiB."""
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.minimum(starts + np.asarray(lengths, dtype=np.int64), ADDR_LIMIT)
    keep = ends > starts
    starts, ends = starts[keep], ends[keep]
    if starts.size == 0:
        return []
    order = np.argsort(starts, kind="stable")
    starts, ends = starts[order], ends[order]
    reach = np.maximum.accumulate(ends)
    new = np.ones(starts.size, dtype=bool)
    new[1:] = starts[1:] > reach[:-1]
    heads = np.flatnonzero(new)
    group_ends = np.maximum.reduceat(ends, heads)
    return [(int(s), int(e - s)) for s, e in zip(starts[heads], group_ends, strict=True)]


def intersect_ranges(a: Sequence[Range], b: Sequence[Range]) -> list[Range]:
    """Byte ranges common to two merged range lists."""
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][0] + a[i][1], b[j][0] + b[j][1])
        if lo < hi:
            out.append((lo, hi - lo))
        if a[i][0] + a[i][1] < b[j][0] + b[j][1]:
            i += 1
        else:
            j += 1
    return out


def minkowski_sum(a: np.ndarray, b: np.ndarray, depth: int) -> np.ndarray:
    """Sorted unique {x + y : x in a, y in b, x + y < depth} for non-negative a, b.

    A bitmap over the buffer bounds the work by depth * min(|a|, |b|) however many
    loop iterations a GEMM has, so a malformed iteration count cannot stall the checker.
    """
    a, b = np.unique(a[a < depth]), np.unique(b[b < depth])
    if a.size == 0 or b.size == 0:
        return _EMPTY
    if a.size > b.size:
        a, b = b, a
    hit = np.zeros(depth, dtype=bool)
    for x in a.tolist():
        hit[x + b[:np.searchsorted(b, depth - x)]] = True
    return np.flatnonzero(hit).astype(np.int64)


def format_indices(idx: np.ndarray, limit: int = 4) -> str:
    """'3..7, 12' for sorted unique indices, eliding after `limit` runs."""
    if idx.size == 0:
        return ""
    breaks = np.flatnonzero(np.diff(idx) != 1) + 1
    runs = [(int(r[0]), int(r[-1])) for r in np.split(idx, breaks)]
    text = ", ".join(f"{lo}" if lo == hi else f"{lo}..{hi}" for lo, hi in runs[:limit])
    return text + (f", ... ({len(runs) - limit} more runs)" if len(runs) > limit else "")


def format_ranges(ranges: Sequence[Range]) -> str:
    """'DRAM 0x2000..0x200f' (inclusive), noting further pieces."""
    a, n = ranges[0]
    more = f" (+{len(ranges) - 1} more ranges)" if len(ranges) > 1 else ""
    return f"DRAM {a:#x}..{a + n - 1:#x}{more}"


def disasm(cfg: "VtaConfig", insn: dict[str, int] | None, word: int) -> str:
    """One-line disassembly; falls back to field dumps so formatting never raises.

    models.asm is imported lazily: it is optional for the checker, and its disassembler
    may reject the very malformed instructions the checker is reporting.
    """
    if insn is None:
        return f".word {word:#034x}"
    try:
        from models.asm import disasm_insn
        return disasm_insn(cfg, insn)
    except Exception:  # noqa: BLE001 - any failure here must not hide the finding
        name = Opcode(insn["opcode"]).name
        fields = " ".join(f"{k}={v}" for k, v in insn.items() if k != "opcode" and v)
        return f"{name} {fields}".rstrip()


# --- the token model ------------------------------------------------------------------
@dataclass(frozen=True)
class _Op:
    """An instruction as the token model sees it."""

    index: int
    module: str
    pos: int  # 1-based position in its module's instruction sequence
    pops: tuple[str, ...]
    pushes: tuple[str, ...]


@dataclass
class _Busy:
    """The instruction a module has taken from its command queue and the tokens it still owes."""

    op: _Op
    phase: str                    # 'pop' (waiting for tokens) or 'push' (executed, pushing)
    pending: list[str]            # queues still to pop (phase 'pop') or push (phase 'push')


@dataclass
class _SimResult:
    """Where a greedy run of the hardware stopped."""

    order: list[_Op]              # instructions in completion order
    busy: dict[str, _Busy | None]
    fetch_at: _Op | None          # the instruction fetch could not dispatch
    counters: dict[str, int]

    def complete(self, n_ops: int) -> bool:
        return len(self.order) == n_ops


def simulate(ops: Sequence[_Op], cmd_depth: int | None, token_depth: int | None) -> _SimResult:
    """Run fetch and the three modules greedily until nothing can move (None = unbounded).

    As the RTL does, a module takes its next command out of the queue when idle, pops each
    named token as soon as that counter is non-zero, executes once all are popped, then
    pushes each token as soon as that counter has room. Every step is persistent (single
    producer and consumer per queue), so the order the steps are taken in does not change
    where the run ends: this decides deadlock.
    """
    queues: dict[str, deque[_Op]] = {m: deque() for m in MODULES}
    busy: dict[str, _Busy | None] = {m: None for m in MODULES}
    counters = {q: 0 for q in QUEUES}
    order: list[_Op] = []
    fetch = 0
    progress = True
    while progress:
        progress = False
        while fetch < len(ops) and (cmd_depth is None
                                    or len(queues[ops[fetch].module]) < cmd_depth):
            queues[ops[fetch].module].append(ops[fetch])
            fetch += 1
            progress = True
        for m in MODULES:
            if busy[m] is None and queues[m]:
                op = queues[m].popleft()
                busy[m] = _Busy(op, "pop", list(op.pops))
                progress = True
            b = busy[m]
            if b is not None:
                progress |= _step(b, counters, token_depth)
                if b.phase == "push" and not b.pending:
                    order.append(b.op)
                    busy[m] = None
    fetch_at = ops[fetch] if fetch < len(ops) else None
    return _SimResult(order, busy, fetch_at, counters)


def _step(b: _Busy, counters: dict[str, int], token_depth: int | None) -> bool:
    """Take every token step a busy module can take now; whether anything moved."""
    moved = False
    if b.phase == "pop":
        for q in [q for q in b.pending if counters[q] > 0]:
            counters[q] -= 1
            b.pending.remove(q)
            moved = True
        if not b.pending:
            b.phase, b.pending, moved = "push", list(b.op.pushes), True
    if b.phase == "push":
        for q in [q for q in b.pending if token_depth is None or counters[q] < token_depth]:
            counters[q] += 1
            b.pending.remove(q)
            moved = True
    return moved


def vector_clocks(order: Sequence[_Op]) -> dict[int, np.ndarray]:
    """Vector clock (one component per module) of each completed instruction.

    `order` must list instructions so that each pop's matching push comes first, which
    any completion order of :func:`simulate` does.
    """
    pushed: dict[str, list[np.ndarray]] = {q: [] for q in QUEUES}
    popped = {q: 0 for q in QUEUES}
    last = {m: np.zeros(len(MODULES), dtype=np.int64) for m in MODULES}
    clocks: dict[int, np.ndarray] = {}
    for op in order:
        clock = last[op.module].copy()
        for q in op.pops:
            np.maximum(clock, pushed[q][popped[q]], out=clock)
            popped[q] += 1
        clock[MODULE_INDEX[op.module]] = op.pos
        for q in op.pushes:
            pushed[q].append(clock)
        clocks[op.index] = last[op.module] = clock
    return clocks


# --- the checker ----------------------------------------------------------------------
class _Checker:
    """Holds one program while the rules are checked in turn."""

    def __init__(self, cfg: "VtaConfig", dram: Dram, insn_addr: int, insn_count: int,
                 bases: dict[str, int]) -> None:
        self.cfg, self.dram, self.insn_addr = cfg, dram, insn_addr
        self.bases = {b: int(bases.get(b, 0)) for b in ("uop", "inp", "wgt", "acc", "out")}
        self.findings: list[Finding] = []
        self.words: list[int] = []
        self.insns: list[dict[str, int] | None] = []
        self.modules: list[str] = []
        self.footprints: list[Footprint] = []
        self.ops: list[_Op] = []
        self.clocks: dict[int, np.ndarray] = {}
        self._fetch(insn_count)

    # -- findings --
    def add(self, index: int | None, rule: str, message: str) -> None:
        if index is None:
            self.findings.append(Finding(None, PROGRAM, "", rule, message))
            return
        text = disasm(self.cfg, self.insns[index], self.words[index])
        self.findings.append(Finding(index, self.modules[index], text, rule, message))

    # -- decoding --
    def _fetch(self, insn_count: int) -> None:
        """Read and decode the stream word by word, so one bad opcode spoils nothing else."""
        room = (ADDR_LIMIT - self.insn_addr) // 16 if self.insn_addr >= 0 else 0
        fit = max(0, min(insn_count, room))
        raw = self.dram.read(self.insn_addr, 16 * fit).tobytes() if fit else b""
        for n in range(fit):
            word = int.from_bytes(raw[16 * n:16 * n + 16], "little")
            insn = decode_insn(self.cfg, word) if word & 7 <= Opcode.ALU else None
            self.words.append(word)
            self.insns.append(insn)
            # Fetch sends whatever is not a LOAD of INP/WGT or a STORE to compute (as the RTL
            # does), so an undecodable word still takes part in the token protocol there.
            self.modules.append("compute" if insn is None else module_of(insn))
            if insn is None:
                self.add(n, "illegal-opcode", f"opcode {word & 7} is not one of LOAD 0, STORE 1, "
                                              f"GEMM 2, FINISH 3, ALU 4")
        if fit < insn_count:
            self.add(None, "index-overflow",
                     f"instructions {fit}..{insn_count - 1} at {self.insn_addr:#x} + 16*n lie "
                     f"outside the 4 GiB address space and were not checked")

    # -- per-instruction rules --
    def check_fields(self) -> None:
        for n, insn in enumerate(self.insns):
            if insn is not None:
                for rule, message in self._field_problems(insn, self.modules[n]):
                    self.add(n, rule, message)

    @staticmethod
    def _field_problems(insn: dict[str, int], module: str) -> Iterator[tuple[str, str]]:
        op = insn["opcode"]
        if op in (Opcode.LOAD, Opcode.STORE):
            mt = insn["memory_type"]
            name = MemType(mt).name if mt in MemType._value2member_map_ else str(mt)
            if mt > MemType.ACC_8BIT:
                yield "illegal-memory-type", f"memory_type {mt} is not defined (0..5)"
            elif op == Opcode.LOAD and mt == MemType.OUT:
                yield "illegal-memory-type", "LOAD of OUT: the OUT buffer can only be stored"
            elif op == Opcode.STORE and mt != MemType.OUT:
                yield "illegal-memory-type", f"STORE of {name}: only OUT can be stored"
        if op == Opcode.STORE:
            pads = {p: insn[p] for p in ("y_pad_0", "y_pad_1", "x_pad_0", "x_pad_1") if insn[p]}
            if pads:
                yield "store-pad", "STORE pads must be 0: " + ", ".join(f"{k}={v}" for k, v in pads.items())
        if op == Opcode.ALU and insn["alu_opcode"] > AluOp.MUL:
            yield "illegal-alu-opcode", f"alu_opcode {insn['alu_opcode']} is not one of MIN..MUL (0..4)"
        for flag in DEP_FLAGS:
            if insn[flag] and (module, flag) not in FLAG_QUEUE:
                yield "illegal-flag", f"the {module} module has no queue for {flag}"

    # -- footprints --
    def compute_footprints(self) -> None:
        """Footprints in program order: STOREs first, since LOAD UOP must know what they write."""
        self.footprints = [Footprint() for _ in self.insns]
        for n, insn in enumerate(self.insns):
            if insn is not None and insn["opcode"] == Opcode.STORE:
                self.footprints[n] = self._store_footprint(n, insn)
        store_writes = [(a, ln, n) for n, fp in enumerate(self.footprints) for a, ln in fp.dram_writes]
        uops = _UopBuffer(self.cfg)
        for n, insn in enumerate(self.insns):
            if insn is None:
                continue
            if insn["opcode"] == Opcode.LOAD:
                self.footprints[n] = self._load_footprint(n, insn, uops, store_writes)
            elif insn["opcode"] in (Opcode.GEMM, Opcode.ALU):
                self.footprints[n] = self._loop_footprint(n, insn, uops)

    def _rows(self, n: int, base: int, insn: dict[str, int], elem: int) -> tuple[np.ndarray, int]:
        """Byte address of each DRAM row a LOAD/STORE touches, and the row length."""
        y = np.arange(insn["y_size"], dtype=np.int64)
        starts = base + (insn["dram_base"] + y * insn["x_stride"]) * elem
        length = insn["x_size"] * elem
        if starts.size and int(starts.max()) + length > ADDR_LIMIT:
            self.add(n, "index-overflow", f"DRAM access reaches {int(starts.max()) + length:#x}, "
                                          f"beyond 4 GiB")
        return starts, length

    def _sram_span(self, n: int, buf: str, first: int, count: int, depth: int) -> np.ndarray:
        """Contiguous SRAM entries [first, first + count), reporting and clipping overflow."""
        if first + count > depth:
            self.add(n, "index-overflow", f"{buf.upper()} entries {first}..{first + count - 1} "
                                          f"exceed the buffer depth {depth}")
        return np.arange(min(first, depth), min(first + count, depth), dtype=np.int64)

    def _store_footprint(self, n: int, insn: dict[str, int]) -> Footprint:
        if insn["x_size"] == 0:
            return Footprint()
        count = insn["y_size"] * insn["x_size"]
        acc = self._sram_span(n, "acc", insn["sram_base"], count, self.cfg.acc_depth)
        starts, length = self._rows(n, self.bases["out"], insn, self.cfg.out_bytes)
        writes = merge_ranges(starts, np.full(starts.size, length))
        return Footprint(sram_reads={"acc": acc} if acc.size else {}, dram_writes=writes)

    def _load_target(self, mt: int) -> tuple[str, str, int] | None:
        """(SRAM buffer, base register, DRAM element bytes) of a LOAD's memory type."""
        cfg = self.cfg
        targets: dict[int, tuple[str, str, int]] = {
            MemType.UOP: ("uop", "uop", cfg.uop_bytes), MemType.INP: ("inp", "inp", cfg.inp_bytes),
            MemType.WGT: ("wgt", "wgt", cfg.wgt_bytes), MemType.ACC: ("acc", "acc", cfg.acc_bytes),
            MemType.ACC_8BIT: ("acc", "acc", cfg.acc8_bytes)}
        return targets.get(mt)

    def _load_footprint(self, n: int, insn: dict[str, int], uops: "_UopBuffer",
                        store_writes: list[tuple[int, int, int]]) -> Footprint:
        target = self._load_target(insn["memory_type"])
        if target is None or insn["x_size"] == 0:
            return Footprint()
        buf, base, elem = target
        width = insn["x_pad_0"] + insn["x_size"] + insn["x_pad_1"]
        height = insn["y_pad_0"] + insn["y_size"] + insn["y_pad_1"]
        depth = getattr(self.cfg, f"{buf}_depth")
        sram = self._sram_span(n, buf, insn["sram_base"], width * height, depth)
        starts, length = self._rows(n, self.bases[base], insn, elem)
        reads = merge_ranges(starts, np.full(starts.size, length))
        if buf == "uop":
            stores = sorted({j for a, ln, j in store_writes if intersect_ranges(reads, [(a, ln)])})
            if stores:
                self.add(n, "uop-from-store", f"micro-ops loaded from DRAM written by STORE "
                                              f"#{stores[0]}: footprint cannot be checked statically")
            uops.load(self.dram, insn, starts, sram, from_store=bool(stores))
        return Footprint(sram_writes={buf: sram} if sram.size else {}, dram_reads=reads)

    def _loop_footprint(self, n: int, insn: dict[str, int], uops: "_UopBuffer") -> Footprint:
        """GEMM/ALU: the uop range, then each index role dilated by the two loop strides."""
        cfg = self.cfg
        name = Opcode(insn["opcode"]).name
        if insn["uop_end"] > cfg.uop_depth:
            self.add(n, "index-overflow", f"uop_end {insn['uop_end']} exceeds the micro-op "
                                          f"buffer depth {cfg.uop_depth}")
        if insn["iter_out"] == 0 or insn["iter_in"] == 0 or insn["uop_bgn"] >= insn["uop_end"]:
            return Footprint()
        ks = np.arange(insn["uop_bgn"], min(insn["uop_end"], cfg.uop_depth), dtype=np.int64)
        fp = Footprint(sram_reads={"uop": ks} if ks.size else {})
        known = ks[~uops.unknown[ks]]
        for role, buf, read, write in self._roles(insn):
            values = getattr(uops, role)[known]
            idx = self._role_indices(n, name, insn, role, buf, values)
            for table, on in ((fp.sram_reads, read), (fp.sram_writes, write)):
                if on and idx.size:
                    table[buf] = np.union1d(table.get(buf, _EMPTY), idx)
        return fp

    @staticmethod
    def _roles(insn: dict[str, int]) -> list[tuple[str, str, bool, bool]]:
        """(uop field role, buffer, read?, written?) of a GEMM or ALU."""
        if insn["opcode"] == Opcode.GEMM:
            if insn["reset_reg"]:
                return [("dst", "acc", False, True)]
            return [("dst", "acc", True, True), ("src", "inp", True, False), ("wgt", "wgt", True, False)]
        roles = [("dst", "acc", True, True)]
        return roles if insn["use_imm"] else roles + [("src", "acc", True, False)]

    def _role_indices(self, n: int, name: str, insn: dict[str, int], role: str, buf: str,
                      values: np.ndarray) -> np.ndarray:
        if values.size == 0:
            return _EMPTY
        depth = getattr(self.cfg, f"{buf}_depth")
        f_out, f_in = insn[f"{role}_factor_out"], insn[f"{role}_factor_in"]
        top = int(values.max()) + (insn["iter_out"] - 1) * f_out + (insn["iter_in"] - 1) * f_in
        if top >= depth:
            self.add(n, "index-overflow", f"{name} {role} ({buf.upper()}) index reaches {top}, "
                                          f"beyond the buffer depth {depth}")
        outer = np.arange(insn["iter_out"], dtype=np.int64) * f_out
        inner = np.arange(insn["iter_in"], dtype=np.int64) * f_in
        return minkowski_sum(minkowski_sum(values, outer, depth), inner, depth)

    # -- program-level rules --
    def build_ops(self) -> None:
        """Token view of every instruction; flags a module has no queue for are ignored."""
        counts = {m: 0 for m in MODULES}
        for n, word in enumerate(self.words):
            m = self.modules[n]
            counts[m] += 1
            queues = {f: FLAG_QUEUE[m, f] for f, bit in FLAG_BITS.items()
                      if word >> bit & 1 and (m, f) in FLAG_QUEUE}
            pops = tuple(q for f, q in queues.items() if f.startswith("pop"))
            pushes = tuple(q for f, q in queues.items() if f.startswith("push"))
            self.ops.append(_Op(n, m, counts[m], pops, pushes))

    def check_finish(self) -> None:
        finishes = [n for n, i in enumerate(self.insns) if i is not None and i["opcode"] == Opcode.FINISH]
        if not finishes:
            last = len(self.insns) - 1 if self.insns else None
            self.add(last, "missing-finish", "the program has no FINISH, so DONE is never raised")
        elif finishes[0] != len(self.insns) - 1:
            self.add(finishes[0], "missing-finish",
                     f"FINISH is followed by {len(self.insns) - 1 - finishes[0]} instruction(s) "
                     f"(insn {finishes[0] + 1}..{len(self.insns) - 1}); FINISH must be last")

    def check_tokens(self) -> None:
        for q, (producer, consumer) in QUEUES.items():
            pushes = [op.index for op in self.ops if q in op.pushes]
            pops = [op.index for op in self.ops if q in op.pops]
            if len(pushes) != len(pops):
                # The last of the larger side is the one left without a partner.
                last, what = (pushes[-1], "push") if len(pushes) > len(pops) else (pops[-1], "pop")
                self.add(last, "token-imbalance",
                         f"queue {q} ({producer}->{consumer}) gets {len(pushes)} push(es) "
                         f"but {len(pops)} pop(s); this is the last {what}")

    def check_deadlock(self, cmd_depth: int, token_depth: int) -> None:
        """Run the finite hardware; also run it unbounded to say whether depth is the cause."""
        unbounded = simulate(self.ops, None, None)
        self.clocks = vector_clocks(unbounded.order)
        finite = simulate(self.ops, cmd_depth, token_depth)
        if finite.complete(len(self.ops)):
            return
        cause = ("it deadlocks even with unbounded queues" if not unbounded.complete(len(self.ops))
                 else "it completes with deeper queues")
        head = f"stuck with cmd_queue_depth={cmd_depth}, token_queue_depth={token_depth} ({cause}): "
        done = {op.index for op in finite.order}
        for m in MODULES:
            busy = finite.busy[m]
            if busy is not None:
                self.add(busy.op.index, "deadlock", head + self._stuck_reason(busy, done, token_depth))
        if finite.fetch_at is not None:
            op = finite.fetch_at
            self.add(op.index, "deadlock", head + f"fetch cannot dispatch it: the {op.module} "
                                                  f"command queue is full ({cmd_depth} commands)")

    def _stuck_reason(self, busy: _Busy, done: set[int], token_depth: int) -> str:
        module = busy.op.module
        if busy.phase == "pop":
            parts = []
            for q in busy.pending:
                left = any(q in o.pushes for o in self.ops if o.index not in done)
                parts.append(f"{q} (empty{'' if left else '; no instruction left pushes it'})")
            return f"the {module} module waits to pop " + ", ".join(parts)
        return (f"the {module} module waits to push " +
                ", ".join(f"{q} (full: {token_depth} tokens, consumer {QUEUES[q][1]})"
                          for q in busy.pending))

    def _happens_before(self, a: int, b: int) -> bool:
        """Whether completed instruction a happens-before completed instruction b."""
        ma = MODULE_INDEX[self.modules[a]]
        return bool(self.clocks[b][ma] >= self.clocks[a][ma])

    def check_stores_before_finish(self) -> None:
        finishes = [n for n, i in enumerate(self.insns) if i is not None and i["opcode"] == Opcode.FINISH]
        if not finishes or finishes[0] not in self.clocks:
            return
        fin = finishes[0]
        for op in self.ops:
            if op.module == "store" and op.index in self.clocks and not self._happens_before(op.index, fin):
                self.add(op.index, "store-after-finish",
                         f"this STORE is not ordered before FINISH (insn {fin}) by any token chain "
                         f"(store -S2C-> compute), so DONE may come before its data is in DRAM")

    # -- data races --
    def check_races(self) -> None:
        """List racing pairs per resource, stopping after MAX_RACES of each.

        Pairs are generated lazily, so a token-free program (O(n^2) pairs) costs no more
        than the pairs actually listed.
        """
        sources = [(buf.upper(), self._sram_races(buf)) for buf in BUFFERS]
        for name, pairs in sources + [("DRAM", self._dram_races())]:
            for count, (w, x, resource) in enumerate(pairs):
                if count == MAX_RACES:
                    self.add(None, "data-race", f"further racing pairs on {name} not listed "
                                                f"(the first {MAX_RACES} are)")
                    break
                self.add(max(w, x), "data-race",
                         f"{resource()} written by insn {w} [{self.modules[w]}] and accessed by "
                         f"insn {x} [{self.modules[x]}] with no token ordering them "
                         f"(races with insn {min(w, x)})")
        self._fetch_races()

    def check_uninitialized(self) -> None:
        """Every SRAM entry read must have a write that happens-before the read.

        Each buffer has a single writer module W. A write happens-before access x when
        its position in W's sequence is at most x's vector-clock component for W (for x
        in W itself, strictly before x: an instruction that reads an entry it also writes
        reads it first). So it is enough to know, per entry, W's earliest write.
        """
        for buf in BUFFERS:
            writer = WRITER[buf]
            first = np.full(self._depth(buf), np.iinfo(np.int64).max, dtype=np.int64)
            for op in reversed(self._executed(writer)):
                first[self.footprints[op.index].sram_writes.get(buf, _EMPTY)] = op.pos
            for op in sorted((o for m in MODULES for o in self._executed(m)), key=lambda o: o.index):
                entries = self.footprints[op.index].sram_reads.get(buf, _EMPTY)
                if entries.size == 0:
                    continue
                limit = (op.pos - 1 if op.module == writer
                         else int(self.clocks[op.index][MODULE_INDEX[writer]]))
                unset = entries[first[entries] > limit]
                if unset.size:
                    self.add(op.index, "uninitialized-read",
                             f"reads {buf.upper()}[{format_indices(unset)}] before any write to "
                             f"{'it' if unset.size == 1 else 'them'} is ordered before this "
                             f"instruction (the {writer} module writes {buf.upper()})")

    def _depth(self, buf: str) -> int:
        return {"uop": self.cfg.uop_depth, "inp": self.cfg.inp_depth, "wgt": self.cfg.wgt_depth,
                "acc": self.cfg.acc_depth}[buf]

    def _executed(self, module: str) -> list[_Op]:
        return [op for op in self.ops if op.module == module and op.index in self.clocks]

    def _sram_races(self, buf: str) -> Iterator[tuple[int, int, Callable[[], str]]]:
        """Pairs (writer, other-module access) on one buffer not ordered either way.

        For an access x of module M, the writes w of the writer module W that race with it
        are exactly those with pos(w) > clock[x][W] (not before x) and clock[w][M] < pos(x)
        (not after x): a contiguous window of W's sequence. A sorted key (entry, pos) finds
        the first write inside the window on any entry x touches in one vector search.
        """
        writer = WRITER[buf]
        wops = self._executed(writer)
        if not wops:
            return
        span = len(wops) + 2
        keys = np.sort(np.concatenate([self.footprints[op.index].sram_writes.get(buf, _EMPTY) * span + op.pos
                                       for op in wops]))
        for m in MODULES:
            if m == writer:
                continue
            seen_by_m = np.array([self.clocks[op.index][MODULE_INDEX[m]] for op in wops])
            for x in self._executed(m):
                entries = self.footprints[x.index].sram(buf)
                if entries.size == 0:
                    continue
                lo = int(self.clocks[x.index][MODULE_INDEX[writer]])
                hi = int(np.searchsorted(seen_by_m, x.pos, "left"))
                for w in self._window_writers(keys, span, entries, lo, hi):
                    written = self.footprints[wops[w - 1].index].sram_writes[buf]
                    yield wops[w - 1].index, x.index, partial(self._sram_resource, buf, written, entries)

    @staticmethod
    def _sram_resource(buf: str, a: np.ndarray, b: np.ndarray) -> str:
        return f"{buf.upper()}[{format_indices(np.intersect1d(a, b))}]"

    @staticmethod
    def _window_writers(keys: np.ndarray, span: int, entries: np.ndarray, lo: int, hi: int) -> Iterator[int]:
        """Positions p in (lo, hi] of writers touching any of `entries`, ascending."""
        while lo < hi:
            at = np.searchsorted(keys, entries * span + lo + 1)
            inside = at < keys.size
            found = keys[at[inside]]
            match = (found // span == entries[inside]) & (found % span <= hi)
            if not match.any():
                return
            lo = int((found % span)[match].min())
            yield lo

    def _dram_races(self) -> Iterator[tuple[int, int, Callable[[], str]]]:
        """STORE writes against LOAD reads: overlapping ranges first, then happens-before."""
        writes = [(a, ln, op.index) for op in self._executed("store")
                  for a, ln in self.footprints[op.index].dram_writes]
        reads = [(a, ln, op.index) for m in ("load", "compute") for op in self._executed(m)
                 for a, ln in self.footprints[op.index].dram_reads]
        if not writes or not reads:
            return
        w = np.array(sorted(writes), dtype=np.int64)
        r = np.array(reads, dtype=np.int64)
        w_end, r_end = w[:, 0] + w[:, 1], r[:, 0] + r[:, 1]
        first = np.searchsorted(w[:, 0], r[:, 0] - int(w[:, 1].max()), "right")
        last = np.searchsorted(w[:, 0], r_end, "left")
        counts = np.maximum(last - first, 0)
        reader = np.repeat(np.arange(r.shape[0]), counts)
        offset = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        writer = np.repeat(first, counts) + offset
        overlap = w_end[writer] > r[reader, 0]
        candidates = sorted({(int(w[i, 2]), int(r[j, 2]))
                             for i, j in zip(writer[overlap], reader[overlap], strict=True)})
        for s, x in candidates:
            if not self._happens_before(s, x) and not self._happens_before(x, s):
                common = intersect_ranges(self.footprints[s].dram_writes, self.footprints[x].dram_reads)
                yield s, x, partial(format_ranges, common)

    def _fetch_races(self) -> None:
        """Fetch reads the instruction stream outside the token protocol: no STORE may write it."""
        stream = [(self.insn_addr, 16 * len(self.insns))] if self.insns else []
        for n, fp in enumerate(self.footprints):
            common = intersect_ranges(fp.dram_writes, stream)
            if common:
                first = (common[0][0] - self.insn_addr) // 16
                self.add(n, "data-race", f"STORE overwrites the instruction stream ({format_ranges(common)}, "
                                         f"from insn {first}), which fetch reads unsynchronised")

    def report(self) -> CheckReport:
        findings = sorted(self.findings, key=lambda f: (f.index is None, f.index or 0))
        return CheckReport(self.insns, self.modules, findings, self.footprints)


class _UopBuffer:
    """Micro-op buffer contents in compute program order, as decoded index fields.

    `unknown` marks entries loaded from DRAM that a STORE writes: their contents depend on
    the run, so GEMM/ALU footprints use only the other entries (uop-from-store says so).
    """

    def __init__(self, cfg: "VtaConfig") -> None:
        self.cfg = cfg
        depth = cfg.uop_depth
        self.dst = np.zeros(depth, dtype=np.int64)
        self.src = np.zeros(depth, dtype=np.int64)
        self.wgt = np.zeros(depth, dtype=np.int64)
        self.unknown = np.zeros(depth, dtype=bool)

    def load(self, dram: Dram, insn: dict[str, int], starts: np.ndarray, sram: np.ndarray,
             from_store: bool) -> None:
        """Apply a LOAD UOP: pads are zero micro-ops, rows come from DRAM."""
        width = insn["x_pad_0"] + insn["x_size"] + insn["x_pad_1"]
        words = np.zeros(sram.size, dtype=np.int64)
        for y, start in enumerate(starts.tolist()):
            at = (insn["y_pad_0"] + y) * width + insn["x_pad_0"]
            if at >= sram.size:
                break
            words[at:at + insn["x_size"]] = self._read_row(dram, start, insn["x_size"])[:sram.size - at]
        for f in layout(self.cfg, "uop"):
            getattr(self, f.name.removesuffix("_idx"))[sram] = (words >> f.lsb) & ((1 << f.width) - 1)
        self.unknown[sram] = from_store

    @staticmethod
    def _read_row(dram: Dram, start: int, count: int) -> np.ndarray:
        """count little-endian words from start; bytes beyond 4 GiB read as zero."""
        size = max(0, min(4 * count, ADDR_LIMIT - start))
        data = np.zeros(4 * count, dtype=np.uint8)
        if size > 0:
            data[:size] = dram.read(start, size)
        return data.view("<u4").astype(np.int64)


# --- entry points -----------------------------------------------------------------------
def check_program(cfg: "VtaConfig", dram: Dram, insn_addr: int, insn_count: int,
                  bases: dict[str, int] | None = None, *, cmd_queue_depth: int | None = None,
                  token_queue_depth: int | None = None) -> CheckReport:
    """Check every rule of spec section 4 on the program held in `dram`.

    The queue depths default to the configuration's; override them to judge the RTL build
    actually being simulated.
    """
    checker = _Checker(cfg, dram, insn_addr, insn_count, bases or {})
    checker.check_fields()
    checker.compute_footprints()
    checker.build_ops()
    checker.check_finish()
    checker.check_tokens()
    checker.check_deadlock(cmd_queue_depth or cfg.cmd_queue_depth,
                           token_queue_depth or cfg.token_queue_depth)
    checker.check_stores_before_finish()
    checker.check_races()
    checker.check_uninitialized()
    return checker.report()


def check_vector(vector: "Vector", **kw: int | None) -> CheckReport:
    """Check the program of a test vector (its DRAM image, instruction stream and bases).

    A vector whose init images are shorter than what the program reads from them is not a
    finding about the program but a malformed vector: :class:`~models.vector.VectorError`
    (see :func:`check_init_reads`).
    """
    check_insn_range(vector)
    report = check_program(vector.config, vector.dram(), vector.insn_addr, vector.insn_count,
                           vector.bases, **kw)
    check_init_reads(vector, report)
    return report


def check_init_reads(vector: "Vector", report: CheckReport) -> None:
    """Raise VectorError if a LOAD that starts reading inside an init image reads a byte that
    no init image holds: the image is shorter than the region the program reads from it
    (reading DRAM that no image covers at all is legal and reads zeros)."""
    cov = vector.coverage()
    for n, insn in enumerate(report.insns):
        if insn is None or insn["opcode"] != Opcode.LOAD:
            continue
        reads = report.footprints[n].dram_reads
        if not reads:
            continue
        start = cov.image_at(reads[0][0])
        if start is None:
            continue
        gap = next((g for a, ln in reads if (g := cov.first_gap(a, a + ln)) is not None), None)
        if gap is None:
            continue
        g0, g1 = gap
        short = cov.image_at(g0 - 1)
        short = start if short is None else short
        lo, hi = reads[0][0], reads[-1][0] + reads[-1][1]
        text = disasm(vector.config, insn, 0)
        raise VectorError(f"{vector.manifest}: {cov.describe(short)} is shorter than what "
                          f"insn {n} ({text}) reads: the LOAD reads DRAM [{lo:#x}, {hi:#x}) "
                          f"starting inside init[{start}], but bytes "
                          f"[{g0:#x}, {g1:#x}) are in no init image")


def findings_of(report: CheckReport, rule: str) -> list[Finding]:
    """The findings of one rule, for callers that act on a specific problem."""
    return [f for f in report.findings if f.rule == rule]
