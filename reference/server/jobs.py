"""Background (re)index jobs: at most one at a time, run in a thread, observable by health_check."""

from __future__ import annotations

import dataclasses
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def _jsonable(value: Any) -> Any:
    """A summary object as plain JSON data (dataclasses and simple objects)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _jsonable(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Path):
        return str(value)
    return str(value)


@dataclass
class Job:
    """One index run: `kind` is index (index_repo) or sync (sync_repo / balanced freshness)."""

    job_id: int
    kind: str
    force: bool
    status: str = "running"  # running | completed | failed
    started_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    duration_ms: int | None = None
    summary: Any = None
    error: str | None = None
    done: threading.Event = field(default_factory=threading.Event, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """The job as reported to clients."""
        out: dict[str, Any] = {"job_id": self.job_id, "kind": self.kind, "status": self.status,
                               "force": self.force, "started_at": self.started_at}
        if self.duration_ms is not None:
            out["duration_ms"] = self.duration_ms
        if self.summary is not None:
            out["summary"] = _jsonable(self.summary)
        if self.error:
            out["error"] = self.error
        return out


class JobRunner:
    """Runs `index(workspace, force)` in a daemon thread, one job at a time."""

    def __init__(self, workspace: Path, index: Callable[[Path, bool], Any],
                 after: Callable[[], None] | None = None) -> None:
        self._workspace = workspace
        self._index = index
        self._after = after
        self._lock = threading.Lock()
        self._active: Job | None = None
        self.last: Job | None = None
        self._next_id = 1

    def active(self) -> Job | None:
        """The running job, if any."""
        job = self._active
        return job if job is not None and job.status == "running" else None

    def start(self, kind: str, force: bool = False) -> tuple[Job, bool]:
        """Start a job unless one runs; returns (the job, whether this call started it)."""
        with self._lock:
            running = self.active()
            if running is not None:
                return running, False
            job = Job(self._next_id, kind, force)
            self._next_id += 1
            self._active = job
        threading.Thread(target=self._run, args=(job,), name=f"cruxgate-{kind}-{job.job_id}", daemon=True).start()
        return job, True

    def _run(self, job: Job) -> None:
        started = time.perf_counter()
        try:
            job.summary = self._index(self._workspace, job.force)
            job.status = "completed"
        except Exception as exc:  # noqa: BLE001 - a failed run is reported, never raised into the server
            job.status = "failed"
            job.error = f"{type(exc).__name__}: {exc}"
            traceback.print_exc()
        job.duration_ms = int((time.perf_counter() - started) * 1000)
        self.last = job
        job.done.set()
        if self._after is not None and job.status == "completed":
            try:
                self._after()
            except Exception:  # noqa: BLE001 - a failing after-job callback (prewarm) is printed, never raised
                traceback.print_exc()
