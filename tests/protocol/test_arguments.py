"""Tool input schemas and argument validation: every problem is invalid_input naming the argument."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from reference.protocol.arguments import tool_schemas, validate_arguments
from reference.protocol.errors import ToolError

TOOLS = {"search_code", "locate_symbol", "get_file_outline", "find_references", "health_check", "index_status",
         "index_repo", "sync_repo", "search", "search_preview"}


def field_of(tool: str, args: Any) -> str:
    with pytest.raises(ToolError) as info:
        validate_arguments(tool, args)
    assert info.value.code == "invalid_input" and info.value.message
    return info.value.data["field"]


def test_every_schema_is_valid_and_closed() -> None:
    schemas = tool_schemas()
    assert set(schemas) == TOOLS
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False


def test_kind_only_on_locate_symbol() -> None:
    assert "kind" not in tool_schemas()["search_code"]["properties"]
    assert "struct" in tool_schemas()["locate_symbol"]["properties"]["kind"]["enum"]
    assert field_of("search_code", {"query": "x", "kind": "struct"}) == "kind"
    assert validate_arguments("locate_symbol", {"name": "x", "kind": "struct", "role": "type"})


@pytest.mark.parametrize(("tool", "args", "field"), [
    ("search_code", {}, "query"),
    ("search_code", {"query": "   "}, "query"),
    ("search_code", {"query": "x", "limit": True}, "limit"),
    ("search_code", {"query": "x", "limit": 101}, "limit"),
    ("search_code", {"query": "x", "zzz": 1, "aaa": 2}, "aaa"),
    ("locate_symbol", {"limit": 3}, "name"),
    ("get_file_outline", {"path": "a.py", "depth": "everything"}, "depth"),
    ("find_references", {"symbol_id": "seven"}, "symbol_id"),
    ("index_repo", {"force": "yes"}, "force"),
    ("search_preview", {"query": "x", "include_scores": False}, "include_scores"),
    ("health_check", [], "arguments"),
])
def test_invalid_arguments_name_the_field(tool: str, args: Any, field: str) -> None:
    assert field_of(tool, args) == field


def test_valid_arguments_pass_through() -> None:
    args = {"query": "x", "limit": 5, "detail_level": "context", "compact": True, "role": "callable",
            "ranking_explain_level": "full", "freshness_policy": "strict", "language": "python"}
    assert validate_arguments("search_code", args) == args
    assert validate_arguments("health_check", None) == {}
    assert validate_arguments("locate_symbol", {"query": "Config"}) == {"query": "Config"}
