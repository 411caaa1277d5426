"""What scored search reads from SQLite about the lines of a hit: the symbols over them and the file's import lines."""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable
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


@dataclass(frozen=True)
class FileFacts:
    """The symbols (by line_start) that overlap some lines of a file, and the file's import lines."""

    symbols: tuple[SymbolRow, ...]
    import_lines: frozenset[int]

    def by_id(self, symbol_id: int | None) -> SymbolRow | None:
        """The symbol with this id, or None."""
        return next((s for s in self.symbols if s.symbol_id == symbol_id), None)


# Only the symbols over each hit's lines (a big file has thousands, a hit spans a few), for
# all the hits of a call in one statement. `k` numbers the spans of the statement.
_SPANS_SQL = """
WITH spans(k, path, lo, hi) AS (VALUES {values})
SELECT spans.k, s.symbol_id, s.name, s.qualified_name, s.kind, s.line_start, s.line_end, s.doc
FROM spans JOIN symbols s ON s.path = spans.path AND s.line_start <= spans.hi AND s.line_end >= spans.lo
ORDER BY spans.k, s.line_start, s.line_end DESC, s.symbol_id
"""
# One row per file: a file has an import edge per imported name, often many on one line.
_IMPORTS_SQL = """SELECT from_path, group_concat(DISTINCT line) FROM symbol_edges
                  WHERE edge_type = 'import' AND from_path IN ({marks}) GROUP BY from_path"""
# Spans / paths per statement: 4 parameters a span stays under SQLite's oldest limit of 999.
_BATCH = 200
# Spans and paths kept per generation, least recently used dropped first.
CACHE_ENTRIES = 8192

Span = tuple[str, int, int]  # (path, line_start, line_end)


class FactsStore:
    """FileFacts of hits' lines from one generation's SQLite: one statement per call for what is not kept yet.

    A generation never changes, so what it answered is kept for the store's
    life (one store per open index), least recently used dropped first.
    """

    def __init__(self, conn: sqlite3.Connection, capacity: int = CACHE_ENTRIES) -> None:
        self._conn = conn
        self._capacity = capacity
        self._symbols: OrderedDict[Span, tuple[SymbolRow, ...]] = OrderedDict()
        self._imports: OrderedDict[str, frozenset[int]] = OrderedDict()
        self._lock = threading.Lock()

    def facts(self, spans: Iterable[Span]) -> dict[Span, FileFacts]:
        """The facts of each span: lines `line_start..line_end` of `path` (relative posix path as in the index)."""
        wanted = list(dict.fromkeys(spans))
        with self._lock:
            symbols = _kept(self._symbols, wanted)
            imports = _kept(self._imports, {path for path, _, _ in wanted})
        new_symbols = self._read_symbols([span for span in wanted if span not in symbols])
        new_imports = self._read_imports(sorted({path for path, _, _ in wanted} - set(imports)))
        with self._lock:
            _keep(self._symbols, new_symbols, self._capacity)
            _keep(self._imports, new_imports, self._capacity)
        symbols.update(new_symbols)
        imports.update(new_imports)
        return {span: FileFacts(symbols=symbols[span], import_lines=imports[span[0]]) for span in wanted}

    def _read_symbols(self, spans: list[Span]) -> dict[Span, tuple[SymbolRow, ...]]:
        found: dict[Span, list[SymbolRow]] = {span: [] for span in spans}
        for at in range(0, len(spans), _BATCH):
            batch = spans[at : at + _BATCH]
            sql = _SPANS_SQL.format(values=", ".join(["(?, ?, ?, ?)"] * len(batch)))
            args = [value for k, (path, start, end) in enumerate(batch) for value in (k, path, start, end)]
            for k, *row in self._conn.execute(sql, args):
                found[batch[k]].append(SymbolRow(*row))
        return {span: tuple(rows) for span, rows in found.items()}

    def _read_imports(self, paths: list[str]) -> dict[str, frozenset[int]]:
        found: dict[str, frozenset[int]] = dict.fromkeys(paths, frozenset())
        for at in range(0, len(paths), _BATCH):
            batch = paths[at : at + _BATCH]
            for path, lines in self._conn.execute(_IMPORTS_SQL.format(marks=", ".join(["?"] * len(batch))), batch):
                found[path] = frozenset(map(int, str(lines).split(",")))
        return found


def _kept(cache: OrderedDict, keys: Iterable) -> dict:
    """The entries of `keys` the cache holds (marked as just used); the caller holds the lock."""
    hits = {}
    for key in keys:
        value = cache.get(key)
        if value is not None:
            cache.move_to_end(key)
            hits[key] = value
    return hits


def _keep(cache: OrderedDict, entries: dict, capacity: int) -> None:
    """Add `entries`, dropping the least recently used beyond `capacity`; the caller holds the lock."""
    cache.update(entries)
    while len(cache) > capacity:
        cache.popitem(last=False)
