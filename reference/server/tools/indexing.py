"""index_repo (waits for the run) and sync_repo (starts one in the background)."""

from __future__ import annotations

from typing import Any

from cruxgate.reference.protocol.errors import ToolError
from cruxgate.reference.protocol.params import IndexRepoParams, NoParams

from ..runtime import Runtime

# index_repo waits at most this long; the job keeps running and is visible in index_status after.
INDEX_WAIT_SECONDS = 600


def index_repo(rt: Runtime, params: IndexRepoParams) -> dict[str, Any]:
    """Index the workspace and return the run's summary (runs in a worker thread)."""
    job, started = rt.jobs.start("index", force=params.force)
    if not started:
        raise ToolError("index_in_progress", f"an index job ({job.kind} #{job.job_id}) is already running",
                        {"job": job.as_dict(), "remediation": "wait for it (index_status) and retry"})
    job.done.wait(INDEX_WAIT_SECONDS)
    if job.status == "failed":
        raise ToolError("internal_error", f"indexing failed: {job.error}", {"job": job.as_dict()})
    return {"job": job.as_dict(), "startup_checks": {"index": rt.startup_index_check()}, "metadata": rt.metadata()}


def sync_repo(rt: Runtime, params: NoParams) -> dict[str, Any]:
    """Start an incremental re-index in the background and return at once."""
    job, started = rt.jobs.start("sync")
    if not started:
        raise ToolError("sync_in_progress", f"a {job.kind} job (#{job.job_id}) is already running",
                        {"job": job.as_dict(), "remediation": "poll index_status until active_jobs is empty"})
    return {"job": job.as_dict(), "metadata": rt.metadata()}
