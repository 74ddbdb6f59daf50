"""The DUT's own assertions, read from the simulator's log, as a finding of the running job.

Verilog generated from Chisel prints ``Assertion failed[: message]`` and the Scala line
(``at FetchVME64.scala:161 assert(...)``) on stderr in every cycle an ``assert`` of the
design does not hold, and goes on running: the generator compiles its stops out. The
simulator's stderr is the plan's ``sim.log`` (tb/launch/simbuild.py passes its path as
VTA_SIM_LOG), written as the cycles run, so what the log gained while a job ran is what
the design reported about that job. :class:`DutLog` reads only those new bytes; the fast
mode's watcher asks it on each wake and the plan asks it again when the job ends, so the
finding names the design's own diagnosis (for example an instruction its fetch does not
decode) rather than only the watchdog's "no progress".
"""
from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

from tb.rules.failure import Failure

#: One message: the first line (with its optional text) and the Scala location below it.
MESSAGE = re.compile(r"Assertion failed(?::\s*(?P<text>[^\n]*))?\n\s*at (?P<where>[\w./-]+:\d+)")
#: Bytes read at most per check: a design that asserts every cycle writes ~100 B a cycle.
READ_LIMIT = 1 << 20


class DutLog:
    """The part of the simulator's log written since the last look."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.offset = 0

    @classmethod
    def from_env(cls) -> "DutLog":
        """The log the runner named (none: a simulator run outside tb/launch/simbuild.py)."""
        name = os.environ.get("VTA_SIM_LOG")
        return cls(Path(name) if name else None)

    def start(self) -> None:
        """Skip what earlier jobs wrote."""
        self.offset = self._size()

    def _size(self) -> int:
        try:
            return self.path.stat().st_size if self.path else 0
        except OSError:
            return 0

    def fired(self) -> str:
        """The message of :meth:`finding` ('' if none)."""
        found = self.finding()
        return found.message if found else ""

    def finding(self) -> Failure | None:
        """The assertions the design printed since the last call, as one ``assertion``
        failure (None if none): the first message and its Scala line (the rule), how often it
        was printed, and the others."""
        size = self._size()
        if self.path is None or size <= self.offset:
            return None
        with self.path.open("rb") as f:
            f.seek(self.offset)
            text = f.read(min(size - self.offset, READ_LIMIT)).decode(errors="replace")
        more = "+" if size - self.offset > READ_LIMIT else ""
        self.offset = size
        seen = Counter((m["where"], m["text"] or "") for m in MESSAGE.finditer(text))
        if not seen:
            return None
        (where, msg), times = next(iter(seen.items()))
        what = f"'{msg}' " if msg else ""
        others = "; also " + ", ".join(w for w, _ in list(seen)[1:]) if len(seen) > 1 else ""
        return Failure("assertion", f"the DUT's own assertion {what}at {where} failed ({times}{more} "
                                    f"message(s) in {self.path.name}){others}", rule=where)
