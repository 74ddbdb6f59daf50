"""The memory port's constant attributes (rtl/README.md: AxLOCK 0, AxCACHE 0011, AxPROT 000,
AxQOS 0000) in the full mode's protocol checker, on samples written by hand. The fast mode's
Verilog checker (rule 12) is exercised by the mutation sample of tb/tests/test_mutate_sim.py."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tb.rules.failure import Failure
from tb.uvm.agents.sampler import ChannelSample, Value
from tb.uvm.checkers.protocol import ATTRIBUTES, AxiProtocolChecker, attributes_text

IDLE = ChannelSample("0", "1")


def ar_burst(attr: int) -> dict[str, ChannelSample]:
    """One AR handshake of a single-beat read at 0x1000, 8-byte beats, with ``attr``."""
    fields = {"arid": 0, "araddr": 0x1000, "arlen": 0, "arsize": 3, "arburst": 1, "arattr": attr}
    ar = ChannelSample("1", "1", {n: Value(v, format(v, "b")) for n, v in fields.items()})
    return {"aw": IDLE, "w": IDLE, "b": IDLE, "ar": ar, "r": IDLE}


def checker(found: list[Failure]) -> AxiProtocolChecker:
    port: Any = SimpleNamespace(name="m_axi_gmem", lite=False, data_bytes=8,
                                channels={ch: None for ch in ("aw", "w", "b", "ar", "r")})
    return AxiProtocolChecker(port, found.append)


def test_documented_attributes_pass() -> None:
    found: list[Failure] = []
    checker(found).on_sample(10, ar_burst(0b0_0011_000_0000))
    assert ATTRIBUTES == 0x180 and found == []


def test_each_changed_field_is_named() -> None:
    found: list[Failure] = []
    checker(found).on_sample(10, ar_burst(ATTRIBUTES | 1))  # ARQOS 1
    assert [(f.kind, f.rule, f.module, f.channel) for f in found] == [
        ("protocol", "attributes", "m_axi_gmem", "AR")]
    assert [f.message for f in found] == [
        "AXI protocol violation on m_axi_gmem AR channel at cycle 10 [attributes]: "
        "arqos = 0x1, expected 0x0 (rtl/README.md: the memory port's constant "
                     "attributes)"]
    assert attributes_text("aw", 0b1_1111_010_0000) == (
        "awlock = 0x1, expected 0x0; awcache = 0xf, expected 0x3; awprot = 0x2, expected 0x0 "
        "(rtl/README.md: the memory port's constant attributes)")
