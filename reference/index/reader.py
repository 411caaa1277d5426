"""Read access to a ready index: SQLite (read-only) and the three Tantivy indices of the live generation."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

import tantivy

from .seal import sealed_sizes
from .state import DATABASE, TANTIVY_DIR, TANTIVY_INDICES, IndexState, read_state

# The SQLite file header: page size (2 bytes, big-endian; 1 means 65536) and the page count (4 bytes).
_HEADER = 100
_PAGE_SIZE = slice(16, 18)
_PAGE_COUNT = slice(28, 32)


class IndexNotReady(Exception):
    """The workspace's index cannot be opened; `.state` says why (not_indexed, reindex_required, ...)."""

    def __init__(self, state: IndexState) -> None:
        super().__init__(f"index is {state.status}: {state.reason}" if state.reason else f"index is {state.status}")
        self.state = state


class IndexReader:
    """One open generation of an index; safe to share between threads."""

    def __init__(self, workspace: Path, state: IndexState) -> None:
        assert state.generation is not None
        self.workspace = workspace
        self.state = state
        self.generation: Path = state.generation
        self.manifest: dict[str, Any] = dict(state.manifest or {})
        self._uri = (self.generation / DATABASE).resolve().as_uri() + "?mode=ro"
        self.db = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
        self._indices: dict[str, tantivy.Index] = {}
        self._searchers: dict[str, tantivy.Searcher] = {}
        self._lock = threading.Lock()

    @classmethod
    def open(cls, workspace: Path | str) -> IndexReader:
        """Open the live generation of `workspace`; raises IndexNotReady unless its state is ready."""
        path = Path(workspace).resolve()
        state = read_state(path)
        if state.status != "ready":
            raise IndexNotReady(state)
        return cls(path, state)

    def connect(self) -> sqlite3.Connection:
        """A new read-only connection to this generation's SQLite, for a long read that must not hold up `db`.

        One connection runs one statement at a time: a whole-file scan on `db` would make every query wait.
        """
        return sqlite3.connect(self._uri, uri=True, check_same_thread=False)

    def index(self, name: str) -> tantivy.Index:
        """The Tantivy index `name` (symbols | snippets | files)."""
        if name not in TANTIVY_INDICES:
            raise KeyError(f"no Tantivy index named {name!r}")
        with self._lock:
            if name not in self._indices:
                self._indices[name] = tantivy.Index.open(str(self.generation / TANTIVY_DIR / name))
            return self._indices[name]

    def searcher(self, name: str) -> tantivy.Searcher:
        """A searcher over index `name` (a generation never changes, so one searcher serves for its life)."""
        index = self.index(name)
        with self._lock:
            if name not in self._searchers:
                self._searchers[name] = index.searcher()
            return self._searchers[name]

    def damage(self, deep: bool = False) -> str | None:
        """Why this generation's lexical index cannot be trusted, or None.

        Files lost or cut short since written, a database file shorter than its own header says, an index
        that does not open. Cheap (stats, one header, the Tantivy segment lists) unless `deep`, which also
        runs SQLite's quick_check over the whole file. The semantic index is not checked: it degrades alone.
        """
        try:
            for rel, size in (sealed_sizes(self.generation) or {}).items():
                if rel != DATABASE and not rel.startswith(f"{TANTIVY_DIR}/"):
                    continue  # the semantic index degrades on its own (search_code falls back to lexical)
                path = self.generation / rel
                if not path.exists():
                    return f"{rel} is missing"
                if path.stat().st_size != size:
                    return f"{rel} is {path.stat().st_size} bytes, {size} were written"
            with open(self.generation / DATABASE, "rb") as fh:
                header = fh.read(_HEADER)
                actual = fh.seek(0, 2)
            page = int.from_bytes(header[_PAGE_SIZE], "big")
            page = 65536 if page == 1 else page
            needed = page * int.from_bytes(header[_PAGE_COUNT], "big")
            if len(header) < _HEADER or actual < needed:
                return f"{DATABASE} is cut short ({actual} bytes, its header says {needed})"
            with closing(self.connect()) as db:
                db.execute("PRAGMA schema_version").fetchone()
                if deep:
                    verdict = db.execute("PRAGMA quick_check").fetchone()[0]
                    if verdict != "ok":
                        return f"{DATABASE} fails its integrity check: {verdict}"
            for name in TANTIVY_INDICES:
                _ = self.searcher(name).num_docs  # opens every segment the index lists
        except (OSError, sqlite3.Error, ValueError) as err:  # tantivy raises ValueError for a file it cannot read
            return f"{type(err).__name__}: {err}"
        return None

    def close(self) -> None:
        """Close the SQLite connection and drop the Tantivy handles."""
        self.db.close()
        self._searchers.clear()
        self._indices.clear()
