"""The Yosys scripts that turn rtl/ into a gate-level netlist the simulators can run.

Every script elaborates vta_top with the configuration's parameters (tb/synth/script.py),
runs the coarse part of Yosys's generic ``synth`` with the design flattened (``-run :fine``:
processes, FSMs, word-level optimisation, memories inferred but not mapped), maps the logic
to Yosys's internal one-bit gates (``techmap``: $_AND_, $_OR_, $_XOR_, $_MUX_, $_NOT_ and
flip-flops $_SDFFE_...), and writes it with ``write_verilog -noattr``, which prints each
gate as a one-bit Verilog expression and each flip-flop as an always block: plain Verilog,
no cell library needed. Then, per script:

    abc       ABC optimises and maps the combinational logic again (its default script: the
              logic restructured the way a synthesis flow restructures it); `make sim
              NETLIST=1`. 42 s of Yosys for `small` on the idle 2-core machine, minutes
              beside other jobs (ABC's time grows most under load).
    techmap   no ABC: the gates as techmap made them; about 21 s for `small`, so `make
              test` can build it from nothing for its smoke (tb/tests/test_gate.py).
    broken    test-only: techmap's, with one step that ties bit 0 of the accumulator
              buffer's write data to 0 (every value the buffer stores, LOAD ACC's and every
              GEMM and ALU result, loses its low bit). A synthesis bug of that kind must
              fail the smoke's vectors (tb/tests/test_gate.py).

Two choices keep the netlist simulable:

* Memories stay arrays: ``-run :fine`` stops before ``memory_map``, so the six buffers and
  the FIFOs are $mem_v2 cells, written back as Verilog arrays with clocked ports. Mapping
  them to flip-flops makes `small` 337k cells, which no simulator here runs in useful time.
  A generic netlist keeps them because there is no RAM to map them to (a vendor flow maps
  them to its block-RAM primitives, whose Yosys simulation models are not behavioural).
* ``splitnets`` makes every net one bit. Icarus schedules a continuous assignment to one bit
  of a vector as a change of the whole vector, so each gate output that is a bit of a
  multi-bit net wakes every reader of every bit: `small`'s techmap netlist ran gemm_basic's
  294 cycles in 44 s of Icarus as written, 1.3 s with single-bit nets. The top's ports stay
  vectors (vta_top's port list).
"""
from __future__ import annotations

from dataclasses import dataclass

from tb.duts.netlist import GATE_TOP, NETLIST_FILE
from tb.synth.script import elaborate

#: The statistics written next to the netlist (cells by type).
STAT_FILE = "stat.json"
#: The net the broken script ties low: bit 0 of the ACC buffer's write data (rtl/vta_ram.v's
#: port ``wdata`` of instance u_compute.u_acc), its one write port: LOAD ACC, GEMM and ALU.
BROKEN_NET = "u_compute.u_acc.wdata[0]"


@dataclass(frozen=True)
class Script:
    """A netlist script: the steps between elaboration and writing, and what it is for."""

    name: str
    description: str
    steps: tuple[str, ...]
    test_only: bool = False


def _coarse(top: str) -> tuple[str, ...]:
    return (f"synth -flatten -top {top} -run :fine",)


def _finish(top: str) -> tuple[str, ...]:
    """One-bit nets, the netlist's own top name, statistics and the Verilog netlist."""
    return ("opt_clean -purge", "splitnets", "opt_clean -purge", f"rename {top} {GATE_TOP}",
            f"tee -q -o {STAT_FILE} stat -json", f"write_verilog -noattr {NETLIST_FILE}")


def scripts(top: str) -> dict[str, Script]:
    """Every script for a design whose top module is ``top``."""
    techmap = ("techmap", "opt -fast")
    return {
        "abc": Script("abc", "techmap to Yosys's one-bit gates, then ABC's logic optimisation "
                             "and gate mapping; memories as arrays",
                      _coarse(top) + techmap + ("abc", "opt -fast") + _finish(top)),
        "techmap": Script("techmap", "techmap to Yosys's one-bit gates, no ABC; memories as arrays",
                          _coarse(top) + techmap + _finish(top)),
        "broken": Script("broken", f"test-only: techmap's script with {BROKEN_NET} tied to 0 "
                                   f"(a deliberately broken synthesis)",
                         _coarse(top) + (f"connect -set {BROKEN_NET} 1'b0",) + techmap + _finish(top),
                         test_only=True),
    }


def netlist_script(files: list[str], top: str, params: dict[str, int], script: str) -> str:
    """The whole Yosys script: elaborate the staged files with the parameters, then the
    named script's steps."""
    return "\n".join(elaborate(files, top, params) + list(scripts(top)[script].steps)) + "\n"
