"""How a run names a netlist as its DUT: ``netlist:CONFIG[:SCRIPT]``.

A DUT is named by a profile (tb/duts): a name under tb/duts/ or a YAML path. A netlist's
profile is generated (tb/gate/profile.py) next to the netlist under build/gate/, so the run
names it by what it is made from instead: the configuration and the synthesis script
(``SCRIPTS``, each written by tb/gate/scripts.py; default ``abc``). That name travels
everywhere a DUT name does (the plan a simulator process reads, repro commands, saved
failures), and whoever reads it first builds the netlist if it is missing or stale
(tb/plan/dutmap.py: profile_of), so a repro command works on a fresh checkout. This module
only parses names and sits with the profiles (tb/gate, which builds netlists, imports it,
not the other way round); it imports nothing heavy.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from models.spec import SHIPPED_CONFIGS
from tb.duts.schema import ProfileError
from tb.paths import ROOT, rtl_suffix

PREFIX = "netlist:"
#: Where netlists, their logs and their profiles live: one directory per configuration and script.
OUT = ROOT / "build" / "gate"
#: The synthesis scripts a netlist is made with (tb/gate/scripts.py writes one for each name).
SCRIPTS: tuple[str, ...] = ("abc", "techmap", "broken")
DEFAULT_SCRIPT = "abc"
#: The default configuration of `make sim NETLIST=1` (as `make timing`'s: the default
#: configuration's 256-MAC GEMM core makes a netlist many times larger).
DEFAULT_CONFIG = "small"
PROFILE_FILE = "profile.yaml"
NETLIST_FILE = "vta_gate.v"
#: The netlist's top module: vta_top's ports under a name that says it is not rtl/'s source.
GATE_TOP = "vta_gate"


class SpecError(ProfileError):
    """A netlist name that names no netlist; the message is one line saying why (a
    ProfileError: wherever a DUT name is read, it is refused the way a bad profile is)."""


class NetlistError(RuntimeError):
    """The netlist could not be made (Yosys missing or stopping); one line with the log's path.
    Defined here, not in build.py, so that a run of rtl/ catching it imports nothing heavy."""


@dataclass(frozen=True)
class NetlistSpec:
    """A netlist: rtl/ for a shipped configuration through one synthesis script."""

    config: str
    script: str

    @property
    def name(self) -> str:
        """The DUT name a run takes (``netlist:small``; the script only when not the default)."""
        tail = "" if self.script == DEFAULT_SCRIPT else f":{self.script}"
        return f"{PREFIX}{self.config}{tail}"

    @property
    def profile_name(self) -> str:
        """The profile's ``name`` (build directories and reports carry it)."""
        return f"netlist-{self.config}-{self.script}"

    @property
    def command(self) -> str:
        """The command that builds it (a run on it builds it too)."""
        tail = "" if self.script == DEFAULT_SCRIPT else f" --script {self.script}"
        return f"python -m tb.gate --config {self.config}{tail}"

    def directory(self, out: Path = OUT) -> Path:
        """The netlist's directory (a design other than rtl/, VTA_RTL_DIR, keeps its own)."""
        return out / f"{self.config}-{self.script}{rtl_suffix()}"

    def profile(self, out: Path = OUT) -> Path:
        return self.directory(out) / PROFILE_FILE


def is_netlist(dut: str) -> bool:
    """True for a DUT name of the form ``netlist:...``."""
    return str(dut).startswith(PREFIX)


def is_profile_file(dut: str) -> bool:
    """True for a DUT argument that is a path to a profile's YAML file, not a name under
    tb/duts/ nor a netlist's name (the rule tb/duts/profile.py resolves arguments by)."""
    text = str(dut)
    return not is_netlist(text) and ("/" in text or text.endswith((".yaml", ".yml")))


def parse(dut: str) -> NetlistSpec:
    """The netlist a DUT name ``netlist:CONFIG[:SCRIPT]`` names. A bad part is a SpecError
    naming it."""
    parts = str(dut).removeprefix(PREFIX).split(":")
    if len(parts) > 2 or not parts[0]:
        raise SpecError(f"{dut}: a netlist is named netlist:CONFIG or netlist:CONFIG:SCRIPT")
    config, script = parts[0], parts[1] if len(parts) == 2 else DEFAULT_SCRIPT
    if config not in SHIPPED_CONFIGS:
        raise SpecError(f"{dut}: {config!r} is not a shipped configuration ({', '.join(SHIPPED_CONFIGS)}): "
                        f"a netlist is built for one of them")
    if script not in SCRIPTS:
        raise SpecError(f"{dut}: {script!r} is not a netlist script ({', '.join(SCRIPTS)})")
    return NetlistSpec(config, script)
