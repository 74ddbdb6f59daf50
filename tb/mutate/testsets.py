"""The test sets a mutant faces, as the suite's own commands (one stage each).

Every stage is a command a user can type (``python -m tb.run ...``); the runner points it
at the mutant's design with VTA_RTL_DIR and stops the mutant at the first failing job.

    directed  the directed vectors (the `make test` sample: seconds per mutant)
    quick     what `python -m tb.run --sim S` runs in fast mode (directed vectors, 10 random
              programs, register map, reset, back-to-back), then 10 more random programs
    regress   quick, 40 more random programs, the scaled-down ResNet-18 layers
              (`python -m tb.workloads.run --scale small`), and the other simulator's quick run
    formal    the mutated module's own contract jobs (`python -m tb.formal --mutant`:
              SymbiYosys, no simulator; only a counterexample kills)
    formal+quick  formal, then quick: the two together
"""
from __future__ import annotations

from dataclasses import dataclass

from tb.paths import SIMS

TESTS = ("directed", "quick", "regress", "formal", "formal+quick")
UVM = "tb.run"
WORKLOADS = "tb.workloads.run"


@dataclass(frozen=True)
class Stage:
    """One command: ``python -m module args``; ``{out}`` in an argument is the design's work
    directory. ``per_job_timeout``: it takes the testbench's --timeout."""

    name: str
    module: str
    args: tuple[str, ...]
    per_job_timeout: bool = True
    limited: bool = True   # False: no stage time limit (the command bounds its own work)

    def argv(self, out: str, job_timeout: float | None) -> list[str]:
        args = [a.replace("{out}", out) for a in self.args]
        if self.per_job_timeout and job_timeout:
            args += ["--timeout", f"{job_timeout:.0f}"]
        return ["-m", self.module, *args]

    def command(self) -> str:
        return " ".join(["python", "-m", self.module, *self.args])


#: the formal stage: one job at a time (mutants already run in parallel); sby's own timeout
#: bounds each job (a job that runs out is UNPROVEN, not a kill), so no stage limit
FORMAL = Stage("formal", "tb.formal", ("--mutant", "--jobs", "1", "--out", "{out}/formal"), False, False)


def uvm(name: str, sim: str, *extra: str) -> Stage:
    return Stage(name, UVM, ("--sim", sim, "--mode", "fast", *extra))


def stages(tests: str, sim: str) -> list[Stage]:
    """The stages of a test set on a simulator, cheapest first (most mutants die early)."""
    if tests not in TESTS:
        raise ValueError(f"--tests {tests}: must be one of {', '.join(TESTS)}")
    if sim not in SIMS:
        raise ValueError(f"--sim {sim}: must be one of {', '.join(SIMS)}")
    if tests == "formal":
        return [FORMAL]
    if tests == "directed":
        return [uvm(f"directed-{sim}", sim, "--test", "directed")]
    if tests == "formal+quick":
        return [FORMAL, *stages("quick", sim)]
    out = [uvm(f"uvm-{sim}", sim), uvm(f"random101-{sim}", sim, "--test", "random", "--seed", "101",
                                       "--count", "10")]
    if tests == "regress":
        other = SIMS[1 - SIMS.index(sim)]
        out += [uvm(f"random1001-{sim}", sim, "--test", "random", "--seed", "1001", "--count", "40"),
                Stage(f"workloads-{sim}", WORKLOADS, ("--sim", sim, "--scale", "small",
                                                      "--out", "{out}/workloads"), False),
                uvm(f"uvm-{other}", other)]
    return out
