"""The CI recipe of docs/gate.md, run as written against the bundled reference (a few scenarios, for speed)."""

from __future__ import annotations

import json
from xml.etree import ElementTree


def test_recipe_gate_and_surface_commands_against_the_reference(gate_runs):
    recipe = gate_runs["recipe"]
    reports = recipe.directory / "reports"
    gate, snapshot, diff = recipe.steps
    assert gate.returncode == 0, gate.stdout + gate.stderr
    results = json.loads((reports / "conformance.json").read_text(encoding="utf-8"))
    assert {r["id"]: r["outcome"] for r in results["scenarios"]} == {"RC-ENUMS-01": "passed", "AP-COMPACT-01": "passed"}
    assert results["target_profile"] == "cruxgate-reference" and results["server_info"]["name"]
    cases = [case.get("name", "") for case in ElementTree.parse(reports / "conformance.xml").iter("testcase")]
    assert sorted(cases) == ["AP-COMPACT-01", "RC-ENUMS-01"]
    assert "**Verdict: PASS**" in (reports / "conformance.md").read_text(encoding="utf-8")
    assert snapshot.returncode == 0, snapshot.stderr
    assert json.loads((reports / "surface.json").read_text(encoding="utf-8"))["tools"]
    assert diff.returncode == 0 and "no changes to the tool surface" in diff.stdout
