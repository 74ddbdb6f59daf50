"""The token model: dependency order between the three modules, and deadlock.

* happens-before is program order within a module plus push->pop edges (the k-th pop of a
  queue synchronises with its k-th push), computed with one vector clock per instruction
  (:func:`vector_clocks`);
* each token counter and each command queue has a single producer and a single consumer,
  so an enabled step stays enabled until it is taken and a greedy simulation of the finite
  hardware (:func:`simulate`) decides deadlock independently of the schedule;
* the same simulation with a queue's consumer held back bounds how many tokens that queue
  can hold at once in any schedule (:func:`max_outstanding`).

As in the RTL, a module takes the next command out of its command queue when idle
(freeing the slot), pops each named token as soon as it is there, executes once all are
popped, then pushes each token as soon as its counter has room. Set flags that a module
has no queue for are ignored, as the RTL ignores them.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from models.spec import FLAG_QUEUE, MODULES, QUEUES

MODULE_INDEX = {m: n for n, m in enumerate(MODULES)}
#: Bit of each dependency flag in the head every instruction shares, undecodable ones too.
FLAG_BITS = {"pop_prev_dep": 3, "pop_next_dep": 4, "push_prev_dep": 5, "push_next_dep": 6}


@dataclass(frozen=True)
class Op:
    """An instruction as the token model sees it."""

    index: int
    module: str
    pos: int  # 1-based position in its module's instruction sequence
    pops: tuple[str, ...]
    pushes: tuple[str, ...]


@dataclass
class Busy:
    """The instruction a module has taken from its command queue and the tokens it still owes."""

    op: Op
    phase: str                    # 'pop' (waiting for tokens) or 'push' (executed, pushing)
    pending: list[str]            # queues still to pop (phase 'pop') or push (phase 'push')


@dataclass
class SimResult:
    """Where a greedy run of the hardware stopped."""

    order: list[Op]              # instructions in completion order
    busy: dict[str, Busy | None]
    fetch_at: Op | None          # the instruction fetch could not dispatch
    counters: dict[str, int]

    def complete(self, n_ops: int) -> bool:
        return len(self.order) == n_ops


class Machine:
    """Fetch and the three modules with their command queues and token counters, run
    greedily: as the RTL does, a module takes its next command out of the queue when idle,
    pops each named token as soon as that counter is non-zero, executes once all are
    popped, then pushes each token as soon as that counter has room (None: unbounded)."""

    def __init__(self, ops: Sequence[Op], cmd_depth: int | None, token_depth: int | None) -> None:
        self.ops, self.cmd_depth, self.token_depth = ops, cmd_depth, token_depth
        self.queues: dict[str, deque[Op]] = {m: deque() for m in MODULES}
        self.busy: dict[str, Busy | None] = {m: None for m in MODULES}
        self.counters = {q: 0 for q in QUEUES}
        self.order: list[Op] = []
        self.taken = {m: 0 for m in MODULES}
        self.fetch = 0

    def run(self, limit: dict[str, int] | None = None) -> None:
        """Take every step until nothing can move; a module named in ``limit`` takes no more
        commands than that many in all (it is held back before the next)."""
        ops, progress = self.ops, True
        while progress:
            progress = False
            while self.fetch < len(ops) and (self.cmd_depth is None
                                             or len(self.queues[ops[self.fetch].module]) < self.cmd_depth):
                self.queues[ops[self.fetch].module].append(ops[self.fetch])
                self.fetch += 1
                progress = True
            for m in MODULES:
                if self.busy[m] is None and self.queues[m] and (limit is None or m not in limit
                                                                or self.taken[m] < limit[m]):
                    op = self.queues[m].popleft()
                    self.busy[m] = Busy(op, "pop", list(op.pops))
                    self.taken[m] += 1
                    progress = True
                b = self.busy[m]
                if b is not None:
                    progress |= _step(b, self.counters, self.token_depth)
                    if b.phase == "push" and not b.pending:
                        self.order.append(b.op)
                        self.busy[m] = None


def simulate(ops: Sequence[Op], cmd_depth: int | None, token_depth: int | None) -> SimResult:
    """Run fetch and the three modules greedily until nothing can move (None = unbounded).

    Every step is persistent (single producer and consumer per queue), so the order the
    steps are taken in does not change where the run ends: this decides deadlock.
    """
    machine = Machine(ops, cmd_depth, token_depth)
    machine.run()
    fetch_at = ops[machine.fetch] if machine.fetch < len(ops) else None
    return SimResult(machine.order, machine.busy, fetch_at, machine.counters)


def _step(b: Busy, counters: dict[str, int], token_depth: int | None) -> bool:
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


def max_outstanding(ops: Sequence[Op], queue: str) -> int:
    """The most tokens ``queue`` ever holds in any run with unbounded queues and counters.

    The count peaks while its consumer is held back: with the consumer stopped before its
    (k+1)-th instruction, the other two modules run greedily as far as they can (every step
    is persistent, so that run is the furthest any schedule reaches), and the counter then
    holds the most it can while the consumer has taken k instructions. The consumer is then
    let through one more; the peak over all k is the answer. A design whose counter holds
    fewer tokens than this drops or blocks a push in some schedule.
    """
    consumer = QUEUES[queue][1]
    machine = Machine(ops, None, None)
    best = 0
    for k in range(sum(op.module == consumer for op in ops) + 1):
        machine.run({consumer: k})
        best = max(best, machine.counters[queue])
    return best


def vector_clocks(order: Sequence[Op]) -> dict[int, np.ndarray]:
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



def build_ops(words: Sequence[int], modules: Sequence[str]) -> list[Op]:
    """Token view of every instruction word; flags a module has no queue for are ignored."""
    counts = {m: 0 for m in MODULES}
    ops = []
    for n, word in enumerate(words):
        m = modules[n]
        counts[m] += 1
        queues = {f: FLAG_QUEUE[m, f] for f, bit in FLAG_BITS.items()
                  if word >> bit & 1 and (m, f) in FLAG_QUEUE}
        pops = tuple(q for f, q in queues.items() if f.startswith("pop"))
        pushes = tuple(q for f, q in queues.items() if f.startswith("push"))
        ops.append(Op(n, m, counts[m], pops, pushes))
    return ops
