"""nextpnr's cell and net names, read back as rtl/'s instances and signals.

nextpnr flattens the hierarchical netlist (tb/timing/netlist.py) on import and names each
cell and net by its instance path, then its name inside its module; a cell or net Yosys made
(a LUT, a carry cell, the net between them) is named by `autoname` after the public signal
its chain of cells leads to or from, with the primitives and ports on the way appended, and
nextpnr's packer appends its own `$...` suffix to a cell it splits:

    u_vta.u_compute.wb_data[122]                           a net of the source
    u_vta.u_compute.u_pipe.fw_a_TRELLIS_FF_Q_3             the flip-flop driving fw_a
    u_vta.u_compute.u_pipe.wb_data_PFUMX_Z_32_C0_..._S0    a net in wb_data's logic
    u_vta.u_compute.u_pipe.wb_data_..._CCU2C_S0$CCU2_COMB0 half of a packed carry cell
    u_vta.u_inp.mem.0.0_DOB1[3]                            an output of memory mem's block RAM 0.0

The instance is the longest instance path of the netlist the name starts with (exact: a cell
belongs to the module it is named in), the signal is the rest up to the first primitive
suffix. A name with no source signal in it (`$abc$...`, `$auto$...`) keeps its whole rest
and is marked as not public.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tb.timing.wrapper import DUT_INSTANCE, WRAPPER_TOP

#: ECP5 primitives whose names autoname and the packer append ("_LUT4_Z", "_CCU2C_A0", ...)
PRIMITIVES = ("TRELLIS_FF", "TRELLIS_COMB", "TRELLIS_DPR16X4", "TRELLIS_RAMW", "TRELLIS_IO",
              "LUT4", "CCU2C", "PFUMX", "L6MUX21", "DP16KD", "MULT18X18D", "ALU54B", "DCCA")
SUFFIX = re.compile(r"_(?:" + "|".join(PRIMITIVES) + r")(?:_|$)|\$")
#: a block RAM Yosys cut out of memory `mem` is named `mem.<i>.<j>` (and its ports' nets
#: `mem.0.3_DOB1`): the signal is the memory
BRAM_PART = re.compile(r"\.\d+\.\d+(?:_|$)")
#: nextpnr's global-clock net prefix and the I/O buffer suffix of a clock from a pin
GLOBAL_PREFIX = "$glbnet$"
IO_SUFFIX = "$TRELLIS_IO_IN"


@dataclass(frozen=True)
class Where:
    """Where a nextpnr name points in rtl/: ``instance`` is the path under vta_top ("" for
    vta_top itself, None for the wrapper), ``module`` the Verilog module, ``signal`` the
    source signal (``public`` False when the name holds none). A name that starts with "$"
    has no instance path in it: its module is "?"."""

    name: str
    instance: str | None
    module: str
    signal: str
    public: bool

    def path(self) -> str:
        """`u_compute.u_gemm_alu.acc_q`; `vta_top.x` for the top's own (named by its module);
        `(wrapper) in_sr`."""
        if self.instance is None:
            return f"(wrapper) {self.signal}" if self.module == WRAPPER_TOP else self.name
        return f"{self.instance or self.module}.{self.signal}"


def clock_name(net: str) -> str:
    """`$glbnet$ap_clk$TRELLIS_IO_IN` -> `ap_clk`: the clock as the source names it."""
    return net.removeprefix(GLOBAL_PREFIX).removesuffix(IO_SUFFIX)


def signal_of(rest: str) -> tuple[str, bool]:
    """The source signal in a name's part after its instance, and whether there is one."""
    if rest.startswith("$"):
        return rest, False
    match = SUFFIX.search(rest)
    base = rest[:match.start()] if match else rest
    bram = BRAM_PART.search(base)
    base = base[:bram.start()] if bram else base
    return (base, True) if base else (rest, False)


def locate(name: str, instances: dict[str, str]) -> Where:
    """Map a nextpnr cell or net name to its instance, module and signal (instances: path
    under vta_top -> module, as netlist.instances gives)."""
    name = clock_name(name)
    if name.startswith("$"):
        return Where(name, None, "?", name, False)
    if name != DUT_INSTANCE and not name.startswith(DUT_INSTANCE + "."):
        signal, public = signal_of(name)
        return Where(name, None, WRAPPER_TOP, signal, public)
    rest = name[len(DUT_INSTANCE) + 1:]
    inside = [p for p in instances if p and rest.startswith(p + ".")]
    instance = max(inside, key=len) if inside else ""
    signal, public = signal_of(rest[len(instance) + 1:] if instance else rest)
    return Where(name, instance, instances.get(instance, "?"), signal, public)
