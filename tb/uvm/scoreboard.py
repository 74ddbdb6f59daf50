"""Scoreboard: final DRAM against the expected images, explained by models.compare.

Expected bytes come from the vector's ``expect`` when it has one, otherwise from the
golden model. Mismatches are reported with address, OUT element and lane, expected and
actual values and the STORE (index and disassembly) that should have written them. A
comparison of zero bytes is a failure: a test that checks nothing must not pass.
"""
from __future__ import annotations

from typing import Callable

from pyuvm import uvm_component

from models.compare import CompareReport, compare_images
from models.dram import Dram
from models.executor import ExecResult
from models.vector import Image, Vector

#: Mismatches listed in a failure message (the full count is always given).
REPORT_LIMIT = 8


class Scoreboard(uvm_component):
    """Compares after DONE; ``report(kind, message)`` records failures."""

    def check(self, vector: Vector, expect: list[Image], result: ExecResult | None,
              dram: Dram, report: Callable[[str, str], None]) -> CompareReport:
        cmp = compare_images(vector.config, expect, dram.read_bytes, result, vector.bases)
        if cmp.compared_bytes == 0:
            report("no-compare", "the scoreboard compared zero bytes: the vector expects no "
                   "output and the model writes none, so this run would prove nothing")
        elif not cmp.ok:
            report("scoreboard", "final DRAM differs from the expected images: "
                   + cmp.format(REPORT_LIMIT).replace("\n", "\n    "))
        return cmp
