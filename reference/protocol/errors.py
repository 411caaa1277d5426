"""The canonical error registry and envelope: every tool failure is one of these codes."""

from __future__ import annotations

from typing import Any

# code -> category, as the registry (seeds/README.md) lists them.
REGISTRY: dict[str, str] = {
    "invalid_input": "validation",
    "invalid_strategy": "validation",
    "invalid_max_tokens": "validation",
    "project_not_found": "workspace",
    "workspace_not_registered": "workspace",
    "workspace_not_allowed": "workspace",
    "workspace_limit_exceeded": "workspace",
    "index_in_progress": "indexing",
    "index_not_ready": "indexing",
    "sync_in_progress": "indexing",
    "index_stale": "freshness",
    "index_incompatible": "compatibility",
    "ref_not_indexed": "vcs",
    "overlay_not_ready": "vcs",
    "merge_base_failed": "vcs",
    "symbol_not_found": "query",
    "ambiguous_symbol": "query",
    "file_not_found": "query",
    "result_not_found": "query",
    "no_edges_available": "graph",
    "internal_error": "runtime",
}

# An error names the value it refuses (a path, a tool or argument name) so the caller sees which one failed;
# the caller chose that value's size. A quoted value is cut to ECHO_CHARS and the message, and every string
# in `data`, to TEXT_CHARS: a 1 MB path must not come back as a 1 MB error (over HTTP, to anyone who asks).
ECHO_CHARS = 200
TEXT_CHARS = 2048


def bounded(text: str, limit: int = TEXT_CHARS) -> str:
    """`text` when it fits in `limit` characters, else its head and tail around a note of how much was cut."""
    if len(text) <= limit:
        return text
    keep = max(limit - 48, 8)
    head, tail = keep * 3 // 4, keep // 4
    return f"{text[:head]}...[{len(text) - head - tail:,} characters cut]...{text[len(text) - tail:]}"


def quoted(value: Any) -> str:
    """`repr(value)` for an error message, cut to ECHO_CHARS characters."""
    return bounded(repr(value), ECHO_CHARS)


def bounded_value(value: Any) -> Any:
    """`value` with every string in it (keys too) cut to TEXT_CHARS."""
    if isinstance(value, str):
        return bounded(value)
    if isinstance(value, dict):
        return {bounded(str(key)): bounded_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [bounded_value(item) for item in value]
    return value


class ToolError(Exception):
    """A tool failure that is answered with the canonical envelope (code must be a registry code)."""

    def __init__(self, code: str, message: str, data: dict[str, Any] | None = None) -> None:
        if code not in REGISTRY:
            raise ValueError(f"{code!r} is not a registry error code")
        message = bounded(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = bounded_value(data) if data else data

    def envelope(self, metadata: dict[str, Any] | None = None) -> dict[str, Any]:
        """The failure payload: `{"error": {...}, "metadata"?}`."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data:
            error["data"] = self.data
        payload: dict[str, Any] = {"error": error}
        if metadata is not None:
            payload["metadata"] = metadata
        return payload


def invalid_input(field: str, message: str) -> ToolError:
    """An `invalid_input` error naming the offending argument in `data.field`."""
    return ToolError("invalid_input", message, {"field": field})
