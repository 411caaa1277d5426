"""health_check and index_status: cheap reads of cached checks, the manifest, jobs and prewarm."""

from __future__ import annotations

from typing import Any

from reference.protocol.errors import ToolError

from ..runtime import Runtime, Snapshot

TANTIVY_INDICES = ("symbols", "snippets", "files")


def _grammar_check(languages: list[str]) -> dict[str, Any]:
    """Whether a tree-sitter grammar loads for each language the index holds."""
    from tree_sitter_language_pack import get_language

    found: dict[str, bool] = {}
    for language in languages:
        try:
            get_language(language)
            found[language] = True
        except Exception:  # an unknown or unloadable grammar is exactly what this reports
            found[language] = False
    return {"status": "ok" if all(found.values()) else "degraded", "languages": found}


def _index_checks(rt: Runtime, snap: Snapshot) -> dict[str, Any]:
    """Tantivy, SQLite and grammar checks, computed once per index generation (never per call)."""
    cached = rt.checks.get(snap.key)
    if cached is not None:
        return cached
    try:
        engine = rt.engine(snap)
    except ToolError as exc:
        unavailable = {"status": "unavailable", "reason": exc.code}
        return {"tantivy": unavailable, "sqlite": unavailable, "grammars": unavailable}
    checks: dict[str, Any] = {}
    try:
        docs = {name: engine.reader.searcher(name).num_docs for name in TANTIVY_INDICES}
        checks["tantivy"] = {"status": "ok", "indices": docs}
    except Exception as exc:  # a broken segment: report it, do not fail the health call
        checks["tantivy"] = {"status": "error", "error": f"{type(exc).__name__}: {exc}"}
    try:
        integrity = engine.db.execute("PRAGMA quick_check").fetchone()[0]
        files, symbols = engine.db.execute("SELECT (SELECT COUNT(*) FROM files), (SELECT COUNT(*) FROM symbols)"
                                           ).fetchone()
        checks["sqlite"] = {"status": "ok" if integrity == "ok" else "error", "integrity": integrity,
                            "files": files, "symbols": symbols}
        languages = [r[0] for r in engine.db.execute(
            "SELECT DISTINCT language FROM files WHERE language IS NOT NULL ORDER BY language")]
    except Exception as exc:
        checks["sqlite"] = {"status": "error", "error": f"{type(exc).__name__}: {exc}"}
        languages = []
    checks["grammars"] = _grammar_check(languages)
    rt.checks = {snap.key: checks}  # only the live generation is worth keeping
    return checks


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


def health_check(rt: Runtime, args: dict[str, Any]) -> dict[str, Any]:
    """Server health in one cheap call."""
    snap = rt.snapshot()
    checks = _index_checks(rt, snap)
    return {
        "status": _overall(rt, snap, checks),
        "workspace": str(rt.workspace),
        **checks,
        "active_jobs": _jobs(rt),
        "prewarm": rt.prewarm.as_dict(),
        "startup_checks": {"index": rt.startup_index_check()},
        "metadata": rt.metadata(snap),
    }


def index_status(rt: Runtime, args: dict[str, Any]) -> dict[str, Any]:
    """The index's state: status, schema versions, counts from the manifest, jobs."""
    snap = rt.snapshot()
    manifest = snap.manifest or {}
    index: dict[str, Any] = {**rt.startup_index_check()}
    for key in ("file_count", "symbol_count", "indexed_at", "git_head", "tool_version"):
        if manifest.get(key) is not None:
            index[key] = manifest[key]
    index["ref"] = snap.ref
    last = rt.jobs.last
    return {
        "workspace": str(rt.workspace),
        "index": index,
        "active_jobs": _jobs(rt),
        "last_job": last.as_dict() if last is not None else None,
        "prewarm": rt.prewarm.as_dict(),
        "startup_checks": {"index": rt.startup_index_check()},
        "metadata": rt.metadata(snap),
    }
