"""The semantic channel seam and the enrichment rule for semantic-only results.

No embedding backend ships today: `DisabledSemanticChannel` returns nothing and
says so in the metadata it reports. A later channel only has to yield
`SemanticCandidate`s; the engine enriches and ranks them with the same formula.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class SemanticCandidate:
    """A semantic match: at least a `symbol_stable_id` and a 0..1 similarity; the rest may be missing."""

    symbol_stable_id: str
    similarity: float
    symbol_id: int | None = None
    kind: str | None = None
    name: str | None = None
    qualified_name: str | None = None
    path: str | None = None
    line_start: int | None = None
    line_end: int | None = None
    language: str | None = None
    signature: str | None = None
    visibility: str | None = None


class SemanticChannel(Protocol):
    """What the engine asks of a semantic backend."""

    enabled: bool

    def search(self, query: str, limit: int) -> list[SemanticCandidate]: ...

    def status(self) -> dict[str, Any]: ...


class DisabledSemanticChannel:
    """The channel when no semantic backend is configured: no candidates, an explicit reason."""

    enabled = False

    def search(self, query: str, limit: int) -> list[SemanticCandidate]:
        """Nothing: semantic retrieval is off."""
        return []

    def status(self) -> dict[str, Any]:
        """Semantic metadata for the response (seed 000's existing fields)."""
        return {"semantic_mode": "off", "semantic_enabled": False, "semantic_triggered": False,
                "semantic_ratio_used": 0.0, "semantic_fallback": False,
                "semantic_skipped_reason": "semantic_disabled"}


_ENRICH_SQL = """SELECT symbol_id, symbol_stable_id, kind, name, qualified_name, path, line_start, line_end,
                        language, signature, visibility
                 FROM symbols WHERE symbol_stable_id IN ({})"""


def enrich(candidates: list[SemanticCandidate], db: sqlite3.Connection) -> list[SemanticCandidate]:
    """Fill kind, name, qualified_name and location of candidates that lack a kind, by symbol_stable_id.

    The symbols' SQLite table holds the same rows as the Tantivy symbols index and is keyed
    by symbol_stable_id. A candidate that is not found keeps `kind=None`, which the ranking
    turns into kind_weight 0.0 and query_intent_boost 0.0 (no boost, no penalty).
    """
    missing = sorted({c.symbol_stable_id for c in candidates if c.kind is None})
    if not missing:
        return candidates
    rows = db.execute(_ENRICH_SQL.format(",".join("?" * len(missing))), missing).fetchall()
    found = {row[1]: row for row in rows}
    out = []
    for c in candidates:
        row = found.get(c.symbol_stable_id) if c.kind is None else None
        if row is None:
            out.append(c)
            continue
        out.append(replace(c, symbol_id=row[0], kind=row[2], name=row[3], qualified_name=row[4], path=row[5],
                           line_start=row[6], line_end=row[7], language=row[8], signature=row[9],
                           visibility=row[10]))
    return out
