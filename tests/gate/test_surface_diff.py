"""Surface diff: each kind of change is classified (table-driven), the command's table, --json and exit code."""

from __future__ import annotations

import copy
import json

import pytest

from cruxgate.conformance import cli
from cruxgate.conformance.surface import lint

BASE = {"tools": [
    {"name": "search_code", "description": "Search code.", "inputSchema": {
        "type": "object", "required": ["query"],
        "properties": {
            "query": {"type": "string", "description": "What to find."},
            "detail_level": {"type": "string", "enum": ["location", "signature", "context"], "default": "signature"},
            "language": {"type": "string"},
            "limit": {"type": ["integer", "null"], "minimum": 1, "maximum": 50},
            "filters": {"type": "object", "properties": {"path": {"type": "string"}}},
        }}},
    {"name": "health_check", "description": "Report health.", "inputSchema": {"type": "object"}},
]}


def props(snap):
    return snap["tools"][0]["inputSchema"]["properties"]


def schema(snap):
    return snap["tools"][0]["inputSchema"]


CASES = [
    # (description, mutation, expected kind, expected text fragment)
    ("tool removed", lambda s: s["tools"].pop(), "breaking", "tool removed"),
    ("tool added",
     lambda s: s["tools"].append({"name": "find_references", "description": "x", "inputSchema": {"type": "object"}}),
     "additive", "tool added"),
    ("tool description changed", lambda s: s["tools"][0].update(description="Search."), "risky",
     "tool description changed"),
    ("required field added", lambda s: (props(s).update(ref={"type": "string"}), schema(s)["required"].append("ref")),
     "breaking", "required property ref added"),
    ("optional field became required", lambda s: schema(s)["required"].append("language"), "breaking",
     "language became required"),
    ("required removed from properties", lambda s: props(s).pop("query"), "breaking",
     "property query removed (it was required)"),
    ("property removed", lambda s: props(s).pop("language"), "breaking", "property language removed"),
    ("enum value removed", lambda s: props(s)["detail_level"].update(enum=["location", "signature"]), "breaking",
     "enum value 'context' removed"),
    ("type narrowed", lambda s: props(s)["limit"].update(type="integer"), "breaking", "type narrowed"),
    ("type changed", lambda s: props(s)["language"].update(type="integer"), "breaking", "type changed"),
    ("additionalProperties tightened", lambda s: schema(s).update(additionalProperties=False), "breaking",
     "additionalProperties tightened"),
    ("nested property removed", lambda s: props(s)["filters"]["properties"].pop("path"), "breaking",
     "property path removed"),
    ("maximum tightened", lambda s: props(s)["limit"].update(maximum=20), "breaking",
     "maximum tightened from 50 to 20"),
    ("default changed", lambda s: props(s)["detail_level"].update(default="location"), "risky",
     "default 'signature' -> 'location'"),
    ("enum imposed on a free string", lambda s: props(s)["language"].update(enum=["rust", "python"]), "risky",
     "imposed on a previously free value"),
    ("property description changed", lambda s: props(s)["query"].update(description="Query."), "risky",
     "property description changed"),
    ("unknown keyword changed", lambda s: props(s)["query"].update(pattern="^x"), "risky", "keyword pattern changed"),
    ("optional property added", lambda s: props(s).update(compact={"type": "boolean"}), "additive",
     "optional property compact added"),
    ("enum value added", lambda s: props(s)["detail_level"]["enum"].append("full"), "additive",
     "enum value 'full' added"),
    ("type widened", lambda s: props(s)["language"].update(type=["string", "null"]), "additive", "type widened"),
    ("required became optional", lambda s: schema(s)["required"].clear(), "additive", "query became optional"),
    ("maximum loosened", lambda s: props(s)["limit"].update(maximum=100), "additive",
     "maximum loosened from 50 to 100"),
    ("additionalProperties loosened", None, "additive", "additionalProperties loosened"),
]


@pytest.mark.parametrize(("mutate", "kind", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_change_is_classified(mutate, kind, fragment):
    old, new = copy.deepcopy(BASE), copy.deepcopy(BASE)
    if mutate is None:  # loosening: the old side is the tight one
        schema(old)["additionalProperties"] = False
    else:
        mutate(new)
    changes = lint.diff_surfaces(old, new)
    assert [(c.kind, fragment in c.what) for c in changes] == [(kind, True)], changes


def test_identical_surfaces_have_no_changes():
    assert lint.diff_surfaces(BASE, copy.deepcopy(BASE)) == []


def test_changes_are_ordered_breaking_first():
    new = copy.deepcopy(BASE)
    props(new)["detail_level"]["enum"].append("full")
    new["tools"][0]["description"] = "changed"
    props(new).pop("language")
    assert [c.kind for c in lint.diff_surfaces(BASE, new)] == ["breaking", "risky", "additive"]


@pytest.fixture
def snapshots(tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(lint.dumps(lint.normalize(BASE)))
    return old, new


def test_command_exits_1_on_breaking_and_prints_a_table(snapshots, capsys):
    old, new = snapshots
    changed = copy.deepcopy(BASE)
    changed["tools"].pop()
    props(changed)["detail_level"]["enum"].append("full")
    new.write_text(json.dumps(changed))
    assert cli.main(["surface", "diff", str(old), str(new)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["KIND", "TOOL", "WHERE", "CHANGE"]
    assert out[1].split()[:4] == ["breaking", "health_check", "-", "tool"]
    assert out[2].split()[:3] == ["additive", "search_code", "inputSchema.properties.detail_level.enum"]
    assert out[-1] == "1 breaking, 0 risky, 1 additive"


def test_command_exits_0_without_breaking_and_emits_json(snapshots, capsys):
    old, new = snapshots
    changed = copy.deepcopy(BASE)
    changed["tools"][1]["description"] = "Report index health."
    new.write_text(json.dumps(changed))
    assert cli.main(["surface", "diff", "--json", str(old), str(new)]) == 0
    assert json.loads(capsys.readouterr().out) == [
        {"kind": "risky", "tool": "health_check", "path": "description", "change": "tool description changed"}
    ]
