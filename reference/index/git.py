"""The commit a workspace's HEAD points at, read from .git with bare os calls (no git process).

The indexer records it in the manifest; the server compares it on every call (freshness), so it is cheap.
"""

from __future__ import annotations

import os
from pathlib import Path

from .state import read_small_text


def git_head(workspace: Path | str) -> str | None:
    """HEAD's commit; None when not a git workspace, "" for a branch with no commit yet."""
    git = os.path.join(workspace, ".git")
    try:
        head = read_small_text(os.path.join(git, "HEAD")).strip()
    except OSError:
        return None
    if not head.startswith("ref: "):
        return head  # detached HEAD
    ref = head[5:].strip()
    try:
        return read_small_text(os.path.join(git, ref)).strip()
    except OSError:
        pass
    try:  # refs packed by git gc
        for line in read_small_text(os.path.join(git, "packed-refs")).splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    except OSError:
        pass
    return ""
