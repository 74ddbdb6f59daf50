"""The cocotb test module: runs a plan (tb/plan/jobs.py) as one pyuvm test.

Launched by tb/run.py through cocotb_tools.runner with VTA_UVM_PLAN pointing at the
plan file. Each job gets a reset (unless it is a back-to-back launch), its own verdict
record in the results file, and on failure a reproducing vector under build/failures/.
The cocotb test fails if any job's outcome differs from what the job expects.
"""
from __future__ import annotations

import dataclasses
import logging
import math
import os
import signal
import time
import traceback
from pathlib import Path
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Timer
from pyuvm import ConfigDB, uvm_root, uvm_test

from models.executor import ProgramError
from models.gen import GenError, generate
from models.spec.configs import load_config
from models.vector import Vector, VectorError, load_vector, save_vector
from tb.plan.applicable import runs_on
from tb.plan.dutmap import gen_limits, host_map, not_checked
from tb.plan.handoff import BatchQueue
from tb.plan.jobs import Job, Plan
from tb.plan.registry import for_kind
from tb.plan.saved import SavedFailure, failure_dir
from tb.plan.testbench import PERIOD_NS
from tb.rules.failure import exception_rule, form_of, model_rule, shape
from tb.rules.reach import REACH_UNSEEN, reach_problem
from tb.rules.watchdog import backstop
from tb.uvm.agents.host import HostHung, LiteMasterPort
from tb.uvm.checkers.dutlog import DutLog
from tb.uvm.checkers.verdict import Verdict
from tb.uvm.env.env import Env, VtaEnv
from tb.uvm.env.fast import FastEnv, Mailbox, init_inputs
from tb.uvm.seq_lib.sequences import SEQUENCES
from tb.uvm.seq_lib.vseq import reset_dut


class PlanTest(uvm_test):
    """Builds the environment once and runs every job of the plan in order."""

    def build_phase(self) -> None:
        self.plan: Plan = ConfigDB().get(self, "", "PLAN")
        self.dut_log: DutLog = ConfigDB().get(self, "", "DUT_LOG")
        self.env: Env = FastEnv("env", self) if self.plan.mode == "fast" else VtaEnv("env", self)

    def vector_for(self, job: Job) -> Vector | None:
        """The job's program: its vector, a random one from its seed, or None for a kind
        without a program of the job's own (tb/plan/registry.py)."""
        cfg = load_config(self.plan.config)
        if not for_kind(job.kind).program:
            return None
        if job.vector is None:
            return generate(job.seed, cfg, limits=gen_limits(self.plan.dut))
        vector = load_vector(job.vector)
        if vector.config != cfg and not runs_on(vector.config, cfg, self.plan.dut):
            raise ValueError(f"vector {job.vector} is for configuration "
                             f"{vector.config.overrides()}, this build is {self.plan.config}")
        return vector if vector.config == cfg else dataclasses.replace(vector, config=cfg)

    async def run_job(self, job: Job) -> tuple[dict[str, Any], Vector | None]:
        verdict = self.env.verdict
        previous_failed = self.previous_failed
        vector = self.current_vector = None
        info: dict[str, Any] = {}
        try:
            if job.reset or previous_failed:
                # After a failure the checkers hold that job's first finding (latched until
                # reset) and the DUT's state is suspect: a back-to-back job would inherit both.
                await reset_dut(self.env.dut)
            forced = {"reset_after_failure": True} if not job.reset and previous_failed else {}
            vector = self.current_vector = self.vector_for(job)
            sequence = SEQUENCES[job.kind]
            vseq = sequence(job.kind, self.env, job, vector, self.plan)
            await vseq.start()
            info = {**forced, **vseq.info}
        except HostHung:
            raise
        except (GenError, VectorError, ProgramError) as exc:
            verdict.fail("model", f"{type(exc).__name__}: {exc}", rule=model_rule(exc),
                         form=form_of(str(exc)))
        except Exception as exc:  # a testbench or model error must be reported, not end the plan
            verdict.fail("error", traceback.format_exc(), rule=exception_rule(exc))
        return info, vector

    def save_failure(self, job: Job, vector: Vector | None) -> str:
        """Write the failing program as a vector plus the settings that reproduce it."""
        out = failure_dir(Path(self.plan.failures_dir), self.plan.sim, job, self.plan.mode, self.plan.dut)
        if vector is not None:
            save_vector(vector, out)
        SavedFailure(self.plan.sim, self.plan.config, job, self.plan.mode, self.plan.dut,
                     self.plan.repro.get(job.name, ""), list(self.env.verdict.failures)).write(out)
        return str(out)

    async def run_phase(self) -> None:
        self.raise_objection()
        dut = self.env.dut
        dut.ap_rst_n.value = 0
        await Timer(1, "ns")
        Clock(dut.ap_clk, PERIOD_NS, unit="ns", impl="gpi").start()  # no Python wake per edge
        await reset_dut(dut)
        self.failed_jobs: list[str] = []
        self.previous_failed = False  # the job before failed (run_jobs): reset before the next
        await self.run_jobs(self.plan.jobs)
        if self.plan.queue:
            queue = BatchQueue(Path(self.plan.queue))
            while (batch := queue.next()) is not None:
                await self.run_jobs(batch)
                queue.done()
        self.drop_objection()

    async def run_jobs(self, jobs: list[Job]) -> None:
        """Run jobs in order, each recorded in the results file; failed ones in failed_jobs."""
        verdict = self.env.verdict
        for job in jobs:
            self.previous_failed = bool(verdict.failures)  # the last job's (none before the first)
            if self.plan.timeout:  # the kernel ends the process if Python never regains control
                signal.alarm(math.ceil(backstop(self.plan.timeout)))
            verdict.start(job.name)
            self.env.dut.tb_fault.value = 0
            t0, c0 = time.perf_counter(), self.env.cycle
            hung = None
            self.dut_log.start()
            try:
                info, vector = await self.run_job(job)
            except HostHung as exc:  # finish this job with what the checkers saw, then stop
                hung, info, vector = exc, {}, self.current_vector
                if not verdict.failures and not self.env.end_checks():
                    verdict.fail("watchdog", f"the control port hung: {exc}", rule="port-hung")
            finally:
                wall = time.perf_counter() - t0
            found = self.dut_log.finding()  # printed after the watcher's last look
            if found and not any(f.kind == "assertion" for f in verdict.failures):
                verdict.report(found)
            seen = {"capacity": self.env.capacity(), "push_pops": self.env.push_pops(),
                    "contention": self.env.contention()}
            gaps = not_checked(self.plan.dut)  # a netlist of rtl/: its profile says why
            for check in ("ordering", "liveness"):
                if check in gaps:
                    info.setdefault("not_checked", {})[f"{check} checker"] = gaps[check]
            if job.reach and not seen["capacity"]:  # a foreign DUT: no checker records
                info.setdefault("not_checked", {})[f"reach {job.reach}"] = gaps.get("reach", REACH_UNSEEN)
            elif job.reach and not verdict.failures and hung is None:
                problem = reach_problem(job.reach, seen, load_config(self.plan.config), self.plan.mode)
                if problem:
                    verdict.fail("reach", problem, rule=shape(problem))
            failures = [f.to_json() for f in verdict.failures]
            passed = job.passed(failures)
            saved = self.save_failure(job, vector) if verdict.failures else ""
            verdict.finish(passed=passed, wall=round(wall, 3),
                           sim_cycles=self.env.cycle - c0, waived=self.env.waived(),
                           saved=saved, **seen, **info)
            if not passed:
                self.failed_jobs.append(job.name)
            if hung is not None:
                raise hung  # the DUT state is unusable: the runner restarts for the rest
        signal.alarm(0)


@cocotb.test()
async def run_plan(dut: Any) -> None:
    """Run the plan named by VTA_UVM_PLAN; fail if any job's outcome is unexpected."""
    plan = Plan.load(Path(os.environ["VTA_UVM_PLAN"]))
    # cocotbext-axi models see reset only on an edge of it: hold it released (and the clock
    # stopped) while the agents are built, then PlanTest asserts it and starts the clock.
    dut.ap_rst_n.value = 1
    dut.tb_fault.value = 0
    if plan.mode == "fast":
        init_inputs(dut)
    logging.getLogger(f"cocotb.{dut._name}").setLevel(logging.WARNING)  # cocotbext banners
    cycle = dut.u_tb.tb_cycle if plan.mode == "fast" else dut.tb_cycle
    verdict = Verdict(Path(plan.results), now=lambda: int(cycle.value))
    ConfigDB().set(None, "*", "DUT", dut)
    ConfigDB().set(None, "*", "CONTROL_PORT", Mailbox if plan.mode == "fast" else LiteMasterPort)
    ConfigDB().set(None, "*", "VERDICT", verdict)
    ConfigDB().set(None, "*", "PLAN", plan)
    ConfigDB().set(None, "*", "HOSTMAP", host_map(plan.dut))
    ConfigDB().set(None, "*", "DUT_LOG", DutLog.from_env())
    await uvm_root().run_test(PlanTest, keep_set={ConfigDB})
    test = uvm_root().uvm_test_top
    assert not test.failed_jobs, f"{len(test.failed_jobs)} job(s) failed: {', '.join(test.failed_jobs)}"
