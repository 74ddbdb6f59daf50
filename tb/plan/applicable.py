"""Which jobs a foreign DUT can run: its profile's differences as reasons to leave one out.

A DUT profile (tb/duts) names what its design does not do as the spec says. A job whose
program uses such a form would fail for a known reason, so it is left out before it runs
and the run's report names it with the reason; whatever is left is held to the same checks
as rtl/. The rules, by difference (tb/duts/differences.py):

* the configuration: a vector runs only on the configuration the design was built for, up to
  deeper queues on the design (queue depths change no result, only how far fetch runs ahead);
* ``isa.alu-mul``, ``isa.load-acc8``: the program has an ALU MUL, a LOAD ACC_8BIT;
* ``isa.alu-shr-negative``: an ALU SHR by a register operand (whose value is data: the
  program cannot be shown to avoid the difference) or by an immediate of ACC_W or more in
  magnitude;
* ``isa.insn-addr-alignment``: INSN_ADDR is not a multiple of the bus width;
* ``config.uop-buffer-depth``: a micro-op index at or beyond the profile's limit;
* ``isa.alu-imm-reads-src``, ``store.out-buffer``: the bytes the program stores change when
  the golden model applies the difference (tb/duts/semantics.py);
* ``tokens.full-push-dropped``: in some schedule a token queue would hold more than the DUT's
  TOKEN_QUEUE_DEPTH tokens at once (models/checker/tokens.py: ``max_outstanding``), so a push
  could find its counter full;
* ``registers.base_combine: or``: a base shares a bit with an offset added to it, so its OR
  is not the sum (the spec's address);
* the reset flow and negative tests check rtl/'s own register table, status words and
  fault hooks (tb/rules/regs.py, tb/rules/faults.py), which another design does not have; the
  register-map and host-timing flows run, held to the claims the profile's registers
  section states (tb/plan/claims.py: each other claim is named in the job's record with the
  reason, and :func:`dut_report` prints them).

Random programs for the DUT are generated without those forms (models/genlib/restrict.py)
and then checked here like vectors. Protocol differences leave nothing out: a waived rule
(tb/plan/dutmap.py: WAIVERS) is reported on every run instead (:func:`dut_report`).
"""
from __future__ import annotations

from typing import Any

from models.checker import check_vector
from models.checker.tokens import max_outstanding
from models.config import VtaConfig
from models.gen import GenError, generate
from models.isa import AluOp, MemType, Opcode
from models.spec import QUEUES
from models.spec.configs import load_config
from models.vector import Vector, load_vector
from tb.duts.differences import DIFFERENCES
from tb.duts.semantics import MODELLED, divergences
from tb.plan.dutmap import WAIVERS, gen_limits, is_native, netlist_of_rtl, profile_of
from tb.plan.jobs import Job
from tb.plan.registry import for_kind
from tb.rules.faults import fault

#: Configuration keys a design may hold deeper than a vector's without changing its result.
QUEUE_KEYS = ("CMD_QUEUE_DEPTH", "TOKEN_QUEUE_DEPTH")
#: The base register each LOAD memory type (and STORE) adds to its DRAM offsets.
BASE_OF_TYPE = {MemType.UOP: "uop", MemType.INP: "inp", MemType.WGT: "wgt", MemType.ACC: "acc",
                MemType.ACC_8BIT: "acc"}


def config_reason(own: VtaConfig, dut: VtaConfig, dut_name: str) -> str | None:
    """Why a program of configuration ``own`` cannot run on a design built for ``dut`` (None:
    it can: equal, or differing only in queues the design holds deeper)."""
    differ = sorted(k for k in own.values if own.values[k] != dut.values[k]
                    and not (k in QUEUE_KEYS and dut.values[k] >= own.values[k]))
    if not differ:
        return None
    values = ", ".join(f"{k} {own.values[k]} (DUT {dut.values[k]})" for k in differ)
    return f"configuration: the vector is built for another configuration than {dut_name}'s: {values}"


def runs_on(own: VtaConfig, dut: VtaConfig, spec: str) -> bool:
    """A vector of ``own`` runs on DUT ``spec`` built for ``dut`` (rtl/ only on its own)."""
    return not is_native(spec) and config_reason(own, dut, spec) is None


def _why(name: str, what: str) -> str:
    return f"{name}: {what} ({DIFFERENCES[name]})"


def program_reasons(vector: Vector, spec: str) -> list[str]:
    """Why DUT ``spec``'s profile rules ``vector`` out (empty: it runs)."""
    p = profile_of(spec)
    report = check_vector(vector)
    insns = [(i, insn) for i, insn in enumerate(report.insns) if insn is not None]
    out = []
    alu = [(i, insn) for i, insn in insns if insn["opcode"] == Opcode.ALU]
    if p.has("isa.alu-mul") and (hit := [i for i, x in alu if x["alu_opcode"] == AluOp.MUL]):
        out.append(_why("isa.alu-mul", f"ALU MUL at insn #{hit[0]}"))
    width = vector.config.acc_width
    shr = [i for i, x in alu if x["alu_opcode"] == AluOp.SHR
           and (not x["use_imm"] or abs(_signed16(x["imm"])) >= width)]
    if p.has("isa.alu-shr-negative") and shr:
        out.append(_why("isa.alu-shr-negative", f"ALU SHR by a register operand or an immediate "
                                                f"outside [-{width - 1}, {width - 1}] at insn #{shr[0]}"))
    acc8 = [i for i, x in insns if x["opcode"] == Opcode.LOAD and x["memory_type"] == MemType.ACC_8BIT]
    if p.has("isa.load-acc8") and acc8:
        out.append(_why("isa.load-acc8", f"LOAD ACC_8BIT at insn #{acc8[0]}"))
    bus = vector.config.bus_bytes
    if p.has("isa.insn-addr-alignment") and vector.insn_addr % bus:
        out.append(_why("isa.insn-addr-alignment", f"INSN_ADDR {vector.insn_addr:#x} is not a "
                                                   f"multiple of {bus}"))
    depth = next((d.limit for d in p.differences if d.name == "config.uop-buffer-depth"), None)
    uops = [i for i, _ in insns if any(int(fp.max()) >= depth for fp in
                                       (report.footprints[i].sram("uop"),) if fp.size)] if depth else []
    if uops:
        out.append(_why("config.uop-buffer-depth", f"insn #{uops[0]} uses micro-op entries at or "
                                                   f"beyond {depth}"))
    if p.registers.base_combine == "or" and (clash := _or_clash(vector, report, insns)):
        out.append(f"registers.base_combine or: {clash} (the DUT ORs a base into an address, the "
                   f"spec adds it)")
    dut_cfg = load_config(p.config_name)
    if p.has("tokens.full-push-dropped") and (full := _token_overflow(report, dut_cfg)):
        out.append(_why("tokens.full-push-dropped", full))
    modelled = [n for n in MODELLED if p.has(n)] if report.ok else []
    found = divergences(vector, modelled) if modelled else {}
    for name, changed in found.items():
        if changed is not None:
            out.append(_why(name, f"{changed[1]} stored byte(s) depend on it, the first at {changed[0]:#x} "
                                  f"(python -m tb.duts.semantics)"))
    return out


def _token_overflow(report: Any, cfg: VtaConfig) -> str:
    """The first token queue that can hold more than the DUT's TOKEN_QUEUE_DEPTH (``cfg``)
    tokens at once: only then can a push find its counter full, which the spec makes wait
    and the DUT drops ('' if none)."""
    depth = cfg.values["TOKEN_QUEUE_DEPTH"]
    for queue in QUEUES:
        if (most := max_outstanding(report.ops, queue)) > depth:
            return f"{most} tokens of {queue} can be outstanding at once, more than its depth {depth}"
    return ""


def _signed16(value: int) -> int:
    return value - (1 << 16) if value >= 1 << 15 else value


def _or_clash(vector: Vector, report: Any, insns: list[tuple[int, dict]]) -> str:
    """The first LOAD/STORE whose base shares a bit with an offset from it ('' if none)."""
    for i, insn in insns:
        if insn["opcode"] == Opcode.STORE:
            name = "out"
        elif insn["opcode"] == Opcode.LOAD:
            name = BASE_OF_TYPE[MemType(insn["memory_type"])]
        else:
            continue
        fp = report.footprints[i]
        base = vector.bases.get(name, 0)
        for addr, n in fp.dram_reads + fp.dram_writes:
            top = addr + n - 1 - base  # the largest offset added to the base
            if base & ((1 << top.bit_length()) - 1):
                return f"insn #{i}: base {name} {base:#x} shares bits with offsets up to {top:#x}"
    return ""


def excluded_record(job: Job, config: str, reason: str) -> dict[str, Any]:
    """A result record for a job left out (tb/launch/summary.py shows it as EXCLUDED)."""
    return {"job": job.name, "passed": True, "excluded": reason, "failures": [],
            "config": config, "job_spec": job.__dict__}


def job_reasons(job: Job, config: str, spec: str, differences: bool = True) -> list[str]:
    """Why DUT ``spec`` cannot run ``job`` (its configuration ``config``: the profile's);
    with ``differences`` False only what makes it impossible, not the profile's differences."""
    entry = for_kind(job.kind)
    negative = bool(fault(job.fault).expect or job.deadlock or job.expect_kind)
    if negative and netlist_of_rtl(spec):
        return [f"rtl/ only: {job.name} is a negative test, a fault the testbench injects that a "
                f"checker must catch (tb/rules/faults.py): it tests the testbench, not the design, "
                f"and runs on rtl/ (make sim TEST=negative)"]
    if netlist_of_rtl(spec):  # rtl/'s registers and claims: the rtl/-only flows run too
        return [] if not entry.program else job_program_reasons(job, config, spec, differences)
    if entry.rtl_only or negative:
        what = entry.rtl_only or "rtl/'s fault hooks and expected failures (tb/rules/faults.py)"
        return [f"rtl/ only: {entry.name} checks {what}, which {spec} does not have"]
    if job.accept:
        return [f"rtl/ only: {job.name}'s program breaks {', '.join(job.accept)} on purpose, to "
                f"check what rtl/README.md documents for it; {spec}'s profile states nothing of it"]
    if not entry.program:  # a flow of its own: it checks what the profile states
        return []
    return job_program_reasons(job, config, spec, differences)


def job_program_reasons(job: Job, config: str, spec: str, differences: bool = True) -> list[str]:
    """Why DUT ``spec`` (configuration ``config``) cannot run the program of ``job``: a vector
    of another configuration, a random program the generator cannot build within its limits,
    or (with ``differences``) a difference of its profile the program uses."""
    dut_cfg = load_config(config)
    if job.vector is not None:
        vector = load_vector(job.vector)
        if (why := config_reason(vector.config, dut_cfg, spec)) is not None:
            return [why]
    else:
        try:
            vector = generate(job.seed, dut_cfg, limits=gen_limits(spec))
        except GenError as exc:
            return [f"the generator cannot build seed {job.seed} without the DUT's differences: {exc}"]
    return program_reasons(vector, spec) if differences else []


def select(jobs: list[tuple[str, Job]], spec: str,
           differences: bool = True) -> tuple[list[tuple[str, Job]], list[dict[str, Any]]]:
    """The jobs DUT ``spec`` runs, each on its profile's configuration, and a record of every
    one left out with its reasons (for rtl/: every job, none left out). ``differences``
    False keeps the jobs the profile's differences rule out, to see what they do."""
    if is_native(spec):
        return jobs, []
    config = profile_of(spec).config_name
    kept, out = [], []
    for _, job in jobs:
        reasons = job_reasons(job, config, spec, differences)
        if reasons:
            out.append(excluded_record(job, config, "; ".join(reasons)))
        else:
            kept.append((config, job))
    return kept, out


#: Jobs a report line names before it counts the rest.
JOBS_NAMED = 5


def _jobs_text(jobs: list[str], ran: list[str]) -> str:
    """The jobs a not-checked line applies to: every job that ran, or their names (the first
    few and a count of the rest: a netlist's line covers hundreds)."""
    if len(jobs) > 1 and set(jobs) == set(ran):
        return f"every job run, {len(jobs)}"
    if len(jobs) > JOBS_NAMED + 1:
        return f"{', '.join(jobs[:JOBS_NAMED])} and {len(jobs) - JOBS_NAMED} more"
    return ", ".join(jobs)


def dut_report(spec: str, results: list[dict[str, Any]]) -> str:
    """The run's lines about the DUT: each protocol rule its profile waives, with the reason
    and what the jobs saw, and the claims of the register-map and host-timing flows that were
    not checked on it, grouped by reason ('' for rtl/)."""
    if is_native(spec):
        return ""
    p = profile_of(spec)
    lines = []
    unchecked: dict[str, tuple[list[str], list[str]]] = {}  # reason -> (claims, jobs)
    for r in results:
        for claim, reason in r.get("not_checked", {}).items():
            claims, jobs = unchecked.setdefault(reason, ([], []))
            claims += [claim] if claim not in claims else []
            jobs += [r["job"]] if r["job"] not in jobs else []
    ran = [r["job"] for r in results if not r.get("excluded") and not r.get("refused")]
    for reason, (claims, jobs) in unchecked.items():
        lines.append(f"not checked ({p.name}, {_jobs_text(jobs, ran)}): {', '.join(claims)}. "
                     f"Reason: {reason}")
    for name in WAIVERS:
        diff = next((d for d in p.differences if d.name == name), None)
        if diff is None:
            continue
        seen = [r for r in results if r.get("waived")]
        count = sum(r["waived"]["count"] for r in seen)
        first = f"; first: {seen[0]['job']}: {seen[0]['waived']['first']}" if seen else ""
        lines.append(f"finding ({p.name}, waived {name}): {DIFFERENCES[name]}; {count} cycle(s) "
                     f"with such a burst in {len(seen)} job(s){first}. Reason: {diff.reason}")
    return "\n".join(lines)
