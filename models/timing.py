"""A cycle estimate of a VTA program on this project's RTL, from the decoded program alone.

A workload report prints "predicted cycles" next to the RTL's CYCLES counter so that a
change of the hardware (or of the program) shows as a number that moved. Simulating is
too slow for that and says nothing about *why*; this model instead times each instruction
with a formula read off the RTL (rtl/README.md, "Queues, tokens and flow control" and
"Performance") and strings the instructions together the way the RTL does:

* fetch (rtl/vta_fetch.v) reads the stream in bursts of 16 beats, at most 32 beats ahead
  of its gearbox, dispatches in program order at most one instruction per
  ``max(1, 16 / bus bytes)`` cycles, and stalls while the target command queue
  (``cmd_queue_depth`` entries; a module takes the head when it starts it) is full;
* each module (rtl/vta_phase.v) runs its instructions in order through four phases: one
  IDLE cycle taking the queue head, POP (one cycle, longer while a named token counter is
  empty; each token is popped as soon as it is there), EXEC (the engine's busy cycles,
  then one cycle seeing it idle) and PUSH (one cycle, longer while a named counter holds
  ``token_queue_depth`` tokens);
* a token pushed in cycle c can be popped from cycle c + 1; a pop in cycle c makes room
  for a push from cycle c + 1; CYCLES is the cycle after FINISH's PUSH;
* the read channel (rtl/vta_rd_arb.v) returns one beat per cycle, in request order, to
  fetch's bursts and to the LOADs of the load and compute modules. Each LOAD is one
  request holding the channel while its engine takes its data; a request waits for the
  ones before it, but behind a long one only for the 8 bursts the arbiter keeps in
  flight (the round robin then interleaves them).

Cycle 0 is the first cycle after the accepted START. Execution (busy) cycles per kind,
with B the bus bytes, calibrated on Verilator with the testbench memory of profile none
(:data:`MEM`; exact on single instructions, see models/tests/test_timing.py):

* GEMM/ALU of n = iter_out * iter_in * (uop_end - uop_bgn) micro-ops, with P the
  configuration's PIPE_STAGES: n * per_uop + 2 + P (the pipeline of rtl/vta_gemm_alu.v,
  stages A, B, P register stages and C, one micro-op per cycle), per_uop = 1, + 1 for an
  ALU with use_imm 0 (its src and dst share the ACC buffer's one read port), + min(P, 2)
  for an ALU MUL (its multi-cycle write-back: P = 3's extra stage registers the INP/WGT
  read data, ahead of C, and does not lengthen the MUL), 0 when n = 0;
* LOAD (rtl/vta_ld_engine.v) of a padded X x Y tile: the SRAM writer takes one element
  (data or pad) per cycle, the read data arrive one bus beat per cycle from the 5th
  cycle, through a gearbox of (largest element + B) bytes that stalls the beats while the
  writer is busy with pads: the larger of the writer's time and the data's time
  (:func:`load_work`);
* STORE (rtl/vta_store.v): per row max(elements, beats) (one OUT element read and one
  beat written per cycle), 2 cycles between rows, 6 cycles up to the last write response;
* FINISH, LOADs executed as no-ops (x_size = 0, an illegal memory type) and STOREs with no
  element: 0.

Approximated: the read channel's interleaving (a request let in behind a long LOAD does
not lengthen that LOAD's own EXEC, only the channel's later requests), and a LOAD's bursts
are counted as if its rows did not cross 4 KiB pages. Not modelled: memory latency or
backpressure other than profile none's. Programs that cannot complete (no FINISH, a pop
never matched) raise :class:`TimingError`.
"""
from __future__ import annotations

import heapq
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass, field
from math import gcd

from models.config import VtaConfig
from models.decode import DecodedProgram, decode_program
from models.isa import DEP_FLAGS, AluOp, Insn, MemType, Opcode
from models.spec import FLAG_QUEUE, MEMORY, MODULES, POP_FLAGS, PUSH_FLAGS, QUEUES
from models.vector import Vector
from models.widths import INSN_BYTES

#: Beats per fetch burst, and beats its FIFO holds: fetch requests a burst only while the
#: beats requested and not yet taken by its gearbox, plus the burst, fit (rtl/vta_fetch.v).
FETCH_BURST = 16
FETCH_FIFO = 32
#: Cycle of fetch's first burst request after launch (burst generator start, request
#: register), and cycles from a beat entering fetch's FIFO to its instruction's dispatch.
FETCH_REQUEST = 2
FETCH_DISPATCH = 2
#: Bytes a burst never crosses (AXI's 4 KiB rule, rtl/vta_burst_gen.v).
BURST_EDGE = 4096
#: Read bursts the arbiter keeps in flight (rtl/vta_top.v, vta_rd_arb OUTST): a request
#: arriving while another client streams waits for at most that many of its bursts, then
#: the round robin interleaves them.
READ_OUTSTANDING = 8


@dataclass(frozen=True)
class MemTiming:
    """Fixed latencies of the read channel and the LOAD and STORE engines.

    ``first_beat``: cycles from the end of a LOAD's last POP cycle (its engine starts) to
    the cycle its first read beat enters the gearbox; ``request`` of them pass before its
    burst request is on the arbiter, the rest (arbiter register, memory AR queue, R
    register) are the channel's latency for any request, fetch's too. ``store_fixed``:
    cycles a STORE adds to its beats (OUT read, packer, W register, memory B queue, B
    register); ``store_row_gap``: cycles between two rows (the packer's row change).
    """

    first_beat: int = 5
    request: int = 2
    store_fixed: int = 6
    store_row_gap: int = 2

    @property
    def latency(self) -> int:
        """Cycles from a burst request to its first beat."""
        return self.first_beat - self.request


#: The testbench memory with profile none (tb/rtl/vta_tb_mem.v): no added latency.
MEM = MemTiming()
#: The RTL counters of execution cycles: compute's by opcode, one each for load and store.
EXEC_COUNTERS = ("GEMM_EXEC", "ALU_EXEC", "CLOAD_EXEC", "LOAD_EXEC", "STORE_EXEC")
COMPUTE_EXEC: dict[int, str] = {Opcode.GEMM: "GEMM_EXEC", Opcode.ALU: "ALU_EXEC", Opcode.LOAD: "CLOAD_EXEC"}


class TimingError(ValueError):
    """The program cannot complete on the RTL, so it has no cycle count."""


@dataclass(frozen=True)
class TimingEstimate:
    """Predicted values of the RTL's CYCLES and per-module performance counters.

    CYCLES stops at DONE; the other counters keep counting until every module is idle
    (the testbench reads them after DONE), so they hold every instruction's share.
    """

    cycles: int                   # launch to DONE (the CYCLES register)
    exec_cycles: dict[str, int]   # GEMM_EXEC, ALU_EXEC, CLOAD_EXEC, LOAD_EXEC, STORE_EXEC
    busy: dict[str, int]          # LOAD_BUSY, COMPUTE_BUSY, STORE_BUSY
    stall: dict[str, int]         # LOAD_STALL, COMPUTE_STALL, STORE_STALL (token waits)


# --- per-instruction work -----------------------------------------------------------------

@dataclass(frozen=True)
class Work:
    """What one instruction asks of its module's engine."""

    cycles: int      # engine busy cycles with the read channel to itself
    reads: int = 0   # cycles its read data hold the read channel (LOADs from DRAM only)
    bursts: int = 0  # read bursts it requests


#: Cycles an ALU MUL's write-back takes at most beyond stage C: with PIPE_STAGES P it takes
#: min(P, MUL_STAGES_MAX) (rtl/vta_gemm_alu.v, Q); P = 3 adds a register on the INP/WGT read
#: data, which only GEMM uses.
MUL_STAGES_MAX = 2


def mul_bubbles(pipe_stages: int) -> int:
    """Bubble cycles stage A leaves after each ALU MUL micro-op: min(PIPE_STAGES, 2)."""
    return min(pipe_stages, MUL_STAGES_MAX)


def uop_cycles(insn: Insn, pipe_stages: int) -> int:
    """GEMM/ALU: the cycles stage A spends on each micro-op: one, one more for an ALU
    reading ACC[src] (it shares the ACC buffer's one read port with ACC[dst]),
    :func:`mul_bubbles` more (min(PIPE_STAGES, 2)) for an ALU MUL, whose write-back takes
    that many cycles more."""
    alu = insn["opcode"] == Opcode.ALU
    mul = alu and insn["alu_opcode"] == AluOp.MUL
    return 1 + (alu and not insn["use_imm"]) + (mul_bubbles(pipe_stages) if mul else 0)


def loop_cycles(insn: Insn, pipe_stages: int) -> int:
    """GEMM/ALU: the pipeline is busy :func:`uop_cycles` per micro-op plus 2 + PIPE_STAGES
    to drain (stages B, the register stages and C); an empty loop never starts it."""
    uops = insn["iter_out"] * insn["iter_in"] * max(0, insn["uop_end"] - insn["uop_bgn"])
    return uops * uop_cycles(insn, pipe_stages) + 2 + pipe_stages if uops else 0


def row_beats(addr: int, stride: int, length: int, rows: int, bus: int) -> dict[int, int]:
    """How many of ``rows`` rows of ``length`` bytes, row y at addr + y*stride, take each
    number of bus beats. A row's beats depend only on its offset in a beat, which repeats
    every bus / gcd(stride, bus) rows, so one period is enough."""
    period = bus // gcd(stride % bus, bus)
    full, rest = divmod(rows, period)
    counts: dict[int, int] = {}
    for row in range(min(period, rows)):
        beats = ((addr + row * stride) % bus + length + bus - 1) // bus
        counts[beats] = counts.get(beats, 0) + full + (row < rest)
    return counts


def row_bursts(rows: dict[int, int], bus: int) -> int:
    """Bursts in which the burst generator requests rows of these beats: at most 256 beats
    each and none across 4 KiB (counted as if every row started on a page)."""
    per_burst = min(256, BURST_EDGE // bus)
    return sum((beats + per_burst - 1) // per_burst * n for beats, n in rows.items())


def engine_bytes(cfg: VtaConfig, module: str) -> int:
    """Largest element of the module's LOAD engine (its gearbox holds that plus one beat)."""
    if module == "load":
        return max(cfg.inp_bytes, cfg.wgt_bytes)
    return cfg.acc_bytes


def load_work(cfg: VtaConfig, insn: Insn, module: str, bases: dict[str, int]) -> Work:
    """LOAD: the larger of the SRAM writer's time and the read data's time.

    The writer takes every element of the X x Y tile, one per cycle, and one more cycle
    to drop its write enable; a data element waits for its beats. The data side is every
    beat at one per cycle, then the trailing pads (after the last data element); leading
    pads and the x pads between rows cost extra only beyond what the gearbox
    (``engine_bytes / bus + 1`` beats) absorbs while the writer writes zeros. When the
    writer is the slower side, the gearbox backs up and the read channel is free only
    once the last beat fits in it.
    """
    mt = insn["memory_type"]
    ys, xs = insn["y_size"], insn["x_size"]
    x = insn["x_pad_0"] + xs + insn["x_pad_1"]
    y = insn["y_pad_0"] + ys + insn["y_pad_1"]
    if mt not in MEMORY or mt == MemType.OUT or xs == 0 or y == 0:
        return Work(0)  # executed as a no-op
    if ys == 0:  # pad rows only: no read, the writer alone
        return Work(x * y + 1)
    info = MEMORY[MemType(mt)]
    elem, bus = info.elem_bytes(cfg), cfg.bus_bytes
    rows = row_beats(bases.get(info.base, 0) + insn["dram_base"] * elem, insn["x_stride"] * elem,
                     xs * elem, ys, bus)
    beats, bursts = sum(b * n for b, n in rows.items()), row_bursts(rows, bus)
    lead = insn["y_pad_0"] * x + insn["x_pad_0"]
    trail = insn["x_pad_1"] + insn["y_pad_1"] * x
    gap = insn["x_pad_0"] + insn["x_pad_1"]
    held = engine_bytes(cfg, module) // bus + 1
    first = MEM.first_beat
    writer = x * y + 1 + max(0, first - lead)
    if held * bus >= xs * ys * elem:  # every byte fits in the gearbox: the beats never wait
        return Work(max(writer, beats + first + 1 + trail), beats, bursts)
    data = beats + max(0, lead - (first - 1) - held) + (ys - 1) * max(0, gap - held + 1)
    backed_up = writer - first - trail - held * bus // elem
    return Work(max(writer, data + first + 1 + trail), max(data, backed_up), bursts)


def store_cycles(cfg: VtaConfig, insn: Insn, bases: dict[str, int]) -> int:
    """STORE: per row the larger of its elements (read one per cycle) and its beats
    (written one per cycle), a gap between rows, then the wait for the last response."""
    ys, xs = insn["y_size"], insn["x_size"]
    if ys == 0 or xs == 0:
        return 0
    elem, bus = cfg.out_bytes, cfg.bus_bytes
    rows = row_beats(bases.get("out", 0) + insn["dram_base"] * elem, insn["x_stride"] * elem,
                     xs * elem, ys, bus)
    return sum(max(b, xs) * n for b, n in rows.items()) + MEM.store_fixed + MEM.store_row_gap * (ys - 1)


def insn_work(cfg: VtaConfig, insn: Insn | None, module: str, bases: dict[str, int]) -> Work:
    """The engine work of one instruction (undecodable words and FINISH have none)."""
    if insn is None or insn["opcode"] == Opcode.FINISH:
        return Work(0)
    op = insn["opcode"]
    if op in (Opcode.GEMM, Opcode.ALU):
        return Work(loop_cycles(insn, cfg.pipe_stages))
    if op == Opcode.STORE:
        return Work(store_cycles(cfg, insn, bases))
    return load_work(cfg, insn, module, bases)


def exec_counter(insn: Insn | None, module: str) -> str | None:
    """The RTL counter an instruction's execution cycles go to (None: no counter)."""
    if module != "compute":
        return f"{module.upper()}_EXEC"
    return COMPUTE_EXEC.get(insn["opcode"]) if insn is not None else None


# --- instructions as the modules run them ---------------------------------------------------

@dataclass
class Step:
    """One instruction as its module runs it: what it needs and, once known, when.

    Cycles: ``dispatch`` the cycle fetch pushes it into the command queue, ``start`` the
    IDLE cycle taking it out, ``go`` the POP cycle in which the last token is popped (the
    engine starts at its end), ``done`` the cycle after its last PUSH cycle; ``exec`` the
    engine's busy cycles once the read channel's wait is known.
    """

    index: int
    module: str
    work: Work
    pops: list[str]
    pushes: list[str]
    dispatch: int = -1
    start: int = -1
    go: int = -1
    exec: int = -1
    done: int = -1
    popped: list[int] = field(default_factory=list)
    pushed: list[int] = field(default_factory=list)


def flags_of(program: DecodedProgram, n: int) -> dict[str, int]:
    """Dependency flags of word n (from the raw head for an undecodable word, as the RTL)."""
    insn = program.insns[n]
    if insn is not None:
        return {f: insn[f] for f in DEP_FLAGS}
    return {f: program.words[n] >> (3 + k) & 1 for k, f in enumerate(DEP_FLAGS)}


def make_steps(cfg: VtaConfig, program: DecodedProgram, bases: dict[str, int]) -> list[Step]:
    """Each instruction's module, work and token queues (illegal flags dropped, as the
    phase machine ignores them)."""
    steps = []
    for n, (insn, module) in enumerate(zip(program.insns, program.modules, strict=True)):
        flags = flags_of(program, n)
        queues = {f: FLAG_QUEUE[module, f] for f in DEP_FLAGS if flags[f] and (module, f) in FLAG_QUEUE}
        steps.append(Step(n, module, insn_work(cfg, insn, module, bases),
                          [queues[f] for f in POP_FLAGS if f in queues],
                          [queues[f] for f in PUSH_FLAGS if f in queues]))
    return steps


# --- fetch's bursts -------------------------------------------------------------------------

class FetchStream:
    """The bursts in which fetch reads the instruction stream, and when their beats arrive.

    Beat k is the k-th bus word from the aligned address at or below insn_addr. Burst j
    may be requested once the burst before it is and, from the third on, once the gearbox
    has taken every beat up to ``FETCH_FIFO - FETCH_BURST`` before its first one. The
    gearbox (16 + B bytes) takes a beat in the cycle after it arrives if what it holds
    then, less an instruction dispatched in that cycle, is at most 16 bytes: while an
    instruction waits for room it already holds the next one's first beat.
    """

    def __init__(self, cfg: VtaConfig, program: DecodedProgram) -> None:
        bus = cfg.bus_bytes
        self.bus, self.off = bus, program.insn_addr % bus
        base = program.insn_addr - self.off
        total = self.total = (self.off + INSN_BYTES * len(program.insns) + bus - 1) // bus
        self.first: list[int] = []  # first beat of each burst
        beat = 0
        while beat < total:
            self.first.append(beat)
            beat += min(FETCH_BURST, total - beat, (BURST_EDGE - (base + beat * bus) % BURST_EDGE) // bus)
        self.requested: list[int] = []  # request cycle of each burst requested so far
        self.arrived: list[int] = []    # cycle of the first beat of each burst on the channel

    def last_beat(self, n: int) -> int:
        """The beat holding instruction n's last byte."""
        return (self.off + INSN_BYTES * (n + 1) - 1) // self.bus

    def next_request(self, steps: list[Step]) -> int | None:
        """Request cycle of the next burst, None while unknown or when all are requested."""
        j = len(self.requested)
        if j == len(self.first):
            return None
        if j == 0:
            return FETCH_REQUEST
        beat = self.first[j] - (FETCH_FIFO - FETCH_BURST) - 1  # the gearbox must have taken it
        if beat < 0:
            return self.requested[-1] + 1
        burst = bisect_right(self.first, beat) - 1
        if burst >= len(self.arrived):
            return None
        taken = self.arrived[burst] + beat - self.first[burst] + 1
        before = -(-(beat * self.bus - self.off) // INSN_BYTES) - 2  # last dispatch it waits for
        if before >= 0:
            if steps[before].dispatch < 0:
                return None
            taken = max(taken, steps[before].dispatch)
        # room shows in the cycle after the beat is taken, the request one cycle later
        return max(self.requested[-1] + 1, taken + 2)

    def beats(self, j: int) -> int:
        """Beats of burst j."""
        end = self.first[j + 1] if j + 1 < len(self.first) else self.total
        return end - self.first[j]

    def ready(self, n: int) -> int | None:
        """Earliest dispatch cycle of instruction n from its last beat, None before that
        beat's burst has its place on the channel."""
        beat = self.last_beat(n)
        j = bisect_right(self.first, beat) - 1
        if j >= len(self.arrived):
            return None
        return self.arrived[j] + beat - self.first[j] + FETCH_DISPATCH


# --- the walk -------------------------------------------------------------------------------

class Walk:
    """Times fetch and the three modules, each event as soon as the events it waits for
    are timed. Requests for the read channel (fetch's bursts, LOADs) wait in a heap and
    are granted in the order of their request cycles: an event is never earlier than the
    events it waits for, so no request still unknown can come before the heap's first."""

    def __init__(self, cfg: VtaConfig, program: DecodedProgram, steps: list[Step]) -> None:
        self.cfg = cfg
        self.steps = steps
        self.fetch_stream = FetchStream(cfg, program)
        self.gap = max(1, INSN_BYTES // cfg.bus_bytes)  # gearbox cycles per instruction
        self.next_gap = self.gap  # for the next instruction: one beat less after a stall
        self.queues = {m: [s for s in steps if s.module == m] for m in MODULES}
        self.slot = {s.index: k for q in self.queues.values() for k, s in enumerate(q)}
        self.pos = dict.fromkeys(MODULES, 0)
        self.fetched = 0
        self.pushes: dict[str, list[int]] = {q: [] for q in QUEUES}
        self.pops: dict[str, list[int]] = {q: [] for q in QUEUES}
        self.requests: list[tuple[int, int, int]] = []  # (cycle, 0 fetch / 1 LOAD, burst or step)
        self.channel_free = 0
        # requests granted and still streaming: (end of the work queued with them, request
        # cycle, bursts, cycles per burst)
        self.streaming: deque[tuple[int, int, int, int]] = deque()

    def run(self) -> None:
        """Time every instruction; raises TimingError when the rest wait forever."""
        self.settle()
        while self.requests:
            cycle, kind, what = heapq.heappop(self.requests)
            if kind == 0:
                wait = self.grant(cycle, self.fetch_stream.beats(what), 1)
                self.fetch_stream.arrived.append(cycle + MEM.latency + wait)
            else:
                self.begin(self.steps[what], cycle)
            self.settle()
        stuck = [q[self.pos[m]].index for m, q in self.queues.items() if self.pos[m] < len(q)]
        if stuck:
            raise TimingError(f"the program cannot complete: instructions {stuck} wait forever "
                              f"(a token never pushed, or a queue that never drains)")

    def grant(self, request: int, cycles: int, bursts: int) -> int:
        """Give the read channel to a request holding it ``cycles`` cycles in ``bursts``
        bursts; returns how much later than on an idle channel it gets its data.

        On a busy channel the request's first burst waits for the bursts in flight ahead
        of it (each earlier request still streaming issues one per cycle, up to
        READ_OUTSTANDING in all), each later one for one burst of the last request ahead
        (the round robin alternates), never beyond the work already queued; the queued
        work grows by the request's own.
        """
        first = request + MEM.latency
        while self.streaming and self.streaming[0][0] <= first:
            self.streaming.popleft()
        wait, slots = 0, READ_OUTSTANDING
        for _, ahead, ahead_bursts, per_burst in self.streaming:
            issued = min(slots, ahead_bursts, request - ahead + 1)
            wait, slots = wait + issued * per_burst, slots - issued
        if self.streaming:
            wait = min(self.channel_free - first, wait + (bursts - 1) * self.streaming[-1][3])
        self.channel_free = max(self.channel_free, first) + cycles
        self.streaming.append((self.channel_free, request, bursts, cycles // max(1, bursts)))
        return wait

    def settle(self) -> None:
        """Advance fetch and the modules until nothing more is known."""
        moved = True
        while moved:
            moved = self.request_bursts()
            moved = self.fetch() or moved
            for m in MODULES:
                moved = self.advance(m) or moved

    def request_bursts(self) -> bool:
        """Queue fetch's next bursts for the channel as their request cycles become known."""
        moved = False
        while (cycle := self.fetch_stream.next_request(self.steps)) is not None:
            heapq.heappush(self.requests, (cycle, 0, len(self.fetch_stream.requested)))
            self.fetch_stream.requested.append(cycle)
            moved = True
        return moved

    def fetch(self) -> bool:
        """Dispatch in order once each instruction's beats are in and its queue has room.
        While an instruction waits for room, its gearbox takes one beat of the next one."""
        moved = False
        while self.fetched < len(self.steps):
            step = self.steps[self.fetched]
            ready = self.fetch_stream.ready(self.fetched)
            pos, depth = self.slot[step.index], self.cfg.cmd_queue_depth
            room = self.queues[step.module][pos - depth].start + 1 if pos >= depth else 0
            if ready is None or (pos >= depth and room == 0):
                break
            prev = self.steps[self.fetched - 1].dispatch + self.next_gap if self.fetched else 0
            step.dispatch = max(ready, prev, room)
            self.next_gap = max(1, self.gap - 1) if room > max(ready, prev) else self.gap
            self.fetched += 1
            moved = True
        return moved

    def advance(self, module: str) -> bool:
        """Time the module's instructions in order as far as known cycles allow."""
        queue, moved = self.queues[module], False
        while self.pos[module] < len(queue):
            k = self.pos[module]
            step = queue[k]
            if step.start < 0:
                if step.dispatch < 0 or (k and queue[k - 1].done < 0):
                    return moved
                step.start = max(step.dispatch + 1, queue[k - 1].done if k else 0)
                moved = True
            if step.go < 0:
                moved = self.pop(step) or moved
            if step.exec < 0:  # still popping, or waiting for the read channel
                return moved
            moved = self.push(step) or moved
            if step.done < 0:
                return moved
            self.pos[module] = k + 1
        return moved

    def pop(self, step: Step) -> bool:
        """POP: each token in the first cycle after its push; once all are popped the
        engine starts, a LOAD from DRAM after its request's turn on the read channel."""
        moved = False
        for q in step.pops[len(step.popped):]:
            k = len(self.pops[q])
            if k >= len(self.pushes[q]):
                break
            step.popped.append(max(step.start + 1, self.pushes[q][k] + 1))
            self.pops[q].append(step.popped[-1])
            moved = True
        if len(step.popped) == len(step.pops):
            step.go = max([step.start + 1, *step.popped])
            if step.work.reads:
                heapq.heappush(self.requests, (step.go + MEM.request, 1, step.index))
            else:
                self.begin(step, step.go)
            moved = True
        return moved

    def begin(self, step: Step, request: int) -> None:
        """EXEC: a LOAD's first beat waits for the beats requested before it."""
        step.exec = step.work.cycles
        if step.work.reads:
            step.exec += self.grant(request, step.work.reads, step.work.bursts)

    def push(self, step: Step) -> bool:
        """PUSH: each token once its counter has room (a pop in an earlier cycle)."""
        depth, first, moved = self.cfg.token_queue_depth, step.go + 2 + step.exec, False
        for q in step.pushes[len(step.pushed):]:  # the two push flags name two different queues
            k = len(self.pushes[q])
            if k >= depth and len(self.pops[q]) <= k - depth:
                break
            step.pushed.append(max(first, self.pops[q][k - depth] + 1) if k >= depth else first)
            self.pushes[q].append(step.pushed[-1])
            moved = True
        if len(step.pushed) == len(step.pushes):
            step.done = max([first, *step.pushed]) + 1
            moved = True
        return moved


def summarize(program: DecodedProgram, steps: list[Step]) -> TimingEstimate:
    """CYCLES at FINISH's completion; busy, stall and execution cycles of every step."""
    finish = next((s for s, i in zip(steps, program.insns, strict=True)
                   if i is not None and i["opcode"] == Opcode.FINISH), None)
    if finish is None:
        raise TimingError("the program has no FINISH, so the RTL never raises DONE")
    exec_c = dict.fromkeys(EXEC_COUNTERS, 0)
    busy = {f"{m.upper()}_BUSY": 0 for m in MODULES}
    stall = {f"{m.upper()}_STALL": 0 for m in MODULES}
    for s, insn in zip(steps, program.insns, strict=True):
        name = exec_counter(insn, s.module)
        if name:
            exec_c[name] += s.exec
        busy[f"{s.module.upper()}_BUSY"] += s.done - s.start - 1
        stall[f"{s.module.upper()}_STALL"] += (s.go - s.start - 1) + (s.done - 1 - (s.go + 2 + s.exec))
    return TimingEstimate(finish.done, exec_c, busy, stall)


def estimate(cfg: VtaConfig, program: DecodedProgram, bases: dict[str, int]) -> TimingEstimate:
    """Cycles from launch to DONE, and the per-module counters, of a decoded program."""
    steps = make_steps(cfg, program, bases)
    Walk(cfg, program, steps).run()
    return summarize(program, steps)


def estimate_vector(vector: Vector) -> TimingEstimate:
    """:func:`estimate` of a vector's program, decoded as :func:`models.predict.predict` does."""
    program = decode_program(vector.config, vector.dram(), vector.insn_addr, vector.insn_count)
    return estimate(vector.config, program, vector.bases)
