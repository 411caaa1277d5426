"""The tool table: name -> description, handler and whether it blocks (runs in a worker thread)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cruxgate.reference.protocol.encoding import to_json_bytes

from . import health, indexing, query, search_scored, structure

# A query tool's answer is due within this many seconds (the runner's own call timeout is 30 s): past it
# the call is answered with an error and its worker thread abandoned.
QUERY_DEADLINE_SECONDS = 20.0
# Worker threads for query tools: more calls than this wait their turn; abandoned ones hold theirs until
# they end, and never the threads health_check, index_status and the jobs use.
QUERY_THREADS = 8


@dataclass(frozen=True)
class ToolSpec:
    """One tool: `handler(runtime, params) -> payload`, raising ToolError on failure.

    `params` are the tool's typed parameters (`reference.protocol.params`), parsed once by dispatch;
    `list_key` names the list the payload safety limit may cut (query tools only); `encode` writes the
    payload's JSON (the text item), compact and equal to `to_json_bytes(payload)` as an object.
    A `blocking` tool runs (and is encoded) in a worker thread; one with a `deadline` (seconds) is
    answered with an error once it passes.
    """

    description: str
    handler: Callable[[Any, Any], dict[str, Any]]
    blocking: bool = False
    list_key: str | None = None
    encode: Callable[[dict[str, Any]], bytes] = to_json_bytes
    deadline: float | None = None


def _query(description: str, handler: Callable[[Any, Any], dict[str, Any]], list_key: str,
           encode: Callable[[dict[str, Any]], bytes] = to_json_bytes) -> ToolSpec:
    """A query tool: it reads the index and workspace files, so it runs off the event loop, with a deadline."""
    return ToolSpec(description, handler, blocking=True, list_key=list_key, encode=encode,
                    deadline=QUERY_DEADLINE_SECONDS)


TOOLS: dict[str, ToolSpec] = {
    "search_code": _query("Search code (symbols, snippets, files) ranked by relevance. Filter by language "
                          "and role; shape results with detail_level and compact.", query.search_code, "results"),
    "locate_symbol": _query("Locate symbol definitions by name; filter by kind (exact) and/or role.",
                            query.locate_symbol, "results"),
    "get_file_outline": _query("Nested symbol tree of one file without reading it (depth top|all).",
                               structure.get_file_outline, "symbols", encode=structure.encode_outline),
    "find_references": _query("Resolved references to a symbol plus the count of unresolved ones by name.",
                              structure.find_references, "references"),
    "health_check": ToolSpec("Server health: Tantivy, SQLite, grammars, jobs, prewarm and startup checks.",
                             health.health_check),
    "index_status": ToolSpec("Index state: schema versions, counts, freshness and active jobs.",
                             health.index_status),
    "index_repo": ToolSpec("Index the workspace now and wait for it (force=true rebuilds from scratch).",
                           indexing.index_repo, blocking=True),
    "sync_repo": ToolSpec("Start a background incremental re-index of the workspace.", indexing.sync_repo),
    "search": _query("Search code; optionally with 0..1 scores, match reasons, previews and enclosing "
                     "context (scored search).", search_scored.search, "results"),
    "search_preview": _query("Scored search with previews and context: limit 20 and min_score 0.5 by default.",
                             search_scored.search_preview, "results"),
}
