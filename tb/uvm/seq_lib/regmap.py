"""The register-map sweeps: every word offset against the DUT's register view.

Reports through the verdict as "register" failures; which claims of rtl/README.md's register
map each sequence checks is said in its docstring; on a foreign DUT only those its profile
states are checked (tb/plan/claims.py). Run by the register-map job (regmap_flow.py) from
reset and after a program, and by the reset flow (reset_mid.py) after each reset.
"""
from __future__ import annotations

from typing import Callable, Sequence

from tb.plan.claims import RegView
from tb.rules.regs import BY_OFFSET, CTRL, DONE, ERROR, LAST_OFFSET, REGISTERS, START
from tb.uvm.agents.host import RegSeq

#: Registers that store what is written (regs.py: access R/W, not a command register).
HELD = tuple(r for r in REGISTERS if r.holds_writes)


def sweep_offsets(held: Sequence[int]) -> tuple[int, ...]:
    """Word offsets the register-map flow sweeps: every one from 0x00 to 0x3FC (the map and
    what follows it), one per higher address bit (10..15) placed so that a decoder ignoring
    that bit would alias one of the ``held`` (R/W) offsets, and the last word of the port."""
    return (*range(0, 0x400, 4), *((1 << bit) | held[n % len(held)] for n, bit in enumerate(range(10, 16))),
            LAST_OFFSET)


#: rtl/'s sweep.
SWEEP = sweep_offsets([r.offset for r in HELD])
PATTERNS = (0xFFFFFFFF, 0xA5A5A5A5, 0x5A5A5A5A, 0x00000001, 0x80000000, 0x00000000)
#: Partial writes of the byte-strobe check: (first byte lane, bytes).
STROBES = ((0, 1), (1, 1), (2, 1), (3, 1), (2, 2))
#: Register-map mismatches reported before the sweep gives up (one broken decoder would
#: otherwise report every offset).
REPORT_LIMIT = 8


class _TooMany(Exception):
    """REPORT_LIMIT mismatches reported: stop the sweep."""


class RegMapSeq(RegSeq):
    """Every word offset of the sweep (:func:`sweep_offsets`) against the DUT's register view
    (tb/plan/claims.py: rtl/'s table, or what a foreign profile states).

    Claims checked (rtl/README.md, register map): after reset every offset reads its table
    value (0, HW_INFO the build's parameters; unmapped ones 0) [reset-values]; R/W registers
    read back every pattern, a distinct value each [read-write], and byte-strobed writes
    change only their lanes [byte-strobes]. A write to any other offset is not stored:
    read-only registers keep their value [read-only, cycles-read-only], a command register
    (CTRL) written without its command bits does nothing [ctrl-writes], unmapped offsets still
    read 0 [unmapped]; and no such write changes an R/W register [no-alias]. Every access
    must answer OKAY [okay]. Each problem is a "register" failure naming the offset, the
    register and the rule.
    """

    def __init__(self, name: str, regview: RegView, report: Callable[[str], None]) -> None:
        super().__init__(name)
        self.view = regview
        self.report = report
        self.reported = 0

    def problem(self, message: str) -> None:
        self.report(message)
        self.reported += 1
        if self.reported >= REPORT_LIMIT:
            self.report(f"register map: stopped after {REPORT_LIMIT} mismatches")
            raise _TooMany

    async def expect(self, addr: int, want: int | None, why: str) -> int:
        """Read ``addr``: OKAY, and ``want`` unless None; the value read."""
        item = await self.read(addr)
        if item.resp != 0:
            self.problem(f"read of {self.view.label(addr)} answered {item.resp} instead of OKAY ({why})")
        elif want is not None and item.data != want:
            self.problem(f"{self.view.label(addr)} reads {item.data:#010x}, expected {want:#010x} ({why})")
        return int(item.data)

    async def okay_write(self, addr: int, value: int, nbytes: int = 4) -> None:
        item = await self.write(addr, value, nbytes)
        if item.resp != 0:
            self.problem(f"write of {self.view.label(addr & ~3)} answered {item.resp} instead of OKAY")

    def ignored_write(self, addr: int) -> tuple[int, str] | None:
        """What to write to an offset that must not store it, and the rule that says so;
        None for a register the view states no write rule of (a foreign DUT's CTRL and
        extra registers: they are not written)."""
        if addr not in self.view.names:
            return 0xFFFFFFFF, "unmapped offsets read 0 and ignore writes"
        if any(offset == addr for _, offset in self.view.read_only):
            return 0xFFFFFFFF, f"{self.view.names[addr]} is read-only"
        reg = BY_OFFSET[addr] if self.view.native else None
        if reg is not None and reg.write_fields:
            command = sum(f.mask for f in reg.write_fields)
            return 0xFFFFFFFF & ~command, f"a write without the command bits {command:#x} does nothing"
        return None

    async def body(self) -> None:
        try:
            await self.sweep()
        except _TooMany:
            pass

    async def sweep(self) -> None:
        v = self.view
        offsets = sweep_offsets([offset for _, offset in v.held])
        for addr in offsets:
            info = v.native and addr in BY_OFFSET and BY_OFFSET[addr].kind == "info"
            await self.expect(addr, v.reset_value(addr) if addr in v.names else 0,
                              "after reset" + (", the build's parameters" if info else ""))
        for _, addr in v.held:
            for pattern in PATTERNS:
                await self.okay_write(addr, pattern)
                await self.expect(addr, pattern, f"read back {pattern:#x}")
        held = {addr: 0x11111111 * (n + 1) for n, (_, addr) in enumerate(v.held)}
        for addr, value in held.items():  # distinct values: no two registers alias
            await self.okay_write(addr, value)
        if v.checks("byte-strobes"):
            for addr in held:
                for lane, nbytes in STROBES:  # the complement of the lanes: a visible change
                    mask = (1 << 8 * nbytes) - 1
                    data = ~held[addr] >> 8 * lane & mask
                    await self.okay_write(addr + lane, data, nbytes)
                    held[addr] = held[addr] & ~(mask << 8 * lane) | data << 8 * lane
                    await self.expect(addr, held[addr], f"a {nbytes}-byte write at byte {lane} changes "
                                      f"only its byte lane(s)")
        for addr in offsets:
            write = None if addr in held else self.ignored_write(addr)
            if write is not None:
                before = await self.expect(addr, None, "before a write that must be ignored")
                await self.okay_write(addr, write[0])
                await self.expect(addr, before, write[1])
        for addr, value in held.items():
            await self.expect(addr, value, "unchanged by the writes to every other offset")


class ResetValuesSeq(RegMapSeq):
    """Every offset of SWEEP reads its reset value (a reset in mid-program must clear what
    the launch's own clearing would otherwise hide until the next START)."""

    async def sweep(self) -> None:
        for addr in SWEEP:
            await self.expect(addr, self.view.reset_value(addr), "right after a reset in mid-program")


class AfterRunSeq(RegMapSeq):
    """After a program ran and everything stood still (counters non-zero, DONE set): every
    unmapped offset of the sweep still reads 0, the RTL decodes no register the table does not
    have [unmapped]; every read-only register keeps its value under a write of its
    complement and of 0 (a register a write clears or sets shows only now, at reset it
    reads 0) [read-only, cycles-read-only]; and a CTRL write of every bit but START, or of
    DONE and ERROR alone, leaves CTRL as it was: DONE and ERROR are not write-1-to-clear and
    nothing launches [ctrl-writes]."""

    async def sweep(self) -> None:
        v = self.view
        for addr in sweep_offsets([offset for _, offset in v.held]):
            if addr not in v.names:
                await self.expect(addr, 0, "unmapped offsets read 0, also after a program ran")
        for name, addr in v.read_only:
            before = await self.expect(addr, None, "after a program ran")
            for value in (~before & 0xFFFFFFFF, 0):
                await self.okay_write(addr, value)
                await self.expect(addr, before, f"{name} is read-only, also when it is not 0: a "
                                  f"write of {value:#x} must not change it")
        if v.checks("ctrl-writes"):
            ctrl = await self.expect(CTRL, DONE, "after DONE")
            for value in (0xFFFFFFFF & ~START, DONE | ERROR):
                await self.okay_write(CTRL, value)
                await self.expect(CTRL, ctrl, f"a CTRL write of {value:#x} (no START) changes "
                                  f"nothing: DONE and ERROR are read-only")
