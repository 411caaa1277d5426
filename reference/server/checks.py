"""Index health checks (Tantivy, SQLite, grammars), computed once per index generation and cached."""

from __future__ import annotations

from contextlib import closing
from typing import TYPE_CHECKING, Any, cast

from cruxgate.reference.index.state import TANTIVY_INDICES
from cruxgate.reference.protocol.errors import ToolError

from .runtime import Runtime, Snapshot

if TYPE_CHECKING:
    from tree_sitter_language_pack import SupportedLanguage


def _grammar_check(languages: list[str]) -> dict[str, Any]:
    """Whether a tree-sitter grammar loads for each language the index holds."""
    from tree_sitter_language_pack import get_language

    found: dict[str, bool] = {}
    for language in languages:
        try:
            get_language(cast("SupportedLanguage", language))  # any name the index holds: this checks it
            found[language] = True
        except Exception:  # noqa: BLE001 - an unknown or unloadable grammar is exactly what this reports
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
    except Exception as exc:  # noqa: BLE001 - a broken segment: report it, do not fail the health call
        checks["tantivy"] = {"status": "error", "error": f"{type(exc).__name__}: {exc}"}
    try:
        # quick_check reads the whole file (0.2-0.5 s for the stdlib's index): on the queries' connection
        # it runs while prewarm races the first query after the handshake, which would wait for all of it.
        with closing(engine.reader.connect()) as db:
            integrity = db.execute("PRAGMA quick_check").fetchone()[0]
            files, symbols = db.execute("SELECT (SELECT COUNT(*) FROM files), (SELECT COUNT(*) FROM symbols)"
                                        ).fetchone()
            languages = [r[0] for r in db.execute(
                "SELECT DISTINCT language FROM files WHERE language IS NOT NULL ORDER BY language")]
        checks["sqlite"] = {"status": "ok" if integrity == "ok" else "error", "integrity": integrity,
                            "files": files, "symbols": symbols}
    except Exception as exc:  # noqa: BLE001 - a broken database: report it, do not fail the health call
        checks["sqlite"] = {"status": "error", "error": f"{type(exc).__name__}: {exc}"}
        languages = []
    checks["grammars"] = _grammar_check(languages)
    if checks["sqlite"]["status"] == "error":  # damage the open check could not see: the index reads as such
        sqlite = checks["sqlite"]
        rt.mark_damaged(snap, f"index.db fails its integrity check: {sqlite.get('integrity') or sqlite.get('error')}")
        return checks
    rt.checks = {snap.key: checks}  # only the live generation is worth keeping
    return checks
