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
    script: tuple[str, ...] = ()               # yosys commands after prep (e.g. chformal on a submodule)
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


FETCH_DEPTH = 10   # launch, both first bursts granted, the first two instructions
FETCH_WHY = ("no induction: the contract needs invariants on the internal state of vta_burst_gen "
             "and vta_unpack (their beat and byte counts against fetch's), which a contract "
             "on vta_fetch cannot name (Yosys has no hierarchical references); `abc pdr` does "
             "not run with this ABC (`pdr -l` unknown option); BMC time grows about 2.5x a step "
             "past depth 8 (smtbmc yices: depth 12 took 450 s on the loaded machine; `abc bmc3` "
             "is faster but its witness cannot be read back, so a failure would not name its "
             "assertion)")


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
        # ---- vta_ctrl, vta_phase, vta_fetch (branch fctl) ----
        # vta_phase: every HAS_PREV/HAS_NEXT combination rtl/ instantiates (load 0/1,
        # compute 1/1, store 1/0); the contract has no other parameter
        FormalJob("vta_phase", (("HAS_PREV", 0), ("HAS_NEXT", 1)), "-", depth=8, cover_depth=12,
                  quick=True),
        FormalJob("vta_phase", (("HAS_PREV", 1), ("HAS_NEXT", 1)), "-", depth=8, cover_depth=12,
                  quick=True),
        FormalJob("vta_phase", (("HAS_PREV", 1), ("HAS_NEXT", 0)), "-", depth=8, cover_depth=12,
                  quick=True),
        # vta_ctrl: NSTAT as vta_top sets it (32 words from 0x24) and the smallest (1)
        FormalJob("vta_ctrl", (("NSTAT", 32),), "default", depth=6, cover_depth=12),
        FormalJob("vta_ctrl", (("NSTAT", 1),), "-", depth=6, cover_depth=12, quick=True),
        # vta_fetch with its beat FIFO, burst generator and gearbox; LOG_B of both shipped
        # configurations (LOG_BUS_WIDTH 6). The submodules' own contracts (checked by their
        # own jobs) are removed here: they only cost time (the FIFO's took the BMC from
        # seconds to minutes). The runner must run `script` after prep (new field).
        FormalJob("vta_fetch", (("LOG_B", default.log_b),), "default", mode="bmc",
                  engine="smtbmc yices", depth=FETCH_DEPTH, cover_depth=12,
                  submodules=("vta_burst_gen", "vta_fifo", "vta_unpack"),
                  script=("chformal -remove *vta_fifo", "chformal -remove *vta_burst_gen",
                          "chformal -remove *vta_unpack"),
                  why=FETCH_WHY),
    ]
    del small
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
