"""spec/readings.yaml: where the documents are silent, what the gate reads there, and docs/readings.md made from it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema.exceptions import best_match

from cruxgate.conformance.spec.schemas import validator_for
from cruxgate.conformance.spec.yaml_text import safe_load

READINGS_FILE = "readings.yaml"
READINGS_SCHEMA_ID = "https://cruxgate.dev/schemas/readings.json"


class ReadingsError(Exception):
    """spec/readings.yaml breaks its schema or repeats an id."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One place where the documents are silent or ambiguous, and what the gate accepts there."""

    id: str
    where: str
    documents: str
    accepts: str
    upstream: str


@dataclass(frozen=True, slots=True)
class Deviation:
    """A real deviation of the upstream server that the gate keeps failing, with the rule's scenario."""

    scenario: str
    rule: str
    upstream: str


@dataclass(frozen=True, slots=True)
class Readings:
    """The whole file: its preface, the readings by id, and the upstream deviations."""

    preface: str
    readings: dict[str, Reading]
    deviations: tuple[Deviation, ...]
    epilogue: str


def load_readings(spec_dir: Path) -> Readings:
    """The readings of `spec_dir` (none when the folder has no readings.yaml)."""
    file = spec_dir / READINGS_FILE
    if not file.is_file():
        return Readings("", {}, (), "")
    body: Any = safe_load(file.read_text(encoding="utf-8"))
    error = best_match(validator_for(READINGS_SCHEMA_ID).iter_errors(body))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "<document>"
        raise ReadingsError(f"{file}: {where}: {error.message} (keyword {error.validator})")
    readings: dict[str, Reading] = {}
    for entry in body["readings"]:
        if entry["id"] in readings:
            raise ReadingsError(f"{file}: reading {entry['id']} is listed twice")
        readings[entry["id"]] = Reading(entry["id"], entry["where"], entry["documents"], entry["accepts"],
                                        entry["upstream"])
    deviations = tuple(Deviation(entry["scenario"], entry["rule"], entry["upstream"])
                       for entry in body.get("deviations", []))
    return Readings(body["preface"].strip(), readings, deviations, body.get("epilogue", "").strip())


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def to_markdown(readings: Readings) -> str:
    """docs/readings.md: the preface, the table of readings and the list of upstream deviations."""
    lines = ["# Readings: where the documents are silent, and what the gate accepts", "",
             "<!-- Generated from spec/readings.yaml by `cruxgate spec readings > docs/readings.md`; "
             "do not edit by hand. -->", "", readings.preface, "",
             "| id | where | what the documents say | the gate's reading and what it accepts | upstream |",
             "|---|---|---|---|---|"]
    lines += [f"| {r.id} | {_cell(r.where)} | {_cell(r.documents)} | {_cell(r.accepts)} | {_cell(r.upstream)} |"
              for r in readings.readings.values()]
    if readings.deviations:
        lines += ["", "## Deviations of the upstream server that the gate keeps failing", "",
                  "Each rule is a document MUST; the scenario that owns it fails the upstream server, and a "
                  "one-rule breaker in `tests/conformance/test_twin.py` proves it still does.", "",
                  "| scenario | the rule (quoted) | upstream |", "|---|---|---|"]
        lines += [f"| {d.scenario} | {_cell(d.rule)} | {_cell(d.upstream)} |" for d in readings.deviations]
    if readings.epilogue:
        lines += ["", readings.epilogue]
    return "\n".join(lines) + "\n"
