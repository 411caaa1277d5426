"""What scored search reads from SQLite about the file around a hit: its symbols and import lines."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True)
class SymbolRow:
    """One row of `symbols`, the fields scored search needs."""

    symbol_id: int
    name: str
    qualified_name: str
    kind: str
    line_start: int
    line_end: int
    doc: str | None
    parent_symbol_id: int | None


@dataclass(frozen=True)
class FileFacts:
    """A file's symbols (by line_start) and the lines that hold import statements."""

    symbols: tuple[SymbolRow, ...]
    import_lines: frozenset[int]

    def by_id(self, symbol_id: int | None) -> SymbolRow | None:
        """The symbol with this id, or None."""
        return next((s for s in self.symbols if s.symbol_id == symbol_id), None)


_SYMBOLS_SQL = """
SELECT s.symbol_id, s.name, s.qualified_name, s.kind, s.line_start, s.line_end, s.doc,
       r.parent_symbol_id
FROM symbols s LEFT JOIN symbol_relations r ON r.symbol_id = s.symbol_id
WHERE s.path = ?
ORDER BY s.line_start, s.line_end DESC, s.symbol_id
"""
_IMPORTS_SQL = "SELECT DISTINCT line FROM symbol_edges WHERE from_path = ? AND edge_type = 'import'"


class FileFactsCache:
    """Per-request cache of FileFacts, so a page of hits in one file reads SQLite once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._cache: dict[str, FileFacts] = {}

    def get(self, path: str) -> FileFacts:
        """The facts of `path` (relative posix path as stored in the index)."""
        facts = self._cache.get(path)
        if facts is None:
            rows = self._conn.execute(_SYMBOLS_SQL, (path,)).fetchall()
            lines = self._conn.execute(_IMPORTS_SQL, (path,)).fetchall()
            facts = FileFacts(
                symbols=tuple(SymbolRow(*row) for row in rows),
                import_lines=frozenset(int(line) for (line,) in lines),
            )
            self._cache[path] = facts
        return facts
