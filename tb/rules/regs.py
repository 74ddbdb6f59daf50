"""The RTL's register map (spec section 5, and this design's own words from 0x24 on): one table.

:data:`REGISTERS` holds every register once: offset, name, access, meaning, value after
reset and bit fields. Everything else derives from it: the offsets the testbench uses
(CTRL, BASE_REGS, COUNTERS, PROGRESS, ...), the CTRL bits, the watchdog's decoding of the
status words (tb/uvm/env/status.py), every expectation of the register-map flow
(tb/uvm/seq_lib/regmap.py: RegMapSeq sweeps every word offset against this table), and the register
table of rtl/README.md, generated between its ``register-map`` markers::

    python -m tb.rules.regs                  # print the README section
    python -m tb.rules.regs --write-readme   # rewrite it in rtl/README.md

tb/tests/test_regs.py fails when the README's section differs from the table.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from models.config import VtaConfig
from models.spec import MODULES, TOKEN_QUEUES  # TOKENS holds one byte per queue, in this order


@dataclass(frozen=True)
class Field:
    """Bits [lsb + width - 1 : lsb] of a register.

    ``values`` names the field's values in order (a phase, say); ``waits_for`` (status
    words) says what the module waits for while the bit is set; ``reset`` is the field's
    value after reset: a number, or the name of the configuration key it reflects.
    """

    name: str
    lsb: int
    width: int = 1
    meaning: str = ""
    values: tuple[str, ...] = ()
    waits_for: str = ""
    reset: int | str = 0

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lsb

    def get(self, word: int) -> int:
        return word >> self.lsb & ((1 << self.width) - 1)

    def put(self, value: int) -> int:
        if not 0 <= value < 1 << self.width:
            raise ValueError(f"field {self.name}: {value} does not fit in {self.width} bits")
        return value << self.lsb

    def bits(self) -> str:
        msb = self.lsb + self.width - 1
        return f"[{msb}:{self.lsb}]" if self.width > 1 else f"[{self.lsb}]"

    def describe(self) -> str:
        text = self.meaning or f"waits for {self.waits_for}"
        if self.values:
            text += " (" + ", ".join(f"{n} {v}" for n, v in enumerate(self.values)) + ")"
        return f"{self.bits()} {text}"


@dataclass(frozen=True)
class Register:
    """One 32-bit register at a byte offset of the AXI4-Lite control port.

    ``access`` is "R/W" (a write is stored, byte strobes apply; with ``write_fields`` a write
    is a command instead, acting through those bits and ignoring every other bit, and reads
    show ``fields``) or "R" (writes are ignored). ``kind``: "host" (spec section 5), "counter"
    (read after DONE into each result record), "status" (the live state the watchdog decodes)
    or "info" (build parameters). ``progress``: the counter moves whenever the DUT makes
    progress (the watchdog's stall window). ``ignored``: bits of an R/W register that read
    back as written but that the design does not act on. ``at_start``: what an accepted START
    does to the register: "kept", "cleared" (it reads 0 until the new program moves it), or
    the name of the one read field it sets (the rest cleared).
    """

    offset: int
    name: str
    access: str
    kind: str
    meaning: str
    fields: tuple[Field, ...] = ()
    write_fields: tuple[Field, ...] = ()
    progress: bool = False
    ignored: tuple[Field, ...] = ()
    at_start: str = "kept"

    @property
    def holds_writes(self) -> bool:
        """A write is stored and reads back (through the byte strobes)."""
        return self.access == "R/W" and not self.write_fields

    def reset_value(self, cfg: VtaConfig) -> int:
        """The value after reset (and before any launch) on a build of ``cfg``."""
        return sum(f.put(cfg.values[f.reset] if isinstance(f.reset, str) else f.reset)
                   for f in self.fields)

    def field(self, name: str) -> Field:
        for f in (*self.fields, *self.write_fields, *self.ignored):
            if f.name == name:
                return f
        raise KeyError(f"{self.name} has no field {name!r}")

    @property
    def start_value(self) -> int | None:
        """What the register reads right after an accepted START that runs nothing
        (INSN_COUNT 0), None for a register the START keeps."""
        if self.at_start == "kept":
            return None
        return 0 if self.at_start == "cleared" else self.field(self.at_start).mask


_PHASES = ("idle", "popping tokens", "executing", "pushing tokens")
_EXECUTING = "executing (engine or pipeline busy)"


def _module_status(waits: tuple[Field, ...], extra: tuple[Field, ...] = ()) -> tuple[Field, ...]:
    """The fields of a module's status word: the shared ones, then what it may wait for."""
    return (Field("busy", 0, meaning="holds an instruction"),
            Field("phase", 1, 3, "phase", values=_PHASES),
            Field("opcode", 4, 3, "opcode"),
            Field("memory_type", 7, 3, "memory type (ALU: alu_opcode)"),
            *waits, *extra)


def _count(name: str, offset: int, meaning: str, progress: bool = False) -> Register:
    return Register(offset, name, "R", "counter", meaning, progress=progress, at_start="cleared")


_EXEC = "cycles compute executes {} (after its pops, before its pushes)"

#: The register map, in offset order. Offsets from FIRST_UNMAPPED on read 0 and ignore writes.
REGISTERS: tuple[Register, ...] = (
    Register(0x00, "CTRL", "R/W", "host", "control and status of a launch; after an error-free "
             "completion CTRL reads 0x2",
             fields=(Field("RUNNING", 0, meaning="RUNNING: START accepted, FINISH not yet done"),
                     Field("DONE", 1, meaning="DONE: FINISH completed (cleared by START)"),
                     Field("ERROR", 2, meaning="ERROR: an AXI response since the launch was not "
                           "OKAY (see AXI error responses)")),
             write_fields=(Field("START", 0, meaning="START: launch, accepted only while quiescent "
                                 "(see Launch semantics)"),),
             at_start="RUNNING"),
    Register(0x04, "CYCLES", "R", "host", "clock cycles from launch to DONE (stops at DONE)",
             at_start="cleared"),
    Register(0x08, "INSN_COUNT", "R/W", "host", "instructions to fetch",
             ignored=(Field("high", 28, 4, "read back as written and ignored: a count with them "
                            "set behaves exactly as its low 28 bits (16*count must fit 32 bits)"),)),
    Register(0x0C, "INSN_ADDR", "R/W", "host", "byte address of the first instruction (any alignment)"),
    *(Register(0x10 + 4 * n, f"{base}_BASE", "R/W", "host",
               f"byte base added to DRAM addresses of memory type {base}"
               + (" and ACC_8BIT" if base == "ACC" else "") + "; any alignment")
      for n, base in enumerate(("UOP", "INP", "WGT", "ACC", "OUT"))),
    _count("GEMM_UOPS", 0x24, "GEMM micro-ops executed (reset micro-ops included)", progress=True),
    _count("ALU_UOPS", 0x28, "ALU micro-ops executed", progress=True),
    _count("RD_BYTES", 0x2C, "bytes received on R (whole beats)", progress=True),
    _count("WR_BYTES", 0x30, "bytes written (strobed bytes of accepted W beats)", progress=True),
    _count("FETCH_BUSY", 0x34, "cycles fetch has instructions left to dispatch"),
    *(_count(f"{m.upper()}_BUSY", 0x38 + 4 * n, f"cycles the {m} module holds an instruction "
             f"(in any phase)") for n, m in enumerate(MODULES)),
    _count("FETCH_STALL", 0x44, "cycles an instruction waits for room in a full command queue"),
    *(_count(f"{m.upper()}_STALL", 0x48 + 4 * n, f"cycles the {m} module waits to pop an empty "
             f"token counter or to push into a full one") for n, m in enumerate(MODULES)),
    _count("DISPATCHED", 0x54, "instructions dispatched by fetch (also: program index of the "
           "next one)", progress=True),
    *(_count(f"{m.upper()}_INSNS", 0x58 + 4 * n, f"instructions the {m} module completed "
             f"(tokens pushed)", progress=True) for n, m in enumerate(MODULES)),
    Register(0x64, "FETCH_STATUS", "R", "status", "fetch unit", at_start="cleared",
             fields=(Field("fetching", 0, meaning="fetching"),
                     Field("blocked", 1, meaning="blocked by a full command queue"),
                     Field("pending", 2, meaning="burst requests pending"),
                     Field("realigning", 3, meaning="realigning"),
                     Field("buffered", 8, 8, "beats buffered"),
                     Field("in_flight", 16, 9, "beats in flight"))),
    Register(0x68, "LOAD_STATUS", "R", "status", "load module", fields=_module_status((
        Field("pop_next", 11, waits_for="a C2L token"),
        Field("push_next", 13, waits_for="room in the L2C token queue"),
        Field("executing", 14, meaning=_EXECUTING,
              waits_for="its LOAD to finish (bus)"))), at_start="cleared"),
    Register(0x6C, "COMPUTE_STATUS", "R", "status", "compute module", fields=_module_status((
        Field("pop_prev", 10, waits_for="an L2C token"),
        Field("pop_next", 11, waits_for="an S2C token"),
        Field("push_prev", 12, waits_for="room in the C2L token queue"),
        Field("push_next", 13, waits_for="room in the C2S token queue"),
        Field("executing", 14, meaning=_EXECUTING,
              waits_for="its instruction to finish executing"))), at_start="cleared"),
    Register(0x70, "STORE_STATUS", "R", "status", "store module", fields=_module_status((
        Field("pop_prev", 10, waits_for="a C2S token"),
        Field("push_prev", 12, waits_for="room in the S2C token queue"),
        Field("executing", 14, meaning=_EXECUTING,
              waits_for="its STORE to finish (bus)"),
        Field("responses", 15, waits_for="write responses (B channel)")),
        (Field("bursts", 16, 8, "write bursts awaiting a response"),)), at_start="cleared"),
    *(Register(0x74 + 4 * n, f"{m.upper()}_INSN_IDX", "R", "status",
               f"program index (0-based) of the instruction the {m} module holds or last held "
               f"since the launch", at_start="cleared")
      for n, m in enumerate(MODULES)),
    Register(0x80, "TOKENS", "R", "status", "dependency-token counts", at_start="cleared",
             fields=tuple(Field(q, 8 * n, 8, q) for n, q in enumerate(TOKEN_QUEUES))),
    Register(0x84, "QUEUES", "R", "status", "command-queue occupancy", at_start="cleared",
             fields=tuple(Field(m, 8 * n, 8, m) for n, m in enumerate(MODULES))),
    Register(0x88, "AXI_STATUS", "R", "status", "memory port; error bits sticky until the next launch",
             at_start="cleared", fields=(Field("reads", 0, 8, "read bursts in flight"),
                     Field("writes", 8, 8, "write bursts awaiting B"),
                     Field("write_error", 30, meaning="a B response was not OKAY"),
                     Field("read_error", 31, meaning="an R beat was not OKAY"))),
    Register(0x8C, "HW_INFO", "R", "info", "build parameters",
             fields=(Field("version", 0, 4, "version 1", reset=1),
                     *(Field(key, lsb, width, key, reset=key) for key, lsb, width in (
                         ("LOG_BATCH", 4, 4), ("LOG_BLOCK", 8, 4), ("LOG_BUS_WIDTH", 12, 4),
                         ("CMD_QUEUE_DEPTH", 16, 8), ("TOKEN_QUEUE_DEPTH", 24, 8))))),
    _count("GEMM_EXEC", 0x90, _EXEC.format("a GEMM")),
    _count("ALU_EXEC", 0x94, _EXEC.format("an ALU")),
    _count("CLOAD_EXEC", 0x98, _EXEC.format("its LOAD of UOP/ACC/ACC_8BIT")),
    _count("LOAD_EXEC", 0x9C, "cycles the load module executes a LOAD"),
    _count("STORE_EXEC", 0xA0, "cycles the store module executes a STORE (until its last write "
           "response)"),
)

BY_NAME = {r.name: r for r in REGISTERS}
BY_OFFSET = {r.offset: r for r in REGISTERS}
#: First offset past the map: everything from here on is unmapped.
FIRST_UNMAPPED = max(BY_OFFSET) + 4
#: The control port decodes awaddr/araddr[15:2]: the highest word offset.
LAST_OFFSET = 0xFFFC

# --- the offsets and bits the testbench uses, by name ------------------------------------
CTRL, CYCLES = BY_NAME["CTRL"].offset, BY_NAME["CYCLES"].offset
INSN_COUNT, INSN_ADDR = BY_NAME["INSN_COUNT"].offset, BY_NAME["INSN_ADDR"].offset
BASE_REGS = {r.name.removesuffix("_BASE").lower(): r.offset for r in REGISTERS if r.name.endswith("_BASE")}
#: CTRL bits: write START; read RUNNING, DONE and ERROR.
START = BY_NAME["CTRL"].field("START").mask
RUNNING, DONE, ERROR = (BY_NAME["CTRL"].field(n).mask for n in ("RUNNING", "DONE", "ERROR"))

DISPATCHED = BY_NAME["DISPATCHED"].offset
INSNS_DONE = {m: BY_NAME[f"{m.upper()}_INSNS"].offset for m in MODULES}
FETCH_STATUS = BY_NAME["FETCH_STATUS"].offset
STATUS = {m: BY_NAME[f"{m.upper()}_STATUS"].offset for m in MODULES}
INSN_IDX = {m: BY_NAME[f"{m.upper()}_INSN_IDX"].offset for m in MODULES}
TOKENS, QUEUES = BY_NAME["TOKENS"].offset, BY_NAME["QUEUES"].offset
AXI_STATUS, HW_INFO = BY_NAME["AXI_STATUS"].offset, BY_NAME["HW_INFO"].offset
#: Registers read after DONE into each passing program's result record (``result["counters"]``,
#: by name): the performance counters, cleared by an accepted START, and HW_INFO.
COUNTERS = {r.name: r.offset for r in REGISTERS if r.kind in ("counter", "info")}
#: Counters that move whenever the DUT makes progress (the watchdog's stall window):
#: instructions dispatched and completed, micro-ops executed, bytes read and written.
PROGRESS = {r.name: r.offset for r in REGISTERS if r.progress}
#: Status words the watchdog reads and decodes (tb/uvm/env/status.py).
STATUS_WORDS = tuple(r.offset for r in REGISTERS if r.kind == "status")


# --- the README section -------------------------------------------------------------------
README = Path(__file__).resolve().parents[2] / "rtl" / "README.md"
BEGIN, END = "<!-- register-map:begin -->", "<!-- register-map:end -->"


def _meaning(r: Register) -> str:
    parts = [r.meaning]
    if r.write_fields:
        parts.append("write: " + ", ".join(f.describe() for f in r.write_fields))
        parts.append("read: " + ", ".join(f.describe() for f in r.fields))
    elif r.fields:
        parts.append(", ".join(f.describe() for f in r.fields))
    parts += [f.describe() for f in r.ignored]
    return "; ".join(parts)


def _at_start(r: Register) -> str:
    value = r.start_value
    return "kept" if value is None else f"0x{value:X}"


def _reset(r: Register) -> str:
    if any(isinstance(f.reset, str) for f in r.fields):
        return "build parameters"
    return f"0x{sum(f.put(f.reset) for f in r.fields if isinstance(f.reset, int)):X}"


def readme_table() -> str:
    """The register map as the Markdown section between rtl/README.md's markers."""
    lines = ["| offset | name | access | after reset | at START | meaning |", "|---|---|---|---|---|---|"]
    lines += [f"| 0x{r.offset:02X} | {r.name} | {r.access} | {_reset(r)} | {_at_start(r)} | {_meaning(r)} |"
              for r in REGISTERS]
    lines += ["", f"Offsets 0x{FIRST_UNMAPPED:02X} to 0x{LAST_OFFSET:X} are unmapped: they read 0 and "
              "ignore writes. Every response is OKAY; byte strobes apply to every R/W register; "
              "a write to a read-only register, or a CTRL write's bits other than START, changes "
              "nothing. \"at START\": what the register reads right after an accepted START (see "
              "Launch semantics): \"kept\" if the START does not change it, else the value it "
              "is cleared to (counters then count the new program). This section is generated "
              "from the table in `tb/rules/regs.py` (`python -m tb.rules.regs "
              "--write-readme`), against which the testbench's register-map flow checks the RTL "
              "at every word offset."]
    return "\n".join(lines)


def readme_section(path: Path = README) -> str:
    text = path.read_text()
    return text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip()


def main(argv: list[str]) -> int:
    if argv not in ([], ["--write-readme"]):
        print("usage: python -m tb.rules.regs [--write-readme]", file=sys.stderr)
        return 2
    if argv:
        text = README.read_text()
        start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
        README.write_text(text[:start] + "\n" + readme_table() + "\n" + text[end:])
    print(readme_table())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
