"""health_check and index_status: cheap reads of cached checks, the manifest, jobs and prewarm."""

from __future__ import annotations

from typing import Any

from cruxgate.reference.protocol.params import NoParams

from ..checks import index_checks
from ..runtime import Runtime, Snapshot


def _overall(rt: Runtime, snap: Snapshot, checks: dict[str, Any]) -> str:
    """ready | warming | not_indexed | error."""
    if snap.status in ("reindex_required", "corrupt_manifest"):
        return "error"
    if rt.prewarm.status == "error" or any(c.get("status") == "error" for c in checks.values()):
        return "error"
    if rt.prewarm.status == "warming":
        return "warming"
    if snap.status == "not_indexed":
        return "not_indexed"
    return "ready"


def _jobs(rt: Runtime) -> list[dict[str, Any]]:
    active = rt.jobs.active()
    return [active.as_dict()] if active is not None else []


def health_check(rt: Runtime, params: NoParams) -> dict[str, Any]:
    """Server health in one cheap call."""
    snap = rt.snapshot()
    checks = index_checks(rt, snap)
    # Opening the index for the checks (the first to, without a prewarm, or beside one) may have found it damaged:
    # the answer says what it found, from the state that damage left.
    snap = rt.snapshot()
    return {
        "status": _overall(rt, snap, checks),
        "workspace": str(rt.workspace),
        **checks,
        "active_jobs": _jobs(rt),
        "prewarm": rt.prewarm.as_dict(),
        "startup_checks": {"index": rt.startup_index_check()},
        "metadata": rt.metadata(snap),
    }


def index_status(rt: Runtime, params: NoParams) -> dict[str, Any]:
    """The index's state: status, schema versions, counts from the manifest, jobs."""
    snap = rt.snapshot()
    manifest = snap.manifest or {}
    payload: dict[str, Any] = {"status": snap.status, "workspace": str(rt.workspace), "ref": snap.ref}
    if snap.status != "ready" and snap.reason:
        payload["reason"] = snap.reason
    for key in ("file_count", "symbol_count", "indexed_at", "git_head", "tool_version"):
        if manifest.get(key) is not None:
            payload[key] = manifest[key]
    payload["active_jobs"] = _jobs(rt)
    if rt.jobs.last is not None:
        payload["last_job"] = rt.jobs.last.as_dict()
    payload["prewarm"] = rt.prewarm.as_dict()
    payload["startup_checks"] = {"index": rt.startup_index_check()}
    payload["metadata"] = rt.metadata(snap)
    return payload
