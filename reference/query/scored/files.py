"""Workspace files as lines for scored search: read once, re-read only when the file changed on disk.

A result's `content` is the text of its lines as they are in the workspace
now, so every call must see the current file. Splitting a whole file into
lines costs far more than asking the file system whether it changed, and the
same files come back query after query, so the split lines are kept between
calls under the file's stat signature (inode, size, mtime, ctime).

A signature can miss an edit made within one tick of the file system's clock
after the file was read (same size, same timestamps). So a file whose ctime
is younger than RACY_SECONDS when it is read is not kept: its next edit
necessarily lands on a later tick and changes the signature (ctime cannot be
set by hand; only a clock stepped backwards defeats this).
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from pathlib import Path

# Coarser than any file system's timestamp granularity (FAT's 2 s included).
RACY_SECONDS = 3
# About how much memory the kept lines may take (bytes), least recently used dropped first, and what
# one line costs besides its characters (a str object and its slot in the list).
CACHE_BYTES = 64_000_000
LINE_BYTES = 56


class WorkspaceFiles:
    """Lines of workspace files (decoded leniently), cached across calls while their stat signature holds."""

    def __init__(self, workspace: Path, budget: int = CACHE_BYTES) -> None:
        self._root = os.fspath(workspace)  # joined as a string: cheaper than a Path, per file per call
        self._budget = budget
        self._used = 0
        self._kept: OrderedDict[str, tuple[tuple[int, ...], list[str], int]] = OrderedDict()
        self._lock = threading.Lock()

    def lines(self, path: str) -> list[str] | None:
        """Every line of `path` (relative to the workspace) as it is now, or None when unreadable.

        The list is shared: callers must not change it.
        """
        target = os.path.join(self._root, path)
        try:
            st = os.stat(target)
        except OSError:
            return None
        signature = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        with self._lock:
            kept = self._kept.get(path)
            if kept is not None and kept[0] == signature:
                self._kept.move_to_end(path)
                return kept[1]
        try:
            with open(target, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            return None
        lines = text.splitlines()
        size = len(text) + LINE_BYTES * len(lines)
        if time.time_ns() - st.st_ctime_ns >= RACY_SECONDS * 1_000_000_000 and size <= self._budget:
            self._keep(path, signature, lines, size)
        return lines

    def _keep(self, path: str, signature: tuple[int, ...], lines: list[str], size: int) -> None:
        with self._lock:
            old = self._kept.pop(path, None)
            if old is not None:
                self._used -= old[2]
            self._kept[path] = (signature, lines, size)
            self._used += size
            while self._used > self._budget:
                _, (_, _, dropped) = self._kept.popitem(last=False)
                self._used -= dropped
