"""Cheap staleness check of the index against the workspace: git HEAD, else file/dir mtimes (no reads)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .paths import PRIVATE_DIRS


def git_head(workspace: Path) -> str | None:
    """The commit HEAD points at, read from .git without running git (None when not a git workspace)."""
    git = workspace / ".git"
    try:
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not head.startswith("ref: "):
        return head  # detached HEAD
    ref = head[5:]
    try:
        return (git / ref).read_text(encoding="utf-8").strip()
    except OSError:
        pass
    try:  # refs packed by git gc
        for line in (git / "packed-refs").read_text(encoding="utf-8").splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    except OSError:
        pass
    return ""  # a branch with no commit yet


def newer_than(root: Path, mtime_ns: int) -> bool:
    """True as soon as a file or directory under `root` was modified after `mtime_ns` (stat only)."""
    stack = [str(root)]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    if entry.name in PRIVATE_DIRS:
                        continue
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if info.st_mtime_ns > mtime_ns:
                        return True
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:
            continue
    return False


def is_stale(workspace: Path, manifest: dict[str, Any], manifest_mtime_ns: int) -> bool:
    """Git workspace: HEAD differs from the indexed head. Otherwise: anything changed after the manifest was written."""
    head = git_head(workspace)
    if head is not None:
        indexed = manifest.get("git_head")
        return bool(indexed or head) and indexed != head
    # The root's own mtime moves when a top-level entry is added or removed.
    try:
        if workspace.stat().st_mtime_ns > manifest_mtime_ns:
            return True
    except OSError:
        return True
    return newer_than(workspace, manifest_mtime_ns)
