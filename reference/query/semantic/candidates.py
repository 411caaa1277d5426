"""What the semantic channel yields, and the enrichment rule for semantic-only results (seed 000)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class SemanticCandidate:
    """A semantic match: a `symbol_stable_id`, a 0..1 similarity and (from the semantic row) its location;
    the symbol's kind, name and other fields come from enrichment and may be missing."""

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


_ENRICH_SQL = """SELECT symbol_id, symbol_stable_id, kind, name, qualified_name, path, line_start, line_end,
                        language, signature, visibility
                 FROM symbols WHERE symbol_stable_id IN ({})"""


def enrich(candidates: list[SemanticCandidate], db: sqlite3.Connection) -> list[SemanticCandidate]:
    """Fill kind, name, qualified_name (and symbol_id, signature, visibility) of candidates that lack a kind, by
    symbol_stable_id.

    The symbols' SQLite table holds the same rows as the Tantivy symbols index and is keyed
    by symbol_stable_id. A candidate that is not found keeps `kind=None` and the location its semantic
    row gave it, which the ranking turns into kind_weight 0.0 and query_intent_boost 0.0 (no boost, no penalty).
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
