"""Index health checks (Tantivy, SQLite, grammars), computed once per index generation and cached."""

from __future__ import annotations

from typing import Any

from reference.protocol.errors import ToolError

from .runtime import Runtime, Snapshot

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


def index_checks(rt: Runtime, snap: Snapshot) -> dict[str, Any]:
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
