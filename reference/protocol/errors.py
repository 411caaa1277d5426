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


class ToolError(Exception):
    """A tool failure that is answered with the canonical envelope (code must be a registry code)."""

    def __init__(self, code: str, message: str, data: dict[str, Any] | None = None) -> None:
        if code not in REGISTRY:
            raise ValueError(f"{code!r} is not a registry error code")
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

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
