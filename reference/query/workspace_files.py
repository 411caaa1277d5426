"""Workspace files as lines for query answers: read safely, once, and re-read only when the file changed on disk.

Every read goes through the index's one reading function (`reference/index/reading.py`): no link is
followed, only a regular file inside the workspace is read, never past the size limit. A file that
fails those checks reads as None, and callers fall back to what the index stored.

A result's `content` is the text of its lines as they are in the workspace
now, so every call must see the current file. Splitting a whole file into
lines costs far more than asking the file system whether it changed, and the
same files come back query after query, so the split lines are kept between
calls under the file's stat signature (device, inode, size, mtime, ctime).

A signature can miss an edit made within one tick of the file system's clock
after the file was read (same size, same timestamps), so only a file whose
stat is `settled` when it is read is kept (the index's rule, `reading.py`).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from cruxgate.reference.index.extract import content_hash
from cruxgate.reference.index.reading import Refused, read_file, refusal, settled, signature

# About how much memory the kept lines may take (bytes), least recently used dropped first, and what
# one line costs besides its characters (a str object and its slot in the list).
CACHE_BYTES = 64_000_000
LINE_BYTES = 56


@dataclass(frozen=True, slots=True)
class FileText:
    """A file's lines (decoded leniently) and the content hash of its bytes (what the index keys files by)."""

    lines: list[str]
    digest: str


class WorkspaceFiles:
    """Lines of workspace files, cached across calls while their stat signature holds."""

    def __init__(self, workspace: Path, budget: int = CACHE_BYTES) -> None:
        self._root = os.path.realpath(workspace)  # joined as a string: cheaper than a Path, per file per call
        self._budget = budget
        self._used = 0
        self._kept: OrderedDict[str, tuple[tuple[int, ...], FileText, int]] = OrderedDict()
        self._lock = threading.Lock()

    def lines(self, path: str) -> list[str] | None:
        """Every line of `path` (relative to the workspace) as it is now, or None when it may not be read.

        The list is shared: callers must not change it.
        """
        text = self.text(path)
        return None if text is None else text.lines

    def text(self, path: str) -> FileText | None:
        """`path`'s lines and content hash now; None when missing, a link, not a regular file or too large."""
        try:
            st = os.lstat(os.path.join(self._root, path))
        except (OSError, ValueError):
            return None
        if refusal(st) is not None:
            return None
        with self._lock:
            kept = self._kept.get(path)
            if kept is not None and kept[0] == signature(st):
                self._kept.move_to_end(path)
                return kept[1]
        try:
            read = read_file(self._root, path)
        except Refused:
            return None
        decoded = read.data.decode("utf-8", "replace")
        text = FileText(decoded.splitlines(), content_hash(read.data))
        size = len(decoded) + LINE_BYTES * len(text.lines)
        if settled(read.stat) and size <= self._budget:
            self._keep(path, signature(read.stat), text, size)
        return text

    def _keep(self, path: str, sig: tuple[int, ...], text: FileText, size: int) -> None:
        with self._lock:
            old = self._kept.pop(path, None)
            if old is not None:
                self._used -= old[2]
            self._kept[path] = (sig, text, size)
            self._used += size
            while self._used > self._budget:
                _, (_, _, dropped) = self._kept.popitem(last=False)
                self._used -= dropped


class FileView:
    """One call's view of the workspace files: each looked up once, so all its hits see the same text.

    It notes every file that differs from what the index holds (changed, gone, or no longer a regular
    file inside the workspace): the call then reports the index as stale.
    """

    def __init__(self, files: WorkspaceFiles, db: sqlite3.Connection) -> None:
        self._files = files
        self._db = db
        self._seen: dict[str, list[str] | None] = {}
        self.changed: set[str] = set()

    def whole(self, path: str) -> list[str] | None:
        """Every line of `path`, or None when it may not be read."""
        if path not in self._seen:
            text = self._files.text(path)
            row = self._db.execute("SELECT content_hash FROM files WHERE path = ?", (path,)).fetchone()
            if text is None or row is None or row[0] != text.digest:
                self.changed.add(path)
            self._seen[path] = None if text is None else text.lines
        return self._seen[path]

    def span(self, path: str, line_start: int, line_end: int) -> list[str] | None:
        """Lines `line_start..line_end` (1-based, inclusive) of `path`, or None when it may not be read."""
        lines = self.whole(path)
        return None if lines is None else lines[max(line_start - 1, 0) : max(line_end, line_start)]
