"""End to end over stdio: every tool against the indexed polyglot fixture, one server for the module."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .bad_inputs import BAD_CALLS
from .harness import Connection

TOOLS = {"search_code", "locate_symbol", "get_file_outline", "find_references", "health_check", "index_status",
         "index_repo", "sync_repo", "search", "search_preview"}
CANONICAL = {"indexing_status": {"not_indexed", "indexing", "ready", "failed"},
             "result_completeness": {"complete", "partial", "truncated"},
             "freshness_status": {"fresh", "stale", "syncing"},
             "schema_status": {"compatible", "not_indexed", "reindex_required", "corrupt_manifest"}}


def ok(conn: Connection, tool: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    payload, is_error = conn.payload(tool, args)
    assert not is_error, payload
    meta = payload["metadata"]
    assert meta["cruxe_protocol_version"] == "1"
    for name, allowed in CANONICAL.items():
        assert meta[name] in allowed
    return payload


def error(conn: Connection, tool: str, args: Any) -> dict[str, Any]:
    payload, is_error = conn.payload(tool, args)
    assert is_error, payload
    return payload["error"]


def test_tools_list_publishes_exact_schemas(stdio_server: Connection) -> None:
    tools = stdio_server.tools()
    assert set(tools) == TOOLS
    search = tools["search_code"]["inputSchema"]
    assert search["required"] == ["query"] and search["additionalProperties"] is False
    assert "kind" not in search["properties"] and "role" in search["properties"]
    assert "kind" in tools["locate_symbol"]["inputSchema"]["properties"]
    assert tools["get_file_outline"]["inputSchema"]["properties"]["depth"]["enum"] == ["top", "all"]


def test_search_code_ranks_and_carries_metadata(stdio_server: Connection) -> None:
    payload = ok(stdio_server, "search_code", {"query": "validate_token"})
    results = payload["results"]
    assert results and results[0]["name"] == "validate_token"
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)
    meta = payload["metadata"]
    assert meta["indexing_status"] == "ready" and meta["result_completeness"] == "complete"
    assert "ranking_reasons" not in meta
    # Hybrid is on by default; an identifier is the lexical channel's to answer.
    assert meta["semantic_enabled"] is True and meta["semantic_skipped_reason"] == "identifier_query"


def test_detail_levels(stdio_server: Connection) -> None:
    location = ok(stdio_server, "search_code", {"query": "validate_token", "detail_level": "location"})["results"]
    assert location and all(set(r) <= {"path", "line_start", "line_end", "kind", "name"} for r in location)
    assert {"path", "line_start", "line_end", "kind", "name"} == set(location[0])
    signature = ok(stdio_server, "search_code", {"query": "validate_token"})["results"]
    assert "qualified_name" in signature[0] and "body_preview" not in signature[0]
    context = ok(stdio_server, "search_code", {"query": "validate_token", "detail_level": "context"})["results"]
    assert "body_preview" in context[0]
    for result in context:
        assert result.get("parent", {"x": 1}) is not None and result.get("related_symbols", [1]) != []


def test_compact_keeps_order_and_ids(stdio_server: Connection) -> None:
    args = {"query": "config", "limit": 10, "detail_level": "context"}
    full = ok(stdio_server, "search_code", args)["results"]
    compact = ok(stdio_server, "search_code", {**args, "compact": True})["results"]
    assert [r["result_id"] for r in compact] == [r["result_id"] for r in full]
    assert all("body_preview" not in r for r in compact)


@pytest.mark.parametrize(("level", "field"), [("basic", "exact_match"), ("full", "bm25_score")])
def test_explain_levels(stdio_server: Connection, level: str, field: str) -> None:
    payload = ok(stdio_server, "search_code", {"query": "Config", "ranking_explain_level": level})
    reasons = payload["metadata"]["ranking_reasons"]
    assert len(reasons) == len(payload["results"])
    assert [r["result_index"] for r in reasons] == list(range(len(reasons)))
    assert all(field in r for r in reasons)
    off = ok(stdio_server, "locate_symbol", {"name": "Config", "ranking_explain_level": "off"})
    assert "ranking_reasons" not in off["metadata"]


def test_locate_symbol_kind_and_role(stdio_server: Connection) -> None:
    classes = ok(stdio_server, "locate_symbol", {"name": "Config", "kind": "class"})["results"]
    assert classes and all(r["kind"] == "class" for r in classes)
    assert ok(stdio_server, "locate_symbol", {"name": "validate_token", "kind": "function",
                                              "role": "type"})["results"] == []
    types = ok(stdio_server, "search_code",
               {"query": "Config", "role": "type", "detail_level": "context"})["results"]
    assert types and all(r["result_type"] == "symbol" for r in types)


def test_file_outline_tree_top_and_no_grammar(stdio_server: Connection) -> None:
    payload = ok(stdio_server, "search_code", {"query": "validate_token", "limit": 1})
    path = payload["results"][0]["path"]
    full = ok(stdio_server, "get_file_outline", {"path": path})
    assert full["path"] == path and full["symbols"]
    top = ok(stdio_server, "get_file_outline", {"path": path, "depth": "top"})
    assert all("children" not in s for s in top["symbols"])
    assert top["symbol_count"] <= full["symbol_count"]


def test_find_references_always_has_unresolved_count(stdio_server: Connection) -> None:
    payload = ok(stdio_server, "find_references", {"name": "createPool"})
    assert isinstance(payload["unresolved_count"], int)
    assert payload["unresolved_count"] == 5 and len(payload["references"]) == 3


def test_health_and_index_status(stdio_server: Connection) -> None:
    deadline = time.monotonic() + 20
    health = ok(stdio_server, "health_check")
    while health["status"] == "warming" and time.monotonic() < deadline:
        time.sleep(0.05)
        health = ok(stdio_server, "health_check")
    assert health["status"] == "ready" and health["prewarm"]["status"] == "ready"
    assert health["tantivy"]["status"] == "ok" and health["sqlite"]["integrity"] == "ok"
    assert health["grammars"]["status"] == "ok" and health["active_jobs"] == []
    index = health["startup_checks"]["index"]
    assert index["status"] == "ready" and index["current_schema_version"] == index["required_schema_version"]
    status = ok(stdio_server, "index_status")
    assert status["status"] == "ready" and status["file_count"] > 0


def test_scored_search_and_preview(stdio_server: Connection) -> None:
    plain = ok(stdio_server, "search", {"query": "validate_token", "limit": 5})
    assert plain["query"] == "validate_token" and plain["total_results"] == len(plain["results"])
    assert {"file", "line", "content"} <= set(plain["results"][0]) and "score" not in plain["results"][0]
    scored = ok(stdio_server, "search", {"query": "validate_token", "include_scores": True, "preview_mode": True,
                                         "include_context": True, "limit": 20, "min_score": 0.5})
    preview = ok(stdio_server, "search_preview", {"query": "validate_token"})
    assert preview["results"] == scored["results"]
    assert scored["results"][0]["score"] > 0.8
    assert error(stdio_server, "search", {"query": "x", "min_score": 2})["data"]["field"] == "min_score"
    preview_off = error(stdio_server, "search_preview", {"query": "x", "preview_mode": False})
    assert preview_off["data"]["field"] == "preview_mode"


def test_stream_of_invalid_calls_then_valid_ones(stdio_server: Connection) -> None:
    for tool, args, field in BAD_CALLS:
        err = error(stdio_server, tool, args)
        assert err["code"] == "invalid_input" and err["data"]["field"] == field, (tool, args, err)
        assert err["message"]
    assert ok(stdio_server, "search_code", {"query": "validate_token"})["results"]
    assert ok(stdio_server, "health_check")["startup_checks"]["index"]["status"] == "ready"


def test_absent_file_is_file_not_found(stdio_server: Connection) -> None:
    assert error(stdio_server, "get_file_outline", {"path": "src/does_not_exist.py"})["code"] == "file_not_found"
    assert error(stdio_server, "find_references", {"name": "NoSuchSymbolAnywhere"})["code"] == "symbol_not_found"
    # Above SQLite's largest integer (2**63 - 1): still an id that names no symbol, not an internal error.
    assert error(stdio_server, "find_references", {"symbol_id": 2**63})["code"] == "symbol_not_found"
    # A name far longer than any symbol's: refused by the input schema (maxLength), not a failed SQLite LIKE.
    assert error(stdio_server, "find_references", {"name": "x" * 50_000})["code"] == "invalid_input"
    # An integral float is a JSON Schema integer: an id like any other (found by the fuzz phase: internal_error).
    assert error(stdio_server, "find_references", {"symbol_id": 1e308})["code"] == "symbol_not_found"
    assert error(stdio_server, "get_file_outline", {"path": "src", "ref": "feature-x"})["code"] == "ref_not_indexed"


def test_file_without_grammar_has_empty_outline(stdio_server: Connection) -> None:
    payload = ok(stdio_server, "get_file_outline", {"path": "config/settings.ini"})
    assert payload["path"] == "config/settings.ini" and payload["symbols"] == [] and payload["symbol_count"] == 0


def test_duplicates_are_suppressed_and_counted(stdio_server: Connection) -> None:
    payload = ok(stdio_server, "search_code", {"query": "retry backoff jitter", "limit": 20})
    assert payload["metadata"]["suppressed_duplicate_count"] > 0
    keys = [(r["path"], r["line_start"], r["line_end"], r.get("symbol_stable_id")) for r in payload["results"]]
    assert len(keys) == len(set(keys))
    exact = ok(stdio_server, "locate_symbol", {"name": "parse_config", "limit": 1})
    assert "suppressed_duplicate_count" not in exact["metadata"]
