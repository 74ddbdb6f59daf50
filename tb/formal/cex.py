"""A counterexample of the whole-top formal job as a test vector that `make sim` replays.

    python -m tb.formal.cex TRACE_DIR_OR_YW --out DIR [--config NAME]

The whole-top job (tb/formal/jobs.py, ``formal_top/small``; harness tb/rtl/formal/
vta_formal_top.v) drives vta_top with a free but legal host and memory. Its trace says
everything a vector holds, at the ports: the host's register writes (with their byte
strobes) up to the accepted START, the read bursts (AR) and their beats (R). This turns it
into a vector (format "vta-vector-1", spec section 6):

* ``insn_addr``, ``insn_count`` and the five bases: the values the host's writes leave in the
  registers when START is written (each write merged under its WSTRB, as vta_ctrl does;
  checked against vta_ctrl's own registers when the waveform has them). Writes after START
  do not take part in the launch and are listed in the description.
* the DRAM bytes the R beats carried, at the byte addresses their AR asked for (INCR, AxSIZE,
  byte lanes of the bus): instruction words from the fetch, data from the loads.
* the program: the trace's own instructions when every word of the stream was fetched and
  they make a well-formed program the model runs (``models.checker``, ``models.executor``).
  Otherwise (free read data is mostly garbage, and a fetch failure happens before most of
  the stream is read) the words are replaced by a legal program of the smallest length that
  keeps every fetch request of the trace: the same ``insn_addr`` and at least the bytes the
  trace's fetch bursts asked for (LOAD UOP, GEMM reset, no-op LOADs, STORE, FINISH). What
  makes a fetch request fail -- its address and length -- is kept; what the words held is not.
* ``expect``: the model's (``models.executor``), as every vector's.

A trace whose failure the vector cannot carry is a :class:`CexError` naming it: no START
(a host-port failure), an assertion of the host port (the testbench's host has its own
timing), a memory error response (a vector's memory answers OKAY), a stream beyond 4 GiB.
The failure may also hang on what the harness leaves free and a vector fixes -- the SRAMs'
read data (tb/rtl/formal/vta_ram.v), the memory's and host's timing: the run under `make sim`
decides, and the command printed here is that run.
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

from models.argtypes import OneLineParser
from models.checker import check_vector
from models.config import VtaConfig
from models.executor import ProgramError, run_vector, written_images
from models.isa import MemType, Opcode
from models.progbuild import Program, ProgramBuildError
from models.spec.configs import load_config
from models.vector import BASE_NAMES, Image, Vector, VectorError, save_vector
from tb.paths import ROOT

INSN_BYTES = 16
ADDR_LIMIT = 1 << 32
#: register word offsets of spec section 5 the launch reads (CTRL is word 0)
REGS = {2: "insn_count", 3: "insn_addr", 4: "uop", 5: "inp", 6: "wgt", 7: "acc", 8: "out"}
#: the shortest legal program the replacement has (LOAD UOP, GEMM reset, STORE, FINISH)
FILLER_MIN = 4
#: the filler's data (micro-ops, an OUT tile) fits well within this past its bases
PAGE = 4096
DATA_ROOM = 1 << 20
#: the port monitor's assertions (tb/rtl/formal/vta_formal_axi.v) and the rule of the shared
#: rules file (tb/rtl/vta_axi_rules.vh) the simulation's protocol checker reports for each
RULES = {"valid_held": "valid-dropped", "stable": "payload-unstable", "incr": "burst-type",
         "size": "burst-size", "4k": "4k-crossing", "wlast": "wlast", "rlast": "rlast",
         "expected": "unexpected-response", "attr": "attributes"}
ASSERT_FAILED = re.compile(r"Assert failed in (\S+?): (\S+)")
STEP_FAILED = re.compile(r"failed assertion (\S+) at \S+ step (\d+)")


class CexError(ValueError):
    """A trace this module cannot turn into a vector; the message names what and where."""


# --- the waveform --------------------------------------------------------------------------
@dataclass
class Waves:
    """Values per step of the signals of a yosys-smtbmc VCD, by name under the top module
    (``u_vta.m_axi_gmem_araddr``, ``s_axi_control_wdata``); None for x/z."""

    top: str
    steps: list[dict[str, int | None]]
    names: set[str]

    def has(self, name: str) -> bool:
        return name in self.names

    def get(self, step: int, name: str) -> int:
        value = self.steps[step].get(name)
        return 0 if value is None else value


def read_vcd(path: Path, wanted: set[str] | None = None) -> Waves:
    """The VCD's values at each solver step (the ``smt_step`` counter yosys-smtbmc writes;
    the time stamps' order when it is missing). ``wanted`` limits the names kept."""
    ids: dict[str, list[str]] = {}
    scope: list[str] = []
    top = ""
    cur: dict[str, str] = {}
    snaps: list[dict[str, str]] = []
    step_id = None
    started = False
    with path.open() as f:
        for line in f:
            tok = line.split()
            if not tok:
                continue
            head = tok[0]
            if head == "$scope":
                scope.append(tok[2])
                top = top or tok[2]
            elif head == "$upscope":
                scope.pop()
            elif head == "$var":
                name = ".".join(scope[1:] + [tok[4]])
                if not scope and tok[4] == "smt_step":
                    step_id = tok[3]
                if step_id == tok[3] or wanted is None or name in wanted:
                    ids.setdefault(tok[3], []).append(name)
            elif head.startswith("#"):
                if started:
                    snaps.append(dict(cur))
                started = True
            elif head[0] in "bB":
                if tok[1] in ids:
                    cur[tok[1]] = head[1:]
            elif head[0] in "01xzXZ" and head[1:] in ids:
                cur[head[1:]] = head[0]
    if started:
        snaps.append(dict(cur))
    if not top:
        raise CexError(f"{path}: not a VCD waveform (no $scope)")

    def value(bits: str) -> int | None:
        return None if any(c in "xzXZ" for c in bits) else int(bits, 2)

    by_step: dict[int, dict[str, int | None]] = {}
    for n, snap in enumerate(snaps):
        step = n
        if step_id is not None:
            raw = snap.get(step_id)
            if raw is None or value(raw) is None:
                continue
            step = value(raw) or 0
        by_step[step] = {name: value(bits) for i, bits in snap.items() if i != step_id
                         for name in ids.get(i, ())}
    if not by_step:
        raise CexError(f"{path}: the waveform holds no step")
    steps = [by_step.get(k, {}) for k in range(max(by_step) + 1)]
    return Waves(top, steps, {n for i, ns in ids.items() if i != step_id for n in ns})


def write_vcd(w: Waves, path: Path, widths: dict[str, int]) -> None:
    """``w`` as a VCD :func:`read_vcd` reads back (one time stamp per step)."""
    names = sorted(w.names)
    code = {n: f"s{i}" for i, n in enumerate(names)}
    lines = ["$timescale 1ns $end", "$var integer 32 t smt_step $end", f"$scope module {w.top} $end"]
    opened: list[str] = []
    for n in sorted(names, key=lambda n: (n.split(".")[:-1], n)):
        path_ = n.split(".")[:-1]
        while opened != path_[:len(opened)]:
            lines.append("$upscope $end")
            opened.pop()
        while len(opened) < len(path_):
            opened.append(path_[len(opened)])
            lines.append(f"$scope module {opened[-1]} $end")
        lines.append(f"$var wire {widths.get(n, 32)} {code[n]} {n.split('.')[-1]} $end")
    lines += ["$upscope $end"] * (len(opened) + 1) + ["$enddefinitions $end"]
    for k, values in enumerate(w.steps):
        lines.append(f"#{10 * k}")
        lines.append(f"b{k:b} t")
        for n in names:
            v = values.get(n)
            lines.append(f"b{'x' if v is None else format(v, 'b')} {code[n]}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def record(trace: Path, dst: Path) -> Path:
    """A compact copy of a whole-top trace under ``dst`` (e.g. a test's fixture): the signals
    :func:`translate` reads, the job's rtl/ read and top, the failed assertion."""
    files = locate(trace)
    w = read_vcd(files.vcd, WANTED)
    widths: dict[str, int] = {}
    scope: list[str] = []
    with files.vcd.open() as f:
        for line in f:
            tok = line.split()
            if tok[:1] == ["$scope"]:
                scope.append(tok[2])
            elif tok[:1] == ["$upscope"]:
                scope.pop()
            elif tok[:1] == ["$var"]:
                widths[".".join(scope[1:] + [tok[4]])] = int(tok[2])
            elif tok[:1] == ["$enddefinitions"]:
                break
    write_vcd(w, dst / "job_bmc" / "engine_0" / "trace.vcd", widths)
    (dst / "job.sby").write_text(
        f"# recorded by tb/formal/cex.py from {repo_path(files.vcd)}\n"
        f"[script]\nread -sv {''.join(f'-D {d} ' for d in files.defines)}(rtl/*.v)\n"
        f"prep -top {files.top or 'vta_formal_top'}\n")
    (dst / "job_bmc" / "logfile.txt").write_text(
        f"SBY [job_bmc] summary:   failed assertion {files.top or 'vta_formal_top'}.{files.label} "
        f"at (recorded) step {files.step}\n" if files.label else "")
    return dst


# --- locating a trace and its job -----------------------------------------------------------
@dataclass
class TraceFiles:
    vcd: Path
    workdir: Path | None  # the job's run directory (job.sby), when the trace sits in one
    defines: tuple[str, ...] = ()  # the rtl/ defines the job read (a broken copy's)
    top: str = ""
    label: str = ""  # the failed assertion, hierarchical under the top (u_mon_mem.a_ar_4k)
    step: int | None = None


def locate(path: Path) -> TraceFiles:
    """The trace's waveform and what its run directory says: the .vcd next to a .yw (sby
    writes both), the trace of a task or engine directory, or of a job's run directory."""
    path = path.resolve()
    if not path.exists():
        raise CexError(f"{path}: no such trace (give a .yw/.vcd file or the job's run directory)")
    if path.is_file():
        vcd = path if path.suffix == ".vcd" else path.with_suffix(".vcd")
        if not vcd.exists():
            raise CexError(f"{path}: no waveform {vcd.name} next to it (the vector needs the DUT's "
                           f"outputs -- READY, AR payloads -- which the witness does not hold)")
    else:
        found = sorted(path.glob("trace.vcd")) or sorted(path.glob("engine_*/trace.vcd")) \
            or sorted(path.glob("job_bmc/engine_*/trace.vcd")) or sorted(path.glob("**/trace.vcd"))
        if not found:
            raise CexError(f"{path}: no counterexample trace (trace.vcd) under it")
        vcd = found[0]
    workdir = next((d for d in vcd.parents if (d / "job.sby").exists()), None)
    files = TraceFiles(vcd, workdir)
    if workdir is None:
        return files
    sby = (workdir / "job.sby").read_text()
    rtl_read = next((ln for ln in sby.splitlines() if ln.startswith("read -sv")), "")
    # rtl/'s test-only breaks; the harness's own defines (VTA_FORMAL_*) mean nothing to make sim
    files.defines = tuple(d for d in re.findall(r"-D\s+(\S+)", rtl_read) if not d.startswith("VTA_FORMAL_"))
    m = re.search(r"prep -top (\S+)", sby)
    files.top = m.group(1) if m else ""
    task = vcd.parents[1] if vcd.parent.name.startswith("engine_") else vcd.parent
    logs = [task / "logfile.txt", vcd.parent / "logfile.txt"]
    for log in logs:
        if not log.exists():
            continue
        text = log.read_text(errors="replace")
        s = STEP_FAILED.search(text)
        if s and files.step is None:
            files.label, files.step = s.group(1).removeprefix(f"{files.top}."), int(s.group(2))
        a = ASSERT_FAILED.search(text)
        if a and not files.label:
            files.label = a.group(2)
    return files


# --- what the trace did at the ports --------------------------------------------------------
@dataclass
class Launch:
    """The host's launch and the memory reads of a trace, as the ports saw them."""

    step: int  # the step of the START write's commit
    regs: dict[str, int]
    reads: dict[int, int]  # byte address -> byte the R beats carried
    fetches: list[tuple[int, int, int]]  # (step, address, bytes) of the fetch's ARs
    ars: list[tuple[int, int, int, int]]  # (step, address, arlen, arsize) of every AR
    notes: list[str] = field(default_factory=list)


def _sig(w: Waves, name: str) -> str:
    """A port of vta_top under the harness (u_vta.<port>), else the harness's own input."""
    for cand in (f"u_vta.{name}", name):
        if w.has(cand):
            return cand
    raise CexError(f"the waveform has no signal {name} (under {w.top} or {w.top}.u_vta): "
                   f"not a trace of the whole-top harness tb/rtl/formal/vta_formal_top.v")


WANTED = {f"{p}{s}" for p in ("", "u_vta.") for s in (
    "s_axi_control_awvalid", "s_axi_control_awready", "s_axi_control_awaddr",
    "s_axi_control_wvalid", "s_axi_control_wready", "s_axi_control_wdata", "s_axi_control_wstrb",
    "m_axi_gmem_arvalid", "m_axi_gmem_arready", "m_axi_gmem_araddr", "m_axi_gmem_arlen",
    "m_axi_gmem_arsize", "m_axi_gmem_arburst", "m_axi_gmem_arid",
    "m_axi_gmem_rvalid", "m_axi_gmem_rready", "m_axi_gmem_rdata", "m_axi_gmem_rid",
    "m_axi_gmem_rresp", "m_axi_gmem_bvalid", "m_axi_gmem_bready", "m_axi_gmem_bresp")} | {
    "u_vta.u_ctrl.start", *(f"u_vta.u_ctrl.{r}" for r in (
        "insn_count", "insn_addr", "uop_base", "inp_base", "wgt_base", "acc_base", "out_base"))}


def launch_of(w: Waves, cfg: VtaConfig, last: int) -> Launch:
    """The register values at START and the memory reads up to step ``last``."""
    s = {n: _sig(w, n) for n in (
        "s_axi_control_awvalid", "s_axi_control_awready", "s_axi_control_awaddr",
        "s_axi_control_wvalid", "s_axi_control_wready", "s_axi_control_wdata", "s_axi_control_wstrb",
        "m_axi_gmem_arvalid", "m_axi_gmem_arready", "m_axi_gmem_araddr", "m_axi_gmem_arlen",
        "m_axi_gmem_arsize", "m_axi_gmem_arid", "m_axi_gmem_rvalid", "m_axi_gmem_rready",
        "m_axi_gmem_rdata", "m_axi_gmem_rid", "m_axi_gmem_rresp", "m_axi_gmem_bvalid",
        "m_axi_gmem_bready", "m_axi_gmem_bresp")}
    burst = _sig(w, "m_axi_gmem_arburst")
    steps = range(min(last, len(w.steps) - 1) + 1)

    def hs(valid: str, ready: str, k: int) -> bool:
        return bool(w.get(k, s[valid]) and w.get(k, s[ready]))

    # host writes: the n-th AW handshake pairs with the n-th W handshake (one write at a time)
    aws = [(k, w.get(k, s["s_axi_control_awaddr"]))
           for k in steps if hs("s_axi_control_awvalid", "s_axi_control_awready", k)]
    ws = [(k, w.get(k, s["s_axi_control_wdata"]), w.get(k, s["s_axi_control_wstrb"]))
          for k in steps if hs("s_axi_control_wvalid", "s_axi_control_wready", k)]
    regs = {name: 0 for name in REGS.values()}
    start = None
    late: list[str] = []
    for (ka, addr), (kw, data, strb) in zip(aws, ws, strict=False):
        at, word = max(ka, kw), (addr >> 2) & 0x3FFF
        if start is not None:
            late.append(f"{REGS.get(word, 'CTRL' if word == 0 else hex(addr))}={data:#x}/strb {strb:#x} "
                        f"(step {at})")
            continue
        if word == 0 and strb & 1 and data & 1:
            start = at
        elif word in REGS:
            old = regs[REGS[word]]
            regs[REGS[word]] = sum(((data if strb >> b & 1 else old) & (0xFF << 8 * b)) for b in range(4))
    if start is None:
        raise CexError("the host never writes START (CTRL bit 0 under WSTRB[0]) in the trace: a "
                       "vector always launches once, so a failure before any launch (the host port "
                       "alone) has no vector; replay it as a directed test of the register map")
    notes = [f"host writes after START left out (a vector launches once): {', '.join(late)}"] if late else []
    # vta_ctrl's own registers, where the waveform has them, must agree
    if w.has("u_vta.u_ctrl.start"):
        k = next((k for k in range(len(w.steps)) if w.get(k, "u_vta.u_ctrl.start")), None)
        if k is not None:
            theirs = {"insn_count": "insn_count", "insn_addr": "insn_addr",
                      **{b: f"{b}_base" for b in BASE_NAMES}}
            for mine, reg in theirs.items():
                name = f"u_vta.u_ctrl.{reg}"
                if w.has(name) and w.get(k, name) != regs[mine]:
                    raise CexError(f"the host writes decode to {mine}={regs[mine]:#x} at START, but "
                                   f"vta_ctrl holds {w.get(k, name):#x} at step {k}: the write "
                                   f"decoding of tb/formal/cex.py is wrong for this trace")
    # memory reads: AR handshakes queue per ID, R beats take the head of their ID's queue
    nb = cfg.bus_bytes
    queues: dict[int, list[list[int]]] = {}
    ars: list[tuple[int, int, int, int]] = []
    reads: dict[int, int] = {}
    for k in steps:
        for valid, ready, resp, what in (("m_axi_gmem_rvalid", "m_axi_gmem_rready", "m_axi_gmem_rresp", "R"),
                                         ("m_axi_gmem_bvalid", "m_axi_gmem_bready", "m_axi_gmem_bresp", "B")):
            if hs(valid, ready, k) and w.get(k, s[resp]):
                raise CexError(f"the memory answers {what}RESP={w.get(k, s[resp])} at step {k}: a "
                               f"vector's memory always answers OKAY (error responses are injected "
                               f"by tb/rules/faults.py, not by a vector)")
        if hs("m_axi_gmem_arvalid", "m_axi_gmem_arready", k):
            addr, ln, size = (w.get(k, s[n]) for n in ("m_axi_gmem_araddr", "m_axi_gmem_arlen",
                                                         "m_axi_gmem_arsize"))
            if w.get(k, burst) != 1:
                notes.append(f"AR at step {k} is not INCR (ARBURST={w.get(k, burst)})")
            ars.append((k, addr, ln, size))
            queues.setdefault(w.get(k, s["m_axi_gmem_arid"]), []).append([addr, ln, size, 0])
        if hs("m_axi_gmem_rvalid", "m_axi_gmem_rready", k):
            q = queues.get(w.get(k, s["m_axi_gmem_rid"]))
            if not q:
                continue  # the harness's memory answers only outstanding reads
            addr, ln, size, beat = q[0]
            width = 1 << size
            lo = addr if beat == 0 else (addr & ~(width - 1)) + beat * width
            hi = (lo & ~(width - 1)) + width
            data = w.get(k, s["m_axi_gmem_rdata"])
            for a in range(lo, hi):
                reads[a % ADDR_LIMIT] = (data >> 8 * (a % nb)) & 0xFF
            q[0][3] += 1
            if q[0][3] > ln:
                q.pop(0)
    lo, hi = regs["insn_addr"], regs["insn_addr"] + INSN_BYTES * regs["insn_count"]
    fetches = [(k, a, (ln + 1) << size) for k, a, ln, size in ars if lo <= a < hi and k >= start]
    return Launch(start, regs, reads, fetches, ars, notes)


# --- the vector ------------------------------------------------------------------------------
def _runs(data: dict[int, int], skip: tuple[int, int]) -> list[Image]:
    """The bytes outside [skip) as images of adjacent bytes."""
    out: list[Image] = []
    run_lo, buf = None, bytearray()
    for a in sorted(x for x in data if not skip[0] <= x < skip[1]):
        if run_lo is not None and a == run_lo + len(buf):
            buf.append(data[a])
            continue
        if run_lo is not None:
            out.append(Image(run_lo, bytes(buf), f"read_{run_lo:08x}.bin"))
        run_lo, buf = a, bytearray([data[a]])
    if run_lo is not None:
        out.append(Image(run_lo, bytes(buf), f"read_{run_lo:08x}.bin"))
    return out


def _with_expect(v: Vector) -> str:
    """Give ``v`` the model's expectation; '' if it is runnable, else why not."""
    try:
        report = check_vector(v)
        if not report.ok:
            return f"the checker refuses it ({report.findings[0]})"
        v.expect = written_images(run_vector(v))
    except (VectorError, ProgramError) as exc:
        return f"the model refuses it ({exc})"
    for n, img in enumerate(v.expect):
        img.file = f"expect{n}.bin"
    return "" if v.expect else "it stores nothing (a run must compare some output)"


def filler(cfg: VtaConfig, insn_addr: int, count: int, bases: dict[str, int],
           data: list[Image]) -> Vector:
    """A legal program of ``count`` instructions at ``insn_addr``: LOAD UOP, no-op LOADs
    (x_size 0, no tokens), a GEMM reset of ACC 0..3 (C2S), its STORE (S2C), FINISH; the
    trace's read data beside it where it overlaps nothing."""
    p = Program(cfg, bases, insn_addr)
    p.gemm([(0, 0, 0)], iters=(1, 4), dst=(0, 1), reset=True, push_next=True)
    for _ in range(count - FILLER_MIN):
        p.insns.insert(0, {"opcode": Opcode.LOAD, "memory_type": MemType.INP, "sram_base": 0, "dram_base": 0,
                           "y_size": 1, "x_size": 0, "x_stride": 0, "y_pad_0": 0, "y_pad_1": 0,
                           "x_pad_0": 0, "x_pad_1": 0})
    out = p.alloc("out", 4)
    p.store(0, out, 1, 4, pop_prev=True, push_prev=True)
    p.finish(pop_next=True)
    v = p.build("")
    taken = [(i.addr, i.addr + len(i.data)) for i in v.init] + [(p.addr("out", out),
                                                                 p.addr("out", out + 4))]
    v.init += [d for d in data if all(d.addr + len(d.data) <= lo or d.addr >= hi for lo, hi in taken)]
    return v



def repo_path(path: Path) -> Path:
    """A path as written in the repository's files and commands: relative to its root when inside."""
    path = path.resolve()
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path

@dataclass
class Translation:
    """What :func:`translate` wrote and how to replay it."""

    directory: Path
    vector: Vector
    kept: bool  # the trace's own instructions (else a legal program at the same addresses)
    defines: tuple[str, ...]
    label: str
    checker: str  # what the simulation's checkers should report, in words

    @property
    def shown(self) -> Path:
        """The directory as the repository's Makefile takes it (relative to the root if inside)."""
        return repo_path(self.directory)

    def command(self) -> str:
        env = f"VTA_DEFINES={shlex.quote(','.join(self.defines))} " if self.defines else ""
        return f"{env}make sim VECTOR={self.shown}"


def expected_report(label: str) -> str:
    """The simulation checker's words for a port monitor's assertion, '' when none maps."""
    m = re.fullmatch(r"(?:.*\.)?u_mon_mem\.a_(?:aw_|ar_|w_|b_|r_)?(\w+)", label)
    if m and m.group(1) in RULES:
        return f"the protocol checker's [{RULES[m.group(1)]}]"
    return ""


def translate(trace: Path, out: Path, config: str | None = None) -> Translation:
    """Write the vector of a whole-top counterexample to ``out``."""
    files = locate(trace)
    if files.top and files.top != "vta_formal_top":
        raise CexError(f"{files.vcd}: a trace of {files.top}, not of the whole top (vta_formal_top): "
                       f"a module's contract trace drives the module's own ports, not a program")
    if re.match(r"(?:.*\.)?u_mon_lite\.", files.label):
        raise CexError(f"{files.vcd}: the failed assertion {files.label} is on the host port "
                       f"(AXI4-Lite): a vector's host is the testbench's, with its own timing; "
                       f"replay the trace's host writes in a directed test instead")
    if config is None:
        from tb.formal.jobs import jobs
        harness = [j for j in jobs() if j.harness and j.top == "vta_formal_top"]
        config = harness[0].config if harness else "small"
    cfg = load_config(config)
    w = read_vcd(files.vcd, WANTED)
    last = files.step if files.step is not None else len(w.steps) - 1
    launch = launch_of(w, cfg, last)
    regs = launch.regs
    insn_addr, count = regs["insn_addr"], regs["insn_count"]
    bases = {b: regs[b] for b in BASE_NAMES}
    if count == 0:
        raise CexError(f"{files.vcd}: INSN_COUNT is 0 at START: no program to write")
    notes = list(launch.notes)
    window = (insn_addr, insn_addr + INSN_BYTES * count)
    words_known = window[1] <= ADDR_LIMIT and all(a in launch.reads for a in range(*window)) \
        if count <= 4096 else False
    kept = False
    v: Vector | None = None
    if words_known:
        stream = bytes(launch.reads[a] for a in range(*window))
        v = Vector(cfg, insn_addr, count, [Image(insn_addr, stream, "insns.bin"),
                                           *_runs(launch.reads, window)], None, bases)
        why = _with_expect(v)
        kept = not why
        if why:
            notes.append(f"the trace's {count} instructions are replaced: {why}")
    else:
        fetched = sum(1 for a in range(*window) if a in launch.reads) if count <= 4096 else 0
        notes.append(f"the trace's instructions are replaced by a legal program (the trace fetched "
                     f"{fetched} of the {INSN_BYTES * count} instruction bytes by step {last})")
    if not kept:
        need = max([-(-(a + n - insn_addr) // INSN_BYTES) for _, a, n in launch.fetches] + [1])
        length = max(need, FILLER_MIN)
        if length > count:
            notes.append(f"INSN_COUNT raised from {count} to {length}, the shortest legal program")
        elif length < count:
            notes.append(f"INSN_COUNT {count:#x} cut to {length}: the instructions the fetch requests "
                         f"of the trace cover (its bursts keep their addresses and lengths)")
        if insn_addr + INSN_BYTES * length > ADDR_LIMIT:
            raise CexError(f"{files.vcd}: the instruction stream [{insn_addr:#x}, +{INSN_BYTES * length}) "
                           f"runs past 4 GiB, which a vector cannot hold")
        data = _runs(launch.reads, (insn_addr, insn_addr + INSN_BYTES * length))
        try:
            v = filler(cfg, insn_addr, length, bases, data)
        except ProgramBuildError as exc:
            # every base on the first page past the instruction stream (0 when the stream
            # ends too near 4 GiB for the data: then it starts high enough to leave 0 free)
            end = -(-(insn_addr + INSN_BYTES * length) // PAGE) * PAGE
            free = end if end + DATA_ROOM <= ADDR_LIMIT else 0
            notes.append(f"the trace's bases cannot hold the replacement's data ({exc}): "
                         f"every base {free:#x}")
            try:
                v = filler(cfg, insn_addr, length, {b: free for b in BASE_NAMES}, data)
            except ProgramBuildError as again:
                raise CexError(f"{files.vcd}: no room for the replacement program's data beside "
                               f"its instructions at {insn_addr:#x}: {again}") from again
        why = _with_expect(v)
        if why:
            raise CexError(f"{files.vcd}: the replacement program at {insn_addr:#x} cannot run: {why}")
    assert v is not None
    checker = expected_report(files.label)
    shown = repo_path(files.vcd)
    notes = [n[0].upper() + n[1:] for n in notes]
    fetch = ", ".join(f"AR {a:#010x}+{n} at step {k}" for k, a, n in launch.fetches) or "none"
    v.description = " ".join([
        f"Counterexample of the whole-top formal job ({shown}): assertion "
        f"{files.label or '?'} fails at step {last}"
        + (f" with {', '.join(files.defines)}" if files.defines else "") + ".",
        f"The host wrote INSN_ADDR {insn_addr:#x}, INSN_COUNT {count:#x}, bases "
        f"{', '.join(f'{b} {bases[b]:#x}' for b in BASE_NAMES)} before START (step {launch.step});",
        f"the fetch requested {fetch}.",
        ("The program is the trace's own." if kept else
         "The program is a legal one in place of the trace's words (LOAD UOP, no-op LOADs, GEMM "
         "reset, STORE, FINISH), at the same instruction address."),
        *(n + "." for n in notes),
        f"Expected in simulation: {checker or 'the failure of ' + (files.label or 'the trace')} "
        f"on the broken RTL, a pass on the real one.",
    ])
    if out.exists() and (out / "manifest.json").exists():
        for f in out.glob("*.bin"):
            f.unlink()
    save_vector(v, out)
    return Translation(out.resolve(), v, kept, files.defines, files.label, checker)


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="python -m tb.formal.cex", description=__doc__.splitlines()[0])
    p.add_argument("trace", type=Path, help="the trace: a .yw or .vcd, or the job's run directory")
    p.add_argument("--out", type=Path, required=True, help="the vector directory to write")
    p.add_argument("--config", help="the harness's configuration (default: the whole-top job's)")
    p.add_argument("--record", type=Path, help="also keep a compact copy of the trace there "
                   "(the signals read, the job's defines and failed assertion: a test fixture)")
    args = p.parse_args(argv)
    try:
        if args.record:
            record(args.trace, args.record)
        t = translate(args.trace, args.out, args.config)
    except CexError as exc:
        print(f"tb.formal.cex: cannot translate: {exc}", file=sys.stderr)
        return 1
    v = t.vector
    program = "the trace's own program" if t.kept else "a legal program in place of the trace's words"
    print(f"vector {t.directory}: insn_addr {v.insn_addr:#x}, insn_count {v.insn_count}, {program}")
    if t.checker:
        print(f"expected: {t.checker}" + (" (with the broken copy's define)" if t.defines else ""))
    print(f"reproduce: {t.command()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
