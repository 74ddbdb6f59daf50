"""AXI protocol checker for the AXI4 master port and the AXI4-Lite slave port.

Checked on every clock edge out of reset, whoever drives the signal:

* no X/Z on valid or ready, nor on the payload of a channel whose valid is high
  (write data only in the byte lanes whose strobe is set);
* once valid is high and ready low, valid stays high and the payload stays stable
  until the handshake;
* AXI4 only: INCR bursts, AxSIZE no wider than the bus, no burst crossing 4 KiB,
  AxLOCK/AxCACHE/AxPROT/AxQOS the documented constants (:data:`ATTRIBUTES`),
  WLAST exactly on beat AWLEN of its burst (so beats == burst length), RLAST exactly
  on beat ARLEN;
* responses (B, R) only while a matching request is outstanding (for B: address and
  all data accepted).

Each violation is reported once through ``report(message, rule=, module=, channel=)``
(the verdict's fields: the rule, the port as module, the channel); messages start with
"AXI protocol violation on <port> <channel>" and name the rule. The full mode's environment
builds one per port from the checker table (tb/rules/checks.py); the fast mode's twin is
tb/rtl/vta_tb_axi_check.v, decoded by tb/uvm/env/fast.py.
"""
from __future__ import annotations

from collections import deque
from typing import Callable

from tb.rules.failure import Failure
from tb.uvm.agents.sampler import ChannelSample, Port
from tb.uvm.context import JobContext

INCR = 1
#: {AxLOCK, AxCACHE, AxPROT, AxQOS} of every burst (rtl/README.md, memory port): normal
#: access, normal non-cacheable bufferable, data/secure/unprivileged, no QoS. The shell
#: drives them constant; an interconnect routes and orders by them, so a change matters.
ATTRIBUTES = 0b0_0011_000_0000
ATTRIBUTE_FIELDS = (("lock", 11, 1), ("cache", 7, 4), ("prot", 4, 3), ("qos", 0, 4))


def attributes_text(p: str, value: int) -> str:
    """The fields of ``value`` (packed as ATTRIBUTES) that differ, against the documented ones."""
    wrong = [f"{p}{name} = {value >> lsb & (1 << w) - 1:#x}, expected {ATTRIBUTES >> lsb & (1 << w) - 1:#x}"
             for name, lsb, w in ATTRIBUTE_FIELDS
             if (value ^ ATTRIBUTES) >> lsb & (1 << w) - 1]
    return "; ".join(wrong) + " (rtl/README.md: the memory port's constant attributes)"


class AxiProtocolChecker:
    """Listener of an EdgeSampler port; one instance per port."""

    def __init__(self, port: Port, report: Callable[[Failure], None]) -> None:
        self.port = port
        self.report = report
        self.on_reset()

    def start_job(self, ctx: JobContext) -> None:
        """The rules hold for every job alike: the context changes nothing here."""

    def on_reset(self) -> None:
        self.pending: dict[str, ChannelSample | None] = {ch: None for ch in self.port.channels}
        self.aw_bursts: deque[list[int]] = deque()  # [id, beats, beats received]
        self.early_w: deque[int] = deque()  # WLAST of beats that came before their AW
        self.b_ready: dict[int, int] = {}  # id -> writes waiting for their B response
        self.reads: dict[int, deque[list[int]]] = {}  # id -> [beats, beats received]
        self.lite_counts = {"aw": 0, "w": 0, "b": 0, "ar": 0, "r": 0}
        self.fired: set[str] = set()

    # --- reporting ------------------------------------------------------------------
    def _violation(self, ch: str, rule: str, text: str, cycle: int) -> None:
        key = f"{ch}:{rule}"
        if key in self.fired:
            return
        self.fired.add(key)
        self.report(Failure("protocol", f"AXI protocol violation on {self.port.name} {ch.upper()} "
                                        f"channel at cycle {cycle} [{rule}]: {text}",
                            rule=rule, module=self.port.name, channel=ch.upper()))

    # --- per-edge entry point -----------------------------------------------------------
    def on_sample(self, cycle: int, sample: dict[str, ChannelSample]) -> None:
        for ch, s in sample.items():
            self._check_signals(ch, s, cycle)
            self._check_stable(ch, s, cycle)
        for ch in ("aw", "w", "b", "ar", "r"):  # requests before responses within an edge
            s = sample[ch]
            if self.port.lite:
                self._lite(ch, s, cycle)
            else:
                getattr(self, f"_axi_{ch}")(s, cycle)

    def _check_signals(self, ch: str, s: ChannelSample, cycle: int) -> None:
        for what, bit in (("valid", s.valid), ("ready", s.ready)):
            if bit not in ("0", "1"):
                self._violation(ch, "x-on-handshake", f"{ch}{what} is {bit}", cycle)
        if s.valid != "1":
            return
        for name, v in s.payload.items():
            if v.value is not None:
                continue
            if name.endswith("data") and ch == "w":
                strb = s.payload.get("wstrb")
                if strb is not None and strb.value is not None and \
                        not self._x_in_lanes(v.raw, strb.value):
                    continue
            self._violation(ch, "x-on-payload", f"{name} = {v.raw} while {ch}valid is high", cycle)

    @staticmethod
    def _x_in_lanes(raw: str, strb: int) -> bool:
        """Whether any byte lane enabled by strb holds X/Z (raw is MSB first)."""
        lanes = len(raw) // 8
        for lane in range(lanes):
            if strb >> lane & 1:
                chunk = raw[len(raw) - 8 * (lane + 1):len(raw) - 8 * lane]
                if any(c not in "01" for c in chunk):
                    return True
        return False

    def _check_stable(self, ch: str, s: ChannelSample, cycle: int) -> None:
        prev = self.pending[ch]
        if prev is not None:
            if s.valid != "1":
                self._violation(ch, "valid-dropped",
                                f"{ch}valid fell before {ch}ready (payload was "
                                f"{self._fmt(prev)})", cycle)
            else:
                changed = [f"{n} {prev.payload[n]} -> {v}" for n, v in s.payload.items()
                           if n in prev.payload and prev.payload[n] != v]
                if changed:
                    self._violation(ch, "payload-unstable",
                                    "payload changed while valid high and ready low: "
                                    + ", ".join(changed), cycle)
        self.pending[ch] = s if s.valid == "1" and s.ready != "1" else None

    @staticmethod
    def _fmt(s: ChannelSample) -> str:
        return " ".join(f"{n}={v}" for n, v in s.payload.items())

    # --- AXI4 ------------------------------------------------------------------------
    def _axi_address(self, ch: str, s: ChannelSample, cycle: int) -> int:
        p = ch  # "aw" or "ar"
        addr, beats = s.int(f"{p}addr"), s.int(f"{p}len") + 1
        size, burst = 1 << s.int(f"{p}size"), s.int(f"{p}burst", INCR)
        if burst != INCR:
            self._violation(ch, "burst-type", f"{p}burst = {burst}, only INCR (1) is used", cycle)
        if size > self.port.data_bytes:
            self._violation(ch, "burst-size", f"{p}size gives {size} bytes per beat on a "
                            f"{self.port.data_bytes}-byte bus", cycle)
        attr = s.int(f"{p}attr", ATTRIBUTES)
        if attr != ATTRIBUTES:
            self._violation(ch, "attributes", attributes_text(p, attr), cycle)
        start = addr - addr % size
        end = start + beats * size
        if start >> 12 != (end - 1) >> 12:
            self._violation(ch, "4k-crossing", f"burst {p}addr={addr:#010x} len={beats - 1} "
                            f"size={size}B covers [{start:#x}, {end:#x}), crossing a 4 KiB "
                            f"boundary at {(end - 1) >> 12 << 12:#x}", cycle)
        return beats

    def _axi_aw(self, s: ChannelSample, cycle: int) -> None:
        if not s.fire:
            return
        beats = self._axi_address("aw", s, cycle)
        self.aw_bursts.append([s.int("awid"), beats, 0])
        while self.early_w and self.aw_bursts:
            self._w_beat(self.early_w.popleft(), cycle)

    def _axi_w(self, s: ChannelSample, cycle: int) -> None:
        if not s.fire:
            return
        last = s.int("wlast")
        if self.aw_bursts:
            self._w_beat(last, cycle)
        else:
            self.early_w.append(last)

    def _w_beat(self, last: int, cycle: int) -> None:
        burst = next((b for b in self.aw_bursts if b[2] < b[1]), None)
        if burst is None:
            self.early_w.append(last)
            return
        wid, beats, n = burst
        burst[2] = n + 1
        is_last = n == beats - 1
        if last and not is_last:
            self._violation("w", "wlast", f"WLAST on beat {n + 1} of a {beats}-beat burst "
                            f"(awid={wid}): beat count differs from AWLEN+1", cycle)
        if is_last and not last:
            self._violation("w", "wlast", f"WLAST missing on the last beat ({beats} of {beats}, "
                            f"awid={wid})", cycle)
        if is_last:
            self.aw_bursts.remove(burst)
            self.b_ready[wid] = self.b_ready.get(wid, 0) + 1

    def _axi_b(self, s: ChannelSample, cycle: int) -> None:
        if s.valid != "1":
            return
        bid = s.int("bid")
        if not self.b_ready.get(bid):
            self._violation("b", "unexpected-response", f"BVALID with bid={bid} but no write "
                            f"with that id has both address and all data accepted", cycle)
            return
        if s.fire:
            self.b_ready[bid] -= 1

    def _axi_ar(self, s: ChannelSample, cycle: int) -> None:
        if s.fire:
            beats = self._axi_address("ar", s, cycle)
            self.reads.setdefault(s.int("arid"), deque()).append([beats, 0])

    def _axi_r(self, s: ChannelSample, cycle: int) -> None:
        if s.valid != "1":
            return
        rid = s.int("rid")
        queue = self.reads.get(rid)
        if not queue:
            self._violation("r", "unexpected-response", f"RVALID with rid={rid} but no read "
                            f"with that id is outstanding", cycle)
            return
        if not s.fire:
            return
        burst = queue[0]
        beats, n = burst
        burst[1] = n + 1
        last = s.int("rlast")
        is_last = n == beats - 1
        if last != is_last:
            where = "missing on the last beat" if is_last else f"on beat {n + 1}"
            self._violation("r", "rlast", f"RLAST {where} of a {beats}-beat read (rid={rid})",
                            cycle)
        if is_last or last:
            queue.popleft()

    # --- AXI4-Lite -----------------------------------------------------------------------
    def _lite(self, ch: str, s: ChannelSample, cycle: int) -> None:
        c = self.lite_counts
        if ch in ("b", "r") and s.valid == "1":
            requests = min(c["aw"], c["w"]) if ch == "b" else c["ar"]
            if requests <= c[ch]:
                what = "write (address and data)" if ch == "b" else "read"
                self._violation(ch, "unexpected-response", f"{ch.upper()}VALID with no "
                                f"outstanding {what}: {requests} requests, {c[ch]} responses "
                                f"already given", cycle)
                return
        if s.fire:
            c[ch] += 1
