"""Tool-surface lint: a broken input schema, a forbidden compact, a missing enum value, and friends.

A target must accept every value the documents allow for a property they name; accepting more (another
type as well, more enum values, no enum) is its own business, and properties named only by our reading
are not linted at all."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from cruxgate.conformance.surface import lint

SPEC: dict[str, dict[str, Any]] = {
    "search_code": {
        "type": "object",
        "required": ["query"],
        "additionalProperties": False,
        "properties": {
            "query": {"type": "string"},
            "detail_level": {"enum": ["location", "signature", "context"], "default": "signature",
                             "x-default-basis": "001 > FR-101"},
            "compact": {"type": "boolean", "default": False},
            "ranking_explain_level": {"enum": ["off", "basic", "full"]},
            "limit": {"type": "integer", "default": 10, "x-basis": "reading: no document names it"},
        },
    },
    "get_file_outline": {
        "type": "object",
        "required": ["path"],
        "properties": {"path": {"type": "string"}, "depth": {"enum": ["top", "all"]}},
    },
}


def conforming_answer() -> dict:
    return {"tools": [
        {"name": "search_code", "description": "Search code.", "inputSchema": copy.deepcopy(SPEC["search_code"])},
        {"name": "get_file_outline", "description": "Outline a file.",
         "inputSchema": copy.deepcopy(SPEC["get_file_outline"])},
    ]}


def tool(answer: dict, name: str) -> dict:
    return next(t for t in answer["tools"] if t["name"] == name)


def problems(answer: dict) -> list[str]:
    return [str(f) for f in lint.lint_surface(answer, SPEC)]


def test_conforming_surface_has_no_findings():
    assert problems(conforming_answer()) == []
    lint.tool_surface_conforms(conforming_answer(), SPEC)


def test_invalid_json_schema_is_reported_with_its_place():
    answer = conforming_answer()
    tool(answer, "search_code")["inputSchema"]["properties"]["query"]["type"] = "text"
    [finding] = problems(answer)
    assert finding.startswith("search_code.inputSchema: not valid JSON Schema 2020-12 at properties.query.type")


def test_an_input_the_spec_gives_another_tool_is_an_allowed_extra():
    # No document forbids an extra optional input (R21): an optional ref or compact on any tool passes.
    answer = conforming_answer()
    tool(answer, "get_file_outline")["inputSchema"]["properties"]["compact"] = {"type": "boolean"}
    assert problems(answer) == []


def test_an_unrelated_extra_property_is_allowed_when_the_spec_is_open():
    answer = conforming_answer()
    tool(answer, "get_file_outline")["inputSchema"]["properties"]["x_vendor_hint"] = {"type": "string"}
    assert problems(answer) == []


def test_extra_property_is_reported_when_the_spec_is_closed():
    answer = conforming_answer()
    tool(answer, "search_code")["inputSchema"]["properties"]["lang"] = {"type": "string"}
    assert problems(answer) == [
        "search_code.inputSchema.properties.lang: not in the spec (its schema allows no other properties)"
    ]


def test_missing_enum_value_is_reported():
    answer = conforming_answer()
    tool(answer, "search_code")["inputSchema"]["properties"]["ranking_explain_level"]["enum"] = ["off", "basic"]
    assert problems(answer) == [
        "search_code.inputSchema.properties.ranking_explain_level.enum: missing enum value(s) ['full']"
    ]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda a: a["tools"].pop(), ["get_file_outline: not listed by tools/list; the spec names it"]),
        (lambda a: tool(a, "search_code").pop("description"), ["search_code.description: missing or empty"]),
        (lambda a: tool(a, "search_code").pop("inputSchema"), ["search_code.inputSchema: missing or not an object"]),
        (lambda a: tool(a, "search_code")["inputSchema"]["properties"].pop("compact"),
         ["search_code.inputSchema.properties.compact: missing; the spec names it"]),
        (lambda a: tool(a, "search_code")["inputSchema"]["properties"]["detail_level"].update(default="context"),
         ["search_code.inputSchema.properties.detail_level.default: "
          "default 'context' where 001 > FR-101 says 'signature'"]),
        (lambda a: tool(a, "search_code")["inputSchema"]["properties"]["compact"].update(type="string"),
         ["search_code.inputSchema.properties.compact.type: type ['string'] where the spec says ['boolean']"]),
        (lambda a: tool(a, "search_code")["inputSchema"]["required"].append("compact"),
         ["search_code.inputSchema.required: compact is required; the spec makes it optional"]),
        (lambda a: tool(a, "search_code")["inputSchema"].update(type="array"),
         ["search_code.inputSchema.type: 'array'; a tool input must be an object"]),
    ],
)
def test_each_kind_of_departure_is_reported(mutate, expected):
    answer = conforming_answer()
    mutate(answer)
    assert problems(answer) == expected


@pytest.mark.parametrize("mutate", [
    lambda a: tool(a, "search_code")["inputSchema"]["properties"]["detail_level"].update(
        enum=["location", "signature", "context", "full"]),                       # more enum values
    lambda a: tool(a, "search_code")["inputSchema"]["properties"]["ranking_explain_level"].pop("enum"),  # a free string
    lambda a: tool(a, "search_code")["inputSchema"]["properties"]["compact"].update(type=["boolean", "string"]),
    lambda a: tool(a, "search_code")["inputSchema"]["properties"].pop("limit"),  # a name of our reading
    lambda a: tool(a, "search_code")["inputSchema"]["properties"]["limit"].update(default=20),
    # no document default:
    lambda a: tool(a, "search_code")["inputSchema"]["properties"]["compact"].update(default=True),
    lambda a: tool(a, "search_code")["inputSchema"]["required"].clear(),       # query optional: accepts more
])
def test_what_the_documents_allow_is_no_finding(mutate):
    answer = conforming_answer()
    mutate(answer)
    assert problems(answer) == []


def test_named_check_lists_every_finding():
    answer = conforming_answer()
    tool(answer, "search_code")["description"] = " "
    tool(answer, "get_file_outline")["inputSchema"]["properties"]["depth"]["enum"] = ["top"]
    with pytest.raises(AssertionError, match=r"2 finding\(s\)") as info:
        lint.tool_surface_conforms(answer, SPEC)
    assert "search_code.description: missing or empty" in str(info.value)


def test_expected_inputs_are_found_by_file_name_or_x_tool(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "search_code.input.schema.json").write_text(json.dumps({"type": "object"}))
    (tmp_path / "locate_symbol-input.schema.json").write_text(json.dumps({"type": "object"}))
    (tmp_path / "outline_inputs.schema.json").write_text(json.dumps({"x-tool": "get_file_outline"}))
    (tmp_path / "error.schema.json").write_text(json.dumps({"type": "object"}))
    assert sorted(lint.load_expected_inputs(tmp_path)) == ["get_file_outline", "locate_symbol", "search_code"]


def test_normalize_sorts_tools_and_keys():
    answer = {"tools": [{"name": "b", "inputSchema": {"type": "object", "properties": {}}, "description": "B"},
                        {"name": "a", "description": "A", "inputSchema": {"type": "object"}}]}
    snap = lint.normalize(answer)
    assert [t["name"] for t in snap["tools"]] == ["a", "b"]
    assert list(snap["tools"][1]) == ["description", "inputSchema", "name"]
    assert lint.normalize(snap) == snap


def test_lint_command_prints_findings_and_exits_1(tmp_path, monkeypatch, capsys):
    from cruxgate.conformance import cli

    schemas = tmp_path / "schemas"
    schemas.mkdir()
    (schemas / "get_file_outline.input.schema.json").write_text(json.dumps(SPEC["get_file_outline"]))
    (schemas / "search_code.input.schema.json").write_text(json.dumps(SPEC["search_code"]))
    monkeypatch.setattr("cruxgate.conformance.spec.paths.schemas_dir", lambda: schemas)
    answer = conforming_answer()
    snap = tmp_path / "surface.json"
    snap.write_text(json.dumps(answer))
    assert cli.main(["surface", "lint", str(snap)]) == 0
    tool(answer, "get_file_outline")["inputSchema"]["properties"]["depth"]["enum"] = ["top"]
    snap.write_text(json.dumps(answer))
    assert cli.main(["surface", "lint", str(snap)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "get_file_outline.inputSchema.properties.depth.enum: missing enum value(s) ['all']"
    )


def test_the_lint_command_requires_optional_tools_only_when_claimed(tmp_path, capsys):
    from cruxgate.conformance import cli
    from cruxgate.conformance.spec.loader import load_documents, tool_rules

    optional = sorted(name for name, rule in tool_rules(load_documents(None)).items() if rule.group)
    assert optional  # the scored-search group
    surface = json.loads((Path(__file__).resolve().parents[2] / "golden" / "surface" / "reference.json").read_text())
    surface["tools"] = [t for t in surface["tools"] if t["name"] not in optional]
    snap = tmp_path / "surface.json"
    snap.write_text(json.dumps(surface))
    assert cli.main(["surface", "lint", str(snap)]) == 0, capsys.readouterr().out
    assert cli.main(["surface", "lint", str(snap), "--claim", optional[0]]) == 1
    assert capsys.readouterr().out.splitlines() == [f"{optional[0]}: not listed by tools/list; the spec names it"]
