"""Traceability of spec/: every source anchor, what covers it, and what is missing, duplicated or dangling."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cruxgate.conformance.spec.loader import build_steps, scenario_level

SCENARIO_KINDS = ("executable", "hook", "benchmark", "informative")
# Scenarios a runner replays over the wire (a hook only prepares the state first).
OVER_THE_WIRE = ("executable", "hook")


@dataclass(frozen=True)
class Cover:
    """One spec entry that names an anchor: its id and how it is covered."""

    entry_id: str
    kind: str  # requirement coverage (scenarios|informative|benchmark) or scenario coverage
    requirement_id: str
    is_scenario: bool
    primary: bool  # named in `source` (True) or only in `also`


@dataclass
class Report:
    """The coverage of every anchor, the counts, and the problems found."""

    documents: list[dict[str, Any]]
    anchors: dict[str, list[Cover]] = field(default_factory=dict)  # anchor -> covers, inventory order
    anchor_document: dict[str, str] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    dangling: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing is missing, dangling or duplicated."""
        return not (self.missing or self.dangling or self.duplicated)

    def counts(self) -> dict[str, Any]:
        """Requirements, scenarios per coverage kind, anchors, and the share replayed over the wire."""
        requirements = [r for d in self.documents for r in d["requirements"]]
        scenarios = [s for r in requirements for s in r.get("scenarios", [])]
        kinds = Counter(s["coverage"] for s in scenarios)
        wire = sum(kinds[k] for k in OVER_THE_WIRE)
        return {
            "documents": len(self.documents),
            "requirements": len(requirements),
            "requirements_by_coverage": dict(Counter(r["coverage"] for r in requirements)),
            "requirements_by_level": dict(Counter(r["level"] for r in requirements)),
            "scenarios": len(scenarios),
            "scenarios_by_coverage": {kind: kinds.get(kind, 0) for kind in SCENARIO_KINDS},
            "over_the_wire": wire,
            "over_the_wire_share": round(wire / len(scenarios), 4) if scenarios else 0.0,
            "anchors": len(self.anchors),
            "anchors_covered": sum(1 for covers in self.anchors.values() if covers),
        }


def _entries(document: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any], bool]]:
    """(entry, requirement, is_scenario) for every requirement and scenario of a document."""
    for requirement in document["requirements"]:
        yield requirement, requirement, False
        for scenario in requirement.get("scenarios", []):
            yield scenario, requirement, True


def build(documents: list[dict[str, Any]]) -> Report:
    """Map every inventory anchor to the entries that cite it and collect the problems."""
    report = Report(documents=documents)
    for document in documents:
        for source in document["sources"]:
            for anchor in source["inventory"]:
                if anchor in report.anchors:
                    report.duplicated.append(f"{anchor!r} is listed in the inventory of "
                                             f"{report.anchor_document[anchor]} and of {document['document']}")
                    continue
                report.anchors[anchor] = []
                report.anchor_document[anchor] = document["document"]
    requirement_sources: dict[str, str] = {}
    scenario_sources: dict[str, str] = {}
    for document in documents:
        for entry, requirement, is_scenario in _entries(document):
            cited = [(entry["source"], True)] + [(anchor, False) for anchor in entry.get("also", [])]
            for anchor, primary in cited:
                if anchor not in report.anchors:
                    report.dangling.append(f"{entry['id']} cites {anchor!r}, which no source inventory lists")
                    continue
                report.anchors[anchor].append(
                    Cover(entry["id"], entry["coverage"], requirement["id"], is_scenario, primary))
            owner = scenario_sources if is_scenario else requirement_sources
            # Variants of one source scenario may share its anchor inside one requirement, never across.
            key = requirement["id"] if is_scenario else entry["id"]
            previous = owner.setdefault(entry["source"], key)
            if previous != key and not (is_scenario and entry["source"] == requirement["source"]):
                what = "scenarios of" if is_scenario else "requirements"
                report.duplicated.append(f"{entry['source']!r} is the source of {what} {previous} and {key}")
    report.missing = [anchor for anchor, covers in report.anchors.items() if not covers]
    return report


def _coverage_label(requirement: dict[str, Any]) -> str:
    """'3 executable, 1 hook' for a requirement with scenarios, else its own coverage kind."""
    own: str = requirement["coverage"]
    if own != "scenarios":
        return own
    kinds = Counter(s["coverage"] for s in requirement["scenarios"])
    return ", ".join(f"{kinds[k]} {k}" for k in SCENARIO_KINDS if kinds[k])


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def to_markdown(report: Report) -> str:
    """The human-readable report (the content of spec/README.md)."""
    counts = report.counts()
    kinds = counts["scenarios_by_coverage"]
    out = [
        "# spec/",
        "",
        "<!-- Generated by `cruxgate spec coverage --format md > spec/README.md`; do not edit by hand. -->",
        "",
        "The contract as data: one YAML file per source document, in the format pinned by",
        "[`schemas/spec-format.schema.json`](../schemas/spec-format.schema.json) and described in",
        "[docs/spec.md](../docs/spec.md). Every anchor of every source (requirement and scenario",
        "headings, FR / SC ids, edge cases, goals, fields, metrics) is listed below with what covers it.",
        "",
        "| | count |",
        "| --- | --- |",
        f"| documents | {counts['documents']} |",
        f"| requirements | {counts['requirements']} |",
        f"| scenarios | {counts['scenarios']} |",
        *(f"| scenarios: {kind} | {kinds[kind]} |" for kind in SCENARIO_KINDS),
        f"| replayed over the wire (executable + hook) | {counts['over_the_wire']} "
        f"({counts['over_the_wire_share']:.0%}) |",
        f"| source anchors covered | {counts['anchors_covered']} / {counts['anchors']} |",
        "",
    ]
    if not report.ok:
        out += ["## Problems", ""] + [f"- missing: {a}" for a in report.missing] \
            + [f"- dangling: {d}" for d in report.dangling] + [f"- duplicated: {d}" for d in report.duplicated] + [""]
    for document in report.documents:
        refs = ", ".join(f"{s['ref']} ({s['title']})" for s in document["sources"])
        out += [f"## {document['title']}", "", f"`spec/{document['document']}.yaml` encodes {refs}.", "",
                "| requirement | level | title | coverage |", "| --- | --- | --- | --- |"]
        for requirement in document["requirements"]:
            out.append(f"| {requirement['id']} | {requirement['level']} | {_cell(requirement['title'])} "
                       f"| {_cell(_coverage_label(requirement))} |")
        out += ["", "| scenario | level | title | coverage | needs |", "| --- | --- | --- | --- | --- |"]
        for requirement in document["requirements"]:
            for scenario in requirement.get("scenarios", []):
                needs = scenario.get("hooks", []) + scenario.get("transports", []) + (
                    [scenario["benchmark"]] if scenario.get("benchmark") else [])
                if scenario.get("git"):
                    needs.append("git workspace")
                for step in build_steps(scenario, scenario_level(requirement, scenario)):
                    needs += [need for need in step.needs() if need not in needs]
                if scenario.get("config"):
                    needs.append("config " + json.dumps(scenario["config"], sort_keys=True))
                out.append(f"| {scenario['id']} | {scenario_level(requirement, scenario)} | {_cell(scenario['title'])} "
                           f"| {scenario['coverage']} | {_cell(', '.join(needs))} |")
        for source in document["sources"]:
            out += ["", f"### Source {source['ref']}: anchors", "", "| anchor | covered by |", "| --- | --- |"]
            for anchor in source["inventory"]:
                covers = report.anchors.get(anchor, [])
                text = ", ".join(f"{c.entry_id} ({c.kind})" for c in covers) or "**MISSING**"
                out.append(f"| {_cell(anchor.split(' > ', 1)[1])} | {_cell(text)} |")
        out.append("")
    return "\n".join(out)


def to_json(report: Report) -> dict[str, Any]:
    """The machine-readable report."""
    return {
        "ok": report.ok,
        "counts": report.counts(),
        "missing": report.missing,
        "dangling": report.dangling,
        "duplicated": report.duplicated,
        "anchors": {anchor: [{"id": c.entry_id, "coverage": c.kind, "requirement": c.requirement_id,
                              "scenario": c.is_scenario, "primary": c.primary} for c in covers]
                    for anchor, covers in report.anchors.items()},
    }
