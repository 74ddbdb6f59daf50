"""VTA configuration (spec section 1): defaults, validation and derived values.

Every other part of the suite (encoder, executor, checker, RTL parameters) reads sizes
from a :class:`VtaConfig`, so a configuration is validated once, here, with errors that
name the offending key and the rule it breaks.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from models.isa import layout_error
from models.widths import INSN_BYTES, MEMOP_SRAM_ADDR_BITS, UOP_BYTES

#: Upstream's vta_config.json keys plus the documented extras (LOG_BUS_WIDTH and the
#: two queue depths of the RTL build, which the checker needs to decide deadlock, and
#: PIPE_STAGES, the register stages of the GEMM/ALU pipeline, which models/timing.py needs
#: for its cycle counts: rtl/README.md, "GEMM/ALU pipeline").
DEFAULTS: dict[str, int] = {
    "LOG_INP_WIDTH": 3,
    "LOG_WGT_WIDTH": 3,
    "LOG_ACC_WIDTH": 5,
    "LOG_BATCH": 0,
    "LOG_BLOCK": 4,
    "LOG_UOP_BUFF_SIZE": 15,
    "LOG_INP_BUFF_SIZE": 15,
    "LOG_WGT_BUFF_SIZE": 18,
    "LOG_ACC_BUFF_SIZE": 17,
    "LOG_BUS_WIDTH": 6,
    "CMD_QUEUE_DEPTH": 8,
    "TOKEN_QUEUE_DEPTH": 8,
    "PIPE_STAGES": 3,
}

#: Inclusive ranges accepted for each key, with the reason for the bound.
RANGES: dict[str, tuple[int, int, str]] = {
    "LOG_INP_WIDTH": (3, 3, "only 8-bit inputs are supported (upstream's only built width)"),
    "LOG_WGT_WIDTH": (3, 3, "only 8-bit weights are supported (upstream's only built width)"),
    "LOG_ACC_WIDTH": (5, 5, "only 32-bit accumulators are supported (upstream's only built width)"),
    "LOG_BATCH": (0, 3, "BATCH must be 1..8"),
    "LOG_BLOCK": (1, 5, "BLOCK must be 2..32"),
    "LOG_UOP_BUFF_SIZE": (3, 18, "micro-op buffer must hold 2..65536 micro-ops"),
    "LOG_INP_BUFF_SIZE": (4, 24, "buffer size must be 16 B..16 MiB"),
    "LOG_WGT_BUFF_SIZE": (4, 24, "buffer size must be 16 B..16 MiB"),
    "LOG_ACC_BUFF_SIZE": (4, 24, "buffer size must be 16 B..16 MiB"),
    "LOG_BUS_WIDTH": (5, 9, "AXI data bus must be 32..512 bits"),
    "CMD_QUEUE_DEPTH": (1, 64, "command queues hold 1..64 instructions"),
    "TOKEN_QUEUE_DEPTH": (1, 255, "token counters hold 1..255 tokens"),
    "PIPE_STAGES": (0, 3, "the GEMM/ALU pipeline has 0..3 stages between its reads and C"),
}

class ConfigError(ValueError):
    """A configuration that breaks a rule of spec section 1; the message names the key."""


class DuplicateKeyError(ValueError):
    """A JSON object that names one key twice (json keeps the last one silently)."""


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for json.loads that refuses a key given twice."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKeyError(f"duplicate key {key!r}")
        out[key] = value
    return out


def read_json(path: Path, error: type[ValueError], missing: str | None = None) -> Any:
    """Parse a JSON file, turning every way it can be unreadable into one ``error`` that names
    the path: missing (``missing`` is the message then), not a regular file, unreadable, not
    UTF-8, not JSON, a duplicate key, nesting or a number too large for the parser."""
    if path.is_dir():
        raise error(f"{path}: is a directory, expected a JSON file")
    if path.exists() and not path.is_file():
        raise error(f"{path}: not a regular file (a device, FIFO or socket would never end or block)")
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise error(missing or f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        line = text_line(exc.object, exc.start)
        raise error(f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} on line {line})") from None
    try:
        return json.loads(text, object_pairs_hook=no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise error(f"{path}: not valid JSON: {exc}") from None
    except RecursionError:
        raise error(f"{path}: not valid JSON: nested too deeply") from None
    except ValueError as exc:  # a duplicate key, an integer literal of thousands of digits
        why = "an integer literal has too many digits" if "digits" in str(exc) else str(exc)
        raise error(f"{path}: not valid JSON: {why}") from None


def text_line(data: bytes, offset: int) -> int:
    """1-based line number of a byte offset."""
    return data.count(b"\n", 0, offset) + 1


@dataclass(frozen=True)
class VtaConfig:
    """A validated configuration with every derived value as an attribute.

    Construct with :meth:`from_dict` or :meth:`from_file`; the constructor itself
    validates too, so an invalid object cannot exist.
    """

    values: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULTS))
    source: str = "<defaults>"

    def __post_init__(self) -> None:
        merged = dict(DEFAULTS)
        for key, value in self.values.items():
            if key not in DEFAULTS:
                raise ConfigError(f"{self.source}: unknown configuration key '{key}' "
                                  f"(known: {', '.join(DEFAULTS)})")
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{self.source}: '{key}' must be an integer, got {value!r}")
            lo, hi, why = RANGES[key]
            if not lo <= value <= hi:
                raise ConfigError(f"{self.source}: '{key}' = {value} is out of range "
                                  f"[{lo}, {hi}]: {why}")
            merged[key] = value
        object.__setattr__(self, "values", merged)
        self._check_depths()
        error = layout_error(self)
        if error:
            raise ConfigError(f"{self.source}: {error}")

    def _check_depths(self) -> None:
        for name in ("UOP", "INP", "WGT", "ACC"):
            log_depth = getattr(self, f"log_{name.lower()}_depth")
            key = f"LOG_{name}_BUFF_SIZE"
            if log_depth < 1:
                raise ConfigError(f"{self.source}: '{key}' = {self.values[key]} leaves the {name} "
                                  f"buffer with fewer than 2 elements of "
                                  f"{getattr(self, name.lower() + '_bytes')} bytes")
            if log_depth > MEMOP_SRAM_ADDR_BITS:
                raise ConfigError(f"{self.source}: '{key}' = {self.values[key]} gives a {name} buffer "
                                  f"of 2^{log_depth} elements, beyond the {MEMOP_SRAM_ADDR_BITS}-bit "
                                  f"sram_base field")

    # --- construction -------------------------------------------------------------
    @classmethod
    def from_dict(cls, values: Mapping[str, Any], source: str = "<dict>") -> "VtaConfig":
        """Validate a mapping of keys that differ from the defaults."""
        if not isinstance(values, Mapping):
            raise ConfigError(f"{source}: a configuration must be a JSON object, got {type(values).__name__}")
        return cls(dict(values), source)

    @classmethod
    def from_file(cls, path: str | Path) -> "VtaConfig":
        """Read and validate a vta_config.json-style file."""
        path = Path(path)
        values = read_json(path, ConfigError, f"{path}: configuration file not found")
        return cls.from_dict(values, str(path))

    def overrides(self) -> dict[str, int]:
        """The keys that differ from the defaults, as a vector's manifest stores them."""
        return {k: v for k, v in self.values.items() if DEFAULTS[k] != v}

    def __getitem__(self, key: str) -> int:
        return self.values[key]

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.values.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VtaConfig) and dict(self.values) == dict(other.values)

    # --- widths -------------------------------------------------------------------
    @property
    def inp_width(self) -> int:
        return 1 << self.values["LOG_INP_WIDTH"]

    @property
    def wgt_width(self) -> int:
        return 1 << self.values["LOG_WGT_WIDTH"]

    @property
    def acc_width(self) -> int:
        return 1 << self.values["LOG_ACC_WIDTH"]

    @property
    def out_width(self) -> int:
        return self.inp_width

    @property
    def batch(self) -> int:
        return 1 << self.values["LOG_BATCH"]

    @property
    def block(self) -> int:
        return 1 << self.values["LOG_BLOCK"]

    block_in = block
    block_out = block

    @property
    def bus_bytes(self) -> int:
        return (1 << self.values["LOG_BUS_WIDTH"]) // 8

    @property
    def cmd_queue_depth(self) -> int:
        return self.values["CMD_QUEUE_DEPTH"]

    @property
    def token_queue_depth(self) -> int:
        return self.values["TOKEN_QUEUE_DEPTH"]

    @property
    def pipe_stages(self) -> int:
        return self.values["PIPE_STAGES"]

    # --- element sizes in bytes ------------------------------------------------------
    @property
    def inp_bytes(self) -> int:
        return self.batch * self.block_in * self.inp_width // 8

    @property
    def wgt_bytes(self) -> int:
        return self.block_out * self.block_in * self.wgt_width // 8

    @property
    def acc_bytes(self) -> int:
        return self.batch * self.block_out * self.acc_width // 8

    @property
    def out_bytes(self) -> int:
        return self.batch * self.block_out * self.out_width // 8

    @property
    def acc8_bytes(self) -> int:
        """DRAM bytes of one ACC_8BIT element (one int8 per accumulator lane)."""
        return self.batch * self.block_out

    uop_bytes = UOP_BYTES
    insn_bytes = INSN_BYTES

    # --- buffer depths (log2 of the number of elements) -------------------------------
    @property
    def log_uop_depth(self) -> int:
        return self.values["LOG_UOP_BUFF_SIZE"] - 2

    @property
    def log_inp_depth(self) -> int:
        return self.values["LOG_INP_BUFF_SIZE"] - self.inp_bytes.bit_length() + 1

    @property
    def log_wgt_depth(self) -> int:
        return self.values["LOG_WGT_BUFF_SIZE"] - self.wgt_bytes.bit_length() + 1

    @property
    def log_acc_depth(self) -> int:
        return self.values["LOG_ACC_BUFF_SIZE"] - self.acc_bytes.bit_length() + 1

    @property
    def log_out_depth(self) -> int:
        return self.log_acc_depth

    @property
    def uop_depth(self) -> int:
        return 1 << self.log_uop_depth

    @property
    def inp_depth(self) -> int:
        return 1 << self.log_inp_depth

    @property
    def wgt_depth(self) -> int:
        return 1 << self.log_wgt_depth

    @property
    def acc_depth(self) -> int:
        return 1 << self.log_acc_depth

    @property
    def out_depth(self) -> int:
        return self.acc_depth

    @property
    def log_out_buff_size(self) -> int:
        return (self.values["LOG_ACC_BUFF_SIZE"] + self.values["LOG_INP_WIDTH"]
                - self.values["LOG_ACC_WIDTH"])

    def derived(self) -> dict[str, int]:
        """Every derived value by name, for reports and for RTL parameter generation."""
        names = ["inp_width", "wgt_width", "acc_width", "out_width", "batch", "block_in",
                 "block_out", "bus_bytes", "inp_bytes", "wgt_bytes", "acc_bytes", "out_bytes",
                 "acc8_bytes", "uop_bytes", "insn_bytes", "log_uop_depth", "log_inp_depth",
                 "log_wgt_depth", "log_acc_depth", "log_out_depth", "uop_depth", "inp_depth",
                 "wgt_depth", "acc_depth", "out_depth", "log_out_buff_size",
                 "cmd_queue_depth", "token_queue_depth"]
        return {n: getattr(self, n) for n in names}


CONFIG_DIR = Path(__file__).resolve().parent / "configs"
