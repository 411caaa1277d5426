"""Background jobs: one at a time, status and summary, failures reported not raised."""

from __future__ import annotations

import threading
from pathlib import Path

from cruxgate.reference.server.jobs import JobRunner


def test_one_job_at_a_time_and_summary(tmp_path: Path) -> None:
    gate = threading.Event()
    after: list[str] = []

    def index(workspace: Path, force: bool) -> dict:
        gate.wait(5)
        return {"files": 3, "force": force}

    runner = JobRunner(tmp_path, index, after=lambda: after.append("done"))
    job, started = runner.start("index", force=True)
    again, started_again = runner.start("sync")
    assert started and not started_again and again is job and runner.active() is job
    gate.set()
    assert job.done.wait(5)
    assert job.status == "completed" and job.as_dict()["summary"] == {"files": 3, "force": True}
    assert runner.active() is None and runner.last is job
    for _ in range(50):
        if after:
            break
        threading.Event().wait(0.01)
    assert after == ["done"]


def test_failure_is_reported(tmp_path: Path) -> None:
    def index(workspace: Path, force: bool) -> None:
        raise RuntimeError("disk full")

    runner = JobRunner(tmp_path, index)
    job, _ = runner.start("sync")
    assert job.done.wait(5)
    assert job.status == "failed" and "disk full" in job.as_dict()["error"]
