"""Build (or reuse) the netlist of one configuration and script, and write its DUT profile.

The netlist takes from half a minute to minutes to make, and every run on it, every
simulator process and every repro command needs it, so it is made once and kept:
build/gate/<config>-<script>/ holds the staged design (rtl/), the script (run.ys), Yosys's
log (yosys.log), the netlist (vta_gate.v), its cell counts (stat.json), the record of the
build (netlist.json: the cache key, the seconds it took, the gate count) and the generated
profile (profile.yaml, tb/gate/profile.py). The key hashes the configuration's values, the
script (which holds the parameters and every step), the Yosys version and every design
file's name and content: a run whose key matches reuses the netlist, any change rebuilds it.
A lock file serialises builds of one directory (pytest-xdist workers, parallel runs).
While Yosys runs, its pass headers are echoed with the elapsed time (tb/synth/yosys.py).
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tb.duts import probes
from tb.duts.netlist import GATE_TOP, NETLIST_FILE, OUT, NetlistError, NetlistSpec
from tb.duts.profile import DEFAULT_PROFILE, resolve
from tb.gate import profile as gate_profile
from tb.gate import scripts as gate_scripts
from tb.gate.profile import profile_yaml
from tb.gate.scripts import STAT_FILE, netlist_script
from tb.paths import ROOT, RTL_DIR
from tb.synth.cache import YOSYS_PACKAGE, package_version
from tb.synth.design import Design, rtl_design
from tb.synth.script import stage_sources, staged_names
from tb.synth.yosys import YosysError, run_yosys

RECORD_FILE = "netlist.json"


@dataclass(frozen=True)
class Netlist:
    """A built netlist: where it and its profile are, what it holds, what it cost."""

    spec: NetlistSpec
    directory: Path
    verilog: Path
    profile: Path
    cells: dict[str, int]
    seconds: float
    cached: bool

    @property
    def gates(self) -> int:
        """One-bit gates and flip-flops (every cell but the memories)."""
        return sum(n for t, n in self.cells.items() if t != "$mem_v2")


def cache_key(values: dict[str, int], script: str, sources: list[Path]) -> str:
    """Hex digest of everything the netlist depends on."""
    h = hashlib.sha256(json.dumps({"config": dict(sorted(values.items())), "script": script,
                                   "yosys": package_version(YOSYS_PACKAGE)}, sort_keys=True).encode())
    for path in sorted(sources):
        h.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _cells(stat: Path, top: str) -> dict[str, int]:
    """Cells by type of the netlist's (flat) top module, from `stat -json`."""
    modules = json.loads(stat.read_text()).get("modules", {})
    body: dict = modules.get(f"\\{top}") or next(iter(modules.values()), {})
    return {str(t): int(n) for t, n in sorted(body.get("num_cells_by_type", {}).items())}


def profile_inputs() -> str:
    """Hex digest of what the generated profile is made from besides the netlist (the
    generator, the checks it must name, the testbench top it reads their nets from, rtl/'s
    profile): a change rewrites the profile of a cached netlist without synthesizing again."""
    h = hashlib.sha256()
    for path in (Path(gate_profile.__file__), Path(probes.__file__), Path(gate_scripts.__file__),
                 gate_profile.TB_TOP, resolve(DEFAULT_PROFILE)):
        h.update(path.read_bytes())
    return h.hexdigest()


def build(spec: NetlistSpec, rtl_dir: Path = RTL_DIR, out: Path = OUT,
          echo: Callable[[str], None] | None = print) -> Netlist:
    """The netlist of ``spec``, made now or reused; ``echo`` gets the progress lines (None:
    silent, as in a simulator process, which only ever finds it made)."""
    design = rtl_design(spec.config, rtl_dir)
    script = netlist_script(staged_names(design), design.top, design.parameters, spec.script)
    key = cache_key(design.values, script, design.files)
    run_dir = spec.directory(out)
    run_dir.mkdir(parents=True, exist_ok=True)
    with open(run_dir.parent / f".{run_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        record = _record(run_dir, key)
        cached = record is not None
        if record is None:
            record = _synthesize(spec, run_dir, design, script, key, echo)
        elif echo is not None:
            echo(f"netlist {spec.name}: cached ({_shown(run_dir / NETLIST_FILE)}, made in "
                 f"{record['seconds']:.0f} s)")
        inputs = profile_inputs()
        if record.get("profile") != inputs or not spec.profile(out).is_file():
            netlist = (run_dir / NETLIST_FILE).read_text()
            _write_atomic(spec.profile(out), profile_yaml(spec, key, netlist))
            record["profile"] = inputs
            (run_dir / RECORD_FILE).write_text(json.dumps(record, indent=1) + "\n")
    return Netlist(spec, run_dir, run_dir / NETLIST_FILE, spec.profile(out), record["cells"],
                   record["seconds"], cached)


def _write_atomic(path: Path, text: str) -> None:
    """Write aside and rename: a simulator process may be reading the profile meanwhile (it
    takes no lock to read), and must see the old text or the new, never half of one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_text(text)
    tmp.replace(path)


def _record(run_dir: Path, key: str) -> dict | None:
    """The build record if the netlist in run_dir was made under ``key`` (else None)."""
    try:
        record = json.loads((run_dir / RECORD_FILE).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != key or not (run_dir / NETLIST_FILE).is_file():
        return None
    return record


def _synthesize(spec: NetlistSpec, run_dir: Path, design: Design, script: str, key: str,
                echo: Callable[[str], None] | None) -> dict:
    """Run Yosys on a fresh copy of the design; the record of the build."""
    (run_dir / RECORD_FILE).unlink(missing_ok=True)
    stage_sources(design, run_dir)
    if echo is not None:
        echo(f"netlist {spec.name}: yosys running in {_shown(run_dir)} (log: yosys.log)")
    start = time.monotonic()
    try:
        run_yosys(script, run_dir, echo)
    except YosysError as exc:
        raise NetlistError(f"netlist {spec.name}: {exc}") from None
    seconds = time.monotonic() - start
    cells = _cells(run_dir / STAT_FILE, GATE_TOP)
    record = {"key": key, "dut": spec.name, "config": spec.config, "script": spec.script,
              "seconds": round(seconds, 1), "cells": cells}
    (run_dir / RECORD_FILE).write_text(json.dumps(record, indent=1) + "\n")
    if echo is not None:
        gates = sum(n for t, n in cells.items() if t != "$mem_v2")
        echo(f"netlist {spec.name}: done in {seconds:.0f} s: {gates:,} gates and flip-flops, "
             f"{cells.get('$mem_v2', 0)} memories ({_shown(run_dir / NETLIST_FILE)})")
    return record


def _shown(path: Path) -> str:
    """A path as a user reads it: relative to the repository when inside it."""
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
