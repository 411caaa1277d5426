"""Read access to a ready index: SQLite (read-only) and the three Tantivy indices of the live generation."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import tantivy

from .state import DATABASE, TANTIVY_DIR, TANTIVY_INDICES, IndexState, read_state


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

    def close(self) -> None:
        """Close the SQLite connection and drop the Tantivy handles."""
        self.db.close()
        self._searchers.clear()
        self._indices.clear()
