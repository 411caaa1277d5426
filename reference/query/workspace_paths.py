"""Relative paths that callers pass in: normalized to the index's posix form, never outside the workspace."""

from __future__ import annotations

import posixpath

from .errors import QueryInputError


def relative_path(path: str, field: str = "path") -> str:
    """`path` as the index stores it (posix, relative, normalized); QueryInputError when it escapes the workspace."""
    if not path.strip():
        raise QueryInputError(field, f"{field} must be a non-empty relative path")
    text = path.strip().replace("\\", "/")
    if text.startswith("/") or (len(text) > 1 and text[1] == ":") or "\x00" in text:
        raise QueryInputError(field, f"{field} must be relative to the workspace root: {path!r}")
    normal = posixpath.normpath(text)
    if normal == ".." or normal.startswith("../") or normal == ".":
        raise QueryInputError(field, f"{field} escapes the workspace: {path!r}")
    return normal

