"""The workspace's store of file extractions, `.cruxgate/extracts.db`: a run parses only what it has not seen.

Keyed by (path, content hash) for one `tool_version` (another release's extractions are dropped): the
extraction of a file depends on its path and its bytes, and on its module (`packages.Layout`), which the run checks
before reusing one (the extraction holds it). It lives beside
the generations, not inside one, so that a run that patches the live generation for a few edited files
neither copies every other file's extraction (most of what a generation's database held) nor loses them.
Only the index run reads and writes it, under the state directory's lock; any failure to read it is a
miss (the file is parsed again), never an error, and it is pruned to the live tree after each run.

It also keeps each file's stat signature (`reading.signature`) with the content hash read under it, for
files whose stat was `settled` when read: a run that finds a file with the same signature takes the hash
from here instead of reading and hashing the file (a one-file edit of a large tree reads one file).

Beside each extraction it keeps the names its edges' targets are made of (`names.edge_names`): a patch finds
the files whose edges name a symbol that appeared or went by reading these (a few MB at 20k files), not
every edge's target in the generation's database (160 MB at 20k files).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path

EXTRACTS = "extracts.db"
# The extractions are large rows (about 26 KB each: 130 MB at 5,000 files), rewritten whole by every full run: in a
# rowid table on 16 KiB pages a full run's writes took 0.22-0.54 CPU-s at 5,000 files, against 0.58-1.56 in a
# WITHOUT ROWID table on 4 KiB pages (a fresh store / one whose rows are replaced; measured with the same rows).
PAGE_SIZE = 16_384
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS extracts(path TEXT NOT NULL, content_hash TEXT NOT NULL, payload BLOB NOT NULL,
                                    PRIMARY KEY (path, content_hash));
-- content_hash NULL: the file was binary (not indexed).
CREATE TABLE IF NOT EXISTS signatures(path TEXT PRIMARY KEY, signature TEXT NOT NULL, content_hash TEXT)
    WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS edge_names(path TEXT NOT NULL, content_hash TEXT NOT NULL, names TEXT NOT NULL,
                                      PRIMARY KEY (path, content_hash)) WITHOUT ROWID;
"""
# What the store holds and how: a store of another layout (one written before `edge_names` existed, or with the
# extractions in a WITHOUT ROWID table, or extractions made by older rules: before `export ... from` and
# `from m import *` were edges) is removed and started afresh (every file parsed again once).
_LAYOUT = ("extracts+edge_names rowid/16k reexports stars typed exports bases super goembeds java-signatures-2 modvars "
           "c cpp cs kt rb php swift scala backticks returns chains ivars gofields loops ktchains rsmade typeargs "
           "tsinterfaces tsmembers tsthis symboltext ctorsearch attributes indexed importwords goelements2")
FEW_NAMES = 5  # `naming` asks SQLite to search the texts for up to this many names, and splits them for more


class ExtractStore:
    """Stored extractions by (path, content hash); every method swallows SQLite errors as misses."""

    def __init__(self, state: Path, tool_version: str) -> None:
        """Open (or create) the store under the state directory `state`, for extractions of `tool_version`."""
        self.db: sqlite3.Connection | None = None
        self.failed = False  # a write failed this run (its rows are missing)
        try:
            db = self._open(state)
            if self._meta(db) != {"tool_version": tool_version, "layout": _LAYOUT}:
                db.close()
                self._drop(state)  # another release's or layout's store: a new file (the page size is set at creation)
                db = self._open(state)
                db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                               (("tool_version", tool_version), ("layout", _LAYOUT)))
                db.commit()
            self.db = db
        except sqlite3.Error:
            self._drop(state)

    @staticmethod
    def _open(state: Path) -> sqlite3.Connection:
        """The store's connection, its tables created where missing (a new file gets `PAGE_SIZE` pages)."""
        # Written from the generation writer's finishing thread too; one run at a time holds the lock.
        db = sqlite3.connect(state / EXTRACTS, check_same_thread=False)
        db.executescript(f"PRAGMA page_size={PAGE_SIZE}; PRAGMA synchronous=NORMAL;" + _SCHEMA)
        return db

    @staticmethod
    def _meta(db: sqlite3.Connection) -> dict[str, str]:
        return dict(db.execute("SELECT key, value FROM meta WHERE key IN ('tool_version', 'layout')"))

    @staticmethod
    def _drop(state: Path) -> None:
        """Remove the store (one that cannot be opened, or of another release or layout): a new one starts empty."""
        for suffix in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                (state / (EXTRACTS + suffix)).unlink()

    def get(self, path: str, digest: str) -> bytes | None:
        """The stored extraction of `path` with content hash `digest`, None when there is none."""
        if self.db is None:
            return None
        try:
            row = self.db.execute("SELECT payload FROM extracts WHERE path = ? AND content_hash = ?",
                                  (path, digest)).fetchone()
        except sqlite3.Error:
            return None
        return row[0] if row else None

    def put(self, rows: list[tuple[str, str, bytes, str]]) -> None:
        """Store (path, content hash, payload, `edge_names` of its edges) rows (committed by `commit`)."""
        if self.db is not None:
            try:
                self.db.executemany("INSERT OR REPLACE INTO extracts VALUES (?,?,?)", (row[:3] for row in rows))
                self.db.executemany("INSERT OR REPLACE INTO edge_names VALUES (?,?,?)",
                                    ((path, digest, names) for path, digest, _, names in rows))
            except sqlite3.Error:
                self.db.rollback()
                self.failed = True  # rows lost: the store no longer holds every file's names

    def naming(self, names: Iterable[str]) -> set[tuple[str, str]] | None:
        """(path, content hash) of every stored extraction with an edge whose target has a part in `names`; None
        when the store cannot say (not open, or a read failed)."""
        if self.db is None:
            return None
        ordered = sorted(names)
        try:
            if len(ordered) > FEW_NAMES and not any("\n" in name for name in ordered):
                # Many names: each text split into its parts once (about 0.15 CPU-s at 20k files, whatever the
                # number of names) rather than SQLite searching every text once per name (0.02-0.03 s a name).
                wanted = frozenset(ordered)
                return {(path, digest) for path, digest, text in self.db.execute(
                    "SELECT path, content_hash, names FROM edge_names") if not wanted.isdisjoint(text.split("\n"))}
            found: set[tuple[str, str]] = set()
            for start in range(0, len(ordered), 16):  # one pass over the table per 16 names
                chunk = [f"\n{name}\n" for name in ordered[start:start + 16]]
                test = " OR ".join(["instr(names, ?) > 0"] * len(chunk))
                found.update(self.db.execute(f"SELECT path, content_hash FROM edge_names WHERE {test}", chunk))
        except sqlite3.Error:
            return None
        return found

    def commit(self) -> None:
        """Make the stored rows durable."""
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.commit()

    def signatures(self) -> dict[str, tuple[str, str | None]]:
        """path -> (stat signature, content hash or None for a binary file) of every file read settled."""
        if self.db is None:
            return {}
        try:
            return {path: (sig, digest) for path, sig, digest in self.db.execute("SELECT * FROM signatures")}
        except sqlite3.Error:
            return {}

    def put_signatures(self, rows: Iterable[tuple[str, str, str | None]], scanned: set[str],
                       known: Iterable[str] | None = None) -> None:
        """Store (path, signature, content hash or None) rows and forget every path not in `scanned`; committed.
        `known`: the paths `signatures` gave this run (the table's, but for `rows`, which were scanned), so that the
        table is not read again (20k paths at 20k files)."""
        if self.db is None:
            return
        try:
            self.db.executemany("INSERT OR REPLACE INTO signatures VALUES (?,?,?)", rows)
            paths = [path for (path,) in self.db.execute("SELECT path FROM signatures")] if known is None else known
            gone = [(path,) for path in paths if path not in scanned]
            self.db.executemany("DELETE FROM signatures WHERE path = ?", gone)
            self.db.commit()
        except sqlite3.Error:
            self.db.rollback()

    def names_of(self) -> str | None:
        """The generation whose every file's edge names this store holds (`record_names_of`), None if unknown."""
        if self.db is None or self.failed:
            return None
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = 'names_of'").fetchone()
        except sqlite3.Error:
            return None
        return row[0] if row else None

    def record_names_of(self, generation: str | None) -> None:
        """Record that the store holds every file's edge names of `generation` (None: of no known generation);
        committed with the next `prune`. A store that failed a write records nothing."""
        if self.db is None:
            return
        try:
            if generation is None or self.failed:
                self.db.execute("DELETE FROM meta WHERE key = 'names_of'")
            else:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('names_of', ?)", (generation,))
        except sqlite3.Error:
            self.failed = True

    def prune(self, live: Iterable[tuple[str, str]], paths: Iterable[str] | None = None) -> None:
        """Keep only the extractions of the live tree's (path, content hash) pairs; with `paths`, look only at
        those paths' (a run that knows which files changed: the rest were pruned by the run before)."""
        if self.db is None:
            return
        try:
            self.db.execute("CREATE TEMP TABLE IF NOT EXISTS live(path TEXT, content_hash TEXT, "
                            "PRIMARY KEY (path, content_hash)) WITHOUT ROWID")
            self.db.execute("DELETE FROM temp.live")
            self.db.executemany("INSERT OR IGNORE INTO temp.live VALUES (?,?)", live)
            if paths is None:
                gone = "(path, content_hash) NOT IN (SELECT path, content_hash FROM temp.live)"
                args: list[tuple[str, ...]] = [()]
            else:
                gone = "path = ? AND (path, content_hash) NOT IN (SELECT path, content_hash FROM temp.live)"
                args = [(path,) for path in paths]
            for table in ("extracts", "edge_names"):
                self.db.executemany(f"DELETE FROM {table} WHERE {gone}", args)
            self.db.commit()
        except sqlite3.Error:
            self.db.rollback()

    def close(self) -> None:
        """Commit and close."""
        if self.db is not None:
            self.commit()
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = None
