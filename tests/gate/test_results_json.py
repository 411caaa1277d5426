"""--conformance-json: one record per scenario, header, validated against its schema."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import cruxgate
from cruxgate.conformance.report.results_json import spec_revision
from cruxgate.conformance.spec.paths import schemas_dir

RUN = ("-p", "no:cruxgate")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def validator():
    schema = json.loads((schemas_dir() / "conformance-results.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def test_every_outcome_is_recorded_and_valid(pytester, scenarios, validator):
    scenarios("AP-A-01 pass", "AP-A-02 fail", "AP-A-03 skip", "AP-A-04 informative",
              "AP-A-05 fail locate_symbol,search_code")
    pytester.path.joinpath("base.yaml").write_text("- {id: AP-A-05, reason: known gap}\n")
    pytester.runpytest(*RUN, "--baseline", "base.yaml", "--conformance-json", "out/results.json")
    doc = json.loads(pytester.path.joinpath("out/results.json").read_text())
    errors = sorted(validator.iter_errors(doc), key=str)
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors]

    assert doc["cruxgate_version"] == cruxgate.__version__
    assert doc["target_profile"] == "synthetic-profile"
    assert doc["server_info"] == {"name": "synthetic", "version": "9.9"}
    assert doc["exit_status"] == 1
    assert doc["summary"] == {"passed": 1, "failed": 1, "skipped": 1, "informative": 1, "expected-failure": 1}
    by_id = {r["id"]: r for r in doc["scenarios"]}
    assert [r["id"] for r in doc["scenarios"]] == sorted(by_id)
    assert by_id["AP-A-01"]["outcome"] == "passed"
    assert by_id["AP-A-01"]["requirement"] == "AP-A"
    assert by_id["AP-A-01"]["source"] == "000 > Scenario: AP-A-01"
    assert by_id["AP-A-01"]["level"] == "MUST"
    assert by_id["AP-A-01"]["transport"] == "stdio"
    assert by_id["AP-A-01"]["document"] == "agent-protocol"
    assert by_id["AP-A-02"]["outcome"] == "failed"
    assert by_id["AP-A-02"]["failure_message"].startswith("AP-A-02: THEN metadata carries ranking_reasons")
    assert by_id["AP-A-03"]["outcome"] == "skipped"
    assert by_id["AP-A-03"]["skip_reason"] == "target lacks tool find_references"
    assert by_id["AP-A-04"]["outcome"] == "informative"
    assert by_id["AP-A-05"]["outcome"] == "expected-failure"
    assert by_id["AP-A-05"]["baseline_reason"] == "known gap"
    assert by_id["AP-A-05"]["tools"] == ["locate_symbol", "search_code"]
    assert all(r["duration"] >= 0 for r in doc["scenarios"])


def test_schema_rejects_an_unknown_outcome(validator):
    record: dict[str, Any] = {"id": "X-1-01", "requirement": "X-1", "source": None, "level": "MUST", "tools": [],
                              "transport": None, "outcome": "flaky", "skip_reason": None, "failure_message": None,
                              "duration": 0}
    doc = {"format_version": 1, "cruxgate_version": "0", "spec_revision": None, "target_profile": None,
           "server_info": None, "started_at": "2026-01-01T00:00:00+00:00", "exit_status": 0,
           "summary": {}, "scenarios": [record]}
    assert [e.validator for e in validator.iter_errors(doc)] == ["enum"]
    record["outcome"] = "failed"  # a failure must say why
    assert [e.validator for e in validator.iter_errors(doc)] == ["type"]


def test_spec_revision_changes_with_any_spec_file(tmp_path):
    (tmp_path / "a.yaml").write_text("document: a\n")
    first = spec_revision(tmp_path)
    assert first == spec_revision(tmp_path)
    (tmp_path / "b.yaml").write_text("document: b\n")
    second = spec_revision(tmp_path)
    (tmp_path / "b.yaml").write_text("document: B\n")
    assert len({first, second, spec_revision(tmp_path)}) == 3


def test_docs_gate_names_every_field_of_the_results_schema() -> None:
    # docs/gate.md "The JSON results" lists the document's fields by hand; the schema owns them.
    schema = json.loads((schemas_dir() / "conformance-results.schema.json").read_text())
    defs = schema["$defs"]
    fields = {*schema["properties"], *defs["scenario"]["properties"], *defs["call"]["properties"],
              *defs["outcome"]["enum"]}
    doc = (ROOT / "docs" / "gate.md").read_text(encoding="utf-8")
    section = doc.split("## The JSON results", 1)[1].split("\n## ", 1)[0]
    named = {word for span in re.findall(r"`([^`]+)`", section) for word in re.findall(r"[\w-]+", span)}
    assert not fields - named, f"docs/gate.md 'The JSON results' leaves out {sorted(fields - named)}"
