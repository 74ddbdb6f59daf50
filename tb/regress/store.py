"""The run's results file: one JSON line per finished chunk, appended as each one arrives.

Appending each chunk at once (and flushing it to disk) is what makes a run resumable: an
interrupted run keeps every chunk that finished. A chunk id is written once: a chunk that
ran twice (its worker was lost after the result was sent, the scheduler ran it again) or a
second run over the same directory does not add its programs twice. A last line cut short
by a crash is ignored, so that chunk simply runs again on resume.
"""
from __future__ import annotations

import json
import os
from pathlib import Path


class ResultsFile:
    """``<run dir>/results.jsonl``: ``{"chunk": id, "worker": name, "records": [...]}`` lines."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.done: dict[str, list[dict]] = {}
        if not path.exists():
            return
        good = []
        for line in path.read_text().splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:  # cut short by a crash: that chunk runs again
                continue
            if entry["chunk"] not in self.done:
                self.done[entry["chunk"]] = entry["records"]
                good.append(line)
        if len(good) != len(path.read_text().splitlines()) or not path.read_text().endswith("\n"):
            path.write_text("".join(f"{line}\n" for line in good))  # later lines start clean

    def add(self, chunk: str, worker: str, records: list[dict]) -> bool:
        """Append a chunk's records unless it is already there; False for a duplicate."""
        if chunk in self.done:
            return False
        self.done[chunk] = records
        with self.path.open("a") as f:
            f.write(json.dumps({"chunk": chunk, "worker": worker, "records": records}) + "\n")
            f.flush()
            os.fsync(f.fileno())
        return True

    def records(self) -> list[dict]:
        """Every program's record, in program order (by seed), whatever order chunks came in."""
        return sorted((r for recs in self.done.values() for r in recs),
                      key=lambda r: (r["job_spec"]["seed"], r["job"]))
