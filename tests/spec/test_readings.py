"""spec/readings.yaml: docs/readings.md is made from it, checks name its ids, every quote is the seeds' words."""

from __future__ import annotations

import copy
import os
import re
from pathlib import Path

import pytest
import yaml
from test_spec_loader import MINIMAL, write  # type: ignore[import-not-found]

from cruxgate.conformance.checks.judge import Finding
from cruxgate.conformance.fuzz.checks import FUZZ_CHECKS
from cruxgate.conformance.spec.loader import SpecError, load_documents, load_scenarios, tool_rules
from cruxgate.conformance.spec.model import READING, REGISTRY_ENVELOPE, Basis, Quote, reading
from cruxgate.conformance.spec.paths import spec_dir
from cruxgate.conformance.spec.readings import load_readings, to_markdown

ROOT = Path(__file__).resolve().parents[2]
SEEDS_ENV = "CRUXGATE_SEEDS"  # the folder of the source documents; .ci/run sets it to ../shared/seeds


def test_docs_readings_md_is_generated_from_readings_yaml():
    expected = to_markdown(load_readings(spec_dir()))
    assert (ROOT / "docs" / "readings.md").read_text(encoding="utf-8") == expected, \
        "run: cruxgate spec readings > docs/readings.md"


def test_every_reading_a_check_names_is_listed_and_its_finding_carries_id_and_step():
    listed = set(load_readings(spec_dir()).readings)
    named = {basis.ref for scenario in load_scenarios() for step in scenario.steps for basis in step.bases()
             if basis.kind == READING}
    assert named and named <= listed
    record = Finding("equal", reading("R8"), "no kind_weight", step=1).as_record("AP-KIND-01")
    assert record["id"] == "AP-KIND-01/R8/step-2/equal"
    assert record["severity"] == "warning" and record["basis"]["level"] == "reading"
    assert record["basis"]["reading"] == "R8"


def _with(tmp_path: Path, change) -> Path:
    document = copy.deepcopy(MINIMAL)
    change(document["requirements"][0]["scenarios"][0])
    write(tmp_path, document)
    (tmp_path / "readings.yaml").write_text((spec_dir() / "readings.yaml").read_text(encoding="utf-8"),
                                            encoding="utf-8")
    return tmp_path


def test_a_must_check_without_a_quote_does_not_load(tmp_path):
    folder = _with(tmp_path, lambda scenario: scenario.pop("quote"))
    with pytest.raises(SpecError, match="quotes the sentence it enforces"):
        load_documents(folder)


def test_a_quote_without_a_normative_word_does_not_load(tmp_path):
    def weak(scenario):
        scenario["quote"] = {"file": "000", "line": 27, "text": "explain level resolves to off"}
    with pytest.raises(SpecError, match="cannot gate"):
        load_documents(_with(tmp_path, weak))


def test_an_unknown_reading_does_not_load_and_a_known_one_turns_the_scenario_into_warnings(tmp_path):
    def unknown(scenario):
        scenario["basis"] = "reading R999"
    with pytest.raises(SpecError, match="R999 is not in"):
        load_documents(_with(tmp_path, unknown))
    folder = _with(tmp_path, lambda scenario: scenario.update(basis="reading R8", quote=None) or scenario.pop("quote"))
    steps = load_scenarios(folder)[0].steps
    assert {basis.ref for step in steps for basis in step.bases()} == {"R8"}
    assert not any(basis.gates for step in steps for basis in step.bases())


def _quotes() -> list[tuple[str, Quote]]:
    out = [("registry envelope", REGISTRY_ENVELOPE.quote)]
    out += [(name, check.basis.quote) for name, check in FUZZ_CHECKS.items() if check.basis.quote is not None]
    for scenario in load_scenarios():
        bases: list[Basis] = [scenario.basis, *(basis for step in scenario.steps for basis in step.bases())]
        out += [(scenario.id, basis.quote) for basis in bases if basis.quote is not None]
    # The sentence each tool's payload contract rests on (the fuzz phase's FZ-OUTPUT).
    out += [(f"tools {name}", rule.output.quote) for name, rule in tool_rules(load_documents()).items()
            if rule.output is not None]
    return [(where, quote) for where, quote in out if quote is not None]


def _source(folder: Path, name: str) -> list[str]:
    matches = [folder / "README.md"] if name == "README" else sorted(folder.glob(f"{name}_*.txt"))
    assert len(matches) == 1, f"no single source {name} in {folder}"
    return matches[0].read_text(encoding="utf-8").splitlines()


def _words(text: str) -> str:
    return " ".join(text.split())


def test_every_quote_is_the_exact_words_of_its_source_line():
    folder = os.environ.get(SEEDS_ENV)
    if not folder:
        pytest.skip(f"{SEEDS_ENV} is not set: the source documents are not part of the repo (.ci/run sets it)")
    wrong = []
    for where, quote in _quotes():
        lines = _source(Path(folder), quote.file)
        # The words start on the quoted line and may run over the next few (a sentence wrapped in the source).
        around = _words(" ".join(lines[quote.line - 1: quote.line + 4])) if quote.line <= len(lines) else ""
        if quote.file == "README":  # a registry rule: it must stand in the README's binding group
            start = next(i for i, line in enumerate(lines) if line.startswith("Binding by reference"))
            end = next(i for i, line in enumerate(lines) if line.startswith("Not binding"))
            normative = start < quote.line - 1 < end
        else:
            normative = bool(re.search(r"\bMUST\b|\bonly\b|[0-9]", quote.text))
        if _words(quote.text) not in around or not normative:
            wrong.append(f"{where}: {quote}")
    assert not wrong, "\n".join(wrong)
    assert len(_quotes()) > 100


def test_readings_yaml_rejects_a_repeated_id(tmp_path):
    body = yaml.safe_load((spec_dir() / "readings.yaml").read_text(encoding="utf-8"))
    body["readings"].append(dict(body["readings"][0]))
    (tmp_path / "readings.yaml").write_text(yaml.safe_dump(body), encoding="utf-8")
    from cruxgate.conformance.spec.readings import ReadingsError
    with pytest.raises(ReadingsError, match="listed twice"):
        load_readings(tmp_path)
