"""Dependency tokens (spec section 4): the four queues and the flags that name them.

The modules form a pipeline load -> compute -> store. Each queue has one producer and one
consumer, neighbours in that pipeline; a module names a queue with its ``*_next_dep`` flag
when the other end is the next module and with ``*_prev_dep`` when it is the previous one.
:data:`FLAG_QUEUE` is derived from :data:`QUEUES` by that rule, so the spec's table of
legal flags has a single source.
"""
from __future__ import annotations

from models.isa import DEP_FLAGS

MODULES = ("load", "compute", "store")
#: Token queue -> (producer, consumer).
QUEUES: dict[str, tuple[str, str]] = {
    "L2C": ("load", "compute"), "C2L": ("compute", "load"),
    "C2S": ("compute", "store"), "S2C": ("store", "compute"),
}
#: The queues in that order (the RTL's token counters and the bytes of its TOKENS register).
TOKEN_QUEUES = tuple(QUEUES)
POP_FLAGS = ("pop_prev_dep", "pop_next_dep")
PUSH_FLAGS = ("push_prev_dep", "push_next_dep")


def _side(module: str, other: str) -> str:
    return "next" if MODULES.index(other) > MODULES.index(module) else "prev"


#: (module, flag) -> queue; a pair absent here is an illegal flag of that module.
FLAG_QUEUE: dict[tuple[str, str], str] = {
    key: q for q, (producer, consumer) in QUEUES.items()
    for key in ((producer, f"push_{_side(producer, consumer)}_dep"),
                (consumer, f"pop_{_side(consumer, producer)}_dep"))
}
#: Legal flags of each module, in the order of the instruction head.
LEGAL_FLAGS: dict[str, tuple[str, ...]] = {
    m: tuple(f for f in DEP_FLAGS if (m, f) in FLAG_QUEUE) for m in MODULES
}
