"""The netlist nextpnr places: rtl/ and the wrapper through synth_ecp5, reused while unchanged.

Unlike `make synth TARGET=ecp5`, which keeps the hierarchy so that it can count resources
per module, this synthesis flattens (synth_ecp5's default), as a real ECP5 build does: logic
is optimised across module boundaries and fmax is the design's, not that of a netlist cut at
every port. The hierarchy is not lost: flattening names every cell and net by its instance
path (`u_vta.u_compute.u_gemm_alu.acc_q`), and leaves a `$scopeinfo` cell per flattened
instance that names its module, which `instances` reads to map nextpnr's names back to rtl/.

The netlist depends on the configuration, the design files, the wrapper and Yosys, not on the
part, seed or constraint, so a run with another SEED, PART or FREQ reuses it (netlist.key
holds the key it was made under).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

from tb.synth.cache import cache_key, cached
from tb.synth.script import elaborate, stage_sources
from tb.synth.stat import module_name
from tb.synth.yosys import run_yosys
from tb.timing.nextpnr import NETLIST
from tb.timing.wrapper import DUT_INSTANCE, WRAPPER_TOP, Wrapper

NETLIST_KEY = "netlist.key"
#: cache_key's target field for this flow (its own name space beside make synth's targets)
FLOW = "timing-ecp5"


def synth_script(files: list[str], wrapper: Wrapper) -> str:
    """Read the staged design and the wrapper, synthesize flat for ECP5, write the JSON."""
    lines = elaborate([*files, wrapper.file_name], WRAPPER_TOP, {}) + [
        f"synth_ecp5 -top {WRAPPER_TOP} -json {NETLIST}"]
    return "\n".join(lines) + "\n"


def netlist_key(values: dict[str, int], script: str, wrapper: Wrapper, files: list[Path]) -> str:
    """What the netlist depends on: configuration, script, wrapper text, design files, Yosys."""
    return cache_key(values, FLOW, script + wrapper.text, files)


def make_netlist(run_dir: Path, key: str, script: str, wrapper: Wrapper, files: list[Path],
                 echo: Callable[[str], None]) -> tuple[float, bool]:
    """Synthesize into run_dir/netlist.json unless the one there was made under ``key``.

    Returns the seconds the netlist took to make (then, or when it was made) and whether it
    was reused."""
    stamp = run_dir / NETLIST_KEY
    hit = cached(stamp, key)
    if hit is not None and (run_dir / NETLIST).exists():
        return float(hit["seconds"]), True
    stamp.unlink(missing_ok=True)
    stage_sources(files, run_dir)
    (run_dir / wrapper.file_name).write_text(wrapper.text)
    start = time.monotonic()
    run_yosys(script, run_dir, echo=echo)
    seconds = time.monotonic() - start
    stamp.write_text(json.dumps({"key": key, "seconds": round(seconds, 1)}) + "\n")
    return seconds, False


def instances(netlist: dict[str, Any]) -> dict[str, str]:
    """Instance path under vta_top -> Verilog module, from the flattened netlist's
    `$scopeinfo` cells ("" is vta_top itself; paths drop the wrapper's DUT_INSTANCE)."""
    top = netlist.get("modules", {}).get(WRAPPER_TOP)
    if top is None:
        raise ValueError(f"the netlist has no module {WRAPPER_TOP}")
    out: dict[str, str] = {}
    for name, cell in top.get("cells", {}).items():
        if cell.get("type") != "$scopeinfo":
            continue
        attrs = cell.get("attributes", {})
        module = attrs.get("module_hdlname") or module_name(str(attrs.get("module", "?")))
        if name == DUT_INSTANCE:
            out[""] = module
        elif name.startswith(DUT_INSTANCE + "."):
            out[name[len(DUT_INSTANCE) + 1:]] = module
    return dict(sorted(out.items()))
