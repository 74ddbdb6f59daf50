"""The liveness checker's findings and contention figures (tb/rtl/vta_tb_live_check.v).

The checker runs inside the simulation in both testbench modes, bound by tb/rtl/vta_tb_top.v
next to the ordering checker. It latches the first breach of a bound the final DRAM cannot
show -- a read client passed over more often than round robin allows, the read arbiter idle
while a client waits, more bursts in flight on the memory port than the design keeps, an
idle module leaving its queue's head or an owed token alone, compute's accumulator port
written twice in a cycle (rtl/README.md, "Arbitration and liveness bounds") -- and keeps the
contention it saw. These readers turn its registers into the verdict's message (kind
``liveness``) and the job's record (``contention``), the same way in both modes.
"""
from __future__ import annotations

from typing import Any

from models.spec import MODULES, TOKEN_QUEUES
from tb.rules.failure import NONE, Failure

#: Rule -> its code, the checker's ``rule`` output (generated into tb/rtl/vta_tb_codes.vh as
#: LIVE_RULE_<RULE> by tb/rules/hdl_codes.py).
LIVE_RULES = {1: "ar-unfair", 2: "ar-withheld", 3: "rd-outstanding", 4: "wr-ahead",
              5: "wr-outstanding", 6: "queue-stuck", 7: "token-not-popped",
              8: "token-not-pushed", 9: "acc-port-conflict", 10: "fetch-credit"}
#: vta_rd_arb's clients, in its request order, and its table of bursts (rtl/vta_top.v).
READ_CLIENTS, READ_TABLE = ("fetch", "load", "compute"), 8
#: The design's limits on write bursts ahead of their last W beat and awaiting B.
WR_AHEAD, WR_OUTSTANDING = 8, 255
#: vta_fetch's burst and beat buffer, in beats.
FETCH_BURST, FETCH_BEATS = 16, 32


def _int(handle: Any) -> int:
    return int(handle.value)


def _clients(mask: int) -> str:
    return ", ".join(c for n, c in enumerate(READ_CLIENTS) if mask >> n & 1)


def live_findings(live: Any) -> list[Failure]:
    """The liveness checker's finding, if any, as a ``liveness`` failure."""
    if not _int(live.violation):
        return []
    rule, which, v0, v1 = _int(live.rule), _int(live.which), _int(live.value0), _int(live.value1)
    cycle = _int(live.vcycle)
    token, module = TOKEN_QUEUES[which % 4], MODULES[which % 3]
    text = {
        1: f"the {READ_CLIENTS[which % 3]} read client waited {v1} cycles through {v0} grants to "
           f"other clients; round robin over {len(READ_CLIENTS)} allows {len(READ_CLIENTS) - 1}",
        2: f"the read arbiter granted nothing although {_clients(v0)} requested, its AR register "
           f"was free and its table held {v1} of {READ_TABLE} bursts",
        3: f"{v0} read bursts in flight on the memory port; the design keeps at most {v1}",
        4: f"{v0} write bursts accepted on AW ahead of their last W beat; the design keeps at "
           f"most {v1}",
        5: f"{v0} write bursts awaiting a response; the design keeps at most {v1}",
        6: f"the {module} command queue held {v0} instruction(s) for {v1} cycle(s) while the "
           f"{module} module was idle, and the module did not take the head",
        7: f"the {token} token counter held {v0} for {v1} cycle(s) while its consumer, in its pop "
           f"phase, owed that token and did not pop it",
        8: f"the {token} token counter held {v0} (room left) for {v1} cycle(s) while its producer, "
           f"in its push phase, owed that token and did not push it",
        9: "compute's accumulator/OUT write port was written by its LOAD engine and its GEMM/ALU "
           "stage in the same cycle: one write is lost",
        10: (f"fetch requested no burst although {v1} beats of the program were left, its AR "
             f"register was free and its {FETCH_BEATS}-beat buffer had room for {FETCH_BURST} "
             f"beats besides the {v0} buffered, in flight and presented") if which == 0 else
            (f"fetch had {v0} beats buffered and in flight; its buffer holds {v1}, so a burst "
             f"was requested without room for it (fetch would hold the shared R channel)"),
    }[rule]
    # the read client, module, command queue or token counter the finding names
    who = {1: f"{READ_CLIENTS[which % 3]} read client", 6: f"{module} command queue",
           7: f"{token} token counter", 8: f"{token} token counter"}.get(rule, NONE)
    return [Failure("liveness", f"liveness violation at cycle {cycle} [{LIVE_RULES[rule]}]: {text}",
                    cycle, rule=LIVE_RULES[rule], module=who)]


def contention(live: Any) -> dict[str, Any]:
    """What the job put the arbiter and the memory port through (since its last launch):
    per read client the most grants to other clients during one wait and the longest wait in
    cycles, the most read bursts in flight, write bursts ahead of W and awaiting B, and the
    longest run of cycles a read beat waited for the DUT's RREADY."""
    others, waits = _int(live.others_max), _int(live.wait_max)
    return {"ar_others_max": {c: others >> 8 * n & 0xFF for n, c in enumerate(READ_CLIENTS)},
            "ar_wait_max": {c: waits >> 32 * n & 0xFFFF_FFFF for n, c in enumerate(READ_CLIENTS)},
            "rd_outstanding_max": _int(live.rd_max), "wr_ahead_max": _int(live.wr_ahead_max),
            "wr_outstanding_max": _int(live.wr_out_max), "r_held_max": _int(live.r_held_max)}
