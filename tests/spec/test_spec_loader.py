"""spec_loader: valid documents load; each broken rule is a SpecError naming file and path."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from cruxgate.conformance.spec.loader import SpecError, iter_scenarios, load_documents, scenario_level, tool_rules
from cruxgate.conformance.spec.model import Call, reading

MINIMAL = {
    "document": "demo",
    "title": "Demo",
    "sources": [{"ref": "000", "file": "000_abc.txt", "title": "Demo source",
                 "inventory": ["000 > Requirement: Off", "000 > Scenario: Off mode"]}],
    "requirements": [{
        "id": "AP-EXPLAIN", "title": "Off", "source": "000 > Requirement: Off", "level": "MUST",
        "statement": "Off omits reasons.", "coverage": "scenarios",
        "scenarios": [{
            "id": "AP-EXPLAIN-01", "title": "Off mode", "source": "000 > Scenario: Off mode",
            "when": "off", "then": "no reasons", "coverage": "executable", "tools": ["search_code"],
            "quote": {"file": "000", "line": 28, "text": "response metadata MUST NOT include `ranking_reasons`"},
            "steps": [
                {"call": "search_code", "args": {"query": "x", "ranking_explain_level": "off"},
                 "expect": {"schema": {"properties": {"metadata": {"not": {"required": ["ranking_reasons"]}}}},
                            "checks": [{"check": "sorted_descending", "path": "results[*].score"}]},
                 "capture": {"ids": "results[*].result_id"}},
                {"call": "search_code", "args": {"query": "x", "compact": True},
                 "capture": {"ids_compact": "results[*].result_id"}},
                {"compare": {"check": "same_sequence", "a": "$ids", "b": "$ids_compact"}},
            ],
        }],
    }],
}


def write(folder: Path, document: dict, name: str = "demo") -> Path:
    """Write one spec document as YAML."""
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return path


def test_valid_document_loads_and_iterates(tmp_path: Path) -> None:
    write(tmp_path, MINIMAL)
    documents = load_documents(tmp_path)
    triples = list(iter_scenarios(documents))
    assert [(d["document"], r["id"], s["id"]) for d, r, s in triples] == [("demo", "AP-EXPLAIN", "AP-EXPLAIN-01")]
    assert scenario_level(triples[0][1], triples[0][2]) == "MUST"


def broken(mutate) -> dict:
    """A copy of MINIMAL changed by `mutate`."""
    document = copy.deepcopy(MINIMAL)
    mutate(document)
    return document


def scenario(document: dict) -> dict:
    return document["requirements"][0]["scenarios"][0]


CASES = {
    "unknown level": (lambda d: d["requirements"][0].update(level="MUSTN'T"), "requirements[0].level"),
    "informative without reason": (lambda d: scenario(d).update(coverage="informative"),
                                   "requirements[0].scenarios[0]"),
    "unknown check": (lambda d: scenario(d)["steps"][0]["expect"]["checks"].append({"check": "looks_fine"}),
                      "requirements[0].scenarios[0].steps[0]"),
    "check missing its argument": (lambda d: scenario(d)["steps"][2]["compare"].pop("b"),
                                   "requirements[0].scenarios[0].steps[2]"),
    "unknown error code": (lambda d: scenario(d)["steps"][0]["expect"].update(outcome="error", error_code="oops"),
                           "requirements[0].scenarios[0].steps[0]"),
    "capture used before it exists": (lambda d: scenario(d)["steps"].insert(
                                          0, {"compare": {"check": "equal", "a": "$ids", "b": "$ids"}}),
                                      "requirements[0].scenarios[0].steps[0]"),
    "scenario id outside its requirement": (lambda d: scenario(d).update(id="AP-OTHER-01"),
                                            "requirements[0].scenarios[0].id"),
    "tool called but not listed": (lambda d: scenario(d).update(tools=[]),
                                   "requirements[0].scenarios[0].steps[0].call"),
    "bad JMESPath": (lambda d: scenario(d)["steps"][0].update(capture={"x": "results[?"}),
                     "requirements[0].scenarios[0].steps[0].capture.x"),
    "anchor of an unlisted source": (lambda d: d["requirements"][0].update(source="001 > FR-101"),
                                     "requirements[0].source"),
    "bad benchmark name": (lambda d: scenario(d).update(coverage="benchmark", benchmark="bench.py"),
                           "requirements[0].scenarios[0]"),
    "hook step not declared": (lambda d: scenario(d)["steps"].insert(0, {"hook": "corrupt_manifest"}),
                               "requirements[0].scenarios[0]"),
    "tool whose payload contract quotes nothing": (
        lambda d: d.update(tools=[{"name": "search_code", "source": "000 > Requirement: Off"}]), "tools[0].output"),
    "tool whose payload contract quotes no MUST": (
        lambda d: d.update(tools=[{"name": "search_code", "source": "000 > Requirement: Off",
                                   "output": {"quote": {"file": "000", "line": 1, "text": "Off mode"}}}]),
        "tools[0].output"),
    "argument naming a capture taken later": (lambda d: scenario(d)["steps"][0]["args"].update(query="$ids"),
                                              "requirements[0].scenarios[0].steps[0].args"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_document_is_a_spec_error_naming_file_and_path(tmp_path: Path, case: str) -> None:
    mutate, path = CASES[case]
    write(tmp_path, broken(mutate))
    with pytest.raises(SpecError) as info:
        load_documents(tmp_path)
    assert info.value.file.endswith("demo.yaml")
    assert info.value.path.startswith(path), (info.value.path, str(info.value))


def test_document_name_must_match_file_stem(tmp_path: Path) -> None:
    write(tmp_path, MINIMAL, name="other")
    with pytest.raises(SpecError, match="file stem"):
        load_documents(tmp_path)


def test_ids_are_unique_across_documents(tmp_path: Path) -> None:
    write(tmp_path, MINIMAL)
    write(tmp_path, broken(lambda d: d.update(document="second")), name="second")
    with pytest.raises(SpecError, match=r"already used in demo\.yaml"):
        load_documents(tmp_path)


def test_invalid_yaml_is_a_spec_error(tmp_path: Path) -> None:
    (tmp_path / "demo.yaml").write_text("document: [unclosed\n", encoding="utf-8")
    with pytest.raises(SpecError, match="not valid YAML"):
        load_documents(tmp_path)


def test_a_tool_gates_its_payload_on_its_quote_and_warns_on_a_reading(tmp_path: Path) -> None:
    quoted = {"quote": {"file": "000", "line": 28, "text": "response metadata MUST NOT include `ranking_reasons`"}}
    document = broken(lambda d: d.update(tools=[
        {"name": "search_code", "source": "000 > Requirement: Off", "output": quoted},
        {"name": "locate_symbol", "source": "000 > Requirement: Off", "output": "reading R36"}]))
    write(tmp_path, document)
    (tmp_path / "readings.yaml").write_text((Path(__file__).parents[2] / "spec" / "readings.yaml")
                                            .read_text(encoding="utf-8"), encoding="utf-8")
    rules = tool_rules(load_documents(tmp_path))
    assert rules["search_code"].output.gates and rules["search_code"].output.quote.line == 28
    assert rules["locate_symbol"].output.reading == "R36" and not rules["locate_symbol"].output.gates


def test_an_argument_written_as_a_capture_takes_its_value() -> None:
    step = Call.from_yaml({"call": "get_file_outline", "args": {"path": "a.py", "ref": "$indexed", "depth": "$"}},
                          reading("R1"))
    sent: list[dict] = []

    class Context:
        def __init__(self) -> None:
            self.captures = {"indexed": "live"}

        def call(self, tool, args, transport):
            sent.append(args)
            return type("Response", (), {"payload": {}})()

        def judge(self, expect, response):
            pass

        def capture(self, spec, payload):
            pass

    assert isinstance(step, Call) and step.argument_refs() == ("indexed",)
    step.run(Context())  # type: ignore[arg-type]
    assert sent == [{"path": "a.py", "ref": "live", "depth": "$"}]


def test_a_file_changed_after_a_valid_load_is_checked_again(tmp_path: Path) -> None:
    # The format schema's verdict is remembered by the file's content, never by its path.
    write(tmp_path, MINIMAL)
    assert load_documents(tmp_path) == load_documents(tmp_path)  # the second load skips the schema, same values
    write(tmp_path, broken(lambda d: d["requirements"][0].update(level="MUSTN'T")))
    with pytest.raises(SpecError) as info:
        load_documents(tmp_path)
    assert info.value.path.startswith("requirements[0].level"), str(info.value)
