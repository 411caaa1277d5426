"""Tool arguments -> typed parameters, once: validated against the tool's input schema, defaults read from it.

Any problem is `invalid_input` naming the argument; past this point nothing checks arguments again.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from cruxgate.reference.index.reading import utf8_text

from .errors import invalid_input
from .input_schemas import tool_schemas
from .params import PARAMS


@cache
def _validator(tool: str) -> Draft202012Validator:
    return Draft202012Validator(tool_schemas()[tool])


@cache
def _fields(tool: str) -> tuple[tuple[str, Any, str | None], ...]:
    """(property, its schema default or None, its JSON type) for each property of the tool."""
    return tuple((name, prop.get("default"), prop.get("type"))
                 for name, prop in tool_schemas()[tool]["properties"].items())


def _field_of(error: ValidationError, args: dict[str, Any], schema: dict[str, Any]) -> tuple[str, str]:
    """The argument an error is about and a short message naming it."""
    value = error.validator_value  # the failing keyword's value: a list for required, anyOf and enum
    if error.validator == "additionalProperties":
        unknown = min(set(args) - set(schema["properties"]))
        return unknown, f"unknown argument `{unknown}`"
    if error.validator == "required" and isinstance(value, list):
        missing = next(name for name in value if name not in args)
        return missing, f"missing required argument `{missing}`"
    if error.validator == "anyOf" and not error.path and isinstance(value, list):
        first = value[0]["required"][0]
        return first, f"missing required argument `{first}`"
    field = str(error.path[0]) if error.path else "arguments"
    if error.validator == "enum" and isinstance(value, list):
        allowed = ", ".join(map(str, value))
        return field, f"`{field}` must be one of: {allowed}"
    if error.validator in ("pattern", "minLength"):
        return field, f"`{field}` must be a non-empty string"
    if error.validator == "maxLength":  # jsonschema's message quotes the whole value
        length = len(error.instance) if isinstance(error.instance, str) else 0
        return field, f"`{field}` is longer than {error.validator_value} characters ({length:,})"
    return field, f"`{field}`: {error.message}"


def _validated(tool: str, arguments: Any) -> dict[str, Any]:
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
    for name in sorted(arguments):
        if isinstance(arguments[name], str) and not utf8_text(arguments[name]):
            # A lone surrogate (JSON's "\udce9") is no text: no index path, symbol or query holds one.
            raise invalid_input(name, f"{tool}: `{name}` is not valid Unicode text (a lone surrogate)")
    return arguments


def parse_arguments(tool: str, arguments: Any) -> Any:
    """The tool's typed parameters (`params.PARAMS[tool]`) for valid `arguments`; `invalid_input` otherwise."""
    args = _validated(tool, arguments)
    values = {}
    for name, default, kind in _fields(tool):
        value = args.get(name, default)
        # JSON has one number type: an integral min_score arrives as an int, and an integer may arrive as
        # an integral float (1e308 or 2.0 is an integer to JSON Schema); each is typed as its schema says.
        if kind == "number" and value is not None:
            value = float(value)
        elif kind == "integer" and isinstance(value, float):
            value = int(value)
        values[name] = value
    return PARAMS[tool](**values)
