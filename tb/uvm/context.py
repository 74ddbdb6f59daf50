"""The job context: one program job and what the model predicts about it, built once.

The program sequence (tb/uvm/seq_lib/vseq.py) builds a :class:`JobContext` before it programs the
registers and hands it to every component that needs it, through one explicit call each:

* ``env.memory.start_job(ctx)``: fresh DRAM from the vector, the job's backpressure profile,
  its memory-side faults and error responses (:meth:`JobContext.memory_faults`);
* ``env.stray.start_job(ctx)``: the STORE footprints every write must stay inside;
* ``env.scoreboard.check(ctx, dram)`` and ``check_counters(ctx, counters)``: the expected
  images and the RTL counters' expected values after DONE;
* ``env.coverage.program_done(ctx)`` (coverage on): the instructions the program executed;
* ``diagnose(env, ctx)`` (tb/uvm/env/status.py) and the poll sequence's ``ctx.limits``: the
  watchdog's instruction list and limits.

No component's attribute is set from outside. The prediction is the model's one prediction
step (:func:`models.predict.predict`: one decode of the program for the checker, the
executor, the costs and the counters); components ask the context (``ctx.insns``,
``ctx.describe(i)``, ``ctx.store_ranges()``, ...) rather than the prediction itself.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from models.asm import disasm_insn
from models.config import VtaConfig
from models.executor import ExecResult
from models.isa import Insn, MemType, Opcode
from models.predict import Prediction, predict
from models.vector import Image, Vector
from tb.plan.backpressure import SLOWDOWN
from tb.plan.bus_errors import ERROR_RESPS, BusErrorEvent, BusErrorPlan, ErrorRange
from tb.plan.jobs import Job
from tb.rules.counter_rules import violations
from tb.rules.failure import NONE, Failure, form_of, model_rule
from tb.rules.faults import BUS_ERROR_RATE, Fault
from tb.rules.faults import fault as fault_of
from tb.rules.watchdog import cycle_bound, stall_window, work_estimate

#: Memory types whose LOADs carry data (not instructions or micro-ops, whose corruption could
#: hang the program instead of changing its result).
DATA_TYPES = (MemType.INP, MemType.WGT, MemType.ACC, MemType.ACC_8BIT)


@dataclass(frozen=True)
class Limits:
    """What a running program is held to (tb/rules/watchdog.py): cycles since launch, cycles
    without progress, and wall-clock seconds (``--timeout``; None: no wall limit)."""

    bound: int
    stall: int
    wall: float | None = None


@dataclass
class MemoryFaults:
    """What the memory agent does wrong on purpose during a job (tb/rules/faults.py)."""

    errors: BusErrorPlan = field(default_factory=BusErrorPlan)
    corrupt: list[tuple[int, int]] = field(default_factory=list)  # flip a bit in the first read
    fail_reads: list[tuple[int, int]] = field(default_factory=list)  # the model itself fails


def problems_of(prediction: Prediction, job: Job) -> list[Failure]:
    """Why the program has no single defined result (nothing for a job meant to deadlock), as
    ``model`` failures: the checker's or executor's rule and the instruction's form."""
    if job.deadlock:
        return []
    out = []
    broken = [f for f in prediction.report.findings if f.rule not in job.accept]
    if broken:
        text = prediction.report.format()
        out.append(Failure("model", f"the program is not well-formed, so it has no single defined "
                                    f"result:\n    {text}", rule=broken[0].rule, form=form_of(text)))
    if prediction.expect is None:
        error = prediction.error
        out.append(Failure("model", f"the golden model cannot run the program: {error}",
                           rule=model_rule(error) if error else NONE, form=form_of(str(error))))
    return out


@dataclass
class JobContext:
    """One program job: the job, its vector, its configuration's name, the model's prediction
    and the limits it runs under."""

    job: Job
    vector: Vector
    config_name: str
    prediction: Prediction
    limits: Limits
    expected_cycles: int  # cycles the work takes without backpressure (an over-estimate)

    @classmethod
    def build(cls, job: Job, vector: Vector, config_name: str, wall: float | None = None,
              bus_only: bool = False) -> tuple["JobContext", list[Failure]]:
        """The context of ``job`` running ``vector``; the second value lists the model's problems.
        ``bus_only``: the DUT's progress is seen only in its bus beats (tb/rules/watchdog.py)."""
        prediction = predict(vector, tuple(job.accept))
        cfg, insns, slowdown = vector.config, prediction.insns, SLOWDOWN[job.profile]
        limits = Limits(cycle_bound(cfg, insns, slowdown), stall_window(insns, slowdown, bus_only), wall)
        return (cls(job, vector, config_name, prediction, limits, work_estimate(cfg, insns)),
                problems_of(prediction, job))

    # --- what the components ask -----------------------------------------------------------
    @property
    def cfg(self) -> VtaConfig:
        return self.vector.config

    @property
    def fault(self) -> Fault:
        return fault_of(self.job.fault)

    @property
    def insns(self) -> list[dict]:
        """The program's decodable instructions, in program order."""
        return self.prediction.insns

    @property
    def expect(self) -> list[Image]:
        """The images DRAM must hold after DONE."""
        return self.prediction.expect or []

    @property
    def result(self) -> ExecResult | None:
        """The executor's run (for the scoreboard's attribution), None if it cannot run."""
        return self.prediction.result

    @property
    def counters(self) -> dict[str, int] | None:
        """The RTL counters' values at DONE (models/predict.py), None if not well-formed."""
        return self.prediction.counters

    def counter_violations(self, counters: dict[str, int], cycles: int) -> list[str]:
        """The relations among the cycle counters that ``counters`` break
        (tb/rules/counter_rules.py); none are checked for a program that is not well-formed."""
        if self.prediction.counters is None:
            return []
        return violations(self.prediction, counters, cycles, self.cfg.bus_bytes)

    @property
    def program(self) -> list[Insn | None]:
        """Every instruction by program index (None where the word does not decode)."""
        return list(self.prediction.report.insns)

    def describe(self, i: int) -> str:
        """Instruction ``i`` of the program, disassembled ("?" if it does not decode)."""
        insn = self.prediction.report.insns[i]
        return disasm_insn(self.cfg, insn) if insn else "?"

    def store_ranges(self) -> list[tuple[int, int, int]]:
        """(address, bytes, instruction index) of every DRAM range a STORE writes."""
        return self.prediction.report.dram_write_ranges()

    def data_reads(self) -> list[tuple[int, int]]:
        """[lo, hi) of every byte a LOAD of INP/WGT/ACC/ACC_8BIT reads."""
        check = self.prediction.report
        return [(a, a + n) for i, fp in enumerate(check.footprints)
                if (insn := check.insns[i]) and insn["opcode"] == Opcode.LOAD
                and insn["memory_type"] in DATA_TYPES for a, n in fp.dram_reads]

    def memory_faults(self) -> MemoryFaults:
        """The memory-side faults of the job's fault (fresh each call: error plans are seeded)."""
        name = self.job.fault
        return MemoryFaults(self.bus_errors(),
                            corrupt=self.data_reads() if name == "corrupt-read" else [],
                            fail_reads=self.data_reads()[:1] if name == "unrequested-slverr" else [])

    def bus_errors(self) -> BusErrorPlan:
        """The error responses the job's fault asks the memory to give."""
        spec = self.fault.bus_error
        if spec is None or spec[0] == "unrequested":
            return BusErrorPlan()
        where, resp = spec
        if where == "random":
            return BusErrorPlan(rate=BUS_ERROR_RATE, seed=self.job.seed)
        if where == "fetch":
            lo, hi = self.vector.insn_addr, self.vector.insn_addr + 16
        elif where == "read":
            lo, hi = self.data_reads()[0]
        else:
            lo, n, _ = self.store_ranges()[0]
            hi = lo + n
        kind = "write" if where == "write" else "read"
        return BusErrorPlan([ErrorRange(kind, lo, hi, ERROR_RESPS[resp])], seed=self.job.seed)

    def issuers(self, event: BusErrorEvent, bus_bytes: int) -> tuple[range | None, list[int]]:
        """Whose bus access got the error response, from the footprints: the instruction
        indices the fetch was reading (None if not the fetch) and the instructions whose
        footprint the access touches."""
        v, check = self.vector, self.prediction.report
        lo = event.addr
        hi = lo + (event.beats * bus_bytes if event.channel == "B" else bus_bytes - lo % bus_bytes)
        if event.channel == "R" and lo < v.insn_addr + 16 * v.insn_count and v.insn_addr < hi:
            first = max(0, (lo - v.insn_addr) // 16)
            last = min(v.insn_count - 1, (hi - 1 - v.insn_addr) // 16)
            return range(first, last + 1), []
        touched = []
        for i, fp in enumerate(check.footprints):
            ranges = fp.dram_writes if event.channel == "B" else fp.dram_reads
            if check.insns[i] and any(a < hi and lo < a + n for a, n in ranges):
                touched.append(i)
        return None, touched

    def issuer_fields(self, event: BusErrorEvent, bus_bytes: int) -> dict[str, str]:
        """The bus-error failure's module (``fetch`` for the instruction fetch) and the form
        of the first instruction that issued the access."""
        fetched, touched = self.issuers(event, bus_bytes)
        if fetched is not None:
            return {"module": "fetch"}
        return {"form": form_of(self.describe(touched[0]))} if touched else {}

    def issuer(self, event: BusErrorEvent, bus_bytes: int) -> str:
        """The instruction(s) whose bus access got the error response, from the footprints."""
        fetched, touched = self.issuers(event, bus_bytes)
        if fetched is not None:
            return f"the instruction fetch of insns #{fetched[0]}..#{fetched[-1]}"
        names = [f"#{i} {self.describe(i)}" for i in touched]
        if not names:
            return "no instruction of the program (the access lies outside every footprint)"
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        return "insn " + "; ".join(names[:3]) + more
