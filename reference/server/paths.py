"""Workspace-relative paths from tool arguments: resolved (symlinks too) and never outside the workspace."""

from __future__ import annotations

import os
from pathlib import Path

from cruxgate.reference.index.state import STATE_DIR
from cruxgate.reference.protocol.errors import ECHO_CHARS, ToolError, bounded, invalid_input, quoted

# The server's own state and VCS internals are not part of the indexed tree.
PRIVATE_DIRS = (STATE_DIR, ".git")
PATH_CHARS = 4096  # Linux's PATH_MAX: no longer path names a file


def workspace_path(workspace: Path, raw: str) -> tuple[str, Path]:
    """(posix path relative to the workspace, resolved absolute path) for a path argument.

    Plain strings and os.path.realpath (what Path.resolve runs) rather than pathlib objects: this
    runs on every get_file_outline call.
    """
    if "\x00" in raw:
        raise invalid_input("path", "path must not contain NUL characters")
    if len(raw) > PATH_CHARS:  # before realpath, which walks every component: a 1 MB path took minutes
        raise invalid_input("path", f"path is longer than {PATH_CHARS:,} characters ({len(raw):,})")
    root = os.fspath(workspace)
    # An absolute argument replaces the root; realpath follows symlinks: a link pointing outside is outside.
    resolved = os.path.realpath(os.path.join(root, raw.replace("\\", "/")))
    prefix = root if root.endswith("/") else root + "/"
    if resolved != root and not resolved.startswith(prefix):
        raise invalid_input("path", f"path {quoted(raw)} is outside the workspace")
    relative = resolved[len(prefix):]
    if not relative:
        raise invalid_input("path", "path names the workspace root, not a file")
    if relative.split("/", 1)[0] in PRIVATE_DIRS:
        raise ToolError("file_not_found", f"{bounded(relative, ECHO_CHARS)} is not an indexed file", {"path": relative})
    return relative, Path(resolved)
