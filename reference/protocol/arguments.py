"""Tool input schemas (published in tools/list) and argument validation -> `invalid_input` naming the field."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from reference.config import DETAIL_LEVELS, EXPLAIN_LEVELS, FRESHNESS_POLICIES
from reference.index.kinds import KINDS, ROLES

from .errors import invalid_input

MAX_LIMIT = 100


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
            "kind": _enum(tuple(KINDS), "Only symbols of exactly this kind."),
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
            "name": _text("Symbol name or symbol_stable_id whose references to list."),
            "symbol_id": {"type": "integer", "minimum": 1, "description": "Numeric symbol_id of the target."},
            "limit": _limit(50, 500),
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


@lru_cache(maxsize=None)
def _validator(tool: str) -> Draft202012Validator:
    return Draft202012Validator(tool_schemas()[tool])


def _field_of(error: ValidationError, args: dict[str, Any], schema: dict[str, Any]) -> tuple[str, str]:
    """The argument an error is about and a short message naming it."""
    if error.validator == "additionalProperties":
        unknown = sorted(set(args) - set(schema["properties"]))[0]
        return unknown, f"unknown argument `{unknown}`"
    if error.validator == "required":
        missing = next(name for name in error.validator_value if name not in args)
        return missing, f"missing required argument `{missing}`"
    if error.validator == "anyOf" and not error.path:
        first = error.validator_value[0]["required"][0]
        return first, f"missing required argument `{first}`"
    field = str(error.path[0]) if error.path else "arguments"
    if error.validator == "enum":
        allowed = ", ".join(map(str, error.validator_value))
        return field, f"`{field}` must be one of: {allowed}"
    if error.validator in ("pattern", "minLength"):
        return field, f"`{field}` must be a non-empty string"
    return field, f"`{field}`: {error.message}"


def validate_arguments(tool: str, arguments: Any) -> dict[str, Any]:
    """Check `arguments` against the tool's schema; the first problem raises `invalid_input`."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise invalid_input("arguments", "arguments must be an object")
    schema = tool_schemas()[tool]
    if tool == "search_code" and "kind" in arguments:
        raise invalid_input("kind", "search_code does not take `kind`; filter by `role` "
                                    "(or use locate_symbol for an exact kind)")
    # Deterministic: the error about the earliest-sorted argument wins, whatever the dict order.
    errors = sorted(_validator(tool).iter_errors(arguments),
                    key=lambda e: (e.validator not in ("additionalProperties", "required", "anyOf"),
                                   [str(p) for p in e.path]))
    if errors:
        field, message = _field_of(errors[0], arguments, schema)
        raise invalid_input(field, f"{tool}: {message}")
    return arguments
