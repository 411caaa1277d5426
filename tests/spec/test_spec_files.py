"""The bundled spec/: every file loads, its schema fragments resolve, its calls agree with the tool input schemas."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from cruxgate.conformance.spec.loader import iter_scenarios, load_documents
from cruxgate.conformance.spec.paths import fixtures_dir, spec_dir
from cruxgate.conformance.spec.schemas import registry, validator_for

DOCUMENTS = load_documents()
SCENARIOS = list(iter_scenarios(DOCUMENTS))
INPUT_TOOLS = {"search_code", "locate_symbol", "get_file_outline", "find_references", "health_check",
               "index_status", "search", "search_preview"}


def _call_steps(scenario: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(tool, args, expect) of every call and wait step."""
    for step in scenario.get("steps", []):
        if "call" in step:
            yield step["call"], step.get("args", {}), step.get("expect", {})
        elif "wait" in step:
            yield step["wait"]["call"], step["wait"].get("args", {}), {}


def _schemas(scenario: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every `expect.schema` fragment of a scenario."""
    for step in scenario.get("steps", []):
        expect = step.get("expect") or (step.get("list_tools") or {}).get("expect") or {}
        if "schema" in expect:
            yield expect["schema"]


def _refs(node: Any) -> Iterator[str]:
    """Every $ref value inside a schema fragment."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def test_the_four_documents_load() -> None:
    assert sorted(d["document"] for d in DOCUMENTS) == ["agent-protocol", "agent-protocol-proposal",
                                                        "runtime-contract", "scored-search"]


@pytest.mark.parametrize("path", sorted(p for p in spec_dir().glob("*.yaml") if p.name != "readings.yaml"),
                         ids=lambda p: p.name)
def test_each_file_starts_with_the_editor_schema_comment(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schemas/spec-format.schema.json"


@pytest.mark.parametrize(("document", "requirement", "scenario"), SCENARIOS, ids=[s["id"] for _, _, s in SCENARIOS])
def test_schema_fragments_are_valid_and_their_refs_resolve(document, requirement, scenario) -> None:
    resolver = registry().resolver()
    for fragment in _schemas(scenario):
        Draft202012Validator.check_schema(fragment)
        for ref in _refs(fragment):
            if not ref.startswith("#"):
                resolver.lookup(ref)  # raises when the id or the fragment does not exist


@pytest.mark.parametrize(("document", "requirement", "scenario"), SCENARIOS, ids=[s["id"] for _, _, s in SCENARIOS])
def test_call_arguments_agree_with_the_tool_input_schemas(document, requirement, scenario) -> None:
    """Calls expected to succeed send schema-valid arguments; invalid_input calls send invalid ones."""
    for tool, args, expect in _call_steps(scenario):
        assert tool in INPUT_TOOLS, f"{scenario['id']} calls {tool}, which has no input schema in schemas/"
        valid = validator_for(f"{tool}.input").is_valid(args)
        if expect.get("error_code") == "invalid_input":
            assert not valid, f"{scenario['id']}: {tool}({args}) expects invalid_input but its input schema accepts it"
        elif expect.get("outcome", "success") == "success" and "error_code" not in expect:
            assert valid, f"{scenario['id']}: {tool}({args}) expects success but its input schema refuses it"


@pytest.mark.parametrize(("document", "requirement", "scenario"), SCENARIOS, ids=[s["id"] for _, _, s in SCENARIOS])
def test_needs_are_declared(document, requirement, scenario) -> None:
    """Configs are plain TOML-able tables, transports cover the steps, benchmarks name benchmarks/."""
    steps = scenario.get("steps", [])
    transports = {step["transport"] for step in steps if "transport" in step}
    assert transports <= set(scenario.get("transports", [])), scenario["id"]
    if transports:
        assert transports == {"stdio", "http"}, "a cross-transport scenario runs each call over both"
    if scenario.get("coverage") == "hook":
        assert any("hook" in step for step in steps), f"{scenario['id']}: hook coverage without a hook step"
    if any("commit" in step for step in steps):
        assert scenario.get("git") is True, f"{scenario['id']}: commit steps need git: true"
    json.dumps(scenario.get("config", {}))  # TOML-able: plain tables of scalars


def test_every_benchmark_follows_the_slo_naming() -> None:
    names = {r.get("benchmark") for d in DOCUMENTS for r in d["requirements"]} | {
        s.get("benchmark") for _, _, s in SCENARIOS}
    names.discard(None)
    assert names and all(name.startswith("benchmarks/test_slo.py::test_") for name in names)


def test_few_distinct_server_configs() -> None:
    """Each distinct (fixture, git, config) costs a server restart in the runner: keep them few."""
    setups = {(s.get("fixture", "polyglot"), bool(s.get("git")), json.dumps(s.get("config", {}), sort_keys=True))
              for _, _, s in SCENARIOS if s["coverage"] in ("executable", "hook")}
    configs = {setup[2] for setup in setups}
    assert len(configs) <= 9, sorted(configs)  # the ninth: config off beside the legacy flag (RC-PRECEDENCE-02)
    assert {setup[0] for setup in setups} == {"polyglot"}


def test_fixture_files_named_by_the_spec_exist_when_the_fixture_is_present() -> None:
    fixture = fixtures_dir() / "polyglot"
    if not fixture.is_dir():
        pytest.skip("golden/fixtures/polyglot is not in this checkout yet")
    paths = {step["args"]["path"] for _, _, s in SCENARIOS for step in s.get("steps", [])
             if step.get("call") == "get_file_outline" and step.get("expect", {}).get("outcome", "success") != "error"
             and "error_code" not in step.get("expect", {})}
    missing = sorted(p for p in paths if not (fixture / p).is_file())
    assert missing == []


CONDITIONS = ("not", "if")  # a fragment under these states a condition, not what the answer must carry


def _unrequired(node: Any, where: str = "", condition: bool = False) -> Iterator[str]:
    """Every property a fragment names without requiring it (outside a condition; `if {required: [k]}` guards k)."""
    if isinstance(node, list):
        for item in node:
            yield from _unrequired(item, where, condition)
        return
    if not isinstance(node, dict):
        return
    guarded = set((node.get("if") or {}).get("required", [])) if isinstance(node.get("if"), dict) else set()
    properties = node.get("properties")
    if isinstance(properties, dict) and not condition:
        missing = set(properties) - set(node.get("required", [])) - guarded
        yield from (f"{where}.{name}" for name in sorted(missing))
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict):
            for name, sub in value.items():
                yield from _unrequired(sub, f"{where}.{name}", condition)
        elif key != "required":
            yield from _unrequired(value, f"{where}/{key}", condition or key in CONDITIONS)


@pytest.mark.parametrize(("scenario_id", "schema"), [(s["id"], schema) for _, _, s in SCENARIOS
                                                       for schema in _schemas(s)])
def test_a_fragment_requires_every_property_it_names(scenario_id: str, schema: Any) -> None:
    """A fragment that names a property without `required` passes an answer that lacks it: nothing is judged.

    Where the documents allow the field to be absent, the fragment says so with `if: {required: [k]}`.
    """
    assert list(_unrequired(schema)) == [], scenario_id


def test_the_requirement_lint_finds_an_unrequired_property() -> None:
    assert list(_unrequired({"properties": {"metadata": {"properties": {"x": {"const": 1}}}}})) == \
        [".metadata", ".metadata.x"]
    assert list(_unrequired({"not": {"properties": {"x": {}}}, "if": {"required": ["y"]},
                             "then": {"required": ["y"], "properties": {"y": {}}}})) == []


def test_spec_yaml_is_plain_data() -> None:
    """No YAML tags, anchors or aliases: any YAML parser in any language reads these files the same."""
    for path in spec_dir().glob("*.yaml"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not re.search(r"(^|[:\-\[,]\s*)[&*!][A-Za-z_]", line), f"{path.name}:{number}: {line}"


def test_the_format_and_the_docs_table_are_generated_from_the_check_registry() -> None:
    """One vocabulary: the spec format's check arguments and docs/spec.md's table are what the registry writes."""
    from cruxgate.conformance.checks import vocabulary

    schema = json.loads(vocabulary.schema_path().read_text(encoding="utf-8"))
    assert schema["$defs"][vocabulary.DEFINITION] == vocabulary.arguments_schema(), \
        "run python -m cruxgate.conformance.checks.vocabulary"
    assert vocabulary.markdown_table() in vocabulary.docs_path().read_text(encoding="utf-8"), \
        "run python -m cruxgate.conformance.checks.vocabulary"


@pytest.mark.parametrize(("check", "message"), [
    ({"check": "unique", "path": "results", "limit": 1}, "Unevaluated properties are not allowed"),
    ({"check": "unique"}, "'path' is a required property"),
    ({"check": "no_such_check", "path": "x"}, "is not one of"),
])
def test_the_format_rejects_an_argument_a_check_does_not_declare(check: dict[str, Any], message: str) -> None:
    fragment = {"$ref": "https://cruxgate.dev/schemas/spec-format.json#/$defs/check"}
    errors = [error.message for error in validator_for(fragment).iter_errors(check)]
    assert any(message in text for text in errors), errors
