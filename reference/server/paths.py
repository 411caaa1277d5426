"""Workspace-relative paths from tool arguments: resolved (symlinks too) and never outside the workspace."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from reference.protocol.errors import ToolError, invalid_input

# The server's own state and VCS internals are not part of the indexed tree.
PRIVATE_DIRS = (".cruxgate", ".git")


def workspace_path(workspace: Path, raw: str) -> tuple[str, Path]:
    """(posix path relative to the workspace, resolved absolute path) for a path argument."""
    if "\x00" in raw:
        raise invalid_input("path", "path must not contain NUL characters")
    candidate = Path(raw.replace("\\", "/"))
    if not candidate.is_absolute():
        candidate = workspace / candidate
    resolved = candidate.resolve()  # follows symlinks: a link pointing outside is outside
    if not resolved.is_relative_to(workspace):
        raise invalid_input("path", f"path {raw!r} is outside the workspace")
    relative = PurePosixPath(resolved.relative_to(workspace).as_posix())
    if not relative.parts:
        raise invalid_input("path", "path names the workspace root, not a file")
    if relative.parts[0] in PRIVATE_DIRS:
        raise ToolError("file_not_found", f"{relative} is not an indexed file", {"path": str(relative)})
    return str(relative), resolved
