"""Wrapper generator: a thin Verilog module with vta_top's ports around a profile's top.

The testbench's Verilog tops instantiate vta_top; a design with other port names, widths or
reset polarity becomes a drop-in by this wrapper, which only maps ports: it renames, converts
the reset, widens or narrows addresses and the like (zero-extension, or the low bits), ties
off the DUT's inputs the testbench has no signal for, drives the AXI-legal constant on an
output the DUT lacks (tb/duts/signals.py says which) and leaves unused what the DUT ignores.
It does not hide behaviour: the register map and every difference stay visible to the
testbench, which reads them from the profile.

The ports are vta_top's, with the configuration's bus width, except the memory IDs, which
take the profile's ``memory.id_width``: a DUT that routes read data by ID needs all of them.

    python -m tb.duts.wrapper PROFILE --out FILE [--config C] [--module NAME]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tb.duts.profile import ROOT, Profile, load
from tb.duts.rtlports import Port
from tb.duts.schema import ProfileError
from tb.duts.signals import INTERFACES, Signal, width_of

DEFAULT_MODULE = "vta_dut"
INDENT = "    "


def _decl(width: int) -> str:
    return f"[{width - 1}:0] " if width > 1 else ""


def _constant(sig: Signal, width: int, log_bus_bytes: int) -> str:
    """The Verilog constant of an absent output's default."""
    if sig.default == "ones":
        return f"{{{width}{{1'b1}}}}"
    value = log_bus_bytes if sig.default == "size" else int(str(sig.default))
    return f"{width}'d{value}"


class _Writer:
    """Collects the wrapper's port declarations, wires, instance connections and assigns."""

    def __init__(self, profile: Profile) -> None:
        self.p = profile
        self.ports: list[str] = []
        self.wires: list[str] = []
        self.unused: list[str] = []
        self.conns: list[str] = []
        self.assigns: list[str] = []

    def port(self, name: str, output: bool, width: int, unused: bool = False) -> None:
        """One wrapper port; ``unused`` wraps its declaration in a lint waiver."""
        text = f"{'output' if output else 'input '} wire {_decl(width)}{name}"
        self.ports.append(f"/* verilator lint_off UNUSEDSIGNAL */ {text} /* verilator lint_on UNUSEDSIGNAL */"
                          if unused else text)

    def dut_wire(self, dut: Port, used_bits: int) -> str:
        """A wire for a DUT output, declared unused where the wrapper drops some of its bits."""
        name = f"dut_{dut.name}"
        line = f"wire {_decl(dut.width)}{name};"
        (self.wires if used_bits >= dut.width else self.unused).append(line)
        return name

    def signal(self, prefix: str, sig: Signal, dut_name: str | None) -> None:
        """One testbench signal: declare it, and connect, adapt or default it."""
        name = prefix + sig.name
        width = width_of(sig, self.p.config.bus_bytes * 8, self.p.id_width)
        if dut_name is None:  # the DUT lacks it
            self.port(name, sig.output, width, unused=not sig.output)
            if sig.output:
                log_bytes = self.p.config.bus_bytes.bit_length() - 1
                self.assigns.append(f"assign {name} = {_constant(sig, width, log_bytes)};")
            return
        dut = self.p.dut_ports[dut_name]
        if sig.output:
            self.port(name, True, width)
            if dut.width == width:
                self.conns.append(f".{dut.name}({name})")
                return
            wire = self.dut_wire(dut, width)
            self.conns.append(f".{dut.name}({wire})")
            value = (f"{wire}[{width - 1}:0]" if dut.width > width
                     else f"{{{width - dut.width}'d0, {wire}}}")
            self.assigns.append(f"assign {name} = {value};")
            return
        self.port(name, False, width, unused=dut.width < width)
        if dut.width == width:
            self.conns.append(f".{dut.name}({name})")
        elif dut.width < width:
            self.conns.append(f".{dut.name}({name}[{dut.width - 1}:0])")
        else:
            self.conns.append(f".{dut.name}({{{dut.width - width}'d0, {name}}})")

    def others(self) -> None:
        """Clock, reset, tied-off inputs and unused outputs of the DUT."""
        p = self.p
        self.conns.insert(0, f".{p.clock}(ap_clk)")
        self.conns.insert(1, f".{p.reset}({'ap_rst_n' if p.reset_active_low else '!ap_rst_n'})")
        for port, value in p.tie_off.items():
            self.conns.append(f".{port}({p.dut_ports[port].width}'d{value})")
        for port in p.unused:
            self.conns.append(f".{port}({self.dut_wire(p.dut_ports[port], 0)})")


def generate(profile: Profile, module: str = DEFAULT_MODULE) -> str:
    """The wrapper's Verilog text."""
    w = _Writer(profile)
    w.port("ap_clk", False, 1)
    w.port("ap_rst_n", False, 1)
    for section, (prefix, signals) in INTERFACES.items():
        iface = profile.host if section == "host" else profile.memory
        for sig in signals:
            w.signal(prefix, sig, iface.ports.get(sig.name))
    w.others()
    params = profile.parameters()
    inst_params = ("#(\n" + ",\n".join(f"{INDENT * 2}.{k}({v})" for k, v in params.items())
                   + f"\n{INDENT}) ") if params else ""
    try:
        source = profile.path.resolve().relative_to(ROOT)
    except ValueError:
        source = Path(profile.path.name)
    lines = ["`default_nettype none",
             f"// Generated by `python -m tb.duts.wrapper` from {source} (profile {profile.name},",
             f"// configuration {profile.config_name}): do not edit.",
             f"// vta_top's ports around {profile.top}; the wrapper only maps ports (tb/duts/wrapper.py).",
             f"module {module} (",
             ",\n".join(INDENT + port for port in w.ports),
             ");"]
    lines += [INDENT + line for line in w.wires]
    if w.unused:
        lines.append(f"{INDENT}/* verilator lint_off UNUSEDSIGNAL */")
        lines += [INDENT + line for line in w.unused]
        lines.append(f"{INDENT}/* verilator lint_on UNUSEDSIGNAL */")
    lines.append(f"{INDENT}{profile.top} {inst_params}u_dut (")
    lines.append(",\n".join(INDENT * 2 + c for c in w.conns))
    lines.append(f"{INDENT});")
    lines += [INDENT + a for a in w.assigns]
    lines += ["endmodule", "`default_nettype wire", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tb.duts.wrapper", description="Write a Verilog "
                                 "wrapper with vta_top's ports around a profile's top.")
    ap.add_argument("profile", help="a profile name under tb/duts/ or a profile YAML file")
    ap.add_argument("--out", required=True, help="the Verilog file to write")
    ap.add_argument("--config", help="configuration (a shipped name or JSON file; default: the profile's)")
    ap.add_argument("--module", default=DEFAULT_MODULE,
                    help=f"wrapper module name (default {DEFAULT_MODULE})")
    args = ap.parse_args(argv)
    if not args.module.isidentifier():
        print(f"error: --module: {args.module!r} is not a Verilog identifier", file=sys.stderr)
        return 2
    try:
        text = generate(load(args.profile, args.config), args.module)
        Path(args.out).write_text(text)
    except ProfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: --out: {args.out}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
