"""Every named check holds on a passing input and raises CheckFailed, saying why, on a failing one."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from cruxgate.conformance.checks.registry import CHECKS, CheckFailed
from cruxgate.conformance.target.wire import Response


def answer(payload, text=None, structured=True):
    text = json.dumps(payload) if text is None else text
    return Response(payload=payload, structured=payload if structured else None, text=text, is_error=False, raw={})


# name -> (passing kwargs, failing kwargs, words the failure message must contain)
CASES: dict[str, tuple[dict[str, Any], dict[str, Any], str]] = {
    "sorted_descending": ({"path": [0.9, 0.5, 0.5, 0.1]}, {"path": [0.5, 0.9]}, "greater than"),
    "same_sequence": ({"a": ["x", "y"], "b": ["x", "y"]}, {"a": ["x", "y"], "b": ["y", "x"]}, "item 0 differs"),
    "equal": ({"a": "invalid_input", "b": "invalid_input"}, {"a": "invalid_input", "b": "internal_error"}, "!="),
    "not_equal": ({"a": 1, "b": 2}, {"a": 2, "b": 2}, "both are 2"),
    "sum_equals": ({"total": 7.5, "parts": [5, [2, 0.5]]}, {"total": 8, "parts": [5, [2, 0.5]]}, "sum of parts"),
    "ratio_at_most": ({"a": 20, "b": 100, "limit": 0.2}, {"a": 21, "b": 100, "limit": 0.2}, "> 0.2"),
    "byte_ratio_at_most": ({"a": {"r": [1]}, "b": {"r": [1, 2, 3, 4, 5, 6]}, "limit": 0.6},
                           {"a": {"r": [1, 2, 3, 4, 5, 6]}, "b": {"r": [1]}, "limit": 0.6}, "B /"),
    "unique": ({"path": ["a", "b"]}, {"path": ["a", "b", "a"]}, "more than once"),
    "all_match": ({"path": ["src/a.py", "src/b.py"], "pattern": r"\.py$"},
                  {"path": ["src/a.py", "README.md"], "pattern": r"\.py$"}, "does not match"),
    "each_in": ({"path": ["ready"], "allowed": ["ready", "indexing"]}, {"path": ["idle"], "allowed": ["ready"]},
                "is not one of"),
    "count_equals": ({"path": None, "n": 0}, {"path": [1, 2], "n": 1}, "2 value(s) where 1"),
    "payload_bytes_at_most": ({"response": answer({"b": 1, "a": "é"}), "n": 16},  # {"a":"é","b":1} is 16 bytes
                              {"response": answer({"b": 1, "a": "é"}), "n": 15}, "the payload is 16 bytes"),
    "structured_matches_text": ({"response": answer({"a": 1})}, {"response": answer({"a": 1}, text='{"a": 2}')},
                                "differ"),
    "first_equals": ({"path": ["src/auth.py", "x"], "value": "src/auth.py"}, {"path": ["x"], "value": "src/auth.py"},
                     "the first value is"),
    "prefix_of": ({"a": [1, 2], "b": [1, 2, 3]}, {"a": [1, 3], "b": [1, 2, 3]}, "item 1 is 3"),
    "keeps_fields": ({"a": [{"symbol_stable_id": "s1", "body_preview": "x"}, {"name": "n"}],
                      "b": [{"symbol_stable_id": "s1"}, {"name": "n", "path": "p"}],
                      "fields": ["symbol_stable_id", "name"]},
                     {"a": [{"symbol_stable_id": "s1", "name": "n"}], "b": [{"name": "n"}],
                      "fields": ["symbol_stable_id", "name"]}, "dropped 'symbol_stable_id'"),
    "contains": ({"path": ["a", "b"], "value": "b"}, {"path": ["a"], "value": "b"}, "not found"),
    "not_contains": ({"path": {"results": []}, "value": "ranking_reasons"},
                     {"path": {"ranking_reasons": []}, "value": "ranking_reasons"}, "found in"),
    "tool_surface_conforms": ({"response": answer({"tools": []})},
                              {"response": answer({"tools": [{"name": "search_code",
                                                              "inputSchema": {"type": "object"}}]})},
                              "description: missing or empty"),
}


def test_every_registered_check_has_cases():
    assert set(CHECKS) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_passes_on_a_conforming_value(name, monkeypatch):
    if name == "tool_surface_conforms":
        monkeypatch.setattr("cruxgate.conformance.surface.lint.load_expected_inputs", dict)
    CHECKS[name](**CASES[name][0])


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_fails_with_a_reason(name, monkeypatch):
    if name == "tool_surface_conforms":
        monkeypatch.setattr("cruxgate.conformance.surface.lint.load_expected_inputs", dict)
    with pytest.raises(CheckFailed, match=None) as info:
        CHECKS[name](**CASES[name][1])
    assert CASES[name][2] in str(info.value)


def test_surface_lint_of_one_named_tool(monkeypatch):
    expected = {"search_code": {"type": "object", "properties": {"compact": {"type": "boolean"}}},
                "get_file_outline": {"type": "object", "properties": {"path": {"type": "string"}}}}
    monkeypatch.setattr("cruxgate.conformance.surface.lint.load_expected_inputs", lambda: expected)
    good = {"name": "search_code", "description": "d",
            "inputSchema": {"type": "object", "properties": {"compact": {"type": "boolean"}}}}
    # No document forbids an extra optional input: the outline may take `compact` as well.
    outline = {"name": "get_file_outline", "description": "d",
               "inputSchema": {"type": "object",
                               "properties": {"path": {"type": "string"}, "compact": {"type": "boolean"}}}}
    CHECKS["tool_surface_conforms"](response=answer({"tools": [good, outline]}), value="search_code")
    CHECKS["tool_surface_conforms"](response=answer({"tools": [good, outline]}), value="get_file_outline")
    narrowed = {**outline, "inputSchema": {"type": "object", "properties": {"path": {"type": "integer"}}}}
    with pytest.raises(CheckFailed, match=re.escape("get_file_outline.inputSchema.properties.path.type")):
        CHECKS["tool_surface_conforms"](response=answer({"tools": [good, narrowed]}), value="get_file_outline")
    with pytest.raises(CheckFailed, match="search_code: not listed by tools/list"):
        CHECKS["tool_surface_conforms"](response=answer({"tools": [outline]}), value=["search_code"])


@pytest.mark.parametrize(("name", "kwargs"), [
    ("sorted_descending", {"path": None}),
    ("ratio_at_most", {"a": 1, "b": 0, "limit": 1}),
    ("sum_equals", {"total": "x", "parts": [1]}),
    ("first_equals", {"path": [], "value": 1}),
    ("prefix_of", {"a": [], "b": [1]}),
    ("keeps_fields", {"a": [{"x": 1}], "b": [{"x": 1}], "fields": ["symbol_id"]}),
    ("structured_matches_text", {"response": answer({"a": 1}, text="not json")}),
])
def test_unusable_operands_fail_rather_than_pass(name, kwargs):
    with pytest.raises(CheckFailed):
        CHECKS[name](**kwargs)
