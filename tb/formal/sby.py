"""Run one formal job with SymbiYosys and read back what it decided.

For a job (tb/formal/jobs.py) this writes one .sby file with two tasks -- the check itself
(`prove`: k-induction or PDR; `bmc`: a bound) and `cover`, where every assertion's enable is
a cover (`chformal -coverenable`) -- runs sby with the job's own `timeout` option (an outer
kill would orphan the solvers), and parses sby's logs into a :class:`JobResult`.

    run_job(job, workdir, env, negative=None) -> JobResult
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from tb.formal.jobs import FormalJob
from tb.formal.negatives import Negative
from tb.paths import ROOT, RTL_DIR

#: labels of contract statements (tb/formal/jobs.py's convention)
LABEL = re.compile(r"\b([ahmc]_[A-Za-z0-9_]+)\s*:\s*(assert|assume|cover)\s*\(")
DONE = re.compile(r"DONE \((\w+), rc=(\d+)\)")
FAILED = re.compile(r"failed assertion (\S+) at (\S+?):(\d+)\.\d+-[\d.]+(?: step (\d+))?")
#: the engine's own record of each cover reached (sby's summary stops after a few)
ENGINE_REACHED = re.compile(r"Reached cover statement in step (\d+) at \S+: (\S+?):(\d+)\.")
#: a compiled formal statement in sby's prepared design: its source line, then the cell
IL_SRC = re.compile(r'attribute \\src "([^":]+):(\d+)\.')
IL_CELL = re.compile(r"cell \$(assert|assume|cover|check) ")
REACHED = re.compile(
    r"\b(reached|unreached) cover statement (\S+) at (\S+?):(\d+)\.\d+-[\d.]+(?: step (\d+))?"
)
#: a step an engine finished: smtbmc's "Checking assertions in step N", abc bmc3's "N + : Var ="
STEP = re.compile(r"Checking assertions in step (\d+)|^(?:.*engine_\d+: )?\s*(\d+) \+ : Var =")
TRACE = re.compile(r"counterexample trace(?: \[(\w+)\])?: (\S+)")


class FormalError(RuntimeError):
    """sby could not run the job (a syntax error in a contract, a missing file): the message says which."""


@dataclass
class Check:
    """One assertion of the contract and what the runs said of it."""

    label: str
    kind: str  # assert | assume | cover
    file: str
    line: int
    trigger_step: int | None = None  # step at which its enable was reached (cover task)
    failed_step: int | None = None  # step of a counterexample (check task)


@dataclass
class JobResult:
    """What one job decided."""

    name: str
    sby_mode: str  # the [options] mode it ran (prove or bmc)
    engine: str
    status: str  # proven | bounded | FAILED | UNKNOWN | TIMEOUT | ERROR
    detail: str  # e.g. "k-induction depth 4", "BMC depth 30"
    seconds: float
    checks: list[Check] = field(default_factory=list)
    failed: list[Check] = field(default_factory=list)
    trace_vcd: Path | None = None
    trace_yw: Path | None = None
    depth_reached: int | None = None
    unreached: list[str] = field(default_factory=list)  # assertion labels whose trigger was never reached
    log: Path | None = None
    sources: dict[str, Path] = field(default_factory=dict)   # the files read, by name (broken copy included)

    @property
    def ok(self) -> bool:
        return self.status in ("proven", "bounded") and not self.unreached


def contract_checks(path: Path) -> dict[int, Check]:
    """The labelled statements of a source file, by line number."""
    out: dict[int, Check] = {}
    for n, text in enumerate(path.read_text().splitlines(), 1):
        m = LABEL.search(text)
        if m:
            out[n] = Check(m.group(1), m.group(2), path.name, n)
    return out


def hunt_tasks(job: FormalJob) -> dict[str, tuple[int, str]]:
    """sby task name -> (VTA_FORMAL_HUNT number, cover label) of a harness job's covers; the
    number is the cover's place in the harness's list (tb/rtl/formal/vta_formal_top.v)."""
    order = [*job.hunts, *job.hinted]
    return {f"{'hint' if c in job.hinted else 'hunt'}_{c.removeprefix('c_')}": (HUNT_ORDER.index(c) + 1, c)
            for c in order}


#: the covers of the whole-top harness, numbered as its VTA_FORMAL_HUNT define counts them
HUNT_ORDER = ("c_first_aw", "c_first_w", "c_first_b", "c_done", "c_done_after_store")


def harness_sby_text(job: FormalJob, files: list[Path], defines: tuple[str, ...]) -> str:
    """The .sby of a harness job (the whole top): rtl/ read without FORMAL (each module's
    contract has its own job, and its assumptions must not constrain the whole) except the
    modules the job checks in context, whose assumptions become assertions; the harness with
    FORMAL; flattened, memories mapped, undriven bits free. Each hunted cover is a BMC task
    of its own (abc has no cover mode): the cover, asserted never to happen, fails at the
    step that reaches it, with every guarantee of the harness assumed meanwhile. The defines
    go to both reads (rtl/'s test-only breaks, the harness's VTA_FORMAL_HINT)."""
    harness = {Path(h).name for h in job.harness}
    context = {f"{m}.v" for m in job.in_context}
    design = " ".join(f.name for f in files if f.suffix == ".v" and f.name not in harness | context)
    contracts = " ".join(f.name for f in files if f.name in context)
    formal = " ".join(f.name for f in files if f.name in harness)
    dflags = "".join(f"-D {d} " for d in defines)
    covers = hunt_tasks(job)
    checks = ["bmc"] + (["hint_bmc"] if job.hint_depth else [])
    hunt_options = ["hunt: mode bmc", f"hunt: depth {job.cover_depth}"] if covers else []
    hint_options = ["hint_bmc: mode bmc", f"hint_bmc: depth {job.hint_depth}"] if job.hint_depth else []
    lines = ["[tasks]", *checks, *[f"{t} hunt" for t in covers], "",
             "[options]", "bmc: mode bmc", f"bmc: depth {job.depth}",
             *hint_options, *hunt_options, f"timeout {job.timeout}", "",
             "[engines]", job.engine, "",
             "[script]", f"read -sv {dflags}{design}",
             *([f"read -formal {dflags}{contracts}"] if contracts else []),
             f"bmc: read -formal {dflags}{formal}",
             *([f"hint_bmc: read -formal -D VTA_FORMAL_HINT {formal}"] if job.hint_depth else []),
             *[f"{t}: read -formal -D VTA_FORMAL_HUNT={n} {'-D VTA_FORMAL_HINT ' if c in job.hinted else ''}"
               f"{formal}" for t, (n, c) in covers.items()],
             f"prep -top {job.top}",
             # the in-context contracts' assumptions are the accelerator's obligations (a hunt
             # keeps them as assumptions: a cover reached under more is reached without them)
             *[f"{t}: chformal -assume2assert *{m}*" for t in checks for m in job.in_context],
             *(["hunt: chformal -assert -assert2assume c:a_* c:h_*"] if covers else []),
             "bmc: chformal -cover -remove",
             *(["hint_bmc: chformal -cover -remove"] if job.hint_depth else []),
             "flatten", "memory_map",
             # out-of-range array reads are X after techmap and become free values below
             *(["techmap"] if job.engine.startswith("abc") else []),
             "setundef -anyseq", "opt_clean", "",
             "[files]", *[str(f) for f in files], ""]
    return "\n".join(lines)


def sby_text(job: FormalJob, files: list[Path], defines: tuple[str, ...]) -> str:
    """The .sby file of a job."""
    if job.harness:
        return harness_sby_text(job, files, defines)
    check = "prove" if job.sby_mode == "prove" else "bmc"
    top_script = [
        f"read -formal {' '.join('-D ' + d for d in defines)} "
        f"{' '.join(f.name for f in files if f.suffix == '.v')}".replace("  ", " "),
        f"chparam {' '.join(f'-set {k} {v}' for k, v in job.params)} {job.prep_top}" if job.params else "",
        f"prep -top {job.prep_top}",
        # a submodule's assumptions about its neighbours are the parent's obligations here
        *[f"chformal -assume2assert *{m}*" for m in job.submodules],
        *job.script,
    ]
    lines = [
        "[tasks]",
        check,
        "cover",
        "",
        "[options]",
        f"{check}: mode {check}",
        f"{check}: depth {job.depth}",
        "cover: mode cover",
        f"cover: depth {job.cover_depth}",
        f"timeout {job.timeout}",
        "",
        "[engines]",
        f"{check}: {job.engine}",
        "cover: smtbmc yices",
        "",
        "[script]",
        *[s for s in top_script if s],
        "cover: chformal -coverenable",
        "",
        "[files]",
        *[str(f) for f in files],
        "",
    ]
    return "\n".join(lines)


def sources(job: FormalJob, workdir: Path, negative: Negative | None) -> list[Path]:
    """The files sby copies in: the top's file first (broken for a negative), the other rtl/
    files, a harness's files, and the headers they include."""
    if job.harness:
        top = [ROOT / h for h in job.harness if Path(h).stem == job.top]
        rest = [ROOT / h for h in job.harness if Path(h).stem != job.top]
        files = top + [RTL_DIR / f for f in job.files] + rest
        headers = sorted(RTL_DIR.glob("*.vh")) + sorted((ROOT / "tb" / "rtl").glob("*.vh"))
    else:
        files = [RTL_DIR / f for f in job.files] + [ROOT / w for w in job.wrapper]
        headers = sorted(RTL_DIR.glob("*.vh"))
        if job.wrapper:
            headers += sorted((ROOT / "tb" / "rtl").glob("*.vh"))
    if negative is not None and negative.find:
        names = [f.name for f in files]
        target = names.index(negative.file) if negative.file in names else (None if negative.file else 0)
        if target is None:
            raise FormalError(f"negative {negative.name}: {negative.file} is not read by job {job.name}")
        files[0], files[target] = files[target], files[0]
        text = files[0].read_text()
        if text.count(negative.find) != 1:
            raise FormalError(
                f"negative {negative.name}: the text to break must occur once in "
                f"{files[0].name}, found {text.count(negative.find)} times: {negative.find!r}"
            )
        broken = workdir / "src" / files[0].name
        broken.parent.mkdir(parents=True, exist_ok=True)
        broken.write_text(text.replace(negative.find, negative.replace))
        files[0] = broken
        files[0], files[target] = files[target], files[0]
    missing = [f for f in files if not f.exists()]
    if missing:
        raise FormalError(f"job {job.name}: {', '.join(str(m) for m in missing)} missing")
    return files + headers


def compiled(task_dir: Path, file: str) -> set[int] | None:
    """Lines of `file` whose statements Yosys compiled (those of blocks a define leaves out
    are not there), from the task's prepared design; None when it is missing."""
    il = task_dir / "model" / "design_prep.il"
    if not il.exists():
        return None
    lines: set[int] = set()
    src: tuple[str, int] | None = None
    for text in il.read_text(errors="replace").splitlines():
        m = IL_SRC.search(text)
        if m:
            src = (Path(m.group(1)).name, int(m.group(2)))
        elif IL_CELL.search(text) and src is not None and src[0] == file:
            lines.add(src[1])
        elif not text.lstrip().startswith("attribute"):
            src = None
    return lines


def log_lines(task_dir: Path) -> list[str]:
    """An sby task's log (empty when the task did not run)."""
    log = task_dir / "logfile.txt"
    return log.read_text(errors="replace").splitlines() if log.exists() else []


def task_status(lines: list[str]) -> str:
    """The verdict an sby task's log ends with (PASS, FAIL, UNKNOWN, TIMEOUT), else ERROR."""
    for line in reversed(lines):
        m = DONE.search(line)
        if m:
            return m.group(1)
    return "ERROR"


def deepest_step(task_dir: Path) -> int | None:
    """The deepest step an engine finished checking, from the engine logs."""
    best: int | None = None
    for log in list(task_dir.glob("engine_*/logfile*.txt")) + [task_dir / "logfile.txt"]:
        if not log.exists():
            continue
        for line in log.read_text(errors="replace").splitlines():
            m = STEP.search(line)
            if m:
                step = int(m.group(1) or m.group(2))
                best = step if best is None else max(best, step)
    return best


def run_job(
    job: FormalJob, workdir: Path, env: dict[str, str], negative: Negative | None = None
) -> JobResult:
    """Run a job's check and cover tasks; parse the verdict, failures, traces and triggers.

    When k-induction does not close (UNKNOWN), a bounded search to the cover depth follows:
    a counterexample found there is a real failure (FAILED, with its reachable trace), while
    none means only that the proof is missing (UNKNOWN: a helper invariant is needed).
    """
    result = _run(job, workdir, env, negative)
    if result.status != "UNKNOWN" or job.sby_mode != "prove":
        return result
    search = _run(replace(job, sby_mode="bmc", engine="smtbmc yices", depth=job.cover_depth),
                  workdir / "search", env, negative, with_cover=False)
    if search.status == "FAILED":
        search.seconds += result.seconds
        search.checks, search.unreached, search.sby_mode = result.checks, result.unreached, job.sby_mode
        search.engine = job.engine
        return search
    result.detail += f"; no counterexample in {job.cover_depth} steps"
    result.seconds += search.seconds
    return result


#: how long sby may take to exit after its own timeout has stopped its engines
SBY_GRACE = 120


def _sby(sby: Path, tasks: list[str], env: dict[str, str], timeout: int) -> str:
    """Run sby on some tasks of a .sby file; its output. sby's own `timeout` stops the
    engines (an outer kill would orphan them); if sby itself then does not exit -- seen once,
    with seven tasks timing out together and its engines' processes left unreaped -- its
    process group is stopped SBY_GRACE seconds later, so a run never hangs, and the log says
    so (the tasks' own logs already hold their verdicts)."""
    proc = subprocess.Popen(["sby", "-f", sby.name, *tasks], cwd=sby.parent, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout + SBY_GRACE)
        return out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        out, _ = proc.communicate()
        return out + (f"sby did not exit {SBY_GRACE} s after its {timeout} s timeout: stopped "
                      f"(tasks {' '.join(tasks)})\n")


def _run(
    job: FormalJob, workdir: Path, env: dict[str, str], negative: Negative | None, with_cover: bool = True
) -> JobResult:
    workdir = workdir.resolve()
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    if negative is not None:
        # a broken copy must fail with a reachable trace, not merely break an induction step:
        # bounded check to the depth at which the cover run reaches every trigger
        if negative.proof:
            job = replace(job, hunts=())
        else:
            engine = job.engine if job.harness else "smtbmc yices"
            job = replace(job, sby_mode="bmc", engine=engine, depth=job.cover_depth, hunts=(), hinted=(),
                          hint_depth=0)
    defines = job.defines + ((negative.define,) if negative is not None and negative.define else ()) \
        + (("VTA_FORMAL_HINT",) if negative is not None and negative.hint else ())
    files = sources(job, workdir, negative)
    sby = workdir / "job.sby"
    sby.write_text(sby_text(job, files, defines))
    check = "prove" if job.sby_mode == "prove" else "bmc"
    hunts = hunt_tasks(job)
    if job.harness:
        # one sby run after the other, each with its own timeout: run together, the BMC, the
        # hinted BMC and the hunts (each its own model build) share the cores and sby's one
        # timeout, and on a loaded machine no hunt got past its model build in 10 minutes
        phases = [["bmc"]] + ([["hint_bmc"]] if job.hint_depth and negative is None else []) \
            + ([list(hunts)] if with_cover and hunts else [])
    else:
        phases = [[check] if negative is not None or not with_cover else [check, "cover"]]
    tasks = [t for phase in phases for t in phase]
    t0 = time.perf_counter()
    output = "".join(_sby(sby, phase, env, job.timeout) for phase in phases)
    seconds = time.perf_counter() - t0
    (workdir / "sby.log").write_text(output)
    lines = log_lines(workdir / f"job_{check}")
    status = task_status(lines)
    if status == "ERROR":
        errors = [ln for ln in output.splitlines() if "ERROR" in ln or "rror:" in ln]
        raise FormalError(
            f"job {job.name}: sby stopped with an error (log {workdir / 'sby.log'}):\n  "
            + "\n  ".join(errors[-5:] or output.splitlines()[-5:])
        )
    # the top's own statements (and a wrapper's shared rules): a submodule's are proven by its
    # own job, and in this context only have to hold (their triggers need not all be reachable
    # from this parent)
    watched = [files[0]] + [f for f in files if job.wrapper and f.is_relative_to(ROOT / "tb")]
    checks = {}
    for f in watched:
        present = compiled(workdir / f"job_{check}", f.name)
        checks.update({(f.name, n): c for n, c in contract_checks(f).items()
                       if present is None or n in present})
    hint_status = ""
    if job.harness and "hint_bmc" in tasks:
        # every assertion again, on the hint's directed scenario, deeper: its failure is real
        hint_lines = log_lines(workdir / "job_hint_bmc")
        hint_status = task_status(hint_lines)
        if hint_status == "FAIL":
            lines, status = hint_lines, "FAIL"
    failed: list[Check] = []
    trace_vcd = trace_yw = None
    for line in lines:
        m = FAILED.search(line)
        if m:
            key = (Path(m.group(2)).name, int(m.group(3)))
            c = checks.get(key) or Check(m.group(1).split(".")[-1], "assert", key[0], key[1])
            if m.group(4) and c.failed_step is None:
                c.failed_step = int(m.group(4))
            if c not in failed:
                failed.append(c)
        t = TRACE.search(line)
        if t and trace_vcd is None and (t.group(1) in (None, "basecase") or status != "FAIL"):
            trace_vcd = workdir / t.group(2)
            yw = trace_vcd.with_suffix(".yw")
            trace_yw = yw if yw.exists() else None
    depth = deepest_step(workdir / f"job_{check}") if job.sby_mode == "bmc" else None
    if status == "PASS":
        verdict = "proven" if job.sby_mode == "prove" else "bounded"
        detail = (
            f"{'PDR' if 'pdr' in job.engine else 'k-induction'}"
            + ("" if "pdr" in job.engine else f", depth {job.depth}")
            if job.sby_mode == "prove"
            else f"BMC depth {job.depth}"
        )
    elif status == "FAIL":
        verdict, detail = (
            "FAILED",
            "counterexample"
            + (f" at step {failed[0].failed_step}" if failed and failed[0].failed_step is not None else ""),
        )
    elif status == "TIMEOUT" and job.sby_mode == "bmc":
        verdict, detail = (
            "bounded",
            f"BMC depth {depth} in {job.timeout} s" if depth is not None else "timeout",
        )
    elif status == "UNKNOWN":
        verdict, detail = (
            "UNKNOWN",
            ("induction failed: " + ", ".join(c.label for c in failed) if failed else "no proof"),
        )
    else:
        verdict, detail = status, f"after {job.timeout} s"
    if hint_status == "PASS":
        detail += f"; under the hint every assertion to depth {job.hint_depth}"
    elif hint_status in ("TIMEOUT", "UNKNOWN"):
        detail += f"; under the hint to depth {deepest_step(workdir / 'job_hint_bmc')}"
    unreached: list[str] = []
    if job.harness and with_cover:
        # the hunted covers (compiled only in their own tasks, as assertions), by label
        declared = {c.label: c for c in contract_checks(files[0]).values() if c.kind == "cover"}
        checks = {k: c for k, c in checks.items() if c.kind == "assert"}
        reached_at: dict[str, int] = {}
        for task, (_, label) in hunts.items():
            hunt = log_lines(workdir / f"job_{task}")
            steps = [int(m.group(4)) for m in map(FAILED.search, hunt) if m and m.group(4)]
            c = declared.get(label) or Check(label, "cover", files[0].name, 0)
            checks[(c.file, c.line)] = c
            if task_status(hunt) == "FAIL" and steps:
                c.trigger_step = reached_at[label] = steps[0]
            else:
                unreached.append(label)
        # an assertion's trigger is reached where a cover that implies it is
        for assertion, cover in job.witnessed:
            for c in checks.values():
                if c.label == assertion and cover in reached_at:
                    c.trigger_step = reached_at[cover]
    elif "cover" in tasks:
        reached: dict[tuple[str, int], int] = {}
        misses: set[tuple[str, int]] = set()
        for line in log_lines(workdir / "job_cover"):
            m = REACHED.search(line)
            if m:
                key = (Path(m.group(3)).name, int(m.group(4)))
                if m.group(1) == "reached":
                    reached.setdefault(key, int(m.group(5)) if m.group(5) else 0)
                else:
                    misses.add(key)
            e = ENGINE_REACHED.search(line)
            if e:
                reached.setdefault((Path(e.group(2)).name, int(e.group(3))), int(e.group(1)))
        cover_status = task_status(log_lines(workdir / "job_cover"))
        for key, c in checks.items():
            if c.kind not in ("assert", "cover"):
                continue
            if key in reached:
                c.trigger_step = reached[key]
            elif key in misses or cover_status in ("PASS", "FAIL"):
                unreached.append(c.label)
    return JobResult(
        job.name,
        job.sby_mode,
        job.engine,
        verdict,
        detail,
        seconds,
        checks=[c for c in checks.values() if c.kind in ("assert", "cover")],
        failed=failed,
        trace_vcd=trace_vcd,
        trace_yw=trace_yw,
        depth_reached=depth,
        unreached=unreached,
        log=workdir / "sby.log",
        sources={f.name: f for f in files},
    )
