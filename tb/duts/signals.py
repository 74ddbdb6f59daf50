"""The two bus interfaces the testbench drives, signal by signal, as vta_top declares them.

A DUT profile maps each of these signals onto a port of a foreign top (or says the DUT lacks
it), and the wrapper generator writes a module with exactly these ports. Keeping the list
here, once, lets the validator check a profile against it and the wrapper derive its port
list from it, so the two can never disagree with each other or with rtl/vta_top.v
(tb/tests/test_duts.py compares this list with vta_top's elaborated ports).

Directions are vta_top's: ``output`` means the DUT drives the signal. Widths are bits, or
one of the words ``data``/``strb`` (the configuration's bus), ``addr`` (the memory address,
32 bits on vta_top) and ``id`` (the memory ID width, from the profile).

What a DUT may lack, and what the wrapper does then:

- an output with a ``default``: the wrapper drives that AXI-legal constant (an OKAY response,
  all write strobes, INCR bursts, a ready that is always high);
- an input marked ``ignorable``: the wrapper leaves it unused (the DUT does not look at
  write strobes, response codes, IDs or RLAST);
- anything else (handshakes, addresses, data, lengths, WLAST) is required.
"""
from __future__ import annotations

from dataclasses import dataclass

#: The prefixes of the two interfaces on vta_top.
HOST_PREFIX = "s_axi_control_"
MEMORY_PREFIX = "m_axi_gmem_"
#: vta_top's memory address width and ID width.
VTA_ADDR_WIDTH = 32
VTA_ID_WIDTH = 1
#: The AXI-Lite control port's address and data widths (spec section 5).
HOST_ADDR_WIDTH = 16
HOST_DATA_WIDTH = 32


@dataclass(frozen=True)
class Signal:
    """One signal of an interface: its short AXI name (``awvalid``), direction and width.

    ``default`` is the Verilog constant the wrapper drives for an output the DUT lacks
    (``"size"``: log2 of the bus bytes; ``"ones"``: every bit set); ``ignorable`` says an
    input may go unused. A signal with neither is required of every DUT.
    """

    name: str
    output: bool
    width: int | str = 1
    default: str | None = None
    ignorable: bool = False

    @property
    def required(self) -> bool:
        return self.default is None and not self.ignorable


HOST: tuple[Signal, ...] = (
    Signal("awvalid", False), Signal("awready", True), Signal("awaddr", False, HOST_ADDR_WIDTH),
    Signal("wvalid", False), Signal("wready", True), Signal("wdata", False, HOST_DATA_WIDTH),
    Signal("wstrb", False, HOST_DATA_WIDTH // 8, ignorable=True),
    Signal("bvalid", True), Signal("bready", False), Signal("bresp", True, 2, default="0"),
    Signal("arvalid", False), Signal("arready", True), Signal("araddr", False, HOST_ADDR_WIDTH),
    Signal("rvalid", True), Signal("rready", False), Signal("rdata", True, HOST_DATA_WIDTH),
    Signal("rresp", True, 2, default="0"),
)


def _address_channel(ch: str) -> tuple[Signal, ...]:
    """AW or AR: the same fields, with vta_top's constants as the defaults."""
    return (Signal(f"{ch}valid", True), Signal(f"{ch}ready", False),
            Signal(f"{ch}id", True, "id", default="0"), Signal(f"{ch}addr", True, "addr"),
            Signal(f"{ch}len", True, 8), Signal(f"{ch}size", True, 3, default="size"),
            Signal(f"{ch}burst", True, 2, default="1"), Signal(f"{ch}lock", True, 1, default="0"),
            Signal(f"{ch}cache", True, 4, default="3"), Signal(f"{ch}prot", True, 3, default="0"),
            Signal(f"{ch}qos", True, 4, default="0"))


MEMORY: tuple[Signal, ...] = (
    *_address_channel("aw"),
    Signal("wvalid", True), Signal("wready", False), Signal("wdata", True, "data"),
    Signal("wstrb", True, "strb", default="ones"), Signal("wlast", True),
    Signal("bvalid", False), Signal("bready", True, default="1"),
    Signal("bid", False, "id", ignorable=True), Signal("bresp", False, 2, ignorable=True),
    *_address_channel("ar"),
    Signal("rvalid", False), Signal("rready", True, default="1"),
    Signal("rid", False, "id", ignorable=True), Signal("rdata", False, "data"),
    Signal("rresp", False, 2, ignorable=True), Signal("rlast", False, ignorable=True),
)

#: The interfaces by the profile section that maps them.
INTERFACES: dict[str, tuple[str, tuple[Signal, ...]]] = {
    "host": (HOST_PREFIX, HOST),
    "memory": (MEMORY_PREFIX, MEMORY),
}


def width_of(sig: Signal, bus_bits: int, id_width: int) -> int:
    """The signal's width in bits on the testbench side."""
    words = {"data": bus_bits, "strb": bus_bits // 8, "addr": VTA_ADDR_WIDTH, "id": id_width}
    return sig.width if isinstance(sig.width, int) else words[sig.width]
