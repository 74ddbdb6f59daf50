"""The checker table: every failure kind, and the checkers the environments build from it.

One entry per failure kind, in the order of ``failure.KINDS`` (which is derived from this
table: signatures, JUnit types and the negative tests name these strings, so a new kind is
appended, never inserted). An entry with a ``checker`` is a bus checker the full mode's
environment (tb/uvm/env/env.py) builds from this table alone: the class named there, in
its module of tb/uvm/checkers/, constructed as ``Class(port, report)`` once per port of
``ports``, is an EdgeSampler listener (``on_reset()``, ``on_sample(cycle, sample)``) that
also gets every program's job context (``start_job(ctx)``) and reports ``Failure`` records
of its kind through ``report``. With ``fast`` set, the fast mode's checks
(tb/uvm/env/fast.py ``FastChecks``) also call the class's ``fast_findings(top)``, which reads
the latches of its Verilog twin in the fast mode's top (tb/rtl/): the fast mode samples no
bus in Python. The AXI protocol checker is built this way. Entries without a ``checker`` are
kinds whose reporters are wired by name (the scoreboard and the stray-write checker, whose
STORE footprints the program sequence hands over; the response checker, which needs the
memory agent's answers; the in-simulation ordering and liveness checkers; the watchdog, the
flows, the runner).

The class is named by a string, as the launcher names the cocotb test module: this table is
below the simulator (no cocotb import), and the environment, above the checkers, imports it;
tb/tests/test_recipes.py checks that every name resolves.
"""
from __future__ import annotations

from dataclasses import dataclass

#: The ports a table-built checker may watch (the full mode's environment has one each).
PORTS = ("m_axi_gmem", "s_axi_control")


@dataclass(frozen=True)
class Check:
    """One failure kind and, for a checker built from this table, where its class is."""

    kind: str
    #: ``module:Class`` in tb/uvm/checkers/ ("": reported by a component wired by name)
    checker: str = ""
    #: the ports it watches, one instance each (of :data:`PORTS`)
    ports: tuple[str, ...] = ("m_axi_gmem",)
    #: also checked in the fast mode, by the class's ``fast_findings(top)``
    fast: bool = False

    def __post_init__(self) -> None:
        if self.checker and (self.checker.count(":") != 1 or not set(self.ports) <= set(PORTS)):
            raise ValueError(f"check {self.kind!r}: checker must be 'module:Class' watching some "
                             f"of {', '.join(PORTS)}, got {self.checker!r} on {self.ports}")


CHECKS: tuple[Check, ...] = (
    Check("scoreboard"),  # final DRAM against the model (checkers/scoreboard.py)
    Check("stray-write"),  # writes outside the STORE footprints (checkers/stray.py; fast: vta_tb_mem.v)
    # AXI rules on both ports; the responses against the injected ones are checkers/responses.py,
    # wired by name; the fast mode's twin vta_tb_axi_check.v is decoded by env/fast.py itself
    Check("protocol", "protocol:AxiProtocolChecker", ports=PORTS),
    Check("ordering"),  # tokens, queues, DONE after B (tb/rtl/vta_tb_order_check.v, rules/ordering.py)
    Check("liveness"),  # arbitration and waits (tb/rtl/vta_tb_live_check.v, rules/liveness.py)
    Check("watchdog"),  # no DONE within the bound or the stall window (env/watch.py, fast.py)
    Check("register"),  # the register map and launch semantics (seq_lib/ flows)
    Check("no-compare"),  # a program that compares no byte (checkers/scoreboard.py)
    Check("bus-error"),  # error responses that reached the DUT (seq_lib/vseq.py)
    Check("counter"),  # work and cycle counters (checkers/scoreboard.py, rules/counter_rules.py)
    Check("model"),  # the golden model refused the program (cocotb_plan.py)
    Check("assertion"),  # the DUT's own Assertion failed (checkers/dutlog.py)
    Check("reach"),  # a flow's program missed its edge (rules/reach.py)
    Check("error"),  # the testbench or the simulator broke (cocotb_plan.py, the launcher)
)


def kinds(checks: tuple[Check, ...]) -> tuple[str, ...]:
    """The failure kinds of a table, in its order; a kind declared twice is an error."""
    out = tuple(c.kind for c in checks)
    if len(set(out)) != len(out):
        raise ValueError(f"checker table: a failure kind is declared twice ({', '.join(out)})")
    return out


def built(checks: tuple[Check, ...]) -> tuple[Check, ...]:
    """The entries the environments build from the table (those naming a checker class)."""
    return tuple(c for c in checks if c.checker)
