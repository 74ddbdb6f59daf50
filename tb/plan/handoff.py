"""The simulator's side of a session's batch queue (tb/launch/session.py is the client's side).

The cocotb test (tb/uvm/cocotb_plan.py, ``Plan.queue``) takes its jobs batch by batch from a
queue directory the session writes. This side lives here, free of cocotb and of the launcher,
so that the simulator never imports tb/launch: the two agree only on the files
``batch-<k>.json``, ``batch-<k>.done`` and ``stop``.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tb.plan.jobs import Job

POLL = 0.02  # seconds between looks at the queue directory
IDLE_LIMIT = 3600.0  # seconds a simulator waits for a batch before it gives up


class BatchQueue:
    """The simulator's side: the next batch of jobs, and the marker that it is done."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.k = 0
        self.parent = os.getppid()

    def next(self) -> list[Job] | None:
        """Block (the simulation is paused meanwhile) until a batch or the stop file comes;
        None to stop, also when the client has gone or nothing came for IDLE_LIMIT."""
        path = self.dir / f"batch-{self.k}.json"
        waited = time.monotonic()
        while not path.exists():
            if ((self.dir / "stop").exists() or os.getppid() != self.parent
                    or time.monotonic() - waited > IDLE_LIMIT):
                return None
            time.sleep(POLL)
        return [Job(**raw) for raw in json.loads(path.read_text())]

    def done(self) -> None:
        (self.dir / f"batch-{self.k}.done").write_text("")
        self.k += 1
