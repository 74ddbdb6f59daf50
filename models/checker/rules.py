"""The rules of spec section 4, checked one after another on a decoded program.

Decisions where the spec leaves room (see also :mod:`models.checker.footprints` and
:mod:`models.checker.tokens`):

* Undecodable instructions (opcode 5..7) go to the compute module, as fetch dispatches
  them in the RTL, and keep their dependency flags (they touch no memory).
* Data races are judged with the token protocol alone (unbounded queues); instructions
  that cannot run even then are excluded, as the deadlock finding already covers them.
* SRAM contents are undefined at launch (reset does not clear SRAM, and a second launch
  sees what the first left), so reading an entry that no earlier write, ordered before
  the read by program order or tokens, has set is a finding (``uninitialized-read``).
"""
from __future__ import annotations

from functools import partial
from typing import Callable, Iterator

import numpy as np

from models.checker.footprints import EMPTY, Footprint, Footprints, format_indices, format_ranges
from models.checker.report import PROGRAM, CheckReport, Finding, disasm
from models.checker.tokens import MODULE_INDEX, Busy, Op, build_ops, simulate, vector_clocks
from models.decode import DecodedProgram
from models.dram import Dram
from models.isa import DEP_FLAGS, AluOp, MemType, Opcode
from models.spec import FLAG_QUEUE, MODULES, QUEUES, intersect_ranges

#: The only module that writes each resource. This follows from which module executes which
#: instruction, and it is what lets race detection compare each access with a contiguous
#: window of one module's writes instead of with every other instruction.
WRITER = {"uop": "compute", "inp": "load", "wgt": "load", "acc": "compute", "dram": "store"}
BUFFERS = ("uop", "inp", "wgt", "acc")
#: Racing pairs listed per resource before the list is cut short (a token-free program
#: has O(n^2) of them).
MAX_RACES = 20


class Checker:
    """Holds one program while the rules are checked in turn."""

    def __init__(self, program: DecodedProgram, dram: Dram, bases: dict[str, int]) -> None:
        self.cfg, self.dram, self.insn_addr = program.cfg, dram, program.insn_addr
        self.bases = {b: int(bases.get(b, 0)) for b in ("uop", "inp", "wgt", "acc", "out")}
        self.findings: list[Finding] = []
        self.words = program.words
        self.insns = program.insns
        self.modules = program.modules
        self.footprints: list[Footprint] = []
        self.ops: list[Op] = []
        self.clocks: dict[int, np.ndarray] = {}
        for n, insn in enumerate(self.insns):
            if insn is None:
                self.add(n, "illegal-opcode", f"opcode {self.words[n] & 7} is not one of LOAD 0, "
                                              f"STORE 1, GEMM 2, FINISH 3, ALU 4")
        fit, count = len(self.words), program.insn_count
        if fit < count:
            self.add(None, "index-overflow",
                     f"instructions {fit}..{count - 1} at {self.insn_addr:#x} + 16*n lie "
                     f"outside the 4 GiB address space and were not checked")

    # -- findings --
    def add(self, index: int | None, rule: str, message: str) -> None:
        if index is None:
            self.findings.append(Finding(None, PROGRAM, "", rule, message))
            return
        text = disasm(self.cfg, self.insns[index], self.words[index])
        self.findings.append(Finding(index, self.modules[index], text, rule, message))

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
        self.footprints = Footprints(self.cfg, self.dram, self.bases, self.insns, self.add).compute()

    # -- program-level rules --
    def build_ops(self) -> None:
        self.ops = build_ops(self.words, self.modules)

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

    def _stuck_reason(self, busy: Busy, done: set[int], token_depth: int) -> str:
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
                first[self.footprints[op.index].sram_writes.get(buf, EMPTY)] = op.pos
            for op in sorted((o for m in MODULES for o in self._executed(m)), key=lambda o: o.index):
                entries = self.footprints[op.index].sram_reads.get(buf, EMPTY)
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

    def _executed(self, module: str) -> list[Op]:
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
        keys = np.sort(np.concatenate([self.footprints[op.index].sram_writes.get(buf, EMPTY) * span + op.pos
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
        return CheckReport(self.insns, self.modules, findings, self.footprints, self.ops)

