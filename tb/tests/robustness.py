"""The README's robustness table, counted from the tests that try each bad input and fault.

    python -m tb.tests.robustness            # print the table
    python -m tb.tests.robustness --write    # rewrite it in README.md

Sources: the bad-input tables of the model's and the testbench's command lines
(models/tests/test_bad_input.py, tb/tests/test_bad_input.py), the DUT profiles' rules
(tb/tests/test_duts.py), the negative tests' faults, the broken synthesis (tb/tests/test_gate.py)
(tb/tests/test_uvm_negative.py, run on both simulators in both testbench modes) and the long-run tests
(tb/tests/test_uvm_watchdog.py). tb/tests/test_robustness_table.py fails when the README's
table differs from this count, so the README cannot claim a class nobody tests.
"""
from __future__ import annotations

import sys
from collections import Counter

from models.tests import test_bad_input as model_inputs
from tb.breaks import BREAKS
from tb.paths import ROOT, SIMS
from tb.plan.testbench import MODES
from tb.tests import test_bad_input as tb_inputs
from tb.tests import test_duts as duts
from tb.tests import test_gate as gate
from tb.tests import test_uvm_negative as negative
from tb.tests import test_uvm_watchdog as watchdog

README = ROOT / "README.md"
BEGIN, END = "<!-- robustness-table:begin -->", "<!-- robustness-table:end -->"
OUTCOME = {2: "one-line error naming it, exit 2", 1: "the finding reported, exit 1",
           0: "accepted (controls: the valid neighbour of a bad input)"}
#: The outcome of a class whose exit status means something else than OUTCOME says.
ERROR_ROW = "an ERROR row naming it, the rest of the run goes on, exit 1"
OUTCOME_OF = {(tb_inputs.SIDE, 1): ERROR_ROW, (tb_inputs.REFUSED, 1): ERROR_ROW,
              (model_inputs.READ_PAST, 1): "the result compared with the zeros, a mismatch exits 1",
              (model_inputs.READ_PAST, 0): "accepted, the bytes past the image read as 0"}


def outcome(cls: str, code: int) -> str:
    return OUTCOME_OF.get((cls, code), OUTCOME[code])


def rows() -> list[tuple[str, int, str]]:
    """(class, how many are tried, outcome) in table order."""
    out: list[tuple[str, int, str]] = []
    cases = [*model_inputs.CASES, *tb_inputs.CASES, *(c for c, _ in tb_inputs.ENV_CASES)]
    by_class: dict[str, Counter[int]] = {}
    for c in cases:
        by_class.setdefault(c.cls, Counter())[c.exit] += 1
    for cls, codes in by_class.items():
        if len(codes) == 1:
            text = outcome(cls, next(iter(codes)))
        else:
            text = "; ".join(f"{outcome(cls, code)} ({n})" for code, n in sorted(codes.items(), reverse=True))
        out.append((cls, sum(codes.values()), text))
    out.append(("DUT profile: invalid", len(duts.BAD) + len(gate.BAD_NETLIST_PROFILES), OUTCOME[2]))
    faults: Counter[str] = Counter()
    for name, (kind, _) in negative.EXPECTED.items():
        faults[kind] += (len(SIMS) if name not in negative.ICARUS_ONLY else 1) * len(MODES)
    out += [(f"injected fault caught by the {kind} checker", n, f"detected: {kind}")
            for kind, n in faults.items()]
    out += [(cls, n, outcome) for cls, (n, outcome) in watchdog.TRIED.items()]
    out.append(("rtl/ built with a test-only break (tb/breaks.py)", len(BREAKS),
                "detected: its make sim check, the named checker first (tb/tests/test_breaks.py)"))
    out.append(("gate-level netlist from a deliberately broken synthesis script (tb/gate/scripts.py: broken)",
                len(gate.SMOKE_JOBS), "detected: scoreboard, every smoke vector (tb/tests/test_gate.py)"))
    return out


def table() -> str:
    lines = ["| class of bad input or fault | tried by the tests | outcome |", "|---|---|---|"]
    data = rows()
    lines += [f"| {cls} | {n} | {outcome} |" for cls, n, outcome in data]
    lines.append(f"| **all** | **{sum(n for _, n, _ in data)}** | **0 tracebacks, 0 hangs, "
                 f"0 silent passes** |")
    return "\n".join(lines)


def readme_section() -> str:
    text = README.read_text()
    return text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip()


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        text = README.read_text()
        start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
        README.write_text(text[:start] + "\n" + table() + "\n" + text[end:])
    print(table())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
