"""Monitors: turn sampled handshakes into transactions on uvm analysis ports.

The AXI4 monitor publishes a write burst the moment its last data beat is accepted
(before the response), which is when the stray-write checker must judge it, and a read
burst at its last beat. Beats are delimited by AxLEN, not by xLAST, so a missing or
early LAST (reported by the protocol checker) still yields whole bursts.
"""
from __future__ import annotations

from collections import deque

from pyuvm import ConfigDB, uvm_analysis_port, uvm_monitor

from tb.uvm.agents.sampler import ChannelSample, Port
from tb.uvm.agents.txn import AxiBurst, AxiLiteAccess


class AxiMonitor(uvm_monitor):
    """AXI4 memory-port monitor of ``PORT`` (ConfigDB); ``ap`` carries every completed AxiBurst."""

    def build_phase(self) -> None:
        self.port: Port = ConfigDB().get(self, "", "PORT")
        self.ap = uvm_analysis_port("ap", self)
        self.on_reset()

    def on_reset(self) -> None:
        self.writes: deque[AxiBurst] = deque()  # address accepted, data incomplete
        self.early: deque[tuple[int, int, int]] = deque()  # (data, strb, cycle) before AW
        self.reads: dict[int, deque[AxiBurst]] = {}

    def on_sample(self, cycle: int, s: dict[str, ChannelSample]) -> None:
        aw, w, ar, r = s["aw"], s["w"], s["ar"], s["r"]
        if aw.fire:
            self.writes.append(self._burst("write", "aw", aw, cycle))
            while self.early and self.writes:
                self._beat(*self.early.popleft())
        if w.fire:
            beat = (w.int("wdata"), w.int("wstrb", (1 << self.port.data_bytes) - 1), cycle)
            if self.writes:
                self._beat(*beat)
            else:
                self.early.append(beat)
        if ar.fire:
            b = self._burst("read", "ar", ar, cycle)
            self.reads.setdefault(b.id, deque()).append(b)
        if r.fire:
            queue = self.reads.get(r.int("rid"))
            if queue:
                b = queue[0]
                b.data.append(r.int("rdata"))
                b.resp.append(r.int("rresp"))
                if len(b.data) == b.beats:
                    b.end_cycle = cycle
                    queue.popleft()
                    self.ap.write(b)

    def _burst(self, kind: str, p: str, s: ChannelSample, cycle: int) -> AxiBurst:
        return AxiBurst(kind, s.int(f"{p}id"), s.int(f"{p}addr"), s.int(f"{p}len") + 1,
                        1 << s.int(f"{p}size"), s.int(f"{p}burst", 1), self.port.data_bytes,
                        start_cycle=cycle)

    def _beat(self, data: int, strb: int, cycle: int) -> None:
        b = self.writes[0]
        b.data.append(data)
        b.strb.append(strb)
        if len(b.data) == b.beats:
            b.end_cycle = cycle
            self.writes.popleft()
            self.ap.write(b)


class AxiLiteMonitor(uvm_monitor):
    """AXI4-Lite control-port monitor of ``PORT`` (ConfigDB); ``ap`` carries every completed
    register access."""

    def build_phase(self) -> None:
        self.port: Port = ConfigDB().get(self, "", "PORT")
        self.ap = uvm_analysis_port("ap", self)
        self.on_reset()

    def on_reset(self) -> None:
        self.aw: deque[int] = deque()
        self.w: deque[tuple[int, int]] = deque()
        self.ar: deque[int] = deque()

    def on_sample(self, cycle: int, s: dict[str, ChannelSample]) -> None:
        if s["aw"].fire:
            self.aw.append(s["aw"].int("awaddr"))
        if s["w"].fire:
            self.w.append((s["w"].int("wdata"), s["w"].int("wstrb", 0xF)))
        if s["b"].fire and self.aw and self.w:
            data, strb = self.w.popleft()
            self.ap.write(AxiLiteAccess("write", self.aw.popleft(), data, strb,
                                        s["b"].int("bresp"), cycle))
        if s["ar"].fire:
            self.ar.append(s["ar"].int("araddr"))
        if s["r"].fire and self.ar:
            self.ap.write(AxiLiteAccess("read", self.ar.popleft(), s["r"].int("rdata"),
                                        resp=s["r"].int("rresp"), cycle=cycle))
