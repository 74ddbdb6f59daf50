"""What `make synth` and `make timing` synthesize: rtl/ for a configuration, or another
design's netlist named by its DUT profile (`DUT=NAME`, tb/duts/).

Both flows copy the design into the run's directory, key their caches on its files and name
the run after it; this module says which files, which top and parameters, and what the run
is called. rtl/ takes the configuration as parameters, so its runs are named after the
configuration. A foreign design is what its profile says (rtl.sources, rtl.top); a fixed one
(`rtl.parameters: none`, like upstream's generated Chisel) has one configuration, the
profile's, so its runs are named after the profile. Loading the profile checks it against
the design, so a missing netlist is a ProfileError naming the file before anything runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from models.config import ConfigError
from models.spec import SHIPPED_CONFIGS
from models.spec.configs import load_config
from tb.duts.profile import DEFAULT_PROFILE, load
from tb.duts.rtlports import Port, top_ports
from tb.paths import RTL_DIR


class DesignError(ValueError):
    """A design the flows cannot stage (two sources of one file name, --rtl with a foreign DUT)."""


def config_label(config: str) -> str:
    """The directory name of a configuration: a shipped name as is, a JSON file by its stem."""
    return config if config in SHIPPED_CONFIGS else Path(config).stem


@dataclass(frozen=True)
class Design:
    """One design to synthesize. ``sources`` are read by Yosys, ``headers`` only staged beside
    them for `include; ``dut`` is the profile's name (DEFAULT_PROFILE for rtl/)."""

    dut: str
    config: str               # the configuration's label (shipped name or JSON stem)
    values: dict[str, int]    # its values (part of every cache key)
    top: str
    clock: str
    parameters: dict[str, int]
    sources: tuple[Path, ...]
    headers: tuple[Path, ...]
    include_dirs: tuple[Path, ...]
    ports: dict[str, Port] | None   # the top's ports when the profile already elaborated them

    @property
    def foreign(self) -> bool:
        return self.dut != DEFAULT_PROFILE

    @property
    def label(self) -> str:
        """The run directory's prefix: `default`, or `upstream-chisel`."""
        return self.dut if self.foreign else self.config

    @property
    def title(self) -> str:
        """How messages name the run: `default`, or `upstream-chisel (upstream_chisel)`."""
        return f"{self.dut} ({self.config})" if self.foreign else self.config

    @property
    def files(self) -> list[Path]:
        """Every file the result depends on, as the caches hash them."""
        return [*self.sources, *self.headers]

    def top_ports(self) -> dict[str, Port]:
        """The top's ports in declaration order (elaborated here for rtl/, which may be a copy)."""
        if self.ports is not None:
            return self.ports
        return top_ports(list(self.sources), list(self.include_dirs), self.top, self.parameters)


def rtl_design(config: str, rtl_dir: Path) -> Design:
    """vta_top of rtl_dir with the configuration's parameters, as every simulator build
    passes them (the vta profile derives them)."""
    values = dict(load_config(config).values)     # ConfigError first: CONFIG= is the knob at fault
    profile = load(DEFAULT_PROFILE, config)
    return Design(DEFAULT_PROFILE, config_label(config), values, profile.top,
                  profile.clock, profile.parameters(), tuple(sorted(rtl_dir.glob("*.v"))),
                  tuple(sorted(rtl_dir.glob("*.vh"))), (rtl_dir,), None)


def foreign_design(dut: str, config: str | None) -> Design:
    """The profile's design; ``config`` only where the profile takes it (load() refuses it
    otherwise). Raises ProfileError for an unknown profile or a missing source."""
    profile = load(dut, config)
    headers = tuple(sorted(h for d in profile.include_dirs for h in d.iterdir()
                           if h.suffix in (".vh", ".svh")))
    names = [p.name for p in (*profile.sources, *headers)]
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        raise DesignError(f"{profile.path}: rtl.sources: {', '.join(clash)}: two files of one name "
                          "(the flows copy the design into one directory)")
    return Design(profile.name, config_label(profile.config_name), dict(profile.config.values), profile.top,
                  profile.clock, profile.parameters(), profile.sources, headers, profile.include_dirs,
                  profile.dut_ports)


def design(dut: str, config: str | None, default_config: str, rtl_dir: Path | None) -> Design:
    """The design of ``dut`` (DEFAULT_PROFILE: rtl_dir, default rtl/, at ``config`` or
    ``default_config``); ``rtl_dir`` belongs to rtl/ only."""
    if dut == DEFAULT_PROFILE:
        return rtl_design(config or default_config, (rtl_dir or RTL_DIR).resolve())
    if rtl_dir is not None:
        raise DesignError(f"--rtl names a copy of rtl/; DUT {dut} is its profile's rtl.sources")
    return foreign_design(dut, config)


def knob_message(dut: str, config: str | None, exc: Exception) -> str:
    """The one line a design() error prints: the make knob at fault, then what is wrong."""
    return f"CONFIG={config}: {exc}" if isinstance(exc, ConfigError) else f"DUT={dut}: {exc}"
