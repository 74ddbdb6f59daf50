"""The ECP5 parts `make timing` can place and route on, named as Lattice orders them.

A part is DEVICE-<speed><package>, Lattice's ordering code without the temperature grade:
LFE5UM5G-85F-8BG381 is the LFE5UM5G-85F in the 381-ball caBGA at speed grade 8. The table
below is nextpnr-ecp5's own (each device was asked for each package; the pinned build
refuses the pairs left out), so a part it would refuse is refused here, in one line and
before a minute of synthesis, not after it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

#: The part of the figures in README: the largest ECP5, fastest speed grade.
DEFAULT_PART = "LFE5UM5G-85F-8BG381"

#: device -> nextpnr-ecp5's device option
DEVICES: dict[str, str] = {
    "LFE5U-12F": "--12k", "LFE5U-25F": "--25k", "LFE5U-45F": "--45k", "LFE5U-85F": "--85k",
    "LFE5UM-25F": "--um-25k", "LFE5UM-45F": "--um-45k", "LFE5UM-85F": "--um-85k",
    "LFE5UM5G-25F": "--um5g-25k", "LFE5UM5G-45F": "--um5g-45k", "LFE5UM5G-85F": "--um5g-85k",
}
#: Lattice's package code -> nextpnr's package name
PACKAGES: dict[str, str] = {
    "TG144": "TQFP144", "BG256": "CABGA256", "MG285": "CSFBGA285", "BG381": "CABGA381",
    "BG554": "CABGA554", "BG756": "CABGA756",
}
#: size (the device's "-NNF") -> the packages nextpnr-ecp5 has for it
SIZE_PACKAGES: dict[str, tuple[str, ...]] = {
    "12F": ("TG144", "BG256", "MG285", "BG381"),
    "25F": ("TG144", "BG256", "MG285", "BG381"),
    "45F": ("TG144", "BG256", "MG285", "BG381", "BG554"),
    "85F": ("MG285", "BG381", "BG554", "BG756"),
}
SPEEDS = ("6", "7", "8")
#: the 5G devices come in speed grade 8 only
SPEEDS_5G = ("8",)
PART = re.compile(r"^(LFE5[A-Z0-9]*-\d+F)-(\d)([A-Z]+\d+)$")


class PartError(ValueError):
    """A part nextpnr-ecp5 cannot place on; the message names it and what would do."""


@dataclass(frozen=True)
class Part:
    """One ECP5 part: its name and the options that select it in nextpnr-ecp5."""

    name: str
    device: str
    speed: str
    package: str   # Lattice's code (BG381)

    def nextpnr_args(self) -> list[str]:
        """The device, package and speed options of nextpnr-ecp5."""
        return [DEVICES[self.device], "--package", PACKAGES[self.package], "--speed", self.speed]

    def describe(self) -> str:
        """`LFE5UM5G-85F, CABGA381, speed grade 8`."""
        return f"{self.device}, {PACKAGES[self.package]}, speed grade {self.speed}"


def parse_part(text: str) -> Part:
    """The part a name stands for, or PartError saying what is wrong with the name."""
    match = PART.match(text.strip().upper())
    if match is None:
        raise PartError(f"PART={text}: not DEVICE-<speed><package> (e.g. {DEFAULT_PART}: "
                        "LFE5UM5G-85F at speed grade 8 in the 381-ball caBGA)")
    device, speed, package = match.groups()
    if device not in DEVICES:
        raise PartError(f"PART={text}: unknown device {device} (one of {', '.join(DEVICES)})")
    speeds = SPEEDS_5G if "UM5G" in device else SPEEDS
    if speed not in speeds:
        raise PartError(f"PART={text}: {device} has speed grade {' or '.join(speeds)}, not {speed}")
    allowed = SIZE_PACKAGES[device.rsplit("-", 1)[1]]
    if package not in allowed:
        raise PartError(f"PART={text}: {device} does not come in {package} "
                        f"(its packages: {', '.join(allowed)})")
    return Part(f"{device}-{speed}{package}", device, speed, package)
