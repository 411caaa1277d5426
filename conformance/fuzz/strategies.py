"""Argument strategies from a tool's input schemas: valid sets (hypothesis-jsonschema) and sets that break one rule.

Half the examples are drawn from the schemas as published: the tool's advertised schema and the spec's,
both together and each alone (where they disagree lies a bug of one side). The other half take such an
example and change one thing: an odd string, a wrong type, a required argument dropped, an edge number,
an unknown enum value or an unknown property. Whether the result is still valid is judged afterwards
(conformance/fuzz/validity.py), never assumed from how it was made.
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from cruxgate.conformance.fuzz.odd_values import EDGE_NUMBERS, ODD_NAMES, ODD_STRINGS, WRONG_TYPED
from cruxgate.conformance.fuzz.validity import usable

MUTATIONS = ("odd_string", "wrong_type", "drop_required", "edge_number", "unknown_enum", "unknown_property")
_JSON_TYPES = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string", list: "array",
               dict: "object"}


@dataclass
class Shape:
    """What the mutations need to know about a tool's arguments, read from both schemas."""

    names: list[str] = field(default_factory=list)  # required first, then the rest by name
    wrong: dict[str, list[Any]] = field(default_factory=dict)  # name -> WRONG_TYPED values its schemas reject
    bad_enum: dict[str, list[Any]] = field(default_factory=dict)  # name -> values just outside its enum
    numeric: list[str] = field(default_factory=list)
    required: list[list[str]] = field(default_factory=list)  # groups: dropping all of one breaks the schema


def shape_of(*schemas: dict[str, Any] | None) -> Shape:
    """The union of the schemas' properties, types, enums and required groups."""
    properties: dict[str, list[dict[str, Any]]] = {}
    required: list[list[str]] = []
    for schema in schemas:
        if not isinstance(schema, dict):
            continue
        for name, sub in (schema.get("properties") or {}).items():
            properties.setdefault(name, []).append(sub if isinstance(sub, dict) else {})
        for name in schema.get("required") or []:
            if [name] not in required:
                required.append([name])
        # anyOf [{required: [a]}, {required: [b]}]: only dropping a and b together breaks it.
        branches = schema.get("anyOf") or schema.get("oneOf") or []
        group = sorted({name for branch in branches if isinstance(branch, dict)
                        for name in branch.get("required") or []})
        if group and group not in required:
            required.append(group)
    first = [name for group in required for name in group]
    names = list(dict.fromkeys(first + sorted(properties)))
    shape = Shape(names=names, required=required)
    for name in names:
        subs = properties.get(name, [])
        types = _allowed_types(subs)
        shape.wrong[name] = [value for value in WRONG_TYPED if types is not None and _json_type(value) not in types]
        if types is None:
            shape.wrong[name] = list(WRONG_TYPED)  # no type to go by: the judge sorts out which are wrong
        enum = [value for sub in subs for value in (sub.get("enum") or ([sub["const"]] if "const" in sub else []))]
        if enum:
            shape.bad_enum[name] = _outside_enum(enum)
        if types is not None and types & {"integer", "number"}:
            shape.numeric.append(name)
    return shape


def _json_type(value: Any) -> str:
    return _JSON_TYPES[type(value)]


def _allowed_types(subs: list[dict[str, Any]]) -> set[str] | None:
    """The JSON types every schema of a property allows (None: some schema does not say)."""
    allowed: set[str] | None = None
    for sub in subs:
        declared = sub.get("type")
        if declared is None and "enum" in sub:
            declared = sorted({_json_type(v) for v in sub["enum"]})
        if declared is None:
            continue
        types = {declared} if isinstance(declared, str) else set(declared)
        if "number" in types:
            types.add("integer")  # JSON Schema: an integer is a number
        allowed = types if allowed is None else allowed & types
    return allowed


def _outside_enum(enum: list[Any]) -> list[Any]:
    candidates: list[Any] = ["", "__cruxgate_unknown__"]
    for value in enum:
        if isinstance(value, str):
            candidates += [value.upper(), value + " ", " " + value, value.capitalize(), value + "\x00"]
    return list(dict.fromkeys(c for c in candidates if c not in enum))


def generation_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy hypothesis-jsonschema can draw from: no ids, and no unknown properties (a mutation of their own)."""
    copy = {key: value for key, value in schema.items() if key not in ("$id", "$schema")}
    if copy.get("type", "object") == "object" and "additionalProperties" not in copy:
        copy["additionalProperties"] = False
    return copy


def _from_schema(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]] | None:
    from hypothesis_jsonschema import from_schema

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            strategy = from_schema(schema)
    except Exception as exc:  # noqa: BLE001 - an unsupported or unsatisfiable schema: the other sources generate
        logging.getLogger(__name__).debug("cannot generate from %s: %s", schema, exc)
        return None
    # from_schema may yield a non-object for a schema without `type`; tools take objects.
    return strategy.filter(lambda value: isinstance(value, dict)).map(_as_arguments)


def _as_arguments(value: Any) -> dict[str, Any]:
    """A drawn object, typed as the argument set it is (the filter before this let only objects through)."""
    return dict(value)


def valid_arguments(advertised: dict[str, Any] | None,
                    spec: dict[str, Any] | None) -> st.SearchStrategy[dict[str, Any]]:
    """Argument sets drawn from both schemas together, then from each alone."""
    schemas = [generation_schema(schema) for schema in (advertised, spec) if usable(schema)]
    sources = ([{"allOf": schemas}] if len(schemas) == 2 else []) + schemas
    strategies = [s for s in (_from_schema(schema) for schema in sources) if s is not None]
    return st.one_of(*strategies) if strategies else st.just({})


@st.composite
def _mutated(draw: st.DrawFn, valid: st.SearchStrategy[dict[str, Any]], shape: Shape,
             kinds: tuple[str, ...]) -> dict[str, Any]:
    arguments = dict(draw(valid))
    kind = draw(st.sampled_from(kinds))
    if kind == "odd_string":
        arguments[draw(st.sampled_from(shape.names))] = draw(st.sampled_from(ODD_STRINGS))
    elif kind == "wrong_type":
        name = draw(st.sampled_from([n for n in shape.names if shape.wrong[n]]))
        arguments[name] = draw(st.sampled_from(shape.wrong[name]))
    elif kind == "drop_required":
        for name in draw(st.sampled_from(shape.required)):
            arguments.pop(name, None)
    elif kind == "edge_number":
        arguments[draw(st.sampled_from(shape.numeric))] = draw(st.sampled_from(EDGE_NUMBERS))
    elif kind == "unknown_enum":
        name = draw(st.sampled_from(sorted(shape.bad_enum)))
        arguments[name] = draw(st.sampled_from(shape.bad_enum[name]))
    else:
        # Listed odd names and values first (they shrink best), then any name and any JSON value.
        name = draw(st.one_of(st.sampled_from(ODD_NAMES), st.text(max_size=20)))
        arguments[name] = draw(st.one_of(st.sampled_from((1, "x", None, {})), _json_values))
    return arguments


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=8)


def applicable_mutations(shape: Shape) -> tuple[str, ...]:
    """The mutations a tool's arguments allow, in MUTATIONS order (hypothesis shrinks towards the first)."""
    possible = {"odd_string": bool(shape.names), "wrong_type": any(shape.wrong.values()),
                "drop_required": bool(shape.required), "edge_number": bool(shape.numeric),
                "unknown_enum": bool(shape.bad_enum), "unknown_property": True}
    return tuple(kind for kind in MUTATIONS if possible[kind])


def arguments_for(advertised: dict[str, Any] | None, spec: dict[str, Any] | None) -> st.SearchStrategy[dict[str, Any]]:
    """Every argument set the fuzz phase sends to one tool: valid ones and ones that break one rule."""
    valid = valid_arguments(advertised, spec)
    shape = shape_of(*(s for s in (advertised, spec) if usable(s)))
    return st.one_of(valid, _mutated(valid, shape, applicable_mutations(shape)))
