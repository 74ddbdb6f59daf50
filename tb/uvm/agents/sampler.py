"""Samples the AXI ports of the DUT once per clock edge and hands snapshots to listeners.

Monitors and protocol checkers need the same values on every rising edge; reading each
signal once here keeps the per-cycle Python cost (the simulation bottleneck) low. Values
are those seen at the edge, i.e. what the receiving flop captures, as cocotbext-axi's own
models sample them. Payload is only read while valid is high.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import cocotb
from cocotb.triggers import RisingEdge

AXI4_CHANNELS: dict[str, tuple[str, ...]] = {
    "aw": ("awid", "awaddr", "awlen", "awsize", "awburst", "awattr"),
    "w": ("wdata", "wstrb", "wlast"),
    "b": ("bid", "bresp"),
    "ar": ("arid", "araddr", "arlen", "arsize", "arburst", "arattr"),
    "r": ("rid", "rdata", "rresp", "rlast"),
}
AXIL_CHANNELS: dict[str, tuple[str, ...]] = {
    "aw": ("awaddr",),
    "w": ("wdata", "wstrb"),
    "b": ("bresp",),
    "ar": ("araddr",),
    "r": ("rdata", "rresp"),
}


@dataclass
class Value:
    """A sampled payload value: the integer, or None with the raw text when it holds X/Z."""

    value: int | None
    raw: str = ""

    def __str__(self) -> str:
        return f"{self.value:#x}" if self.value is not None else self.raw


@dataclass
class ChannelSample:
    """valid, ready ('0', '1', 'X', 'Z', ...) and payload (only when valid is '1')."""

    valid: str
    ready: str
    payload: dict[str, Value] = field(default_factory=dict)

    @property
    def fire(self) -> bool:
        return self.valid == "1" and self.ready == "1"

    def int(self, name: str, default: int = 0) -> int:
        v = self.payload.get(name)
        return default if v is None or v.value is None else v.value


def _bit(handle: Any) -> str:
    return str(handle.value)


def _read(handle: Any) -> Value:
    v = handle.value
    if v.is_resolvable:
        return Value(int(v))
    return Value(None, str(v))


class Port:
    """Handles of one AXI port (prefix_xxx signals), channel by channel."""

    def __init__(self, dut: Any, prefix: str, lite: bool) -> None:
        self.name = prefix
        self.lite = lite
        self.channels: dict[str, tuple[Any, Any, dict[str, Any]]] = {}
        for ch, names in (AXIL_CHANNELS if lite else AXI4_CHANNELS).items():
            payload = {n: getattr(dut, f"{prefix}_{n}") for n in names
                       if hasattr(dut, f"{prefix}_{n}")}
            self.channels[ch] = (getattr(dut, f"{prefix}_{ch}valid"),
                                 getattr(dut, f"{prefix}_{ch}ready"), payload)
        self.data_bytes = len(getattr(dut, f"{prefix}_wdata")) // 8

    def sample(self) -> dict[str, ChannelSample]:
        out = {}
        for ch, (valid, ready, payload) in self.channels.items():
            s = ChannelSample(_bit(valid), _bit(ready))
            if s.valid == "1":
                s.payload = {n: _read(h) for n, h in payload.items()}
            out[ch] = s
        return out


class Listener(Protocol):
    def on_sample(self, cycle: int, sample: dict[str, ChannelSample]) -> None: ...

    def on_reset(self) -> None: ...


class EdgeSampler:
    """One coroutine per DUT: count cycles, sample every port, dispatch to listeners.

    While reset is asserted listeners get on_reset() instead of samples, so outstanding
    bookkeeping from an interrupted program never leaks into the next one.
    """

    def __init__(self, clock: Any, reset_n: Any) -> None:
        self.clock = clock
        self.reset_n = reset_n
        self.cycle = 0
        self.ports: list[tuple[Port, list[Listener]]] = []
        self._task: cocotb.task.Task | None = None

    def attach(self, port: Port, listener: Listener) -> None:
        for p, listeners in self.ports:
            if p is port:
                listeners.append(listener)
                return
        self.ports.append((port, [listener]))

    def start(self) -> None:
        if self._task is None:
            self._task = cocotb.start_soon(self._run())

    async def _run(self) -> None:
        edge = RisingEdge(self.clock)
        while True:
            await edge
            self.cycle += 1
            if str(self.reset_n.value) != "1":
                for _, listeners in self.ports:
                    for listener in listeners:
                        listener.on_reset()
                continue
            for port, listeners in self.ports:
                sample = port.sample()
                for listener in listeners:
                    listener.on_sample(self.cycle, sample)
