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

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from models.config import VtaConfig
from models.spec.configs import load_config

SbyMode = Literal["prove", "bmc"]


@dataclass(frozen=True)
class FormalJob:
    """One SymbiYosys run of one module contract at one parameter set."""

    top: str                                   # module whose contract is checked (rtl/<top>.v)
    params: tuple[tuple[str, int], ...]        # chparam values on the top
    config: str                                # configuration the parameters come from ("-": none)
    sby_mode: SbyMode = "prove"                # sby [options] mode: prove, or bmc to a depth
    engine: str = "smtbmc yices"               # sby engine line
    depth: int = 8                             # induction length (prove) or bound (bmc)
    cover_depth: int = 16                      # bound of the cover run
    submodules: tuple[str, ...] = ()           # other rtl/ modules the top instantiates
    defines: tuple[str, ...] = ()              # extra `define names (tests: VTA_TEST_BREAK_*)
    why: str = ""                              # mode bmc: why no proof
    script: tuple[str, ...] = ()               # yosys commands after prep (e.g. chformal on a submodule)
    timeout: int = 600                         # sby's own timeout, seconds
    quick: bool = False                        # part of make test's subset (seconds each)
    mutation: bool = True                      # run on mutants (tb/mutate TESTS=formal)
    harness: tuple[str, ...] = ()              # formal-only files (repository-relative) read
                                               # with -formal around rtl/ read plainly
    hunts: tuple[str, ...] = ()                # harness covers found one by one with BMC
    hinted: tuple[str, ...] = ()               # harness covers too deep for a free search: found
                                               # under the harness's witness hint (VTA_FORMAL_HINT)
    hint_depth: int = 0                        # harness: also every assertion under the hint, to this depth
    wrapper: tuple[str, ...] = ()              # formal-only files (repository-relative) read with
                                               # -formal around the top, the first one's module the
                                               # proof's top (the top under the shared AXI rules)
    witnessed: tuple[tuple[str, str], ...] = ()  # harness: (assertion, hunted cover whose
                                               # trace reaches the assertion's trigger)
    in_context: tuple[str, ...] = ()           # harness: rtl/ modules read with their contracts,
                                               # whose assumptions become the harness's obligations

    @property
    def name(self) -> str:
        """Unique job name: the module and the configuration or parameters."""
        tag = self.config if self.config != "-" else "-".join(f"{k}{v}" for k, v in self.params)
        extra = "".join(f"+{d.removeprefix('VTA_FORMAL_').lower()}" for d in self.defines)
        return f"{self.top.removeprefix('vta_')}/{tag}{extra}{'+axi' if self.wrapper else ''}"

    @property
    def prep_top(self) -> str:
        """The module the proof elaborates: the wrapper's, else the top."""
        return Path(self.wrapper[0]).stem if self.wrapper else self.top

    @property
    def files(self) -> tuple[str, ...]:
        """rtl/ files the job reads (the top first, unless the top is a harness's)."""
        own = () if self.harness else (f"{self.top}.v",)
        return own + tuple(f"{m}.v" for m in self.submodules)


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _log_b(cfg: VtaConfig) -> int:
    """log2 of the bus width in bytes: the LOG_B parameter vta_top hands its submodules."""
    return _log2(cfg.bus_bytes)


#: what vta_load instantiates
LOAD_SUBS = ("vta_phase", "vta_ld_engine", "vta_burst_gen", "vta_unpack")


def _load_params(c: VtaConfig) -> tuple[tuple[str, int], ...]:
    """vta_load's parameters as vta_top derives them from a configuration."""
    return (("LOG_B", _log_b(c)), ("LOG_INP_BYTES", _log2(c.inp_bytes)),
            ("LOG_WGT_BYTES", _log2(c.wgt_bytes)), ("LOG_INP_DEPTH", c.log_inp_depth),
            ("LOG_WGT_DEPTH", c.log_wgt_depth))


#: bound of the vta_ld_engine read-tiling check (tb/formal/jobs.py, VTA_FORMAL_AR_TILING)
AR_DEPTH = 6
FETCH_DEPTH = 10   # launch, both first bursts granted, the first two instructions
FETCH_WHY = ("no induction: the contract needs invariants on the internal state of vta_burst_gen "
             "and vta_unpack (their beat and byte counts against fetch's), which a contract "
             "on vta_fetch cannot name (Yosys has no hierarchical references); `abc pdr` not yet "
             "tried (it runs here only since tb/formal/tools.py drops sby's `pdr -l`); BMC time "
             "grows about 2.5x a step past depth 8 (smtbmc yices: depth 12 took 450 s on the "
             "loaded machine)")


def jobs() -> list[FormalJob]:
    """Every contract job, in the order the report lists them."""
    small, default = load_config("small"), load_config("default")
    out: list[FormalJob] = [
        # vta_fifo: the command queues (160-bit, CMD_QUEUE_DEPTH) and the fetch beat buffer;
        # the contract does not depend on the width, so 4 bits keep the proof small.
        FormalJob("vta_fifo", (("WIDTH", 4), ("DEPTH", default.cmd_queue_depth)), "default",
                  depth=4, cover_depth=20, quick=True),
        FormalJob("vta_fifo", (("WIDTH", 4), ("DEPTH", 1)), "-", depth=4, cover_depth=8, quick=True),
        FormalJob("vta_fifo", (("WIDTH", 4), ("DEPTH", 5)), "-", depth=4, cover_depth=14, quick=True),
        # vta_token: the four dependency queues at TOKEN_QUEUE_DEPTH
        FormalJob("vta_token", (("DEPTH", default.token_queue_depth),), "default",
                  depth=4, cover_depth=20, quick=True),
        # ---- vta_ld_engine, vta_store, vta_load (helper feng) ----
        # vta_ld_engine: the LOAD engine of load (LOG_EMAX = max(INP, WGT) element bytes) and
        # of compute (LOG_EMAX = ACC element bytes); small: both 16 B. The writer's contract
        # does not depend on the bus or element widths beyond these; each shipped pair is run.
        FormalJob("vta_ld_engine", (("LOG_B", _log_b(small)), ("LOG_EMAX", _log2(small.acc_bytes))),
                  "small", depth=6, cover_depth=20, submodules=("vta_burst_gen", "vta_unpack"),
                  timeout=1800),
        FormalJob("vta_ld_engine", (("LOG_B", _log_b(default)), ("LOG_EMAX", max(
                      _log2(default.inp_bytes), _log2(default.wgt_bytes)))),
                  "default", depth=4, cover_depth=20, submodules=("vta_burst_gen", "vta_unpack"),
                  # vta_unpack's own contract at LOG_EMAX 8 does not converge (its jobs below):
                  # removed here, its assumptions are checked in the other engines' contexts
                  script=("chformal -remove *vta_unpack*",)),
        FormalJob("vta_ld_engine", (("LOG_B", _log_b(default)), ("LOG_EMAX", _log2(default.acc_bytes))),
                  "-", depth=6, cover_depth=20, submodules=("vta_burst_gen", "vta_unpack")),
        # the read requests' tiling (VTA_FORMAL_AR_TILING): bounded only
        FormalJob("vta_ld_engine", (("LOG_B", _log_b(small)), ("LOG_EMAX", _log2(small.acc_bytes))),
                  "small", sby_mode="bmc",
                  engine="smtbmc boolector", depth=AR_DEPTH, cover_depth=20,
                  submodules=("vta_burst_gen", "vta_unpack"), defines=("VTA_FORMAL_AR_TILING",),
                  why="the tiling invariant needs vta_burst_gen's row/beat registers, which a "
                      "contract cannot name (yosys has no hierarchical references; abc pdr not yet "
                      "tried); deeper BMC stalls (step 8 > 2 min)"),
        # vta_store: small (4 B OUT elements, 8 B bus) and default (16 B elements)
        FormalJob("vta_store", (("LOG_B", _log_b(small)), ("LOG_OUT_BYTES", _log2(small.out_bytes)),
                                ("LOG_ACC_DEPTH", small.log_acc_depth)), "small", depth=10,
                  cover_depth=20, submodules=("vta_phase", "vta_burst_gen", "vta_fifo", "vta_pack"),
                  timeout=1800),
        FormalJob("vta_store", (("LOG_B", _log_b(default)), ("LOG_OUT_BYTES", _log2(default.out_bytes)),
                                ("LOG_ACC_DEPTH", default.log_acc_depth)), "default", depth=10,
                  cover_depth=20, submodules=("vta_phase", "vta_burst_gen", "vta_fifo", "vta_pack")),
        # its byte clause (VTA_FORMAL_STORE_BYTES): bounded only
        FormalJob("vta_store", (("LOG_B", _log_b(small)), ("LOG_OUT_BYTES", _log2(small.out_bytes)),
                                ("LOG_ACC_DEPTH", small.log_acc_depth)), "small", sby_mode="bmc",
                  depth=11, cover_depth=16,
                  submodules=("vta_phase", "vta_burst_gen", "vta_fifo", "vta_pack"),
                  defines=("VTA_FORMAL_STORE_BYTES",),
                  why="the bytes in flight sit in vta_fifo's and vta_pack's internal buffers, which a "
                      "contract cannot name (no hierarchical references in yosys; abc pdr not yet "
                      "tried); depth 11 reaches the first 4 W beats after a START "
                      "(first beat at step 7), deeper runs take minutes (depth 12: 91 s)"),
        # vta_load: small and default (LOG_EMAX of its engine = the WGT element); the engine's
        # contract holds inside, its assumptions are this module's obligations
        FormalJob("vta_load", _load_params(small), "small", depth=6, cover_depth=20,
                  submodules=LOAD_SUBS, timeout=1800),
        FormalJob("vta_load", _load_params(default), "default", depth=6, cover_depth=20,
                  submodules=LOAD_SUBS,
                  # as in ld_engine/default: vta_unpack's contract at LOG_EMAX 8 does not
                  # converge, so it is removed; its assumptions hold in the other jobs' contexts
                  script=("chformal -remove *vta_unpack*",)),
        # its token clause (VTA_FORMAL_LOAD_TOKENS): bounded only
        FormalJob("vta_load", _load_params(small), "small", sby_mode="bmc",
                  engine="smtbmc boolector", depth=12, cover_depth=20, submodules=LOAD_SUBS,
                  defines=("VTA_FORMAL_LOAD_TOKENS",),
                  # the clause is about tokens: vta_unpack's own contract (proven in its jobs)
                  # only slows the BMC (300 s with it, depth 12)
                  script=("chformal -remove *vta_unpack*",),
                  why="whether a token is owed is vta_phase's internal pending flag, which a "
                      "contract cannot name (no hierarchical references in yosys) and which "
                      "EXEC hides for as long as the LOAD runs, so no k-induction closes; depth 12 "
                      "covers instructions with x_size 0 and short LOADs from queue to push"),
        # ---- end vta_ld_engine, vta_store, vta_load ----
        # ---- vta_burst_gen, vta_unpack, vta_pack, vta_rd_arb --------------------------------
        # vta_burst_gen: load, compute and store use MAXB 256, fetch MAXB = its BURST (16); small
        # and default have a 64-bit bus (LOG_B 3), the edges flow's wide bus 128 bits (LOG_B 4).
        FormalJob("vta_burst_gen", (("LOG_B", _log_b(default)), ("MAXB", 256)), "default",
                  depth=4, cover_depth=12, quick=True),
        FormalJob("vta_burst_gen", (("LOG_B", _log_b(default)), ("MAXB", 16)), "-",
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
        # logic differs from LOG_EMAX 4 and 6 only in widths and its pop's sizes (rtl/README.md,
        # vta_unpack). The jobs keep LESZ_SET's default (every size); an instance's smaller set
        # only drops pop terms of sizes its assumption excludes.
        FormalJob("vta_unpack", (("LOG_B", _log_b(small)), ("LOG_EMAX", _log2(small.wgt_bytes))),
                  "small", engine="smtbmc boolector", depth=6, cover_depth=12),
        FormalJob("vta_unpack", (("LOG_B", _log_b(default)), ("LOG_EMAX", _log2(default.acc_bytes))),
                  "default", engine="smtbmc boolector", depth=2, cover_depth=13),
        FormalJob("vta_unpack", (("LOG_B", 4), ("LOG_EMAX", 4)), "-",
                  engine="smtbmc boolector", depth=2, cover_depth=12),
        # vta_pack: store's elements are OUT (= INP) elements: 4 bytes on small, 16 on default.
        # Depth 6 on small lets the base case reach a second row (the negatives).
        FormalJob("vta_pack", (("LOG_B", _log_b(small)), ("LOG_E", _log2(small.out_bytes))),
                  "small", engine="smtbmc boolector", depth=6, cover_depth=14),
        FormalJob("vta_pack", (("LOG_B", _log_b(default)), ("LOG_E", _log2(default.out_bytes))),
                  "default", engine="smtbmc boolector", depth=2, cover_depth=14),
        FormalJob("vta_pack", (("LOG_B", 4), ("LOG_E", 4)), "-",
                  engine="smtbmc boolector", depth=2, cover_depth=14),
        # vta_rd_arb: vta_top's NC 3, OUTST 8. The routing assertion (a_route) needs the
        # table's entries behind its head, which vta_fifo keeps to itself: it is compiled
        # out of the proof (VTA_FORMAL_AR_ONLY) and checked by the bounded jobs below.
        FormalJob("vta_rd_arb", (("NC", 3), ("OUTST", 8)), "default", depth=4, cover_depth=24,
                  submodules=("vta_fifo",), defines=("VTA_FORMAL_AR_ONLY",), quick=True),
        FormalJob("vta_rd_arb", (("NC", 3), ("OUTST", 2)), "-", sby_mode="bmc", engine="smtbmc boolector",
                  depth=20, cover_depth=16, submodules=("vta_fifo",),
                  why="a_route is not inductive from the arbiter (the in-order table's entries "
                      "behind its head are vta_fifo's internals); with 2 table entries 20 cycles "
                      "fill, drain and wrap the table many times"),
        FormalJob("vta_rd_arb", (("NC", 3), ("OUTST", 8)), "-", sby_mode="bmc", depth=12, cover_depth=24,
                  submodules=("vta_fifo",),
                  why="a_route as above, at vta_top's 8 entries: bounded by solver time "
                      "(step 14 takes minutes)"),
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
        # ... and under the shared AXI4-Lite rules: the host's assumed, its B/R rules asserted
        FormalJob("vta_ctrl", (("NSTAT", 1),), "-", sby_mode="bmc", depth=24, cover_depth=12,
                  wrapper=("tb/rtl/formal/vta_formal_ctrl.v", "tb/rtl/formal/vta_formal_axi.v"),
                  why="the rules' bookkeeping (requests outstanding per channel) is the monitor's "
                      "own state, which an invariant in the wrapper cannot name (no hierarchical "
                      "references in yosys) and the rules file, shared with simulation, does not "
                      "relate to vta_ctrl's registers: k-induction fails on a_r_expected from "
                      "unreachable counts; abc pdr did not converge in 8 minutes. Every request is "
                      "answered within 2 cycles once the host takes it, so 24 cycles hold several "
                      "complete exchanges of each kind"),
        # vta_fetch with its beat FIFO, burst generator and gearbox; LOG_B of both shipped
        # configurations (LOG_BUS_WIDTH 6). The submodules' own contracts (checked by their
        # own jobs) are removed here: they only cost time (the FIFO's took the BMC from
        # seconds to minutes); their assumptions are then not checked in fetch's context.
        FormalJob("vta_fetch", (("LOG_B", _log_b(default)),), "default", sby_mode="bmc",
                  engine="smtbmc yices", depth=FETCH_DEPTH, cover_depth=12,
                  submodules=("vta_burst_gen", "vta_fifo", "vta_unpack"),
                  script=("chformal -remove *vta_fifo", "chformal -remove *vta_burst_gen",
                          "chformal -remove *vta_unpack"),
                  why=FETCH_WHY),
    ]
    # vta_formal_top: the whole top (small configuration, SRAMs abstracted) under the shared
    # AXI rules of both ports and the DONE ordering rules (tb/rtl/formal/vta_formal_top.v)
    out.append(FormalJob(
        "vta_formal_top", (), "small", sby_mode="bmc", engine="abc bmc3", depth=60, cover_depth=45,
        submodules=tuple(f"vta_{m}" for m in (
            "burst_gen", "compute", "ctrl", "fetch", "fifo", "gemm_alu", "ld_engine", "load",
            "pack", "phase", "rd_arb", "store", "token", "top", "unpack")),
        harness=tuple(f"tb/rtl/formal/{f}.v" for f in ("vta_ram", "vta_formal_axi", "vta_formal_top")),
        hunts=("c_first_aw", "c_first_w", "c_first_b", "c_done"), hinted=("c_done_after_store",),
        hint_depth=36,
        # in the accelerator's context: no token lost or invented, no counter above its capacity
        # (vta_token); the liveness bounds of rtl/README.md, "Arbitration and liveness bounds":
        # a queue head taken by an idle module at once, an owed token popped or pushed in the
        # first cycle its counter allows (vta_phase), round robin, work conserving, at most 8
        # read bursts in flight (vta_rd_arb)
        in_context=("vta_token", "vta_phase", "vta_rd_arb"),
        # DONE after a STORE's responses is a DONE read in the program class: both ordering
        # assertions' triggers (a DONE read has RUNNING 0: vta_ctrl's proven a_done_idle)
        witnessed=(("a_done_after_b", "c_done_after_store"), ("a_idle_after_b", "c_done_after_store")),
        why="the whole accelerator (~9.6k state bits, free memory and host): no induction "
            "converges; bounded by sby's 10-minute timeout",
        timeout=600, mutation=False))
    # a parent proves its submodules' contracts again in context (their assumptions become
    # its obligations): minutes, not seconds; give those proofs room
    return [replace(j, timeout=1800) if j.submodules and not j.harness and j.timeout == 600 else j
            for j in out]


def jobs_touching(design: Path, reference: Path) -> list[FormalJob]:
    """The jobs of the modules whose file in `design` differs from `reference`: each module's
    own contract (a parent that reads the module proves it again, at minutes a job, and adds
    nothing a mutant of it could show that its own contract does not); none when none differs."""
    changed = {f.name for f in design.glob("*.v*")
               if not (reference / f.name).exists() or (reference / f.name).read_bytes() != f.read_bytes()}
    every = jobs()
    if any(name.endswith(".vh") for name in changed):
        return [j for j in every if not j.harness]
    return [j for j in every if not j.harness and j.files[0] in changed]


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
