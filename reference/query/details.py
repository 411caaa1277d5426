"""A hit's descriptive fields, loaded only when a caller reads them: body preview, parent, related symbols."""

from __future__ import annotations

import sqlite3
from typing import Any

from .hits import Hit
from .workspace_files import FileView

PREVIEW_LINES = 8
PREVIEW_LINE_CHARS = 160
RELATED_LIMIT = 5

_PARENT_SQL = """SELECT p.symbol_id, p.symbol_stable_id, p.kind, p.name, p.path, p.line_start
                 FROM symbol_relations r JOIN symbols p ON p.symbol_id = r.parent_symbol_id
                 WHERE r.symbol_id = ?"""
_CHILDREN_SQL = """SELECT s.symbol_id, s.symbol_stable_id, s.kind, s.name, s.line_start
                   FROM symbol_relations r JOIN symbols s ON s.symbol_id = r.symbol_id
                   WHERE r.parent_symbol_id = ? ORDER BY s.line_start, s.symbol_id LIMIT ?"""
_SIBLINGS_SQL = """SELECT s.symbol_id, s.symbol_stable_id, s.kind, s.name, s.line_start
                   FROM symbols s JOIN symbol_relations r ON r.symbol_id = s.symbol_id
                   WHERE s.path = ? AND r.parent_symbol_id IS ? AND s.symbol_id != ?
                   ORDER BY s.line_start, s.symbol_id LIMIT ?"""


class HitDetailsLoader:
    """Per-request loader: reads files through the request's FileView (each file once, safely)."""

    def __init__(self, files: FileView, db: sqlite3.Connection) -> None:
        self._files = files
        self._db = db

    @property
    def changed(self) -> set[str]:
        """The files read for this response that differ from what the index holds."""
        return self._files.changed

    def _file_lines(self, path: str) -> list[str] | None:
        return self._files.whole(path)

    def body_preview(self, hit: Hit) -> str | None:
        """The first PREVIEW_LINES lines of the hit's span, long lines cut, `...` when more follow."""
        lines = self._file_lines(hit.path)
        if not lines:
            return None
        start = max(hit.line_start, 1) - 1
        end = min(max(hit.line_end, hit.line_start), len(lines))
        span = [line if len(line) <= PREVIEW_LINE_CHARS else line[:PREVIEW_LINE_CHARS] + "..."
                for line in lines[start : min(end, start + PREVIEW_LINES)]]
        if end - start > PREVIEW_LINES:
            span.append("...")
        return "\n".join(span) if span else None

    def parent(self, hit: Hit) -> dict[str, Any] | None:
        """The enclosing symbol of a symbol hit: kind, name, path, line (and its ids)."""
        if hit.symbol_id is None:
            return None
        row = self._db.execute(_PARENT_SQL, (hit.symbol_id,)).fetchone()
        if row is None:
            return None
        return {"symbol_id": row[0], "symbol_stable_id": row[1], "kind": row[2], "name": row[3],
                "path": row[4], "line": row[5]}

    def related_symbols(self, hit: Hit) -> list[dict[str, Any]]:
        """A container's members, or else the symbols beside it under the same parent in the same file."""
        if hit.symbol_id is None:
            return []
        rows = self._db.execute(_CHILDREN_SQL, (hit.symbol_id, RELATED_LIMIT)).fetchall()
        if not rows:
            parent = self.parent(hit)
            parent_id = parent["symbol_id"] if parent else None
            rows = self._db.execute(_SIBLINGS_SQL, (hit.path, parent_id, hit.symbol_id, RELATED_LIMIT)).fetchall()
        return [{"symbol_id": r[0], "symbol_stable_id": r[1], "kind": r[2], "name": r[3], "line": r[4]}
                for r in rows]
