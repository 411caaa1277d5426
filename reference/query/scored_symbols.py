"""What scored search reads from SQLite about the lines of a hit: the symbols over them and the file's import lines."""

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
    """The symbols (by line_start) that overlap some lines of a file, and the file's import lines."""

    symbols: tuple[SymbolRow, ...]
    import_lines: frozenset[int]

    def by_id(self, symbol_id: int | None) -> SymbolRow | None:
        """The symbol with this id, or None."""
        return next((s for s in self.symbols if s.symbol_id == symbol_id), None)


# Only the symbols over the hit's lines: a big file has thousands, a hit spans a few.
_SYMBOLS_SQL = """
SELECT s.symbol_id, s.name, s.qualified_name, s.kind, s.line_start, s.line_end, s.doc,
       r.parent_symbol_id
FROM symbols s LEFT JOIN symbol_relations r ON r.symbol_id = s.symbol_id
WHERE s.path = ? AND s.line_start <= ? AND s.line_end >= ?
ORDER BY s.line_start, s.line_end DESC, s.symbol_id
"""
_IMPORTS_SQL = "SELECT DISTINCT line FROM symbol_edges WHERE from_path = ? AND edge_type = 'import'"


class FileFactsCache:
    """Per-request cache of FileFacts, so hits over the same lines read SQLite once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._symbols: dict[tuple[str, int, int], tuple[SymbolRow, ...]] = {}
        self._imports: dict[str, frozenset[int]] = {}

    def get(self, path: str, line_start: int, line_end: int) -> FileFacts:
        """The facts of lines `line_start..line_end` of `path` (relative posix path as stored in the index)."""
        key = (path, line_start, line_end)
        symbols = self._symbols.get(key)
        if symbols is None:
            rows = self._conn.execute(_SYMBOLS_SQL, (path, line_end, line_start)).fetchall()
            symbols = self._symbols[key] = tuple(SymbolRow(*row) for row in rows)
        imports = self._imports.get(path)
        if imports is None:
            lines = self._conn.execute(_IMPORTS_SQL, (path,)).fetchall()
            imports = self._imports[path] = frozenset(int(line) for (line,) in lines)
        return FileFacts(symbols=symbols, import_lines=imports)
