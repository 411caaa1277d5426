"""--conformance-json: one machine-readable record per scenario, plus a header naming the run.

The shape is pinned by schemas/conformance-results.schema.json. The same document feeds the
other reports (--conformance-report, --conformance-html, `cruxgate report`): one collector
builds it, and each output renders it. The runner
fills three stash keys when it knows them (``SERVER_INFO_KEY`` with the
server's ``serverInfo`` from the MCP initialize answer, ``TARGET_PROFILE_KEY``
with the profile's name, ``TRANSPORT_KEY`` with the default transport); an
item may override the transport with a ``transport`` attribute.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from cruxgate.conformance.checks.judge import recorded_findings, recorded_not_judged
from cruxgate.conformance.report.baseline import EXPECTED_FAILURE, baseline_outcome, scenario_id
from cruxgate.conformance.report.transcript import CALLS, trimmed_calls

Renderer = Callable[[dict[str, Any]], str]  # a results document -> the text of one report

FORMAT_VERSION = 1
SERVER_INFO_KEY = pytest.StashKey[dict[str, Any]]()
TARGET_PROFILE_KEY = pytest.StashKey[str]()
TRANSPORT_KEY = pytest.StashKey[str]()


def add_options(parser: pytest.Parser) -> None:
    """Add --conformance-json (call from the main plugin's pytest_addoption)."""
    parser.getgroup("cruxgate").addoption(
        "--conformance-json",
        metavar="FILE",
        default=None,
        help="Write one JSON record per scenario (schemas/conformance-results.schema.json).",
    )


def spec_revision(spec_dir: Path | None = None) -> str:
    """sha256 over the sorted spec/*.yaml file names and contents: which contract was run."""
    if spec_dir is None:
        from cruxgate.conformance.spec.paths import spec_dir as locate

        spec_dir = locate()
    digest = hashlib.sha256()
    for path in sorted(spec_dir.glob("*.yaml")):
        digest.update(path.name.encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _marker_arg(item: pytest.Item, name: str) -> Any:
    marker = item.get_closest_marker(name)
    return marker.args[0] if marker and marker.args else None


def _requirement_id(item: pytest.Item) -> str | None:
    requirement = getattr(item, "requirement", None)
    if isinstance(requirement, dict) and requirement.get("id"):
        rid: str = requirement["id"]
        return rid
    if isinstance(requirement, str):
        return requirement
    marked: str | None = _marker_arg(item, "requirement")
    return marked


def _record_base(item: pytest.Item, default_transport: str | None) -> dict[str, Any]:
    scenario = getattr(item, "scenario", None) or {}
    requirement = getattr(item, "requirement", None)
    tools = scenario.get("tools")
    if tools is None:
        tools = [m.args[0] for m in item.iter_markers("tool") if m.args]
    return {
        "id": scenario_id(item),
        "requirement": _requirement_id(item),
        "document": _marker_arg(item, "document"),
        "title": scenario.get("title"),
        "requirement_title": requirement.get("title") if isinstance(requirement, dict) else None,
        "when": scenario.get("when"),
        "then": scenario.get("then"),
        "source": scenario.get("source"),
        "level": scenario.get("level") or _marker_arg(item, "level"),
        "coverage": scenario.get("coverage"),
        "tools": sorted(tools),
        "transport": getattr(item, "transport", None) or default_transport,
        "nodeid": item.nodeid,
        "outcome": "passed",
        "skip_reason": None,
        "failure_message": None,
        "baseline_reason": None,
        "findings": [],
        "not_judged": [],
        "duration": 0.0,
        "calls": [],
    }


def _skip_reason(report: pytest.TestReport) -> str:
    if isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        reason = str(report.longrepr[2])
        return reason.removeprefix("Skipped: ")
    return report.longreprtext


def json_text(document: dict[str, Any]) -> str:
    """The results document as the --conformance-json file holds it."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


class ResultsJsonPlugin:
    """Collects one record per scenario item and writes the results document's outputs at session end."""

    def __init__(self, config: pytest.Config, outputs: dict[Path, Renderer]) -> None:
        self.config = config
        self.outputs = outputs
        self.records: dict[str, dict[str, Any]] = {}
        self.started = time.time()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        record = self.records.get(report.nodeid)
        if record is None:
            return
        record["duration"] = round(record["duration"] + report.duration, 6)
        if report.when == "call":
            record["findings"] = recorded_findings(report.user_properties)
            record["not_judged"] = recorded_not_judged(report.user_properties)
            record["calls"], record["calls_dropped"] = getattr(report, CALLS, None) or ([], 0)
        if baseline_outcome(report) == EXPECTED_FAILURE:
            record["outcome"] = EXPECTED_FAILURE
            record["baseline_reason"] = report.wasxfail.removeprefix(f"{EXPECTED_FAILURE}: ")
            record["failure_message"] = report.longreprtext or record["failure_message"]
        elif report.failed:
            record["outcome"] = "failed"
            record["failure_message"] = report.longreprtext
        elif report.when == "call" and report.passed and record["findings"]:
            record["outcome"] = "warned"
        elif report.skipped and record["outcome"] == "passed":
            informative = record["coverage"] == "informative"
            record["outcome"] = "informative" if informative else "skipped"
            record["skip_reason"] = _skip_reason(report)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        transport = self.config.stash.get(TRANSPORT_KEY, None)
        self.records = {item.nodeid: _record_base(item, transport) for item in items}

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        document = self.document(int(session.exitstatus))
        for path, render in self.outputs.items():
            # A run that collected no scenario leaves no report for people; the JSON says so for machines.
            if render is json_text or document["scenarios"]:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(render(document), encoding="utf-8")

    def document(self, exitstatus: int) -> dict[str, Any]:
        """The whole results document: header, summary counts and the scenario records."""
        import cruxgate

        try:
            revision = spec_revision()
        except FileNotFoundError:
            revision = None
        scenarios = sorted(self.records.values(), key=lambda r: r["id"])
        summary: dict[str, int] = {}
        for record in scenarios:
            summary[record["outcome"]] = summary.get(record["outcome"], 0) + 1
            # A pass needs only enough of each answer to recognise it; any other outcome tells the whole story.
            record["calls"] = trimmed_calls(record["calls"], record["outcome"] == "passed")
            if not record.get("calls_dropped"):
                record.pop("calls_dropped", None)
        return {
            "format_version": FORMAT_VERSION,
            "cruxgate_version": cruxgate.__version__,
            "spec_revision": revision,
            "target_profile": self.config.stash.get(TARGET_PROFILE_KEY, None),
            "server_info": self.config.stash.get(SERVER_INFO_KEY, None),
            "started_at": datetime.fromtimestamp(self.started, UTC).isoformat(),
            "exit_status": int(exitstatus),
            "transport": self.config.stash.get(TRANSPORT_KEY, None),
            "strict": bool(self.config.getoption("strict", False)),
            "summary": summary,
            "scenarios": scenarios,
        }


def register(config: pytest.Config, reports: dict[str, Renderer] | None = None) -> None:
    """Register the collector when --conformance-json or a report option (`reports`: option -> renderer) is given."""
    if hasattr(config, "workerinput"):
        return
    outputs: dict[Path, Renderer] = {}
    for option, render in {"conformance_json": json_text, **(reports or {})}.items():
        if path := config.getoption(option, None):
            outputs[Path(path)] = render
    if outputs:
        config.pluginmanager.register(ResultsJsonPlugin(config, outputs), "cruxgate-results-json")
