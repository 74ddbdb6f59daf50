"""What a contract-edge flow must reach, judged after its job (verdict kind ``reach``).

A flow such as "every token counter driven to capacity" passes vacuously if its program
stops reaching that state: a change of timing in the RTL or the program, and the check it
exists for silently tests nothing. So each such job names what it must reach, and once it
has passed every other check, the checkers' own records (the ordering checker's capacity
and push/pop flags, the liveness checker's maxima: tb/rules/ordering.py, tb/rules/liveness.py)
must show it. The bounds come from rtl/README.md ("Queues, tokens and flow control",
"Arbitration and liveness bounds"), not from what a run happened to see.

Only rtl/ exposes those records: on a foreign DUT the flows still run their programs, held
to every port-level check and the scoreboard, and this module judges nothing (the run's
report says so).
"""
from __future__ import annotations

from typing import Any, Callable

from models.config import VtaConfig
from tb.rules.liveness import READ_CLIENTS, READ_TABLE, WR_AHEAD, WR_OUTSTANDING
from tb.sweep_programs import PAD_ROWS, padded_head_row


def _capacity(seen: dict[str, Any], cfg: VtaConfig, mode: str) -> list[str]:
    """Every token counter and command queue full with its producer waiting."""
    return [f"{name} {'never reached its capacity' if not full else 'was full but its producer never waited'}"
            for name, (full, stalled) in seen["capacity"].items() if not (full and stalled)]


def _push_pop(seen: dict[str, Any], cfg: VtaConfig, mode: str) -> list[str]:
    """A pop met a push in the same cycle at every count from 1 to the capacity."""
    want = set(range(1, cfg.token_queue_depth + 1))
    return [f"{queue}: no pop met a push at count(s) {sorted(want - set(counts))} (seen at {counts})"
            for queue, counts in seen["push_pops"].items() if not want <= set(counts)]


def _contention(seen: dict[str, Any], cfg: VtaConfig, mode: str) -> list[str]:
    """Each read client waited through the round robin's bound; the port's limits reached
    (all of them by the fast mode's memory, which takes every burst the DUT offers)."""
    c = seen["contention"]
    out = [f"read client {n} never waited through {len(READ_CLIENTS) - 1} grants to the others "
           f"(at most {c['ar_others_max'].get(n, 0)})" for n in READ_CLIENTS
           if c["ar_others_max"].get(n, 0) != len(READ_CLIENTS) - 1]
    limits = {"rd_outstanding_max": READ_TABLE, "wr_ahead_max": WR_AHEAD}
    for key, bound in limits.items():
        if not 0 < c[key] <= bound or (mode == "fast" and c[key] != bound):
            out.append(f"{key} {c[key]}: the {mode} mode's memory must see {bound}"
                       if mode == "fast" else f"{key} {c[key]} outside (0, {bound}]")
    return out


def _padding(seen: dict[str, Any], cfg: VtaConfig, mode: str) -> list[str]:
    """RREADY held low for most of the padding rows' elements, never longer."""
    padding = PAD_ROWS * padded_head_row(cfg)
    held = seen["contention"]["r_held_max"]
    return [] if padding // 2 < held <= padding else \
        [f"RREADY was held low for at most {held} cycles; the padding of {padding} elements "
         f"must hold it for more than {padding // 2} and at most {padding}"]


def _b_bound(seen: dict[str, Any], cfg: VtaConfig, mode: str) -> list[str]:
    """The memory withheld write responses until the design's bound was reached."""
    most = seen["contention"]["wr_outstanding_max"]
    return [] if most == WR_OUTSTANDING else \
        [f"at most {most} write bursts awaited B; the memory withholds responses until the "
         f"design's bound {WR_OUTSTANDING}"]


#: Why a foreign DUT's run judges no reach (the run's report prints it, tb/plan/applicable.py).
REACH_UNSEEN = ("the ordering and liveness checkers whose records show it are bound to rtl/'s own "
                "queues, counters and arbiter; the flow's program ran, held to every port-level "
                "check and the scoreboard")


REACH: dict[str, Callable[[dict[str, Any], VtaConfig, str], list[str]]] = {
    "capacity": _capacity,
    "push-pop": _push_pop,
    "contention": _contention,
    "padding": _padding,
    "b-bound": _b_bound,
}


def reach_problem(name: str, seen: dict[str, Any], cfg: VtaConfig, mode: str) -> str:
    """Why a job that had to reach ``name`` did not ('' if it did), from its end record's
    checker figures ``seen`` (capacity, push_pops, contention); empty figures (a foreign
    DUT) are not judged."""
    if not seen.get("capacity"):
        return ""
    missed = REACH[name](seen, cfg, mode)
    return f"the {name} flow did not reach what it exists to test: " + "; ".join(missed) if missed else ""
