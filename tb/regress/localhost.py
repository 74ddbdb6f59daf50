"""A Dask cluster on this machine from the command-line tools: ``dask scheduler`` and
``dask worker`` as separate OS processes, exactly as README tells users to start remote ones.

Why not a LocalCluster: the benchmark's scaling figure and the lost-worker test need workers
that are ordinary processes of their own (each in its own process group, so one can be
SIGKILLed with its simulator), joined to the scheduler over TCP like remote machines.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from distributed import Client

from tb.paths import ROOT

DASK = Path(sys.executable).parent / "dask"
START_TIMEOUT = 60.0


@dataclass
class LocalhostCluster:
    """A running scheduler and its workers (by name)."""

    address: str
    scheduler: subprocess.Popen[bytes]
    workers: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def kill(self, name: str) -> None:
        """SIGKILL a worker and its process group (its simulator too): a machine that died."""
        os.killpg(self.workers[name].pid, signal.SIGKILL)
        self.workers[name].wait()

    def close(self) -> None:
        for proc in [*self.workers.values(), self.scheduler]:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in [*self.workers.values(), self.scheduler]:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH"))
                                                      if p))
    with log.open("wb") as out:
        return subprocess.Popen([str(DASK), *args], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


@contextmanager
def localhost_cluster(names: list[str], work: Path) -> Iterator[LocalhostCluster]:
    """A scheduler on a free port and one single-threaded worker process per name (logs and
    the scheduler file in ``work``); every process is ended on exit."""
    work.mkdir(parents=True, exist_ok=True)
    sched_file = work / "scheduler.json"
    sched_file.unlink(missing_ok=True)
    scheduler = _start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                        "--scheduler-file", str(sched_file)], work / "scheduler.log")
    cluster = LocalhostCluster("", scheduler)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not sched_file.is_file() or not sched_file.read_text().strip():
            if scheduler.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"dask scheduler did not start; see {work / 'scheduler.log'}")
            time.sleep(0.2)
        cluster.address = json.loads(sched_file.read_text())["address"]
        for name in names:
            cluster.workers[name] = _start(
                ["worker", "--scheduler-file", str(sched_file), "--nworkers", "1", "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--name", name], work / f"worker-{name}.log")
        with Client(cluster.address, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(len(names), timeout=START_TIMEOUT)
        yield cluster
    finally:
        cluster.close()
