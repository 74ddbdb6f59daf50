"""The netlist nextpnr places: rtl/ and the wrapper through synth_ecp5, reused while unchanged.

The hierarchy is kept (-noflatten, as `make synth TARGET=ecp5` does): nextpnr flattens it
itself on import and names every cell and net by its instance path, so that each cell of
the critical path is named by the instance it really belongs to (`u_vta.u_compute.u_pipe.
wb_data_...`). A flat synthesis (synth_ecp5's default) optimises across module boundaries,
but names the nets it creates after a neighbouring cell, often one of another module (a
LUT of the GEMM pipeline named after the weight buffer's output it reads), so its path
cannot be read back by instance; on `small` it reached 60.6 MHz against 57.7 MHz for the
same seed (README, "Timing").

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
from tb.synth.design import Design
from tb.synth.script import elaborate, stage_sources
from tb.synth.stat import module_name
from tb.synth.yosys import run_yosys
from tb.timing.nextpnr import NETLIST
from tb.timing.wrapper import DUT_INSTANCE, WRAPPER_TOP, Wrapper

NETLIST_KEY = "netlist.key"
#: cache_key's target field for this flow (its own name space beside make synth's targets)
FLOW = "timing-ecp5"


def synth_script(files: list[str], wrapper: Wrapper) -> str:
    """Read the staged design and the wrapper, synthesize for ECP5 with the hierarchy kept,
    write the JSON netlist nextpnr reads."""
    lines = elaborate([*files, wrapper.file_name], WRAPPER_TOP, {}) + [
        f"synth_ecp5 -top {WRAPPER_TOP} -noflatten -json {NETLIST}"]
    return "\n".join(lines) + "\n"


def netlist_key(values: dict[str, int], script: str, wrapper: Wrapper, files: list[Path]) -> str:
    """What the netlist depends on: configuration, script, wrapper text, design files, Yosys."""
    return cache_key(values, FLOW, script + wrapper.text, files)


def make_netlist(run_dir: Path, key: str, script: str, wrapper: Wrapper, design: Design,
                 echo: Callable[[str], None]) -> tuple[float, bool]:
    """Synthesize into run_dir/netlist.json unless the one there was made under ``key``.

    Returns the seconds the netlist took to make (then, or when it was made) and whether it
    was reused."""
    stamp = run_dir / NETLIST_KEY
    hit = cached(stamp, key)
    if hit is not None and (run_dir / NETLIST).exists():
        return float(hit["seconds"]), True
    stamp.unlink(missing_ok=True)
    stage_sources(design, run_dir)
    (run_dir / wrapper.file_name).write_text(wrapper.text)
    start = time.monotonic()
    run_yosys(script, run_dir, echo=echo)
    seconds = time.monotonic() - start
    stamp.write_text(json.dumps({"key": key, "seconds": round(seconds, 1)}) + "\n")
    return seconds, False


def instances(netlist: dict[str, Any]) -> dict[str, str]:
    """Instance path under vta_top -> Verilog module ("" is vta_top itself), from the
    hierarchical netlist: every cell whose type is a module of the design (not a blackbox
    primitive of the cell library), followed down from the wrapper's DUT_INSTANCE."""
    modules: dict[str, Any] = netlist.get("modules", {})
    top = modules.get(WRAPPER_TOP)
    if top is None:
        raise ValueError(f"the netlist has no module {WRAPPER_TOP}")

    def design(cell_type: str) -> bool:
        attrs = modules.get(cell_type, {}).get("attributes", {})
        flags = (int(str(attrs.get(k, "0")), 2) for k in ("blackbox", "whitebox"))
        return cell_type in modules and not any(flags)

    dut = top.get("cells", {}).get(DUT_INSTANCE)
    if dut is None or not design(dut["type"]):
        raise ValueError(f"the netlist's {WRAPPER_TOP} has no design instance {DUT_INSTANCE}")
    out: dict[str, str] = {}

    def visit(path: str, cell_type: str) -> None:
        out[path] = module_name(cell_type)
        for name, cell in modules[cell_type].get("cells", {}).items():
            if design(cell["type"]):
                visit(f"{path}.{name}" if path else name, cell["type"])

    visit("", dut["type"])
    return dict(sorted(out.items()))
