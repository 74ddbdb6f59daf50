"""The ordering checker's findings and capacity flags (tb/rtl/vta_tb_order_check.v).

The checker runs inside the simulation in both testbench modes, bound to vta_top's queues,
token counters and status words by tb/rtl/vta_tb_top.v. It latches the first violation of
what a comparison of the final DRAM cannot see -- DONE before every write response and read
beat, a token or queued instruction lost or invented, a module executing before its pops --
and records which queues reached full capacity with their producer waiting. These readers
turn its registers into the verdict's message (kind ``ordering``) and the job's record.
"""
from __future__ import annotations

from typing import Any

from models.spec import MODULES, TOKEN_QUEUES
from tb.rules.failure import NONE, Failure

#: Rule -> its code, the checker's ``rule`` output (generated into tb/rtl/vta_tb_codes.vh as
#: ORDER_RULE_<RULE> by tb/rules/hdl_codes.py). ``which`` counts token queues in the order of
#: models.spec.TOKEN_QUEUES and modules in the order of models.spec.MODULES.
ORDER_RULES = {1: "done-early", 2: "token-lost", 3: "early-exec", 4: "queue-lost", 5: "over-capacity"}


def _int(handle: Any) -> int:
    return int(handle.value)


def order_findings(order: Any) -> list[Failure]:
    """The ordering checker's finding (tb/rtl/vta_tb_order_check.v), if any."""
    if not _int(order.violation):
        return []
    rule, which, v0, v1 = _int(order.rule), _int(order.which), _int(order.value0), _int(order.value1)
    cycle = _int(order.vcycle)
    text = {
        1: f"DONE rose with {v0} write burst(s) awaiting a response and {v1} read burst(s) "
           f"awaiting data",
        2: f"the {TOKEN_QUEUES[which % 4]} token counter holds {v1} but {v0} tokens were pushed "
           f"and not popped: a token was lost or invented",
        3: f"the {MODULES[which % 3]} module started executing before popping the tokens "
           f"its instruction names (prev side owed: {v0}, next side owed: {v1})",
        4: f"the {MODULES[which % 3]} command queue holds {v1} entries but {v0} were pushed "
           f"and not popped: an instruction was lost or invented",
        5: (f"the {TOKEN_QUEUES[which]} token counter holds {v0} tokens, more than its capacity {v1}"
            if which < 4 else f"the {MODULES[(which - 4) % 3]} command queue holds {v0} "
                              f"entries, more than its depth {v1}"),
    }[rule]
    # the module, token counter or command queue the finding names (none for DONE's rule)
    who = {1: NONE, 2: f"{TOKEN_QUEUES[which % 4]} token counter", 3: f"{MODULES[which % 3]} module",
           4: f"{MODULES[which % 3]} command queue",
           5: f"{TOKEN_QUEUES[which]} token counter" if which < 4
           else f"{MODULES[(which - 4) % 3]} command queue"}[rule]
    return [Failure("ordering", f"ordering violation at cycle {cycle} [{ORDER_RULES[rule]}]: {text}",
                    cycle, rule=ORDER_RULES[rule], module=who)]


def capacity(order: Any) -> dict[str, list[bool]]:
    """Which token counters and command queues reached full capacity, and whose producer
    then waited, during the job (the ordering checker's flags)."""
    tok_full, tok_stall = _int(order.tok_full), _int(order.tok_stalled)
    q_full, q_stall = _int(order.q_full), _int(order.q_stalled)
    out = {q: [bool(tok_full >> n & 1), bool(tok_stall >> n & 1)] for n, q in enumerate(TOKEN_QUEUES)}
    out.update({f"{m}-queue": [bool(q_full >> n & 1), bool(q_stall >> n & 1)]
                for n, m in enumerate(MODULES)})
    return out


def push_pops(order: Any) -> dict[str, list[int]]:
    """Per token counter, the counts at which a pop met a push in the same cycle (the push
    accepted, or waiting for room at the capacity), during the job."""
    bits = _int(order.tok_pushpop)
    return {q: [c for c in range(32) if bits >> (32 * n + c) & 1] for n, q in enumerate(TOKEN_QUEUES)}


