"""The facts of the VTA specification that several parts of the suite need, stated once.

Executor, checker, generator, program builder, statistics and the testbench all need to
know which buffer and base register a memory type uses, which token queue a dependency
flag names, which configurations ship, how byte ranges merge and what each rule id means.
Written out in each of them, those tables drift apart; here each is written once and the
rest is derived from it. The instruction encoding (opcodes, enums, bit layout) stays in
:mod:`models.isa`.

* :mod:`models.spec.memory`: memory types (buffer, base register, element size, the
  module that runs a LOAD of them) and the routing of instructions to modules;
* :mod:`models.spec.tokens`: the token queues, their producer and consumer, and the
  dependency flag each module uses for each;
* :mod:`models.spec.configs`: the shipped configuration names;
* :mod:`models.spec.ranges`: byte-range arithmetic (merge, intersect, cover);
* :mod:`models.spec.rules`: the rule ids of spec section 4 that checker and executor report.
"""
from __future__ import annotations

from models.spec.configs import SHIPPED_CONFIGS, shipped_name
from models.spec.memory import BASE_OF, MEMORY, MEMTYPE_OF, MemInfo, elem_bytes, loads_nothing, module_of
from models.spec.ranges import Range, intersect_ranges, merge_ranges, merge_spans
from models.spec.rules import RULES
from models.spec.tokens import FLAG_QUEUE, LEGAL_FLAGS, MODULES, POP_FLAGS, PUSH_FLAGS, QUEUES, TOKEN_QUEUES

__all__ = ["BASE_OF", "FLAG_QUEUE", "LEGAL_FLAGS", "MEMORY", "MEMTYPE_OF", "MODULES", "POP_FLAGS",
           "PUSH_FLAGS", "QUEUES", "RULES", "SHIPPED_CONFIGS", "TOKEN_QUEUES", "MemInfo", "Range",
           "elem_bytes", "intersect_ranges", "loads_nothing", "merge_ranges", "merge_spans", "module_of",
           "shipped_name"]
