"""The CI recipe of docs/gate.md, run as written against the bundled reference (a few scenarios, for speed)."""

from __future__ import annotations

import json
import subprocess
import sys
from xml.etree import ElementTree

from conformance.target import default_profile_path
from gate_harness import LEAN

# Scenarios the reference answers from a shared, unchanged workspace: one server start.
SUBSET = "RC-ENUMS-01 or AP-COMPACT-01"


def test_recipe_gate_and_surface_commands_against_the_reference(tmp_path):
    reports = tmp_path / "reports"
    baseline = tmp_path / "conformance-baseline.yaml"
    baseline.write_text("[]\n", encoding="utf-8")
    gate = subprocess.run(
        [sys.executable, "-m", "pytest", "--pyargs", "conformance", *LEAN, "-p", "no:cacheprovider",
         "--target-profile", str(default_profile_path()), "--baseline", str(baseline),
         "--junitxml", str(reports / "conformance.xml"), "--conformance-json", str(reports / "conformance.json"),
         "--conformance-report", str(reports / "conformance.md"), "-k", SUBSET],
        cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert gate.returncode == 0, gate.stdout + gate.stderr
    results = json.loads((reports / "conformance.json").read_text(encoding="utf-8"))
    assert {r["id"]: r["outcome"] for r in results["scenarios"]} == {"RC-ENUMS-01": "passed", "AP-COMPACT-01": "passed"}
    assert results["target_profile"] == "cruxgate-reference" and results["server_info"]["name"]
    cases = [case.get("name") for case in ElementTree.parse(reports / "conformance.xml").iter("testcase")]
    assert sorted(cases) == ["AP-COMPACT-01", "RC-ENUMS-01"]
    assert "**Verdict: PASS**" in (reports / "conformance.md").read_text(encoding="utf-8")

    snapshot = subprocess.run([sys.executable, "-m", "cruxgate.cli", "surface", "snapshot", "--target-profile",
                               str(default_profile_path()), "--out", str(reports / "surface.json")],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert snapshot.returncode == 0, snapshot.stderr
    diff = subprocess.run([sys.executable, "-m", "cruxgate.cli", "surface", "diff", str(reports / "surface.json"),
                           str(reports / "surface.json")], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert diff.returncode == 0 and "no changes to the tool surface" in diff.stdout
