"""Load spec/*.yaml: validate each document against the spec format, then check what a schema cannot."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, cast

import jmespath
import yaml
from jsonschema.exceptions import best_match

from cruxgate.conformance.spec import format_verdicts
from cruxgate.conformance.spec.model import (
    CAPTURE_REF,
    DOCUMENT,
    READING,
    STEP_KINDS,
    Basis,
    Call,
    Quote,
    Requirement,
    Scenario,
    Step,
    ToolRule,
    parse_basis,
)
from cruxgate.conformance.spec.paths import spec_dir as default_spec_dir
from cruxgate.conformance.spec.readings import READINGS_FILE, ReadingsError, load_readings
from cruxgate.conformance.spec.schemas import validator_for
from cruxgate.conformance.spec.yaml_text import safe_load

FORMAT_SCHEMA_ID = "https://cruxgate.dev/schemas/spec-format.json"
DEFAULT_FIXTURE = "polyglot"


class SpecError(Exception):
    """A spec document that breaks the format; the message names the file and the path in it."""

    def __init__(self, file: str | Path, path: str, message: str) -> None:
        super().__init__(f"{file}: {path or '<document>'}: {message}")
        self.file = str(file)
        self.path = path
        self.message = message


def _json_path(parts: Any) -> str:
    """`requirements[3].scenarios[0].id` from a jsonschema error path."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _check_expression(file: Path, where: str, expression: str) -> None:
    """A JMESPath operand must compile; a `$name` operand is checked elsewhere."""
    if CAPTURE_REF.match(expression):
        return
    try:
        jmespath.compile(expression)
    except jmespath.exceptions.JMESPathError as exc:
        raise SpecError(file, where, f"not a JMESPath expression: {expression!r} ({exc})") from None


def _check_basis(file: Path, at: str, basis: Basis, readings: set[str]) -> None:
    """A reading names an entry of readings.yaml; a document MUST quotes words that can gate."""
    if basis.kind == READING and basis.ref not in readings:
        raise SpecError(file, at, f"reading {basis.ref} is not in spec/{READINGS_FILE}")
    if basis.kind == DOCUMENT and basis.level == "MUST":
        if basis.quote is None:
            raise SpecError(file, at, f"a check that can fail the run ({basis.ref}) quotes the sentence it enforces "
                                      "(quote: {file, line, text}); without one it is a reading (basis: reading R<n>)")
        if not basis.quote.normative:
            raise SpecError(file, at, f"the quote {basis.quote} holds no MUST, MUST NOT, 'only' or number: "
                                      "it cannot gate; make the check a reading")


def _check_steps(file: Path, where: str, scenario: dict[str, Any], level: str, readings: set[str]) -> None:
    """Captures exist before use, expressions compile, every basis holds, every tool, hook and transport is listed."""
    captured: set[str] = set()
    tools = set(scenario.get("tools", []))
    hooks = set(scenario.get("hooks", []))
    for index, step in enumerate(build_steps(scenario, level)):
        at = f"{where}.steps[{index}]"
        for basis in step.bases():
            _check_basis(file, at, basis, readings)
        for called in step.tools():
            if called not in tools:
                raise SpecError(file, f"{at}.{step.kind}", f"tool {called!r} is not listed in the scenario's tools")
        for check in step.checks():
            for operand in check.operands():
                ref = CAPTURE_REF.match(operand)
                if ref and ref.group(1) not in captured:
                    raise SpecError(file, at, f"{operand} is used before a step captures it")
                _check_expression(file, at, operand)
        for name in step.argument_refs() if isinstance(step, Call) else ():
            if name not in captured:
                raise SpecError(file, f"{at}.args", f"${name} is used before a step captures it")
        for part, expression in step.conditions():
            _check_expression(file, f"{at}.{part}", expression)
        for name, expression in step.captures().items():
            _check_expression(file, f"{at}.capture.{name}", expression)
            captured.add(name)
        chosen = step.transport()
        if chosen and chosen not in scenario.get("transports", [chosen]):
            raise SpecError(file, f"{at}.transport", "transport not listed in the scenario's transports")
        missing = set(step.hooks()) - hooks
        if missing:
            raise SpecError(file, where, f"hook step(s) {sorted(missing)} not listed in the scenario's hooks")


def _check_document(file: Path, document: dict[str, Any], seen_ids: dict[str, str], readings: set[str]) -> None:
    """Semantic rules: file stem, unique ids, scenario ids under their requirement, steps well-formed."""
    if document["document"] != file.stem:
        raise SpecError(file, "document", f"{document['document']!r} must equal the file stem {file.stem!r}")
    refs = {source["ref"] for source in document["sources"]}
    for t_index, tool in enumerate(document.get("tools", [])):  # the fuzz phase judges each payload on this basis
        _check_basis(file, f"tools[{t_index}].output", output_basis(tool), readings)
    for r_index, requirement in enumerate(document["requirements"]):
        where = f"requirements[{r_index}]"
        entries = [(where, requirement)] + [
            (f"{where}.scenarios[{s_index}]", scenario)
            for s_index, scenario in enumerate(requirement.get("scenarios", []))
        ]
        for at, entry in entries:
            if entry["id"] in seen_ids:
                raise SpecError(file, f"{at}.id", f"id {entry['id']} is already used in {seen_ids[entry['id']]}")
            seen_ids[entry["id"]] = str(file.name)
            for anchor in [entry["source"], *entry.get("also", [])]:
                if anchor.split(" > ", 1)[0] not in refs:
                    raise SpecError(file, f"{at}.source",
                                    f"anchor {anchor!r} names a source the document does not list")
        for s_index, scenario in enumerate(requirement.get("scenarios", [])):
            at = f"{where}.scenarios[{s_index}]"
            if not scenario["id"].startswith(requirement["id"] + "-"):
                raise SpecError(file, f"{at}.id",
                                f"{scenario['id']} must start with its requirement's id {requirement['id']}-")
            _check_steps(file, at, scenario, scenario_level(requirement, scenario), readings)



def load_file(file: Path, seen_ids: dict[str, str] | None = None, readings: set[str] | None = None) -> dict[str, Any]:
    """One spec document, validated (readings: the ids a `reading R<n>` basis may name; default its folder's)."""
    text = file.read_text(encoding="utf-8")
    try:
        document = safe_load(text)
    except yaml.YAMLError as exc:
        raise SpecError(file, "", f"not valid YAML: {exc}") from None
    digest = format_verdicts.digest(text)
    if not format_verdicts.known(digest):  # the schema check is most of a load's time: once per text and schemas
        error = best_match(validator_for(FORMAT_SCHEMA_ID).iter_errors(document))
        if error is not None:
            raise SpecError(file, _json_path(error.absolute_path), f"{error.message} (keyword {error.validator})")
        format_verdicts.remember(digest)
    if readings is None:
        readings = reading_ids(file.parent)
    _check_document(file, document, {} if seen_ids is None else seen_ids, readings)
    return cast("dict[str, Any]", document)  # the format schema makes a document an object


def reading_ids(folder: Path) -> set[str]:
    """The reading ids of `folder`/readings.yaml; a broken file is a SpecError."""
    try:
        return set(load_readings(folder).readings)
    except ReadingsError as exc:
        raise SpecError(folder / READINGS_FILE, "", str(exc)) from None


def load_documents(spec_dir: Path | str | None = None) -> list[dict[str, Any]]:
    """Every spec/*.yaml document but readings.yaml (sorted by file name), validated, ids unique across documents."""
    folder = Path(spec_dir) if spec_dir is not None else default_spec_dir()
    seen_ids: dict[str, str] = {}
    readings = reading_ids(folder)
    documents = [load_file(file, seen_ids, readings) for file in sorted(folder.glob("*.yaml"))
                 if file.name != READINGS_FILE]
    _check_tools(folder, documents, seen_ids, readings)
    return documents


def _check_tools(folder: Path, documents: list[dict[str, Any]], ids: dict[str, str], readings: set[str]) -> None:
    """Each tool is defined once, by an anchor of its document's sources, its surface scenario exists, and the
    basis of its payload contract (the fuzz phase's FZ-OUTPUT) is a quoted sentence or a reading."""
    defined: set[str] = set()
    for document in documents:
        file = folder / f"{document['document']}.yaml"
        refs = {source["ref"] for source in document["sources"]}
        for index, rule in enumerate(document.get("tools", [])):
            where = f"tools[{index}]"
            if rule["name"] in defined:
                raise SpecError(file, f"{where}.name", f"tool {rule['name']} is defined twice")
            defined.add(rule["name"])
            if rule["source"].split(" > ", 1)[0] not in refs:
                raise SpecError(file, f"{where}.source",
                                f"anchor {rule['source']!r} names a source the document does not list")
            if rule.get("surface") and rule["surface"] not in ids:
                raise SpecError(file, f"{where}.surface", f"no scenario {rule['surface']}")
            _check_basis(file, f"{where}.output", output_basis(rule), readings)


def iter_scenarios(documents: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(document, requirement, scenario) for every scenario, in file order."""
    for document in documents:
        for requirement in document["requirements"]:
            for scenario in requirement.get("scenarios", []):
                yield document, requirement, scenario


def scenario_level(requirement: dict[str, Any], scenario: dict[str, Any]) -> str:
    """The scenario's normative level, defaulting to its requirement's."""
    level: str = scenario.get("level", requirement["level"])
    return level


# ------------------------------------------------------------------ the typed model


def build_step(step: dict[str, Any], default: Basis) -> Step:
    """One YAML step as its typed step kind (each kind parses its own body)."""
    kind = next(key for key in step if key in STEP_KINDS)
    return STEP_KINDS[kind].from_yaml(step, default)


def scenario_basis(scenario: dict[str, Any], level: str) -> Basis:
    """The default basis of a YAML scenario's checks: its own `basis`, else its source at `level` with its quote."""
    return parse_basis(scenario.get("basis"), Basis(DOCUMENT, scenario["source"], level,
                                                    Quote.from_yaml(scenario.get("quote"))))


def build_steps(scenario: dict[str, Any], level: str) -> tuple[Step, ...]:
    """A YAML scenario's steps as typed step kinds; their checks' default basis is the scenario's."""
    basis = scenario_basis(scenario, level)
    return tuple(build_step(step, basis) for step in scenario.get("steps", []))


def _requirement(document: dict[str, Any], body: dict[str, Any]) -> Requirement:
    return Requirement(id=body["id"], title=body["title"], source=body["source"], level=body["level"],
                       statement=body["statement"], coverage=body["coverage"], document=document["document"],
                       also=tuple(body.get("also", [])), reason=body.get("reason"), benchmark=body.get("benchmark"))


def build_scenario(requirement: Requirement, body: dict[str, Any]) -> Scenario:
    """One YAML scenario as the typed model."""
    level = body.get("level", requirement.level)
    return Scenario(id=body["id"], title=body["title"], source=body["source"], level=level, when=body["when"],
                    then=body["then"], coverage=body["coverage"], requirement=requirement,
                    also=tuple(body.get("also", [])), tools=tuple(body.get("tools", [])),
                    hooks=tuple(body.get("hooks", [])), transports=tuple(body.get("transports", [])),
                    fixture=body.get("fixture"), git=bool(body.get("git")), config=body.get("config") or {},
                    reason=body.get("reason"), benchmark=body.get("benchmark"),
                    declared_basis=scenario_basis(body, level), steps=build_steps(body, level))


def stand_in(requirement: Requirement) -> Scenario:
    """The item a requirement without scenarios (informative or benchmark) is reported as."""
    return Scenario(id=requirement.id, title=requirement.title, source=requirement.source, level=requirement.level,
                    when="-", then=requirement.statement, coverage=requirement.coverage, requirement=requirement,
                    reason=requirement.reason, benchmark=requirement.benchmark)


def scenarios(documents: list[dict[str, Any]]) -> list[Scenario]:
    """Every scenario of the documents as the typed model, in file order; a requirement without any as a stand-in."""
    out: list[Scenario] = []
    standing: list[Scenario] = []
    for document in documents:
        for body in document["requirements"]:
            requirement = _requirement(document, body)
            if body.get("scenarios"):
                out += [build_scenario(requirement, scenario) for scenario in body["scenarios"]]
            else:
                standing.append(stand_in(requirement))
    return out + standing


def output_basis(tool: Mapping[str, Any]) -> Basis:
    """The basis of a `tools` entry's payload contract: its `output` (a quoted sentence, or a reading)."""
    return parse_basis(tool.get("output"), Basis(DOCUMENT, tool["source"], "MUST"))


def tool_rules(documents: list[dict[str, Any]]) -> dict[str, ToolRule]:
    """{tool name: its rule} from every document's `tools` table."""
    return {body["name"]: ToolRule(body["name"], body["source"], body.get("surface"), body.get("group"),
                                   output_basis(body))
            for document in documents for body in document.get("tools", [])}


def load_scenarios(spec_dir: Path | str | None = None) -> list[Scenario]:
    """The spec documents in `spec_dir` (default: the bundled spec/), validated and typed."""
    return scenarios(load_documents(spec_dir))
