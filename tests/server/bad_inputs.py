"""Invalid tool calls and the argument each must name in an `invalid_input` error."""

from __future__ import annotations

from typing import Any

BAD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("search_code", {}, "query"),
    ("search_code", {"query": ""}, "query"),
    ("search_code", {"query": 42}, "query"),
    ("search_code", {"query": "x", "kind": "struct"}, "kind"),
    ("search_code", {"query": "x", "limit": 0}, "limit"),
    ("search_code", {"query": "x", "limit": "ten"}, "limit"),
    ("search_code", {"query": "x", "detail_level": "everything"}, "detail_level"),
    ("search_code", {"query": "x", "ranking_explain_level": "verbose"}, "ranking_explain_level"),
    ("search_code", {"query": "x", "freshness_policy": "eventually"}, "freshness_policy"),
    ("search_code", {"query": "x", "compact": "yes"}, "compact"),
    ("search_code", {"query": "x", "bogus": 1}, "bogus"),
    ("locate_symbol", {"name": "x", "kind": "widget"}, "kind"),
    ("locate_symbol", {"name": "x", "role": "thing"}, "role"),
    ("get_file_outline", {"path": "../../etc/passwd"}, "path"),
    ("get_file_outline", {"path": "/etc/passwd"}, "path"),
    ("get_file_outline", {"path": "x.py", "depth": "deep"}, "depth"),
    ("find_references", {}, "name"),
    ("health_check", {"verbose": True}, "verbose"),
    ("search", {"query": "x", "include_scores": "true"}, "include_scores"),
    ("no_such_tool", {}, "name"),
]
