"""`make formal DUT=NAME`: the port-level AXI rules, as a bounded check, on a foreign DUT.

The module contracts of `make formal` are rtl/'s own; another design (a DUT profile,
tb/duts/NAME/profile.yaml) is held only to what its ports must do. Its netlist goes under
the whole-top harness (tb/rtl/formal/vta_formal_top.v with VTA_FORMAL_FOREIGN) through the
profile's generated wrapper (tb/duts/wrapper.py, module name vta_top): both ports watched
by the shared rules (tb/rtl/vta_axi_rules.vh), asserted on the DUT's side, assumed on the
host's and the memory's. One sby task, mode bmc with `abc bmc3`.

What is built, under build/ only (the netlist is never copied into the tree):
  <out>/src/<netlist>        the profile's sources with `$fwrite(...);` removed (generated Chisel
                             prints its assertions with $fwrite, which Yosys rejects; they
                             only print, so removing them changes no behaviour)
  <out>/src/vta_top_dut.v    the wrapper, module vta_top, vta_top's ports around the profile's top
The script: the design read plainly, the harness with -formal; flatten; `memory -nomap`
(Chisel's SyncReadMem/Mem: 69 in upstream-chisel); every memory of ABSTRACT_ENTRIES entries
or more (the scratchpads, which feed 256 GEMM multipliers, and the instruction queues) mapped
by tb/rtl/formal/vta_mem_abstract.v to its read ports alone, with free data that changes only
where the real memory's may (the counterpart of tb/rtl/formal/vta_ram.v for rtl/: what it
loses is data, which a program makes free anyway); the small ones (upstream: the VME command
queues, which hold burst addresses and lengths, and the read-tag arrays) mapped to registers,
exact; undriven bits free. No `prep`: its opt passes over the unabstracted netlist take
minutes; the first opt_clean after the abstraction drops the multipliers.

Findings: a BMC stops at the first failing assertion. Each failure is one finding (the rule,
the step, the text trace of tb/formal/trace.py, the .vcd); its assertion is then removed
(`chformal -remove` on the cells of that label) and the BMC runs again, until a run passes
or times out, or the budget (600 s in all; each run's sby `timeout` is what is left) is spent.
The last run's depth is the depth reached. A finding whose rule the profile lists as a
difference (e.g. rule 7, 4 KiB, and `protocol.4k-boundary`) is named as that difference.

    python -m tb.formal --dut NAME [--depth N] [--budget S] [--out DIR]
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tb.duts.profile import Profile
from tb.duts.wrapper import generate
from tb.formal.cex import CexError, read_vcd
from tb.formal.sby import (
    FAILED,
    TRACE,
    Check,
    FormalError,
    contract_checks,
    deepest_step,
    log_lines,
    task_status,
)
from tb.formal.trace import text_trace
from tb.paths import ROOT

TOP = "vta_formal_top"
HARNESS = ("tb/rtl/formal/vta_formal_axi.v", "tb/rtl/formal/vta_formal_top.v")
ABSTRACT = "tb/rtl/formal/vta_mem_abstract.v"
RULES = "tb/rtl/vta_axi_rules.vh"
WRAPPER = "vta_top_dut.v"
#: the whole run's wall-time budget and the BMC bound (large: the budget is what stops it)
BUDGET = 600
DEPTH = 1000
#: memories of at least this many entries are abstracted (scratchpads, instruction queues:
#: their contents are data and instructions, free anyway); smaller ones (upstream-chisel: the
#: VME command queues holding burst addresses and lengths, 1 entry; the 16-entry read-tag
#: arrays; 3-entry queue buffers) are mapped to registers and keep what was written
ABSTRACT_ENTRIES = 32
#: ID bits the monitor tells apart; the DUT's upper ID bits are asserted zero (the harness,
#: narrow_ids). upstream-chisel: ARID = {4'd0, tag}, AWID 0 (its README, "Ports").
MONITOR_ID_BITS = 4
#: outstanding bursts per ID (and AWs ahead of their W beats) the monitor's queues hold:
#: exceeding it fails h_*_bound, never wraps silently
QD = 4
#: an assertion of the port monitor -> (rule of tb/rtl/vta_axi_rules.vh, its simulation name, channel)
RULE_OF = {
    "a_aw_valid_held": (3, "valid-dropped", "AW"), "a_w_valid_held": (3, "valid-dropped", "W"),
    "a_ar_valid_held": (3, "valid-dropped", "AR"), "a_aw_stable": (4, "payload-unstable", "AW"),
    "a_w_stable": (4, "payload-unstable", "W"), "a_ar_stable": (4, "payload-unstable", "AR"),
    "a_aw_incr": (5, "burst-type", "AW"), "a_ar_incr": (5, "burst-type", "AR"),
    "a_aw_size": (6, "burst-size", "AW"), "a_ar_size": (6, "burst-size", "AR"),
    "a_aw_4k": (7, "4k-crossing", "AW"), "a_ar_4k": (7, "4k-crossing", "AR"),
    "a_wlast": (8, "wlast", "W"), "a_aw_attr": (12, "attributes", "AW"),
    "a_ar_attr": (12, "attributes", "AR"),
    "a_b_valid_held": (3, "valid-dropped", "B (host port)"),
    "a_b_stable": (4, "payload-unstable", "B (host port)"),
    "a_b_expected": (10, "unexpected-response", "B (host port)"),
    "a_r_valid_held": (3, "valid-dropped", "R (host port)"),
    "a_r_stable": (4, "payload-unstable", "R (host port)"),
    "a_r_expected": (10, "unexpected-response", "R (host port)"),
    "a_rlast": (9, "rlast", "R (host port)"),
}
#: the DUT's signals of each channel the excerpt shows (the harness's names for the memory port)
CHANNEL_SIGNALS = {
    "AR": ("arvalid", "m_axi_gmem_arready", "araddr", "arlen", "arsize", "arid"),
    "AW": ("awvalid", "m_axi_gmem_awready", "awaddr", "awlen", "awsize", "awid"),
    "W": ("wvalid", "m_axi_gmem_wready", "wdata", "wlast"),
}
#: rule number -> the profile difference that states the DUT breaks it (tb/duts/differences.py)
DIFFERENCE_OF_RULE = {7: "protocol.4k-boundary"}


@dataclass
class Finding:
    """One failing assertion of one BMC run."""

    label: str
    step: int | None
    source: str                  # file:line: the statement
    rule: str                    # e.g. "rule 7 (4k-crossing), AR"
    difference: str | None       # the profile difference it matches, if any
    run: int                     # which run of the iteration found it (1-based)
    seconds: float               # that run's wall time
    vcd: str | None
    trace: str                   # the text trace (tb/formal/trace.py)


@dataclass
class RunLog:
    """One sby run of the iteration."""

    removed: list[str]
    status: str                  # FAIL | PASS | TIMEOUT
    depth: int | None            # deepest step abc bmc3 finished
    seconds: float
    timeout: int


@dataclass
class ForeignResult:
    dut: str
    findings: list[Finding] = field(default_factory=list)
    runs: list[RunLog] = field(default_factory=list)
    seconds: float = 0.0
    prepare_seconds: float = 0.0

    @property
    def depth(self) -> int | None:
        """The depth the last run reached without a failure."""
        last = self.runs[-1] if self.runs else None
        if last is None:
            return None
        if last.status == "FAIL":
            return None
        return last.depth


def prepare(profile: Profile, out: Path) -> list[Path]:
    """The files sby copies in: the stripped netlist, the wrapper, the harness, the memory
    model and the rules header. Raises FormalError (one line) if a source is missing."""
    src = out / "src"
    src.mkdir(parents=True, exist_ok=True)
    design: list[Path] = []
    for path in profile.sources:
        if not path.is_file():
            raise FormalError(f"DUT {profile.name}: {path} is missing (the profile's rtl.sources)")
        text = re.sub(r"\$fwrite\([^;]*?\);", ";", path.read_text(errors="replace"))
        copy = src / path.name
        copy.write_text(text)
        design.append(copy)
    wrapper = src / WRAPPER
    wrapper.write_text(generate(profile, "vta_top"))
    return design + [wrapper] + [ROOT / f for f in (*HARNESS, ABSTRACT, RULES)]


def sby_text(profile: Profile, files: list[Path], depth: int, timeout: int, removed: list[str]) -> str:
    """One BMC task over the foreign DUT in the whole-top harness."""
    names = [f.name for f in files]
    design = " ".join(n for n in names if n.endswith(".v") and Path(n).name not in
                      {Path(h).name for h in (*HARNESS, ABSTRACT)})
    harness = " ".join(Path(h).name for h in HARNESS)
    idw = profile.id_width
    log_bus = (profile.config.bus_bytes * 8).bit_length() - 1
    params = f"-set IDW {idw} -set MIDW {min(idw, MONITOR_ID_BITS)} -set QD {QD} -set LOG_BUS_WIDTH {log_bus}"
    lines = ["[options]", "mode bmc", f"depth {depth}", f"timeout {timeout}", "",
             "[engines]", "abc bmc3", "",
             "[script]",
             f"read -sv {design}",
             f"read -formal -D VTA_FORMAL_FOREIGN {harness}",
             f"chparam {params} {TOP}",
             # no `prep`: its opt passes over the whole netlist (multipliers and all) take minutes;
             # what the abstracted memories leave unobserved goes at the first opt_clean
             f"hierarchy -check -top {TOP}",
             "proc", "flatten", "memory -nomap",
             f"techmap -autoproc -map {Path(ABSTRACT).name} t:$mem_v2 r:SIZE>={ABSTRACT_ENTRIES} %i",
             "opt_clean", "memory_map",
             "chformal -cover -remove",
             *[f"chformal -remove c:*{label}" for label in removed],
             "opt -fast", "techmap", "setundef -anyseq", "opt_clean", "",
             "[files]", *[str(f) for f in files], ""]
    return "\n".join(lines)


def port_excerpt(vcd: Path, channel: str, step: int, before: int = 4) -> str:
    """The failing channel's DUT signals over the cycles up to the failing step."""
    names = CHANNEL_SIGNALS.get(channel.split()[0])
    if not names or not vcd.exists():
        return ""
    try:
        steps = read_vcd(vcd, set(names)).steps
    except CexError:
        return ""
    lines = [f"DUT side of {channel}, cycles {max(0, step - before)}-{step}:"]
    for n in range(max(0, step - before), min(step, len(steps) - 1) + 1):
        row = steps[n]
        lines.append(f"cycle {n:3d}: " + " ".join(
            f"{k}={'x' if row.get(k) is None else format(row[k], 'x')}" for k in names))
    return "\n".join(lines) + "\n"


def _finding(label: str, step: int | None, check: Check | None, sources: dict[str, Path], run: int,
             seconds: float, vcd: Path | None, trace: str, profile: Profile) -> Finding:
    src = ""
    if check is not None and check.file in sources:
        text = sources[check.file].read_text().splitlines()[check.line - 1].strip()
        src = f"{check.file}:{check.line}: {text}"
    rule_no, rule_name, channel = RULE_OF.get(label, (0, "", ""))
    rule = f"rule {rule_no} ({rule_name}), {channel}" if rule_no else "harness assertion"
    diff = DIFFERENCE_OF_RULE.get(rule_no)
    known = diff if diff and profile.has(diff) else None
    return Finding(label, step, src, rule, known, run, round(seconds, 1), str(vcd) if vcd else None, trace)


def run(profile: Profile, out: Path, env: dict[str, str], budget: int = BUDGET, depth: int = DEPTH,
        log=print, max_runs: int | None = None) -> ForeignResult:
    """The iteration: BMC, record the failing assertion, remove it, again, within the budget
    (and at most ``max_runs`` runs: tests)."""
    out = out.resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    result = ForeignResult(profile.name)
    t0 = time.perf_counter()
    files = prepare(profile, out)
    result.prepare_seconds = time.perf_counter() - t0
    sources = {f.name: f for f in files}
    checks: dict[tuple[str, int], Check] = {}
    for path in files:
        if path.name in {Path(h).name for h in HARNESS}:
            for c in contract_checks(path).values():
                checks[(path.name, c.line)] = c
    removed: list[str] = []
    while max_runs is None or len(result.runs) < max_runs:
        left = int(budget - (time.perf_counter() - t0))
        if left < 30:
            log(f"  budget spent ({budget} s): stopping")
            break
        n = len(result.runs) + 1
        work = out / f"run{n}"
        work.mkdir()
        (work / "job.sby").write_text(sby_text(profile, files, depth, left, removed))
        log(f"  run {n}: abc bmc3, depth {depth}, timeout {left} s"
            + (f", without {', '.join(removed)}" if removed else ""))
        t1 = time.perf_counter()
        proc = subprocess.run(["sby", "-f", "job.sby"], cwd=work, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        seconds = time.perf_counter() - t1
        (work / "sby.log").write_text(proc.stdout)
        lines = log_lines(work / "job")
        status = task_status(lines)
        if status == "ERROR":
            errors = [ln for ln in proc.stdout.splitlines() if "ERROR" in ln or "rror:" in ln]
            raise FormalError(f"DUT {profile.name}: sby stopped with an error (log {work / 'sby.log'}): "
                              + " | ".join(errors[-3:] or proc.stdout.splitlines()[-3:]))
        reached = deepest_step(work / "job")
        result.runs.append(RunLog(list(removed), status, reached, round(seconds, 1), left))
        if status != "FAIL":
            log(f"  run {n}: {status}, BMC depth {reached} in {seconds:.0f} s")
            break
        failed: list[Check] = []
        vcd = yw = None
        for line in lines:
            m = FAILED.search(line)
            if m:
                key = (Path(m.group(2)).name, int(m.group(3)))
                c = checks.get(key) or Check(m.group(1).split(".")[-1], "assert", key[0], key[1])
                step = int(m.group(4)) if m.group(4) else None
                c = Check(c.label, c.kind, c.file, c.line, failed_step=step)
                if all(c.label != f.label for f in failed):
                    failed.append(c)
            t = TRACE.search(line)
            if t and vcd is None:
                vcd = work / t.group(2)
                yw = vcd.with_suffix(".yw") if vcd.with_suffix(".yw").exists() else None
        if not failed:
            raise FormalError(f"DUT {profile.name}: run {n} failed without naming an assertion "
                              f"(log {work / 'sby.log'})")
        trace = text_trace(yw, failed, sources, env) if yw is not None else ""
        for c in failed:
            channel = RULE_OF.get(c.label, (0, "", ""))[2]
            if vcd is not None and c.failed_step is not None and channel:
                trace += port_excerpt(vcd, channel, c.failed_step)
        (work / "trace.txt").write_text(trace)
        for c in failed:
            found = _finding(c.label, c.failed_step, c, sources, n, seconds, vcd, trace, profile)
            result.findings.append(found)
            known = f"; the profile's difference {found.difference}" if found.difference else ""
            log(f"  run {n}: FAILED {c.label} at step {c.failed_step} ({found.rule}{known}) {seconds:.0f} s")
            removed.append(c.label)
    result.seconds = time.perf_counter() - t0
    (out / "findings.json").write_text(json.dumps(asdict(result), indent=2))
    return result


def report(result: ForeignResult) -> str:
    """The findings as text: one block per finding with its trace, then the depth reached."""
    lines = [f"\nDUT {result.dut}: {len(result.findings)} finding(s) in {len(result.runs)} BMC run(s), "
             f"{result.seconds:.0f} s (preparing {result.prepare_seconds:.0f} s)"]
    for i, f in enumerate(result.findings, 1):
        lines.append(f"\nfinding {i}: {f.label} fails at step {f.step}: {f.rule}"
                     + (f" = the profile's difference {f.difference}" if f.difference else "")
                     + f" (run {f.run}, {f.seconds} s)")
        lines.append(f"  {f.source}")
        if f.vcd:
            lines.append(f"  waveform {f.vcd}")
        lines += ["  " + ln for ln in f.trace.splitlines()]
    last = result.runs[-1] if result.runs else None
    if last is not None and last.status != "FAIL":
        lines.append(f"\nlast run (without {', '.join(last.removed) or 'nothing'}): {last.status}, "
                     f"no failure to BMC depth {last.depth} in {last.seconds:.0f} s")
    elif last is not None:
        lines.append("\nthe budget ended with a failing run: no clean depth")
    return "\n".join(lines) + "\n"
