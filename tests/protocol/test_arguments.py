"""Tool input schemas and argument parsing: typed parameters once, every problem invalid_input naming the argument."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from cruxgate.reference.index.kinds import KINDS, ROLES
from cruxgate.reference.protocol.arguments import parse_arguments
from cruxgate.reference.protocol.errors import ToolError
from cruxgate.reference.protocol.input_schemas import MAX_NAME, tool_schemas
from cruxgate.reference.protocol.params import PARAMS, LocateSymbolParams, SearchCodeParams
from cruxgate.reference.query.scored.normalize import MAX_POOL
from cruxgate.reference.query.scored.search import ScoredSearchParams

TOOLS = {"search_code", "locate_symbol", "get_file_outline", "find_references", "health_check", "index_status",
         "index_repo", "sync_repo", "search", "search_preview"}


def field_of(tool: str, args: Any) -> str:
    with pytest.raises(ToolError) as info:
        parse_arguments(tool, args)
    assert info.value.code == "invalid_input" and info.value.message
    return info.value.data["field"]


def test_every_schema_is_valid_and_closed() -> None:
    schemas = tool_schemas()
    assert set(schemas) == TOOLS
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False


def test_each_tool_has_typed_params_with_one_field_per_schema_property() -> None:
    assert set(PARAMS) == TOOLS
    for tool, cls in PARAMS.items():
        assert [f.name for f in fields(cls)] == list(tool_schemas()[tool]["properties"]), tool


def test_enums_are_the_one_tables() -> None:
    assert tool_schemas()["locate_symbol"]["properties"]["kind"]["enum"] == list(KINDS)
    for tool in ("search_code", "locate_symbol"):
        assert tool_schemas()[tool]["properties"]["role"]["enum"] == list(ROLES)


def test_scored_limits_stay_within_the_score_pool() -> None:
    # page_scores keeps scores distinct for at most MAX_POOL results; a page may not be longer.
    for tool in ("search", "search_preview"):
        assert tool_schemas()[tool]["properties"]["limit"]["maximum"] <= MAX_POOL


def test_kind_only_on_locate_symbol() -> None:
    assert "kind" not in tool_schemas()["search_code"]["properties"]
    assert "struct" in tool_schemas()["locate_symbol"]["properties"]["kind"]["enum"]
    assert field_of("search_code", {"query": "x", "kind": "struct"}) == "kind"
    assert parse_arguments("locate_symbol", {"name": "x", "kind": "struct", "role": "type"}).kind == "struct"


@pytest.mark.parametrize(("tool", "args", "field"), [
    ("search_code", {}, "query"),
    ("search_code", {"query": ""}, "query"),
    ("search_code", {"query": "   "}, "query"),
    ("search_code", {"query": "x", "limit": 0}, "limit"),
    ("search_code", {"query": "x", "limit": True}, "limit"),
    ("search_code", {"query": "x", "limit": 101}, "limit"),
    ("search_code", {"query": "x", "role": "types"}, "role"),
    ("search_code", {"query": "x", "language": ""}, "language"),
    ("search_code", {"query": "x", "zzz": 1, "aaa": 2}, "aaa"),
    ("locate_symbol", {"limit": 3}, "name"),
    ("locate_symbol", {"name": None}, "name"),
    ("locate_symbol", {"name": "x", "kind": "klass"}, "kind"),
    ("locate_symbol", {"name": "x", "kind": "Struct"}, "kind"),
    ("get_file_outline", {"path": "a.py", "depth": "everything"}, "depth"),
    ("find_references", {"symbol_id": "seven"}, "symbol_id"),
    ("find_references", {"name": "  "}, "name"),
    ("find_references", {"name": "x", "limit": 501}, "limit"),
    ("index_repo", {"force": "yes"}, "force"),
    ("search", {}, "query"), ("search", {"query": "  "}, "query"), ("search", {"query": 3}, "query"),
    ("search", {"query": "q", "limit": 0}, "limit"), ("search", {"query": "q", "limit": 101}, "limit"),
    ("search", {"query": "q", "limit": True}, "limit"), ("search", {"query": "q", "limit": 2.5}, "limit"),
    ("search", {"query": "q", "min_score": 1.5}, "min_score"),
    ("search", {"query": "q", "min_score": "high"}, "min_score"),
    ("search", {"query": "q", "preview_mode": "yes"}, "preview_mode"), ("search", {"query": "q", "bogus": 1}, "bogus"),
    ("search_preview", {"query": "x", "include_scores": False}, "include_scores"),
    ("search_preview", {"query": "x", "preview_mode": False}, "preview_mode"),
    ("health_check", [], "arguments"),
])
def test_invalid_arguments_name_the_field(tool: str, args: Any, field: str) -> None:
    assert field_of(tool, args) == field


def test_a_find_references_name_over_the_limit_is_invalid_input_with_a_short_message() -> None:
    # ~50,000 characters made SQLite fail the unresolved count ("LIKE or GLOB pattern too complex"): internal_error.
    parse_arguments("find_references", {"name": "x" * MAX_NAME})
    with pytest.raises(ToolError) as info:
        parse_arguments("find_references", {"name": "x" * 50_000})
    assert info.value.code == "invalid_input" and info.value.data["field"] == "name"
    assert info.value.message == f"find_references: `name` is longer than {MAX_NAME} characters (50,000)"


def test_valid_arguments_become_typed_params() -> None:
    args: dict[str, Any] = {"query": "x", "limit": 5, "detail_level": "context", "compact": True, "role": "callable",
                            "ranking_explain_level": "full", "freshness_policy": "strict", "language": "python"}
    assert parse_arguments("search_code", args) == SearchCodeParams(**args)
    assert parse_arguments("health_check", None) == PARAMS["health_check"]()
    located = parse_arguments("locate_symbol", {"query": "Config"})
    assert isinstance(located, LocateSymbolParams) and located.name is None and located.text == "Config"
    assert parse_arguments("locate_symbol", {"name": "a", "query": "b"}).text == "a"
    assert parse_arguments("find_references", {"name": "f", "symbol_id": 7}).target == 7
    assert parse_arguments("find_references", {"name": "f"}).target == "f"


def test_defaults_come_from_the_schema() -> None:
    code = parse_arguments("search_code", {"query": "x"})
    assert (code.limit, code.compact, code.role, code.detail_level) == (10, False, None, None)
    assert parse_arguments("find_references", {"name": "f"}).limit == 50
    assert parse_arguments("get_file_outline", {"path": "a.py"}).depth == "all"
    assert parse_arguments("index_repo", {}).force is False
    assert parse_arguments("search", {"query": "q"}) == ScoredSearchParams(
        query="q", limit=10, include_scores=False, preview_mode=False, min_score=0.0, include_context=True)


def test_a_json_integer_min_score_is_a_float() -> None:
    assert parse_arguments("search", {"query": "q", "min_score": 1}).min_score == 1.0
    assert isinstance(parse_arguments("search", {"query": "q", "min_score": 0}).min_score, float)


def test_an_integral_float_is_an_integer() -> None:
    # JSON Schema takes 2.0 and 1e308 as integers; the parameters must be ints (a float symbol_id was an
    # AttributeError in find_references, a float limit a TypeError slicing results): internal_error.
    params = parse_arguments("find_references", {"symbol_id": 1e308, "limit": 2.0})
    assert params.target == int(1e308) and isinstance(params.target, int)
    assert params.limit == 2 and isinstance(params.limit, int)
    assert isinstance(parse_arguments("search_code", {"query": "q", "limit": 5.0}).limit, int)


def test_search_preview_is_search_with_the_flags_and_its_own_defaults() -> None:
    p = parse_arguments("search_preview", {"query": "q"}).as_search()
    assert p == ScoredSearchParams(query="q", limit=20, include_scores=True, preview_mode=True, min_score=0.5,
                                   include_context=True)
    assert parse_arguments("search_preview", {"query": "q", "limit": 3, "min_score": 0.2}).as_search() == \
        ScoredSearchParams(query="q", limit=3, include_scores=True, preview_mode=True, min_score=0.2,
                           include_context=True)


@pytest.mark.parametrize(("tool", "args", "field"), [
    ("get_file_outline", {"path": "caf\udce9.py"}, "path"),
    ("search", {"query": "a\udce9"}, "query"),
    ("find_references", {"name": "\udce9"}, "name"),
])
def test_a_lone_surrogate_is_invalid_input(tool: str, args: dict[str, str], field: str) -> None:
    """No path, query or name holds one (SQLite and JSON could not carry it): rejected before any read."""
    with pytest.raises(ToolError) as info:
        parse_arguments(tool, args)
    assert info.value.code == "invalid_input" and info.value.data == {"field": field}


def test_docs_server_tools_table_gives_each_schema_its_arguments_limits_and_defaults() -> None:
    # docs/server.md "Tools" restates the input schemas for readers; the schemas own the facts.
    page = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    table = page.split("\n## Tools\n", 1)[1].strip().split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines()[2:]:
        tools, arguments = line.strip("|").split(" | ", 1)
        for tool in re.findall(r"`(\w+)`", tools):
            rows[tool] = arguments
    schemas = tool_schemas()
    for tool, schema in schemas.items():
        if "scored-search.md" in rows[tool]:
            continue  # their arguments are docs/scored-search.md's
        row = rows[tool] + (rows["search_code"] if "the same" in rows[tool] else "")
        named = set(re.findall(r"`(\w+)`\*?", row)) & set(schema["properties"]) if schema["properties"] else set()
        assert named == set(schema["properties"]), (tool, set(schema["properties"]) ^ named)
        for required in schema.get("required", []):
            assert f"`{required}`*" in rows[tool], (tool, required)
        if "limit" in schema["properties"]:
            limit = schema["properties"]["limit"]
            assert f"`limit` ({limit['minimum']}..{limit['maximum']}, {limit['default']})" in row, tool
        if not schema["properties"]:
            assert rows[tool].strip() == "none", tool
