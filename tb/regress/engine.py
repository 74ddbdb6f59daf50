"""Running chunks on Dask workers, or one after the other in this process, streaming results.

Why Dask (distributed): one scheduler spreads chunks over worker processes on this machine
(a ``LocalCluster`` of JOBS single-threaded processes) or over any machines whose workers
joined a scheduler (``--scheduler tcp://host:8786``), hands results back as they finish
(``as_completed``), and runs a lost worker's chunks again elsewhere by itself.

Each worker process builds into its own directories (``VTA_BUILD_SUFFIX`` from its name, set
by :func:`setup_worker` at its first chunk), so two workers never share a build while one
worker reuses its build of a configuration for every chunk of it. A chunk runs in one
simulator process through ``tb.launch.launch.run_plan``, the same path as ``python -m tb.run``.

The scheduler needs none of the suite's code: a chunk travels as bytes only a worker
unpickles (tb/regress/remote.py). A worker must run the same sources as the client: each
chunk carries the client's digest of rtl/, models/ and tb/ and a worker with another
checkout refuses it (a stale remote checkout would otherwise report results of another
design); a worker that cannot import the suite, or lacks a name the chunk uses, says so
before that. All are one-line errors.
"""
from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import dask
from distributed import Client, KilledWorker, LocalCluster, as_completed, get_worker

from tb.launch.launch import prepare_env, run_plan
from tb.launch.simbuild import BUILD_SUFFIX_VAR
from tb.paths import ROOT
from tb.plan.coverage_switch import ENV_VAR as COVERAGE_VAR
from tb.plan.saved import safe_name
from tb.regress import remote
from tb.regress.plan import Chunk
from tb.uvm.cov import data as cov_data

#: Times a chunk may be on a worker that dies before it counts as failed (distributed's
#: ``allowed-failures``): one lost worker is an accident, a chunk that takes down three
#: workers in a row is the chunk's fault and is reported rather than tried forever.
ALLOWED_FAILURES = 2
SOURCE_DIRS = ("rtl", "models", "tb")
SOURCE_SUFFIXES = (".py", ".v", ".vh", ".vlt", ".yaml")


class EngineError(RuntimeError):
    """A cluster that cannot be used (the message is the one-line error)."""


@dataclass
class ChunkResult:
    """What a finished chunk sends back: one record per program, and its coverage files."""

    chunk: str
    worker: str
    records: list[dict]
    wall: float
    coverage: dict[str, bytes] = field(default_factory=dict)  # file name -> contents
    lost: bool = False  # no result: every worker that ran it died (not saved for resume)


@cache
def source_digest() -> str:
    """SHA-1 over the design, model and testbench sources (names and contents)."""
    h = hashlib.sha1()
    for top in SOURCE_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and "__pycache__" not in path.parts and path.is_file():
                h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def build_suffix(worker_name: object) -> str:
    """A worker's private build-directory suffix (stable for a named worker)."""
    return "dask-" + safe_name(str(worker_name))


def worker_name() -> str:
    """The Dask worker this runs on, or ``local`` outside one."""
    try:
        return str(get_worker().name)
    except ValueError:
        return "local"


@cache
def setup_worker(name: str) -> None:
    """Once per worker process, at its first chunk: its own build directories, the simulator
    environment. Not a WorkerPlugin: unpickling one imports the suite as the worker joins, and
    a worker that cannot fails to start (a traceback in its own log) instead of refusing its
    first chunk in one line (tb/regress/remote.py)."""
    os.environ[BUILD_SUFFIX_VAR] = build_suffix(name)
    os.environ["PYTHONHASHSEED"] = "0"  # simulator processes hash as they do under make
    prepare_env()


def run_on_worker(chunk: Chunk, source: str) -> ChunkResult:
    """The Dask task: the worker process's set-up, then the chunk."""
    setup_worker(worker_name())
    return run_chunk(chunk, source)


def run_chunk(chunk: Chunk, source: str) -> ChunkResult:
    """One chunk in one simulator process (on a worker, or inline)."""
    if source != source_digest():
        raise EngineError(f"worker {worker_name()} at {ROOT} runs other sources than the client "
                          f"(check out the same commit there)")
    saved = os.environ.pop(COVERAGE_VAR, None)
    cov_dir = Path(tempfile.mkdtemp(prefix="vta-cov-")) if chunk.coverage else None
    if cov_dir:
        os.environ[COVERAGE_VAR] = str(cov_dir)  # coverage build and collector (tb/cov)
    t0 = time.perf_counter()
    try:
        records = run_plan(chunk.sim, chunk.config, chunk.jobs, f"regress-{chunk.id}-{os.getpid()}",
                           False, mode=chunk.mode)
        files = coverage_files(cov_dir) if cov_dir else {}
    finally:
        os.environ.pop(COVERAGE_VAR, None)
        if saved is not None:
            os.environ[COVERAGE_VAR] = saved
        if cov_dir:
            shutil.rmtree(cov_dir, ignore_errors=True)
    return ChunkResult(chunk.id, worker_name(), records, time.perf_counter() - t0, files)


def coverage_files(cov_dir: Path) -> dict[str, bytes]:
    """Each simulator process's functional JSON and its Verilator coverage.dat (named as
    tb/cov/regression.py keeps them: ``<test>.json`` and ``<test>.dat``)."""
    files = {}
    for js in sorted(cov_dir.glob("*.json")):
        files[js.name] = js.read_bytes()
        dat = Path(cov_data.load(js).get("cwd", "")) / "coverage.dat"
        if dat.is_file():
            files[js.with_suffix(".dat").name] = dat.read_bytes()
    return files


def lost(chunk: Chunk) -> ChunkResult:
    """Failure records for a chunk no worker survived."""
    why = (f"no result: each worker that ran this chunk died ({ALLOWED_FAILURES + 1} times); "
           f"see the workers' logs")
    return ChunkResult(chunk.id, "?", [dict(job.no_result(why), sim=chunk.sim, config=chunk.config,
                                            mode=chunk.mode) for job in chunk.jobs], 0.0, lost=True)


@contextmanager
def cluster(workers: int, scheduler: str | None, timeout: float = 10.0) -> Iterator[Client]:
    """A Dask client: on a new LocalCluster of ``workers`` single-threaded processes, or on
    the scheduler at ``scheduler``."""
    if scheduler:
        try:
            client = Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise EngineError(f"cannot reach the Dask scheduler at {scheduler}: {reason}") from None
        local: LocalCluster | None = None
    else:
        with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES}):
            local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                 dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(local)
    try:
        yield client
    finally:
        client.close()
        if local is not None:
            local.close()


def run_dask(client: Client, chunks: Iterable[Chunk]) -> Iterator[ChunkResult]:
    """Submit every chunk and yield results as they finish; a chunk no worker survived
    yields failure records. Any other error cancels the rest and is raised (a worker that
    cannot load the chunk as an EngineError)."""
    token = uuid.uuid4().hex[:8]
    futures = {client.submit(*remote.task(run_on_worker, c, source_digest()), key=f"vta-{c.id}-{token}",
                             pure=False): c
               for c in chunks}
    try:
        for fut in as_completed(futures):
            try:
                res = fut.result()
            except KilledWorker:
                res = lost(futures[fut])
            except ImportError as exc:  # remote.call's one line, naming the worker
                raise EngineError(str(exc)) from None
            yield res
    finally:
        client.cancel(list(futures))


def run_inline(chunks: Iterable[Chunk]) -> Iterator[ChunkResult]:
    """The chunks one after the other in this process (no Dask): the single-process reference."""
    prepare_env()
    for c in chunks:
        yield run_chunk(c, source_digest())
