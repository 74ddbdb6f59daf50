"""DUT profiles: one YAML file per design the suite can drive, read and checked here.

The testbench was written against rtl/vta_top.v. A profile says how another design meets
it: which files and top, clock and reset, which of its ports carry each signal of the
AXI-Lite host and AXI4 memory interfaces (tb/duts/signals.py), where its registers are, which
VTA configuration it was built for, and how it differs (tb/duts/differences.py). The format
is described in tb/duts/README.md. Every rule is checked against the design itself: the
top's port list comes from an elaboration (tb/duts/rtlports.py), so a profile that names a
port the design lacks, or leaves one of its ports unaccounted for, fails here with one line
naming the profile file and the field, never later in a simulator.

    python -m tb.duts.profile [PROFILE]   # check a profile (a name under tb/duts/ or a path), print a summary
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from models.config import ConfigError, VtaConfig
from models.spec import SHIPPED_CONFIGS
from models.spec.configs import load_config
from tb.duts.differences import DIFFERENCES, LIMITS
from tb.duts.netlist import PREFIX as NETLIST_PREFIX
from tb.duts.netlist import is_profile_file
from tb.duts.netlist import parse as parse_netlist
from tb.duts.probes import PROBE_CHECKS
from tb.duts.regmap import RegisterMap, read_registers
from tb.duts.rtlports import Port, RtlError, top_ports
from tb.duts.schema import Node, ProfileError, read_yaml
from tb.duts.signals import INTERFACES, Signal

ROOT = Path(__file__).resolve().parents[2]
PROFILES_DIR = Path(__file__).resolve().parent
#: The profile of rtl/, the design the testbench drives unless told otherwise.
DEFAULT_PROFILE = "vta"
PROFILE_FILE = "profile.yaml"


@dataclass(frozen=True)
class Interface:
    """How one testbench interface meets the DUT: the DUT port of every signal it has."""

    ports: dict[str, str]
    absent: tuple[str, ...]


@dataclass(frozen=True)
class Difference:
    """One way the DUT differs (a name of tb/duts/differences.py) and where that is seen."""

    name: str
    reason: str
    limit: int | None = None  # the number it states, for the names of differences.LIMITS


@dataclass(frozen=True)
class NetlistOf:
    """A design that is another profile's RTL after synthesis (tb/gate writes such profiles).

    ``of`` is that profile (only ``vta``, rtl/: the one design the suite synthesizes), whose
    register map the netlist keeps, so everything the testbench checks through the registers
    holds for it as for rtl/; ``script`` says how it was made; ``not_checked`` gives, for
    each check bound to rtl/'s internal nets (tb/duts/probes.py), why it cannot run on it.
    """

    of: str
    script: str
    not_checked: dict[str, str]


@dataclass(frozen=True)
class Profile:
    """A checked profile, with the DUT's elaborated ports (``dut_ports``)."""

    path: Path
    name: str
    description: str
    config_name: str  # the profile's configuration, or the override load() was given
    config: VtaConfig
    top: str
    sources: tuple[Path, ...]
    include_dirs: tuple[Path, ...]
    config_parameters: bool
    clock: str
    reset: str
    reset_active_low: bool
    reset_sync: bool
    host: Interface
    memory: Interface
    address_width: int
    id_width: int
    tie_off: dict[str, int]
    unused: tuple[str, ...]
    registers: RegisterMap
    differences: tuple[Difference, ...]
    dut_ports: dict[str, Port]
    netlist: NetlistOf | None = None

    def parameters(self) -> dict[str, int]:
        """The parameters the wrapper passes to the top: the configuration's keys, or none."""
        return dict(self.config.values) if self.config_parameters else {}

    def has(self, difference: str) -> bool:
        return any(d.name == difference for d in self.differences)


def resolve(spec: str | Path) -> Path:
    """A profile argument: a name (tb/duts/NAME/profile.yaml), a netlist of rtl/
    (``netlist:CONFIG[:SCRIPT]``: its generated profile under build/gate/, tb/duts/netlist.py)
    or a path to a YAML file."""
    text = str(spec)
    if text.startswith(NETLIST_PREFIX):
        return parse_netlist(text).profile()
    if not is_profile_file(text):
        return PROFILES_DIR / text / PROFILE_FILE
    return Path(text)


def names() -> list[str]:
    """The profiles shipped under tb/duts/."""
    return sorted(p.parent.name for p in PROFILES_DIR.glob(f"*/{PROFILE_FILE}"))


def load(spec: str | Path = DEFAULT_PROFILE, config: str | None = None) -> Profile:
    """Read and check a profile; ``config`` (a configuration name or JSON path) replaces the
    profile's own, which only a design taking the configuration as parameters allows."""
    path = resolve(spec)
    if not path.exists() and str(spec).startswith(NETLIST_PREFIX):
        raise ProfileError(f"{spec}: the netlist is not built (`{parse_netlist(str(spec)).command}` "
                           f"builds it; a run on it builds it itself)")
    if not path.exists() and not is_profile_file(str(spec)):
        raise ProfileError(f"{spec}: no such profile (shipped: {', '.join(names())})")
    root = Node(path, "", read_yaml(path))
    name, description = root.get("name", str), root.get("description", str)
    config_name = root.get("config", str)
    if config_name not in SHIPPED_CONFIGS:
        raise root.error(f"{config_name!r} is not a configuration in models/configs/ "
                         f"({', '.join(SHIPPED_CONFIGS)})", "config")
    rtl = root.child("rtl")
    top = rtl.get("top", str)
    sources = tuple(_sources(rtl, path))
    include_dirs = tuple(_relative(path, d) for d in rtl.strings("include_dirs", []))
    parameters = rtl.get("parameters", str)
    if parameters not in ("config", "none"):
        raise rtl.error(f"must be 'config' (the configuration's keys are the top's parameters) "
                        f"or 'none', got {parameters!r}", "parameters")
    rtl.done()
    clock = root.get("clock", str)
    reset_node = root.child("reset")
    reset = reset_node.get("port", str)
    active = reset_node.get("active", str)
    if active not in ("low", "high"):
        raise reset_node.error(f"must be 'low' or 'high', got {active!r}", "active")
    reset_sync = reset_node.get("sync", bool)
    reset_node.done()
    host_node, memory_node = root.child("host"), root.child("memory")
    address_width = memory_node.get("address_width", int)
    if address_width not in (32, 64):
        raise memory_node.error(f"must be 32 or 64 (bits), got {address_width}", "address_width")
    id_width = memory_node.get("id_width", int)
    if not 1 <= id_width <= 32:
        raise memory_node.error(f"must be 1..32 (bits), got {id_width}", "id_width")
    host, memory = _interface(host_node, "host"), _interface(memory_node, "memory")
    tie_node = root.child("tie_off", {})
    tie_off = {str(k): tie_node.get(str(k), int) for k in tie_node.value}
    unused = tuple(root.strings("unused", []))
    registers = read_registers(root.child("registers"))
    differences = _differences(root)
    netlist = _netlist(root, registers) if root.get("netlist", dict, {}) else None
    root.done()
    cfg = _config(root, config_name, config, parameters == "config")
    try:
        ports = top_ports(list(sources), list(include_dirs), top,
                          dict(cfg.values) if parameters == "config" else {})
    except RtlError as exc:
        raise root.error(str(exc), f"rtl.{exc.field}") from None
    profile = Profile(path, name, description, config or config_name, cfg, top, sources, include_dirs,
                      parameters == "config", clock, reset, active == "low", reset_sync, host, memory,
                      address_width, id_width, tie_off, unused, registers, differences, ports,
                      netlist)
    _check_ports(root, profile)
    return profile


def _relative(profile: Path, entry: str) -> Path:
    """A path of the profile: from the profile's directory if it starts with './', else from
    the repository root (so '../shared/...' names the directory beside the checkout)."""
    return (profile.parent / entry if entry.startswith("./") else ROOT / entry).resolve()


def _sources(rtl: Node, profile: Path) -> list[Path]:
    """The design files: every entry a path or a glob; each must name at least one file."""
    out: list[Path] = []
    entries = rtl.strings("sources")
    if not entries:
        raise rtl.error("must list at least one design file", "sources")
    for n, entry in enumerate(entries):
        if any(c in entry for c in "*?["):
            base = profile.parent if entry.startswith("./") else ROOT
            found = sorted(p.resolve() for p in base.glob(entry.removeprefix("./")))
            if not found:
                raise rtl.error(f"{entry}: matches no file", f"sources[{n}]")
            out.extend(found)
            continue
        path = _relative(profile, entry)
        if not path.is_file():
            raise ProfileError(f"{profile}: rtl.sources[{n}]: {entry}: no such file "
                               f"(paths are relative to the repository root, or to the profile with './')")
        out.append(path)
    return out


def _config(root: Node, name: str, override: str | None, takes_parameters: bool) -> VtaConfig:
    """The profile's configuration, or the override where the design takes it as parameters."""
    cfg = load_config(name)
    if override is None:
        return cfg
    try:
        other = load_config(override)
    except ConfigError as exc:
        raise ProfileError(f"--config: {exc}") from None
    if other != cfg and not takes_parameters:
        raise root.error(f"the design is built for {name!r} only (rtl.parameters: none); "
                         f"--config {override} differs", "config")
    return other


def _interface(node: Node, section: str) -> Interface:
    """Read host or memory: prefix, renamed signals, absent signals (ports checked later)."""
    prefix = node.get("prefix", str)
    signals = {s.name: s for s in INTERFACES[section][1]}
    rename_node = node.child("ports", {})
    renamed: dict[str, str] = {}
    for key in rename_node.value:
        if key not in signals:
            raise rename_node.error(f"not a signal of the {section} interface "
                                    f"(signals: {', '.join(signals)})", str(key))
        renamed[key] = rename_node.get(key, str)
    absent = node.strings("absent", [])
    for n, sig_name in enumerate(absent):
        field = f"absent[{n}]"
        if sig_name not in signals:
            raise node.error(f"{sig_name!r} is not a signal of the {section} interface", field)
        if absent.index(sig_name) != n:
            raise node.error(f"{sig_name!r} is listed twice", field)
        if sig_name in renamed:
            raise node.error(f"{sig_name!r} is also mapped in {section}.ports", field)
        if signals[sig_name].required:
            raise node.error(f"{sig_name!r} cannot be absent: the testbench needs it", field)
    node.done()
    ports = {s: prefix + renamed.get(s, s) for s in signals if s not in absent}
    return Interface(ports, tuple(absent))


def _differences(root: Node) -> tuple[Difference, ...]:
    """The differences list: known names, each once, each with its reason."""
    out: list[Difference] = []
    for n, item in enumerate(root.get("differences", list)):
        entry = Node(root.path, root.at("differences") + f"[{n}]", item)
        name = entry.get("name", str)
        if name not in DIFFERENCES:
            raise entry.error(f"unknown difference {name!r} (known: {', '.join(DIFFERENCES)})", "name")
        if any(d.name == name for d in out):
            raise entry.error(f"{name!r} is listed twice", "name")
        reason = entry.get("reason", str)
        if not reason.strip():
            raise entry.error("must say where the fact comes from", "reason")
        limit = entry.get("limit", int, -1) if name in LIMITS else None
        if limit is not None and limit < 1:
            raise entry.error(f"{name!r} needs a positive limit: {LIMITS[name]}", "limit")
        entry.done()
        out.append(Difference(name, reason, limit))
    return tuple(out)


def _netlist(root: Node, registers: RegisterMap) -> NetlistOf:
    """The ``netlist`` section: whose RTL it is (its registers must be that profile's), how it
    was made, and a reason for every check a netlist cannot run: none may be left unsaid."""
    node = root.child("netlist")
    of = node.get("of", str)
    if of != DEFAULT_PROFILE:
        raise node.error(f"must be {DEFAULT_PROFILE!r}: rtl/ is the one design tb/gate synthesizes, "
                         f"got {of!r}", "of")
    script = node.get("script", str)
    reasons = node.child("not_checked")
    not_checked = {str(k): reasons.get(str(k), str) for k in reasons.value}
    for check in PROBE_CHECKS:
        if check not in not_checked:
            raise reasons.error(f"must say why {check} ({PROBE_CHECKS[check].split(' (')[0]}) "
                                f"cannot run on a netlist", check)
        if not not_checked[check].strip():
            raise reasons.error("must give the reason", check)
    for check in not_checked:
        if check not in PROBE_CHECKS:
            raise reasons.error(f"not a check bound to rtl/'s internal nets (those: "
                                f"{', '.join(PROBE_CHECKS)})", check)
    node.done()
    own_path = resolve(of)
    own = read_registers(Node(own_path, "", read_yaml(own_path)).child("registers"))
    if registers != own:
        raise root.error(f"must be {of}'s own register map ({own_path}): the netlist is its RTL",
                         "registers")
    return NetlistOf(of, script, not_checked)


def _check_ports(root: Node, p: Profile) -> None:
    """Every mapped port exists with the right direction and a width the wrapper can adapt,
    and every port of the top is accounted for exactly once."""
    top = f"module {p.top}"
    claimed: dict[str, str] = {}

    def claim(port: str, field: str, output: bool | None, width: int | None = None) -> Port:
        if port not in p.dut_ports:
            raise ProfileError(f"{p.path}: {field}: port '{port}' does not exist in {top}")
        if port in claimed:
            raise ProfileError(f"{p.path}: {field}: port '{port}' is already used by {claimed[port]}")
        found = p.dut_ports[port]
        if output is not None and found.output != output:
            want = "an output (the DUT drives it)" if output else "an input (the testbench drives it)"
            raise ProfileError(f"{p.path}: {field}: port '{port}' of {top} must be {want}")
        if width is not None and found.width != width:
            raise ProfileError(f"{p.path}: {field}: port '{port}' of {top} is {found.width} bits, "
                               f"must be {width}")
        claimed[port] = field
        return found

    claim(p.clock, "clock", False, 1)
    claim(p.reset, "reset.port", False, 1)
    bus_bits = p.config.bus_bytes * 8
    for section, iface in (("host", p.host), ("memory", p.memory)):
        renamed = root.child(section).child("ports", {}).value
        for sig_name, port in iface.ports.items():
            sig = _signal(section, sig_name)
            field = f"{section}.ports.{sig_name}" if sig_name in renamed else f"{section}.prefix"
            found = claim(port, field, sig.output, _exact_width(sig, bus_bits))
            _check_width(p, field, sig, found)
    for port, value in p.tie_off.items():
        found = claim(port, f"tie_off.{port}", False)
        if not 0 <= value < 1 << found.width:
            raise ProfileError(f"{p.path}: tie_off.{port}: {value} does not fit the port's "
                               f"{found.width} bits")
    for n, port in enumerate(p.unused):
        claim(port, f"unused[{n}]", True)
    for dut_port in p.dut_ports.values():
        if dut_port.name not in claimed:
            where = "listed in unused" if dut_port.output else "tied off (tie_off)"
            raise ProfileError(f"{p.path}: rtl.top: port '{dut_port.name}' of {top} is neither "
                               f"mapped nor {where}")


def _signal(section: str, name: str) -> Signal:
    return next(s for s in INTERFACES[section][1] if s.name == name)


def _exact_width(sig: Signal, bus_bits: int) -> int | None:
    """Data and strobes must match the configuration's bus exactly; other widths adapt."""
    return {"data": bus_bits, "strb": bus_bits // 8}.get(sig.width) if isinstance(sig.width, str) else None


def _check_width(p: Profile, field: str, sig: Signal, found: Port) -> None:
    """The profile's address and ID widths agree with the ports that carry them."""
    if sig.width == "addr" and found.width != p.address_width:
        raise ProfileError(f"{p.path}: {field}: port '{found.name}' is {found.width} bits but "
                           f"memory.address_width is {p.address_width}")
    if sig.width == "id" and found.width > p.id_width:
        raise ProfileError(f"{p.path}: {field}: port '{found.name}' is {found.width} bits, wider "
                           f"than memory.id_width ({p.id_width})")


def summary(p: Profile) -> str:
    """A few lines saying what the profile describes."""
    pointers = ", ".join(f"{k} {v:#x}" for k, v in p.registers.pointers.items())
    lines = [f"{p.name}: {p.description}",
             f"  top {p.top} ({len(p.sources)} files, {len(p.dut_ports)} ports), configuration "
             f"{p.config_name}, reset {p.reset} active {'low' if p.reset_active_low else 'high'} "
             f"({'synchronous' if p.reset_sync else 'asynchronous'})",
             f"  absent: host {list(p.host.absent)}, memory {list(p.memory.absent)}; tied off "
             f"{len(p.tie_off)}, unused {len(p.unused)}; address {p.address_width} bits, id {p.id_width}",
             f"  pointers ({p.registers.pointer_width}-bit, base {p.registers.base_combine}): {pointers}",
             f"  differences: {', '.join(d.name for d in p.differences) or 'none'}"]
    if p.netlist is not None:
        lines.append(f"  netlist of {p.netlist.of} ({p.netlist.script}); not checked: "
                     f"{', '.join(p.netlist.not_checked)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or args and args[0].startswith("-"):
        print("usage: python -m tb.duts.profile [PROFILE]", file=sys.stderr)
        return 2
    try:
        print(summary(load(args[0] if args else DEFAULT_PROFILE)))
    except ProfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
