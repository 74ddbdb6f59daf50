"""Saved failures: where a failing job leaves its program, and the record beside it.

The simulator process (tb/uvm/cocotb_plan.py), the launcher after a crash (tb/launch/launch.py)
and the shrinker (tb/triage/shrink.py) write a failing job's ``tb_uvm.json``; the vector
reader (tb/plan/makers.py), rerun, shrink and the bucket report read it. All of them go
through :class:`SavedFailure` here (no testbench import: the regression and the launcher run
outside cocotb), so the file has one shape:

* ``sim``, ``config``, ``dut`` (the DUT profile, tb/duts), ``mode`` (the testbench mode,
  ``full`` or ``fast``), ``job`` (tb/plan/jobs.py ``Job``, whose ``kind`` says what it runs),
  ``repro`` (one command that reproduces it) and ``failures`` (tb/rules/failure.py records,
  the first one ended the job).

Files written before ``mode`` and ``dut`` were fields are read by one rule each: a missing
``mode`` is the ``--mode`` its repro command names (every such command named one), else
``full``; a missing ``dut`` is the repro command's ``--dut``, else rtl/'s ``vta``. A repro
command written before the command line moved to tb/run.py names ``python -m tb.uvm.run``; it
is read as ``python -m tb.run``, the same command today, so what the buckets and rerun print
still runs. A job written before its ``kind`` had that name carries it as ``mode``
(``program``, ``regmap``, ...): that key is read as ``kind`` (:func:`legacy_job`). A malformed
file is a one-line :class:`SavedError` naming the file and the field.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tb.paths import SIMS
from tb.plan.dutmap import NATIVE
from tb.plan.jobs import Job
from tb.plan.testbench import MODES
from tb.rules.failure import Failure, FailureError

#: The record's file in a saved failure's directory.
SAVED_FILE = "tb_uvm.json"
#: Its keys; ``mode`` and ``dut`` may be missing in older files (module docstring).
SAVED_KEYS = ("sim", "config", "dut", "mode", "job", "repro", "failures")


class SavedError(ValueError):
    """A saved failure that cannot be read; the message is one line naming file and field."""


@dataclass
class SavedFailure:
    """A failing job's saved record: where and how it ran, how to reproduce it, what failed."""

    sim: str
    config: str
    job: Job
    mode: str = "full"
    dut: str = NATIVE
    repro: str = ""
    failures: list[Failure] = field(default_factory=list)

    @property
    def first(self) -> Failure | None:
        """The failure that ended the job."""
        return self.failures[0] if self.failures else None

    def to_json(self) -> dict[str, Any]:
        return {"sim": self.sim, "config": self.config, "dut": self.dut, "mode": self.mode,
                "job": dict(self.job.__dict__), "repro": self.repro,
                "failures": [f.to_json() for f in self.failures]}

    def write(self, directory: Path) -> Path:
        """Write ``directory``/tb_uvm.json (the directory is made if needed)."""
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / SAVED_FILE
        path.write_text(json.dumps(self.to_json(), indent=1))
        return path

    @classmethod
    def read(cls, directory: Path) -> "SavedFailure":
        """The record in ``directory``, every field checked."""
        path = directory / SAVED_FILE
        raw = _load(path)
        job = _job(path, raw)
        for key in ("sim", "config", "repro", "failures"):
            if key not in raw:
                raise SavedError(f"{path}: missing key {key!r}")
        if raw["sim"] not in SIMS:
            raise SavedError(f"{path}: sim must be one of {', '.join(SIMS)}, got {raw['sim']!r}")
        for key in ("config", "repro"):
            if not isinstance(raw[key], str):
                raise SavedError(f"{path}: {key} must be a string, got {raw[key]!r}")
        if not raw["config"]:
            raise SavedError(f"{path}: config must be a configuration name")
        mode = raw.get("mode", legacy_mode(raw["repro"]))
        if mode not in MODES:
            raise SavedError(f"{path}: mode must be one of {', '.join(MODES)}, got {mode!r}")
        dut = raw.get("dut", legacy_dut(raw["repro"]))
        if not isinstance(dut, str) or not dut:
            raise SavedError(f"{path}: dut must be a DUT profile name (tb/duts), got {dut!r}")
        if not isinstance(raw["failures"], list):
            raise SavedError(f"{path}: failures must be a list of failure records")
        try:
            failures = [Failure.from_json(f, f"failures[{n}]") for n, f in enumerate(raw["failures"])]
        except FailureError as exc:
            raise SavedError(f"{path}: {exc}") from None
        return cls(raw["sim"], raw["config"], job, mode, dut, legacy_repro(raw["repro"]), failures)


def read_job(path: Path) -> Job:
    """Only the job of a tb_uvm.json beside a vector (``--vector`` reruns it with its own
    settings; the other keys, if present, must still be known ones)."""
    return _job(path, _load(path))


def _load(path: Path) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_text())
    except FileNotFoundError:
        raise SavedError(f"{path.parent}: no {SAVED_FILE}, so not a saved failure (a failing job "
                         f"leaves one under build/failures/)") from None
    except OSError as exc:
        raise SavedError(f"{path}: cannot read: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SavedError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("job"), dict):
        raise SavedError(f"{path}: must be an object with a 'job' object (tb/uvm/README.md, Triage)")
    unknown = set(raw) - set(SAVED_KEYS)
    if unknown:
        raise SavedError(f"{path}: unknown key(s) {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(SAVED_KEYS))})")
    return raw


def _job(path: Path, raw: dict[str, Any]) -> Job:
    fields, job = set(Job.__dataclass_fields__), legacy_job(raw["job"])
    unknown = set(job) - fields
    if unknown:
        raise SavedError(f"{path}: job: unknown key(s) {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(fields))})")
    if "name" not in job:
        raise SavedError(f"{path}: job: missing key 'name'")
    try:
        return Job(**job)
    except (TypeError, ValueError) as exc:
        raise SavedError(f"{path}: {exc}") from None


def legacy_mode(repro: str) -> str:
    """The mode of a file written before ``mode`` was a field: its repro's ``--mode``, else full."""
    named = re.search(r"--mode (\S+)", repro)
    return named.group(1) if named else "full"


def legacy_job(job: dict[str, Any]) -> dict[str, Any]:
    """A saved job as today's ``Job`` fields: one written before the job kind was called
    ``kind`` names it ``mode`` (the testbench mode was never a key of the job)."""
    if "mode" in job and "kind" not in job:
        return {("kind" if key == "mode" else key): value for key, value in job.items()}
    return job


def legacy_dut(repro: str) -> str:
    """The DUT of a file written before ``dut`` was a field: its repro's ``--dut``, else vta."""
    named = re.search(r"--dut (\S+)", repro)
    return named.group(1) if named else NATIVE


def legacy_repro(repro: str) -> str:
    """A repro command as it runs today: one written before the command line moved from
    tb/uvm/run.py to tb/run.py names the old module, the same command."""
    return re.sub(r"-m tb\.uvm\.run\b", "-m tb.run", repro)


def safe_name(text: str) -> str:
    """A job name usable as a directory name."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")[:120]


def failure_dir(root: Path, sim: str, job: Job, mode: str = "full", dut: str = "vta") -> Path:
    """Where a failing job's program and settings are saved (one directory per simulator,
    mode, DUT and job, so that the two modes' failures of one job, or rtl/'s and a foreign
    DUT's failures of one vector, do not overwrite each other; rtl/'s names are unchanged)."""
    design = "" if dut == "vta" else f"-{Path(dut).stem if dut.endswith(('.yaml', '.yml')) else dut}"
    return root / safe_name(f"{sim}{'-fast' if mode == 'fast' else ''}{design}-{job.name}")
