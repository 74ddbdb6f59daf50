"""The DUT a run drives, as the testbench's program flow sees it: where its registers are.

The testbench was written against rtl/ (tb/rules/regs.py). A DUT profile (tb/duts) states
another design's register map; :func:`host_map` turns either into one :class:`HostMap`, the
only thing the program sequence (tb/uvm/seq_lib/vseq.py), the host's register sequences
(tb/uvm/agents/host.py) and the watchers ask. ``vta`` is rtl/ itself and keeps regs.py's map, so
its runs do not change; any other profile runs through the generated wrapper
(tb/launch/simbuild.py) and has none of rtl/'s status words, work counters or white-box checkers.
A netlist of rtl/ (``netlist:CONFIG``, tb/gate) is built like any other profile, but keeps
rtl/'s registers: its map is rtl/'s, without the white-box checkers (``probes``), which read
internal nets the netlist does not keep.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from models.genlib.restrict import Limits
from tb.duts.netlist import is_profile_file
from tb.rules.axi_codes import AXI_RULES
from tb.rules.regs import (
    BASE_REGS,
    COUNTERS,
    CTRL,
    CYCLES,
    DONE,
    ERROR,
    INSN_ADDR,
    INSN_COUNT,
    PROGRESS,
    START,
)

if TYPE_CHECKING:
    from tb.duts.profile import Profile

#: The profile of rtl/ (tb/duts/vta/profile.yaml): the design the testbench was written for.
NATIVE = "vta"  # tb.duts.profile.DEFAULT_PROFILE (not imported: it loads pyslang)
#: How a netlist of rtl/ is named as a DUT (tb/duts/netlist.py: netlist:CONFIG[:SCRIPT]).
NETLIST = "netlist:"
#: The progress figure of a foreign DUT: data beats on the memory port (vta_tb_top's tb_beats).
BEATS = "BUS_BEATS"


@dataclass(frozen=True)
class HostMap:
    """The registers a program job uses, at this DUT's offsets.

    ``pointers`` holds INSN_ADDR and the five bases (``insn``, ``uop``, ...); with
    ``pointer_width`` 64 each is a low word at its offset and a high word 4 bytes above.
    ``combine`` says how the DUT forms a DRAM address from a base and an instruction's
    offset ("add" as spec section 5 says, or "or"). ``error`` is CTRL's ERROR bit (0 for a DUT
    without one). ``counters`` are read after DONE into the job's record; ``progress`` are the
    registers whose movement tells the watchdog the DUT is alive (empty: the bus's beats);
    ``counts`` the counters a profile documents as the sum of model counters. ``native``:
    the map, status words and counters are rtl/'s (rtl/ and its netlists); ``probes``: the
    ordering and liveness checkers are bound to the DUT's internal nets (rtl/ only).
    """

    native: bool
    ctrl: int
    start: int
    done_offset: int
    done: int
    error: int
    cycles: int
    insn_count: int
    pointers: dict[str, int]
    pointer_width: int = 32
    combine: str = "add"
    counters: dict[str, int] = field(default_factory=dict)
    progress: dict[str, int] = field(default_factory=dict)
    counts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    probes: bool = False

    def pointer_writes(self, name: str, value: int) -> list[tuple[int, int]]:
        """(offset, word) writes that set pointer ``name`` to the byte address ``value``."""
        offset = self.pointers[name]
        if self.pointer_width == 32:
            return [(offset, value & 0xFFFF_FFFF)]
        return [(offset, value & 0xFFFF_FFFF), (offset + 4, value >> 32 & 0xFFFF_FFFF)]


NATIVE_MAP = HostMap(True, CTRL, START, CTRL, DONE, ERROR, CYCLES, INSN_COUNT,
                     {"insn": INSN_ADDR, **BASE_REGS}, counters=COUNTERS, progress=PROGRESS, probes=True)


def dut_argument(text: str) -> str:
    """A ``--dut`` argument as every process of the run reads it: a profile's YAML path made
    absolute (the simulator runs in its build directory, where a relative path names nothing),
    a name (``vta``, ``upstream-chisel``, ``netlist:CONFIG``) as given."""
    return str(Path(text).resolve()) if is_profile_file(text) else text


def is_native(spec: str) -> bool:
    """True for rtl/'s own profile, by name (a path to another YAML file is foreign)."""
    return spec == NATIVE


@cache
def profile_of(spec: str) -> "Profile":
    """The checked profile (cached: reading one elaborates the DUT's sources; imported here
    so that runs of rtl/ never load the elaborator). A netlist (``netlist:CONFIG``) is built
    first if it is missing or stale (tb/gate/build.py), so every entry point, a repro
    command on a fresh checkout included, finds it."""
    from tb.duts.profile import load
    if spec.startswith(NETLIST):
        from tb.duts.netlist import parse
        from tb.gate.build import build
        build(parse(spec))
    return load(spec)


def netlist_of_rtl(spec: str) -> bool:
    """True for a netlist of rtl/ (its profile's ``netlist`` section): rtl/'s registers,
    no white-box checkers."""
    return not is_native(spec) and profile_of(spec).netlist is not None


def rtl_registers(spec: str) -> bool:
    """The DUT has rtl/'s register map, status words and counters: rtl/ or a netlist of it."""
    return is_native(spec) or netlist_of_rtl(spec)


def not_checked(spec: str) -> dict[str, str]:
    """The checks bound to rtl/'s internal nets that DUT ``spec`` cannot run, with the reason
    its profile gives (tb/duts/probes.py); empty for rtl/ and for a foreign DUT, whose
    reports name what rtl/-only claims they skip their own way (tb/plan/claims.py, tb/rules/reach.py)."""
    if not netlist_of_rtl(spec):
        return {}
    netlist = profile_of(spec).netlist
    assert netlist is not None
    return dict(netlist.not_checked)


def host_map(spec: str) -> HostMap:
    """The register map of DUT ``spec`` (a profile name or path)."""
    if is_native(spec):
        return NATIVE_MAP
    if netlist_of_rtl(spec):
        return replace(NATIVE_MAP, probes=False)
    r = profile_of(spec).registers
    return HostMap(False, r.control, 1 << r.start_bit, r.offset_of(r.done_register), 1 << r.done_bit,
                   0, r.cycles, r.insn_count, dict(r.pointers), r.pointer_width, r.base_combine,
                   counters=dict(r.extra), counts=dict(r.counts))


#: Protocol rules a profile's difference waives on the memory port: difference -> the rule's
#: code in tb/rtl/vta_tb_axi_check.v (tb/rules/axi_codes.py). Data checking goes on; each run
#: reports the waived findings (tb/plan/applicable.py: dut_report).
WAIVERS: dict[str, int] = {"protocol.4k-boundary": AXI_RULES["4k-crossing"]}


def waive_mask(spec: str) -> int:
    """vta_tb_fast's WAIVE_MEM for DUT ``spec``: bit r set for each rule its profile waives."""
    if is_native(spec):
        return 0
    return sum(1 << rule for name, rule in WAIVERS.items() if profile_of(spec).has(name))


def gen_limits(spec: str) -> Limits:
    """What random programs for DUT ``spec`` must leave out (models/genlib/restrict.py): its
    profile's difference names, ``bases-or`` if it ORs bases into addresses, and the micro-op
    entries beyond its buffer."""
    if is_native(spec):
        return Limits()
    p = profile_of(spec)
    names = {d.name for d in p.differences} | ({"bases-or"} if p.registers.base_combine == "or" else set())
    depth = next((d.limit for d in p.differences if d.name == "config.uop-buffer-depth"), None)
    return Limits(frozenset(names), depth or 0)
