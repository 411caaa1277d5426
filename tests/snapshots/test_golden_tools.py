"""Golden answers of every read-only tool of the reference, over real stdio, one server for the module.

Each case is one tools/call; its normalized answer must equal golden/snapshots/test_golden_tools/<case>.json.
A changed answer fails until `pytest tests/snapshots --snapshot-update` records it on purpose.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.server.bad_inputs import BAD_CALLS

QUERY = {"query": "validate_token", "limit": 5}
CONFIG = {"query": "config", "limit": 6}

# (case id, tool, arguments): ids name the files under golden/snapshots/, keep them stable.
CASES: list[tuple[str, str, dict[str, Any]]] = [
    # search_code: each detail level, compact, each explain level, filters, freshness policies
    ("search_code-default", "search_code", QUERY),
    ("search_code-location", "search_code", {**QUERY, "detail_level": "location"}),
    ("search_code-signature", "search_code", {**QUERY, "detail_level": "signature"}),
    ("search_code-context", "search_code", {**QUERY, "detail_level": "context"}),
    ("search_code-context-compact", "search_code", {**QUERY, "detail_level": "context", "compact": True}),
    ("search_code-context-not-compact", "search_code", {**QUERY, "detail_level": "context", "compact": False}),
    ("search_code-location-compact", "search_code", {**QUERY, "detail_level": "location", "compact": True}),
    ("search_code-explain-off", "search_code", {**QUERY, "ranking_explain_level": "off"}),
    ("search_code-explain-basic", "search_code", {**QUERY, "ranking_explain_level": "basic"}),
    ("search_code-explain-full", "search_code", {**QUERY, "ranking_explain_level": "full"}),
    ("search_code-explain-full-compact", "search_code", {**QUERY, "ranking_explain_level": "full", "compact": True}),
    ("search_code-language-rust", "search_code", {**CONFIG, "language": "rust"}),
    ("search_code-language-python", "search_code", {**CONFIG, "language": "python"}),
    ("search_code-role-type", "search_code", {**CONFIG, "role": "type"}),
    ("search_code-role-callable", "search_code", {**CONFIG, "role": "callable"}),
    ("search_code-role-value", "search_code", {**CONFIG, "role": "value"}),
    ("search_code-role-namespace", "search_code", {"query": "app", "role": "namespace"}),
    ("search_code-dedup", "search_code", {"query": "retry backoff jitter", "limit": 5}),
    ("search_code-limit-1", "search_code", {"query": "createPool", "limit": 1}),
    ("search_code-no-results", "search_code", {"query": "zqxjkvw"}),
    ("search_code-strict", "search_code", {**QUERY, "freshness_policy": "strict"}),
    ("search_code-best-effort", "search_code", {**QUERY, "freshness_policy": "best_effort"}),
    # locate_symbol: kind (exact), role, language, detail levels, compact, explain, the `query` alias
    ("locate_symbol-default", "locate_symbol", {"name": "Config"}),
    ("locate_symbol-location", "locate_symbol", {"name": "Config", "detail_level": "location"}),
    ("locate_symbol-context", "locate_symbol", {"name": "Config", "detail_level": "context"}),
    ("locate_symbol-context-compact", "locate_symbol", {"name": "Config", "detail_level": "context", "compact": True}),
    ("locate_symbol-kind-struct", "locate_symbol", {"name": "Config", "kind": "struct"}),
    ("locate_symbol-kind-class", "locate_symbol", {"name": "Config", "kind": "class"}),
    ("locate_symbol-kind-and-role-disjoint", "locate_symbol", {"name": "Config", "kind": "struct", "role": "callable"}),
    ("locate_symbol-role-type", "locate_symbol", {"name": "UserService", "role": "type"}),
    ("locate_symbol-language-go", "locate_symbol", {"name": "Serve", "language": "go"}),
    ("locate_symbol-explain-basic", "locate_symbol", {"name": "validate_token", "ranking_explain_level": "basic"}),
    ("locate_symbol-explain-full", "locate_symbol", {"name": "validate_token", "ranking_explain_level": "full"}),
    ("locate_symbol-qualified", "locate_symbol", {"name": "app::config::Config"}),
    ("locate_symbol-query-alias", "locate_symbol", {"query": "createPool"}),
    ("locate_symbol-unknown", "locate_symbol", {"name": "NoSuchSymbolAnywhere"}),
    # get_file_outline: depths, languages, the language override, refs, files without symbols
    ("get_file_outline-python-all", "get_file_outline", {"path": "src/auth/handler.py"}),
    ("get_file_outline-python-top", "get_file_outline", {"path": "src/auth/handler.py", "depth": "top"}),
    ("get_file_outline-rust-all", "get_file_outline", {"path": "src/app/config.rs", "depth": "all"}),
    ("get_file_outline-rust-top", "get_file_outline", {"path": "src/app/config.rs", "depth": "top"}),
    ("get_file_outline-typescript", "get_file_outline", {"path": "src/services/user_service.ts"}),
    ("get_file_outline-tsx", "get_file_outline", {"path": "src/ui/UserCard.tsx"}),
    ("get_file_outline-go", "get_file_outline", {"path": "pkg/handler.go"}),
    ("get_file_outline-javascript", "get_file_outline", {"path": "src/web/app.js", "depth": "top"}),
    ("get_file_outline-language-override", "get_file_outline", {"path": "src/auth/tokens.py", "language": "python"}),
    ("get_file_outline-ref-live", "get_file_outline", {"path": "src/db/pool.ts", "ref": "live"}),
    ("get_file_outline-dot-slash", "get_file_outline", {"path": "./src/db/pool.ts"}),
    ("get_file_outline-no-grammar", "get_file_outline", {"path": "config/settings.ini"}),
    ("get_file_outline-big-top", "get_file_outline", {"path": "src/big_module.py", "depth": "top"}),
    # find_references: by name, by symbol_stable_id, by symbol_id, limit, unresolved edges
    ("find_references-name", "find_references", {"name": "validate_token"}),
    ("find_references-unresolved", "find_references", {"name": "createPool"}),
    ("find_references-limit", "find_references", {"name": "createPool", "limit": 2}),
    ("find_references-stable-id", "find_references", {"name": "0ff8ec7025db1666"}),
    ("find_references-symbol-id", "find_references", {"symbol_id": 54}),
    ("find_references-parse-config", "find_references", {"name": "parse_config"}),
    # status tools
    ("health_check", "health_check", {}),
    ("index_status", "index_status", {}),
    # scored search (seed 002)
    ("search-default", "search", {"query": "validate token", "limit": 3}),
    ("search-scores", "search", {"query": "validate token", "limit": 3, "include_scores": True}),
    ("search-preview-mode", "search", {"query": "retry backoff", "limit": 3, "preview_mode": True}),
    ("search-min-score", "search", {"query": "validate token", "include_scores": True, "min_score": 0.9}),
    ("search-no-context", "search", {"query": "handle request", "limit": 3, "include_context": False}),
    ("search_preview-default", "search_preview", {"query": "validate token", "limit": 3}),
    ("search_preview-min-score", "search_preview", {"query": "createPool", "min_score": 0.8}),
    # errors the arguments are fine for, but the workspace is not
    ("error-outline-unknown-path", "get_file_outline", {"path": "src/nope.py"}),
    ("error-outline-escapes-dotdot", "get_file_outline", {"path": "src/../../outside.py"}),
    ("error-outline-absolute", "get_file_outline", {"path": "/etc/hostname"}),
    ("error-outline-state-dir", "get_file_outline", {"path": ".cruxgate/CURRENT"}),
    ("error-outline-other-ref", "get_file_outline", {"path": "src/db/pool.ts", "ref": "main"}),
    ("error-references-unknown", "find_references", {"name": "no_such_symbol_here"}),
    ("error-references-unknown-id", "find_references", {"symbol_id": 999999}),
]


@pytest.mark.parametrize(("tool", "arguments"), [(tool, args) for _, tool, args in CASES],
                         ids=[case for case, _, _ in CASES])
def test_tool_answer(golden_server, snapshot: SnapshotAssertion, tool: str, arguments: dict[str, Any]) -> None:
    assert golden_server.answer(tool, arguments) == snapshot


def _bad_call_id(tool: str, arguments: dict[str, Any], field: str) -> str:
    # Named by the call itself, so adding a case to BAD_CALLS renames no existing golden file; no `/`,
    # which syrupy strips from file names and then cannot match the file back to its test.
    call = ",".join(f"{key}={value}" for key, value in arguments.items()) or "no-arguments"
    return f"{tool}-" + re.sub(r"[^\w.=,-]+", "_", call)


@pytest.mark.parametrize(("tool", "arguments", "field"), BAD_CALLS, ids=[_bad_call_id(*call) for call in BAD_CALLS])
def test_invalid_input(golden_server, snapshot: SnapshotAssertion, tool: str, arguments: Any, field: str) -> None:
    answer = golden_server.answer(tool, arguments)
    assert answer["payload"]["error"]["data"]["field"] == field
    assert answer == snapshot
