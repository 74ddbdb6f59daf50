"""A counterexample as a short text trace: per cycle, the inputs the solver chose.

sby leaves each trace as a waveform (.vcd) and as a Yosys witness (.yw); the witness holds
exactly the free inputs per step, which is what a reader needs to replay the failure.
`yosys-witness display` prints it bit by bit; this turns that into one line per cycle with
each input in hex, followed by the violated assertions and their source lines.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tb.formal.sby import Check

ROW = re.compile(r"#(\d+) (\S+?)\[(\d+)(?::(\d+))?\] = ([01xz]+)")


def witness_steps(yw: Path, env: dict[str, str]) -> list[dict[str, str]]:
    """Inputs per step of a witness file, as {signal: hex value}; internal state left out."""
    out = subprocess.run(["yosys-witness", "display", str(yw)], env=env, capture_output=True, text=True)
    steps: list[dict[str, str]] = []
    for line in out.stdout.splitlines():
        m = ROW.search(line)
        if not m:
            continue
        step, name, bits = int(m.group(1)), m.group(2), m.group(5)
        if name.startswith("_witness_") or name == "clk" or "." in name or name.startswith("\\"):
            continue
        while len(steps) <= step:
            steps.append({})
        value = int(bits.replace("x", "0").replace("z", "0"), 2)
        steps[step][name] = f"{value:x}" if len(bits) > 1 else str(value)
    return steps


def text_trace(yw: Path, failed: list[Check], sources: dict[str, Path], env: dict[str, str]) -> str:
    """The trace as text: one line per cycle (changed inputs only after the first), then the failures."""
    lines: list[str] = []
    prev: dict[str, str] = {}
    for n, inputs in enumerate(witness_steps(yw, env)):
        shown = inputs if n == 0 else {k: v for k, v in inputs.items() if prev.get(k) != v}
        lines.append(
            f"cycle {n:3d}: "
            + (" ".join(f"{k}={v}" for k, v in sorted(shown.items())) or "(inputs unchanged)")
        )
        prev = inputs
    for c in failed:
        src = sources.get(c.file)
        text = src.read_text().splitlines()[c.line - 1].strip() if src and src.exists() else ""
        at = f" at cycle {c.failed_step}" if c.failed_step is not None else ""
        lines.append(f"assertion {c.label} fails{at}: {c.file}:{c.line}: {text}")
    return "\n".join(lines) + "\n"
