"""The input schema of every tool, as published in tools/list: the one place tool limits and defaults are written.

Enums come from the tables that own them (roles and kinds from `reference/index/kinds.py`, levels and
policies from `reference/config.py`). These schemas are the reference's own, not the spec's
`schemas/*.input.schema.json`: they are closed, bound every `limit`, and cover tools the spec has no
schema for; the gate lints them against the spec's (`cruxgate surface lint`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cruxgate.reference.config import DETAIL_LEVELS, EXPLAIN_LEVELS, FRESHNESS_POLICIES
from cruxgate.reference.index.kinds import KINDS, ROLES

# Pages of ranked results; find_references lists plain rows, so it may ask for more.
MAX_LIMIT = 100
MAX_REFERENCES = 500
# Characters of a find_references name: no symbol name, qualified name or stable id is this long, and the
# unresolved count's LIKE patterns (the name escaped, up to 8 bytes a character) stay far below SQLite's
# 50,000-byte pattern limit, over which SQLite fails the query ("LIKE or GLOB pattern too complex").
MAX_NAME = 1000


def _obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """A closed object schema."""
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    schema.update(extra)
    return schema


def _text(description: str) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "pattern": r"\S", "description": description}


def _limit(default: int, maximum: int = MAX_LIMIT) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": maximum, "default": default,
            "description": f"Maximum number of results (1..{maximum})."}


def _enum(values: tuple[str, ...], description: str, default: str | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "enum": list(values), "description": description}
    if default is not None:
        schema["default"] = default
    return schema


def _query_options() -> dict[str, Any]:
    """Arguments shared by search_code and locate_symbol."""
    return {
        "limit": _limit(10),
        "language": _text("Only results in this language (e.g. python, rust, typescript)."),
        "role": _enum(ROLES, f"Only symbols of this role ({', '.join(ROLES)})."),
        "detail_level": _enum(DETAIL_LEVELS, "Fields per result: location, signature (default) or context."),
        "compact": {"type": "boolean", "default": False,
                    "description": "Drop large optional fields; keep identity, location, score and handles."},
        "ranking_explain_level": _enum(EXPLAIN_LEVELS, "Ranking reasons in metadata: off, basic or full."),
        "freshness_policy": _enum(FRESHNESS_POLICIES, "Stale-index behaviour for this call."),
    }


@lru_cache(maxsize=1)
def tool_schemas() -> dict[str, dict[str, Any]]:
    """Input schema of every tool, by tool name."""
    freshness = {"freshness_policy": _enum(FRESHNESS_POLICIES, "Stale-index behaviour for this call.")}
    return {
        "search_code": _obj({"query": _text("Text or identifier to search for."), **_query_options()}, ["query"]),
        "locate_symbol": _obj({
            "name": _text("Symbol name (or qualified name) to locate."),
            "query": _text("Alias of `name`."),
            "kind": _enum(KINDS, "Only symbols of exactly this kind."),
            **_query_options(),
        }, anyOf=[{"required": ["name"]}, {"required": ["query"]}]),
        "get_file_outline": _obj({
            "path": _text("File path relative to the workspace root."),
            "ref": _text("Indexed ref (the live working tree is `live`)."),
            "depth": _enum(("top", "all"), "top: top-level symbols only; all: the nested tree.", "all"),
            "language": _text("Language override for the file."),
            **freshness,
        }, ["path"]),
        "find_references": _obj({
            "name": {**_text("Symbol name or symbol_stable_id whose references to list."), "maxLength": MAX_NAME},
            "symbol_id": {"type": "integer", "minimum": 1, "description": "Numeric symbol_id of the target."},
            "limit": _limit(50, MAX_REFERENCES),
            **freshness,
        }, anyOf=[{"required": ["name"]}, {"required": ["symbol_id"]}]),
        "health_check": _obj({}),
        "index_status": _obj({}),
        "index_repo": _obj({"force": {"type": "boolean", "default": False,
                                      "description": "Rebuild from scratch even when the index is current."}}),
        "sync_repo": _obj({}),
        "search": _obj({
            "query": _text("Text or identifier to search for."),
            "limit": _limit(10),
            "include_scores": {"type": "boolean", "default": False,
                               "description": "Add a 0..1 relevance score and a match_reason per result."},
            "preview_mode": {"type": "boolean", "default": False,
                             "description": "Return a 2-3 line excerpt as preview/content."},
            "min_score": {"type": "number", "minimum": 0.0, "maximum": 1.0, "default": 0.0,
                          "description": "Drop results scoring below this."},
            "include_context": {"type": "boolean", "default": True,
                                "description": "Add the enclosing function/class as context."},
        }, ["query"]),
        "search_preview": _obj({
            "query": _text("Text or identifier to search for."),
            "limit": _limit(20),
            "min_score": {"type": "number", "minimum": 0.0, "maximum": 1.0, "default": 0.5,
                          "description": "Drop results scoring below this."},
        }, ["query"]),
    }
