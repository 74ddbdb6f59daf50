"""What `make formal` proves: one entry per module contract and configuration.

A contract lives with its module (rtl/<module>.v, under `ifdef FORMAL`); this table says
only how to check it: the proof's top module, the submodules it instantiates, the
parameters (derived from a shipped configuration where they depend on one), the engine,
and the depth. Labels inside the contract follow one convention, which the report reads:

    a_<name>: assert(...)   a guarantee of the module
    h_<name>: assert(...)   a helper invariant (asserted too: it must hold, it only helps induction)
    m_<name>: assume(...)   what the module assumes of its neighbours
    c_<name>: cover(...)    a state the contract must be able to reach

Each proof job runs twice: the proof itself (mode prove: k-induction with smtbmc, or PDR
with abc; mode bmc where no proof converges, with the reason in `why`) and a cover run in
which every assertion's enable becomes a cover (`chformal -coverenable`), so the report
states per assertion that its trigger is reachable.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from models.config import VtaConfig

Mode = Literal["prove", "bmc"]


@dataclass(frozen=True)
class FormalJob:
    """One SymbiYosys run of one module contract at one parameter set."""

    top: str                                   # module whose contract is checked (rtl/<top>.v)
    params: tuple[tuple[str, int], ...]        # chparam values on the top
    config: str                                # configuration the parameters come from ("-": none)
    mode: Mode = "prove"
    engine: str = "smtbmc yices"               # sby engine line
    depth: int = 8                             # induction length (prove) or bound (bmc)
    cover_depth: int = 16                      # bound of the cover run
    submodules: tuple[str, ...] = ()           # other rtl/ modules the top instantiates
    defines: tuple[str, ...] = ()              # extra `define names (tests: VTA_TEST_BREAK_*)
    why: str = ""                              # mode bmc: why no proof
    timeout: int = 600                         # sby's own timeout, seconds
    quick: bool = False                        # part of make test's subset (seconds each)

    @property
    def name(self) -> str:
        """Unique job name: the module and the configuration or parameters."""
        tag = self.config if self.config != "-" else "-".join(f"{k}{v}" for k, v in self.params)
        return f"{self.top.removeprefix('vta_')}/{tag}" if tag else self.top.removeprefix("vta_")

    @property
    def files(self) -> tuple[str, ...]:
        """rtl/ files the job reads (the top first)."""
        return (f"{self.top}.v",) + tuple(f"{m}.v" for m in self.submodules)


@dataclass(frozen=True)
class Shipped:
    """The parameters of the shipped configurations that modules take."""

    name: str
    cfg: VtaConfig = field(compare=False)

    @property
    def log_b(self) -> int:
        return (self.cfg.bus_bytes).bit_length() - 1


def shipped(name: str) -> Shipped:
    """A configuration of models/configs by name."""
    from tb.runner import ROOT
    return Shipped(name, VtaConfig.from_file(ROOT / "models" / "configs" / f"{name}.json"))


def _log2(n: int) -> int:
    return n.bit_length() - 1


def jobs() -> list[FormalJob]:
    """Every contract job, in the order the report lists them."""
    small, default = shipped("small"), shipped("default")
    out: list[FormalJob] = [
        # vta_fifo: the command queues (160-bit, CMD_QUEUE_DEPTH) and the fetch beat buffer;
        # the contract does not depend on the width, so 4 bits keep the proof small.
        FormalJob("vta_fifo", (("WIDTH", 4), ("DEPTH", default.cfg.cmd_queue_depth)), "default",
                  depth=4, cover_depth=20, quick=True),
        FormalJob("vta_fifo", (("WIDTH", 4), ("DEPTH", 1)), "-", depth=4, cover_depth=8, quick=True),
        FormalJob("vta_fifo", (("WIDTH", 4), ("DEPTH", 5)), "-", depth=4, cover_depth=14, quick=True),
        # vta_token: the four dependency queues at TOKEN_QUEUE_DEPTH
        FormalJob("vta_token", (("DEPTH", default.cfg.token_queue_depth),), "default",
                  depth=4, cover_depth=20, quick=True),
        # ---- vta_burst_gen, vta_unpack, vta_pack, vta_rd_arb --------------------------------
        # vta_burst_gen: load, compute and store use MAXB 256, fetch MAXB = its BURST (16); small
        # and default have a 64-bit bus (LOG_B 3), the edges flow's wide bus 128 bits (LOG_B 4).
        FormalJob("vta_burst_gen", (("LOG_B", default.log_b), ("MAXB", 256)), "default",
                  depth=4, cover_depth=12, quick=True),
        FormalJob("vta_burst_gen", (("LOG_B", default.log_b), ("MAXB", 16)), "-",
                  depth=4, cover_depth=12, quick=True),
        FormalJob("vta_burst_gen", (("LOG_B", 4), ("MAXB", 256)), "-", depth=4, cover_depth=12, quick=True),
        FormalJob("vta_burst_gen", (("LOG_B", 4), ("MAXB", 16)), "-", depth=4, cover_depth=12, quick=True),
        # vta_unpack: LOG_EMAX is 4 in fetch (16-byte instructions) and in small's load and
        # compute; default's compute has 64-byte ACC elements (6). Depth 6 lets the base case
        # reach the gearbox-room break (step 5); a full gearbox at LOG_EMAX 6 is 12 cycles
        # in (cover depth 13). Default's load (256-byte WGT elements, LOG_EMAX 8, a 264-byte
        # gearbox) has no job: its induction step did not finish in 500 s (boolector, depth 2)
        # nor 600 s (yices, depth 1), a bounded run
        # reaches 5 cycles in 6 minutes and its cover of a full gearbox needs 34 cycles; the
        # logic differs from LOG_EMAX 4 and 6 only in widths (rtl/README.md, vta_unpack).
        FormalJob("vta_unpack", (("LOG_B", small.log_b), ("LOG_EMAX", _log2(small.cfg.wgt_bytes))),
                  "small", engine="smtbmc boolector", depth=6, cover_depth=12),
        FormalJob("vta_unpack", (("LOG_B", default.log_b), ("LOG_EMAX", _log2(default.cfg.acc_bytes))),
                  "default", engine="smtbmc boolector", depth=2, cover_depth=13),
        FormalJob("vta_unpack", (("LOG_B", 4), ("LOG_EMAX", 4)), "-",
                  engine="smtbmc boolector", depth=2, cover_depth=12),
        # vta_pack: store's elements are OUT (= INP) elements: 4 bytes on small, 16 on default.
        # Depth 6 on small lets the base case reach a second row (the negatives).
        FormalJob("vta_pack", (("LOG_B", small.log_b), ("LOG_E", _log2(small.cfg.out_bytes))),
                  "small", engine="smtbmc boolector", depth=6, cover_depth=14),
        FormalJob("vta_pack", (("LOG_B", default.log_b), ("LOG_E", _log2(default.cfg.out_bytes))),
                  "default", engine="smtbmc boolector", depth=2, cover_depth=14),
        FormalJob("vta_pack", (("LOG_B", 4), ("LOG_E", 4)), "-",
                  engine="smtbmc boolector", depth=2, cover_depth=14),
        # vta_rd_arb: vta_top's NC 3, OUTST 8. The routing assertion (a_route) needs the
        # table's entries behind its head, which vta_fifo keeps to itself: it is compiled
        # out of the proof (VTA_FORMAL_AR_ONLY) and checked by the bounded jobs below.
        FormalJob("vta_rd_arb", (("NC", 3), ("OUTST", 8)), "default", depth=4, cover_depth=24,
                  submodules=("vta_fifo",), defines=("VTA_FORMAL_AR_ONLY",), quick=True),
        FormalJob("vta_rd_arb", (("NC", 3), ("OUTST", 2)), "-", mode="bmc", engine="smtbmc boolector",
                  depth=20, cover_depth=16, submodules=("vta_fifo",),
                  why="a_route is not inductive from the arbiter (the in-order table's entries "
                      "behind its head are vta_fifo's internals); with 2 table entries 20 cycles "
                      "fill, drain and wrap the table many times"),
        FormalJob("vta_rd_arb", (("NC", 3), ("OUTST", 8)), "-", mode="bmc", depth=12, cover_depth=24,
                  submodules=("vta_fifo",),
                  why="a_route as above, at vta_top's 8 entries: bounded by solver time "
                      "(step 14 takes minutes)"),
    ]
    return out


def select(modules: list[str] | None) -> list[FormalJob]:
    """The jobs of the named modules (`fifo` or `vta_fifo`); all of them for None."""
    every = jobs()
    if not modules:
        return every
    known = {j.top for j in every}
    wanted = {m if m.startswith("vta_") else f"vta_{m}" for m in modules}
    unknown = sorted(wanted - known)
    if unknown:
        raise ValueError(f"MODULES: no contract for {', '.join(unknown)} "
                         f"(known: {', '.join(sorted(m.removeprefix('vta_') for m in known))})")
    return [j for j in every if j.top in wanted]
