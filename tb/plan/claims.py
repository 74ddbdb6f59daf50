"""What the register-map and launch flows hold a DUT to: rtl/'s whole table, or what a
foreign DUT's profile states.

rtl/ is held to every claim of rtl/README.md's register map and launch semantics, whose
facts are tb/rules/regs.py's table. A foreign DUT's profile (tb/duts, its ``registers``
section) states only where spec section 5's registers are: CTRL with its START and DONE bits,
CYCLES, INSN_COUNT, the pointers (32 or 64 bits), and further registers by name. What spec
section 5 says of those registers is checked on it (:data:`SPEC_CLAIMS`); what only
rtl/README.md says (:data:`RTL_CLAIMS`: its full table, status words, counters, launch rules
the spec does not state) is not, and :func:`view` names each such claim with the reason,
which the flow's result record carries (``not_checked``) and the run prints
(tb/plan/applicable.py: dut_report). A profile difference that states the DUT does otherwise
(tb/duts/differences.py) turns a claim off the same way, with the difference's reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from models.config import VtaConfig
from tb.plan.dutmap import profile_of, rtl_registers
from tb.rules.regs import REGISTERS

if TYPE_CHECKING:
    from tb.duts.profile import Profile

#: Claims spec section 5 makes of the registers a profile places, and the testbench's
#: assumptions a profile difference can deny: checked on every DUT.
SPEC_CLAIMS: dict[str, str] = {
    "read-write": "INSN_COUNT and the pointers (every word of a 64-bit one) store what is written",
    "no-alias": "a write changes only its own register",
    "unmapped": "an offset the map does not name reads 0 and ignores writes, with an OKAY response",
    "okay": "every access answers OKAY",
    "cycles-read-only": "CYCLES is read-only: a write does not change it",
    "done": "DONE is clear from a START until FINISH completes, then set",
    "cycles": "CYCLES counts from the launch to DONE and stops there, also after a relaunch",
    "byte-strobes": "a write changes exactly its strobed bytes (the testbench's assumption, "
                    "as rtl/ does; a profile states host.wstrb-ignored otherwise)",
    "w-first": "a write whose data comes before its address is taken (hostvar's timing w-first; "
               "the testbench's assumption, as rtl/ does; a profile states host.aw-before-w otherwise)",
}
#: Claims only rtl/README.md makes (its own table and launch rules): checked on rtl/ alone.
RTL_CLAIMS: dict[str, str] = {
    "reset-values": "every word offset reads its table value after reset",
    "read-only": "every read-only register of the table ignores writes, also when non-zero",
    "ctrl-writes": "a CTRL write's bits other than START change nothing (no write-1-to-clear); "
                   "a START whose byte lane 0 is not strobed does not launch",
    "running": "CTRL reads RUNNING (0x1) from an accepted START until FINISH completes",
    "start-when-quiescent": "a START while the accelerator is not quiescent is ignored",
    "start-clears": "an accepted START clears CYCLES, the counters, status words, INSN_IDX, "
                    "token counters and AXI_STATUS (the table's column 'at START')",
    "insn-count-high": "INSN_COUNT bits 31:28 are ignored: a count with them set behaves "
                       "exactly as its low 28 bits",
    "insn-count-zero": "a launch of INSN_COUNT 0 never sets DONE and leaves the accelerator "
                       "quiescent: the next START is accepted",
    "insn-idx": "INSN_IDX is the index of the instruction a module holds or last held since the launch",
    "status-words": "the status words describe every module's state while a program runs",
    "counters": "DISPATCHED and the *_INSNS counters add up to the program, the cycle counters "
                "equal models/timing.py, and a relaunch counts the same again",
    "error-sticky": "CTRL.ERROR and AXI_STATUS's error bits stay set until the next accepted START",
    "write-timing": "the port takes a write's address and data in either order or together, and "
                    "the next address while the last response waits",
}
#: The claims each flow checks on rtl/: a flow's record lists those of them (and the notes
#: on registers a profile states nothing about) not checked on a foreign DUT.
FLOW_CLAIMS: dict[str, tuple[str, ...]] = {
    "regmap": tuple(c for c in (*SPEC_CLAIMS, *RTL_CLAIMS) if c not in ("w-first", "write-timing")),
    "hostvar": ("read-write", "no-alias", "unmapped", "okay", "cycles-read-only", "byte-strobes",
                "w-first", "done", "cycles", "reset-values", "read-only", "ctrl-writes", "running",
                "write-timing"),
}
#: Why an rtl/-only claim is not checked on a foreign DUT.
RTL_ONLY = ("rtl/README.md's own claim: the profile's registers section states only where spec "
            "section 5's registers are")


@dataclass(frozen=True)
class RegView:
    """The registers the flows sweep on one DUT and the claims they check there.

    ``held``: words that store what is written, by name and offset; ``read_only``: words a
    write must not change; ``names``: every word offset the DUT maps (any other offset is
    unmapped); ``reset``: the value after reset of every offset (empty: not stated);
    ``not_checked``: claim -> why it is not checked on this DUT (empty for rtl/).
    """

    native: bool
    held: tuple[tuple[str, int], ...]
    read_only: tuple[tuple[str, int], ...]
    names: dict[int, str]
    reset: dict[int, int] = field(default_factory=dict)
    not_checked: dict[str, str] = field(default_factory=dict)

    def checks(self, claim: str) -> bool:
        """Whether the flows check ``claim`` (a key of SPEC_CLAIMS or RTL_CLAIMS) on this DUT."""
        if claim not in SPEC_CLAIMS and claim not in RTL_CLAIMS:
            raise KeyError(f"no claim {claim!r}")
        return claim not in self.not_checked

    def label(self, offset: int) -> str:
        name = self.names.get(offset)
        return f"{name} ({offset:#06x})" if name else f"unmapped offset {offset:#06x}"

    def unchecked(self, flow: str) -> dict[str, str]:
        """The claims of ``flow`` (a key of FLOW_CLAIMS) not checked on this DUT, with the
        reason, and the notes on registers its profile states nothing about."""
        return {claim: why for claim, why in self.not_checked.items()
                if claim in FLOW_CLAIMS[flow] or (claim not in SPEC_CLAIMS and claim not in RTL_CLAIMS)}

    @property
    def spare(self) -> int:
        """An unmapped offset: the word after the map."""
        return max(self.names) + 4

    def reset_value(self, offset: int) -> int | None:
        """The value ``offset`` reads after reset, None where the DUT's map does not say."""
        if not self.reset:
            return None
        return self.reset.get(offset, 0)


def native_view(cfg: VtaConfig) -> RegView:
    """rtl/: every register of tb/rules/regs.py, every claim."""
    return RegView(True, tuple((r.name, r.offset) for r in REGISTERS if r.holds_writes),
                   tuple((r.name, r.offset) for r in REGISTERS if r.access == "R"),
                   {r.offset: r.name for r in REGISTERS},
                   {r.offset: r.reset_value(cfg) for r in REGISTERS})


def foreign_view(profile: "Profile") -> RegView:
    """A foreign DUT: the registers its profile places, the spec's claims about them; every
    rtl/-only claim and each one a profile difference contradicts listed as not checked."""
    regs = profile.registers
    names = {"insn": "INSN_ADDR", **{b: f"{b.upper()}_BASE" for b in ("uop", "inp", "wgt", "acc", "out")}}
    held = [("INSN_COUNT", regs.insn_count)]
    for key, offset in regs.pointers.items():
        if regs.pointer_width == 32:
            held.append((names[key], offset))
        else:
            held += [(f"{names[key]}[31:0]", offset), (f"{names[key]}[63:32]", offset + 4)]
    not_checked = dict.fromkeys(RTL_CLAIMS, RTL_ONLY)
    for claim, difference in (("byte-strobes", "host.wstrb-ignored"), ("w-first", "host.aw-before-w"),
                              ("cycles-read-only", "host.cycles-writable")):
        reason = next((d.reason for d in profile.differences if d.name == difference), None)
        if reason is not None:
            not_checked[claim] = f"{difference}: {' '.join(reason.split())}"
    extra = {offset: name for name, offset in regs.extra.items()}
    if extra:
        not_checked["extra-registers"] = (f"the profile states no access, value after reset or "
                                          f"launch behaviour of {', '.join(extra.values())}: they are "
                                          f"only read (after DONE, what `counts` states is checked)")
    read_only = () if "cycles-read-only" in not_checked else (("CYCLES", regs.cycles),)
    return RegView(False, tuple(held), read_only,
                   {regs.control: "CTRL", regs.cycles: "CYCLES", **dict((o, n) for n, o in held), **extra},
                   not_checked=not_checked)


def view(spec: str, cfg: VtaConfig) -> RegView:
    """The view of DUT ``spec`` (a profile name or path; ``vta`` is rtl/, and a netlist of rtl/
    has its registers: every claim)."""
    return native_view(cfg) if rtl_registers(spec) else foreign_view(profile_of(spec))

