"""Scoreboard: final DRAM against the expected images, and the RTL's counters against the
model's prediction.

Expected bytes come from the vector's ``expect`` when it has one, otherwise from the
golden model. Mismatches are reported with address, OUT element and lane, expected and
actual values and the STORE (index and disassembly) that should have written them. A
comparison of zero bytes is a failure: a test that checks nothing must not pass.

The counters that count work rather than time (micro-ops, bytes read and written,
instructions dispatched and completed per module: models/predict.py) must equal the
model's values on every completed program; a design that gets the data right while
skipping or repeating work shows up here (verdict kind ``counter``). The cycle counters,
which the model cannot predict, must keep the relations of tb/rules/counter_rules.py. A
foreign DUT's counters are held to the model where its profile says what they count
(``registers.extra.NAME.counts``: :func:`count_mismatches`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from pyuvm import ConfigDB, uvm_component

from models.compare import CompareReport, compare_images
from models.dram import Dram
from tb.rules.failure import form_of
from tb.uvm.checkers.verdict import Verdict

if TYPE_CHECKING:
    from tb.uvm.context import JobContext

#: Mismatches listed in a failure message (the full count is always given).
REPORT_LIMIT = 8


def count_mismatches(counts: dict[str, tuple[str, ...]], want: dict[str, int],
                     got: dict[str, int]) -> list[str]:
    """A DUT's counters (``got``) that are not the sum of the model counters (``want``) its
    profile says they count, one sentence each."""
    return list(counts_wrong(counts, want, got).values())


def counts_wrong(counts: dict[str, tuple[str, ...]], want: dict[str, int],
                 got: dict[str, int]) -> dict[str, str]:
    """A DUT's counters (``got``) that are not the sum of the model counters (``want``) its
    profile says they count: counter name -> one sentence."""
    out = {}
    for name, parts in counts.items():
        expected = sum(want[p] for p in parts)
        if got[name] != expected:
            out[name] = f"{name} reads {got[name]}, the model predicts {expected} ({' + '.join(parts)})"
    return out


def work_rule(names: Iterable[str]) -> str:
    """The rule of a work-counter mismatch: the counters that differ."""
    return "work:" + ",".join(sorted(set(names)))


def mismatch_fields(cmp: CompareReport) -> dict[str, str]:
    """The scoreboard failure's fields from its first mismatching byte: a byte a STORE wrote
    (module, the STORE's form), one below the OUT base, or one no STORE of the model wrote."""
    first = cmp.mismatches[0] if cmp.mismatches else None
    if first is not None and first.store_index is not None:
        return {"module": "store", "rule": "out-mismatch", "form": form_of(first.store_disasm or "")}
    if first is not None and first.element is None:
        return {"rule": "below-out-base"}
    return {"rule": "unwritten-by-model"}


class Scoreboard(uvm_component):
    """Compares after DONE; failures go to the verdict."""

    def build_phase(self) -> None:
        self.verdict: Verdict = ConfigDB().get(self, "", "VERDICT")

    def check(self, ctx: "JobContext", dram: Dram) -> CompareReport:
        """The job's expected images (``ctx.expect``) against ``dram``."""
        report = self.verdict.fail
        v = ctx.vector
        cmp = compare_images(v.config, ctx.expect, dram.read_bytes, ctx.result, v.bases)
        if cmp.compared_bytes == 0:
            report("no-compare", "the scoreboard compared zero bytes: the vector expects no "
                   "output and the model writes none, so this run would prove nothing")
        elif not cmp.ok:
            report("scoreboard", "final DRAM differs from the expected images: "
                   + cmp.format(REPORT_LIMIT).replace("\n", "\n    "), **mismatch_fields(cmp))
        return cmp

    def check_counters(self, ctx: "JobContext", counters: dict[str, int], cycles: int) -> None:
        """The RTL's counters after DONE against ``ctx.counters``, then the relations among
        the cycle counters (both skipped if the program is not well-formed)."""
        want = ctx.counters
        if want is None:
            return
        wrong = {name: f"{name} reads {counters[name]}, the model predicts {value}"
                 for name, value in want.items() if counters[name] != value}
        if wrong:
            self.verdict.fail("counter", "the RTL's counters after DONE differ from the model "
                              "(models/predict.py): " + "; ".join(wrong.values()), rule=work_rule(wrong))
        broken = ctx.counter_violations(counters, cycles)
        if broken:
            self.verdict.fail("counter", "the RTL's cycle counters after DONE break their "
                              "relations (rtl/README.md, Counter relations): " + "; ".join(broken),
                              rule="relations")

    def check_counts(self, ctx: "JobContext", counts: dict[str, tuple[str, ...]],
                     counters: dict[str, int]) -> None:
        """A foreign DUT's counters after DONE that its profile documents as counts of work."""
        if ctx.counters is None or not counts:
            return
        wrong = counts_wrong(counts, ctx.counters, counters)
        if wrong:
            self.verdict.fail("counter", "the DUT's counters after DONE differ from the model "
                              "(its profile's registers.extra counts): " + "; ".join(wrong.values()),
                              rule=work_rule(wrong))
