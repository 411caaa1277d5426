"""The cruxgate pytest plugin (entry point `pytest11: cruxgate`): options, markers, collection and gating.

It stays inert in any pytest run that does not collect conformance/suite.yaml:
no profile is read and no server is started until the suite is collected.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any, cast

import pytest

from cruxgate.conformance.checks.judge import recorded_findings
from cruxgate.conformance.fuzz import (
    plugin as fuzz_plugin,  # the fuzz phase (--fuzz), its own options and hooks
)
from cruxgate.conformance.report import baseline, digest, html_report, markdown, results_json
from cruxgate.conformance.report.transcript import CALLS
from cruxgate.conformance.runner import heap
from cruxgate.conformance.runner.collect import (
    BLOCKED,
    LIFECYCLE_KEY,
    SCENARIO,
    STRICT_KEY,
    TARGET_KEY,
    ScenarioItem,
    SuiteFile,
    WireItem,
    is_suite_anchor,
    lifecycle_for,
    raise_deferred_usage_error,
)
from cruxgate.conformance.spec.model import WIRE_SCENARIO_ID
from cruxgate.conformance.spec.paths import SUITE_PACKAGE, packaged_data_dir
from cruxgate.conformance.target import options as target_options
from cruxgate.conformance.target import reaper

MARKERS = (
    "document(name): the spec document a scenario belongs to (-m \"document(name='agent-protocol')\")",
    "requirement(id): the spec requirement a scenario checks (-m \"requirement(id='AP-EXPLAIN')\")",
    "level(name): the normative level, MUST | SHOULD | MAY (-m \"level(name='MUST')\", or -m must)",
    "tool(name): a tool the scenario calls, one marker per tool (-m \"tool(name='search_code')\")",
    "must: a MUST scenario", "should: a SHOULD scenario", "may: a MAY scenario",
    "executable: a scenario run over the wire", "hook: a scenario that needs a target hook",
    "benchmark: measured by a benchmark, reported not run",
    "informative: not observable over the wire, reported not run",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cruxgate", "cruxgate conformance gate")
    target_options.OPTIONS.add_to_pytest(group)
    group.addoption("--spec-dir", metavar="DIR", default=None,
                    help="spec documents to run (default: the bundled spec/)")
    group.addoption("--conformance-report", metavar="FILE", default=None,
                    help="write a Markdown report: counts by level, requirement x scenario x outcome, "
                         "every failure in full (its calls and answers), skips grouped by cause")
    group.addoption("--conformance-html", metavar="FILE", default=None,
                    help="write the same as one self-contained HTML page: filterable, each failure expandable")
    baseline.add_options(parser)
    results_json.add_options(parser)
    fuzz_plugin.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    for marker in MARKERS:
        config.addinivalue_line("markers", marker)
    if _distributed(config) and _runs_the_suite(config):
        # Each xdist worker would hold part of the verdict, the reports and the baseline: refuse rather than
        # write a report of nothing.
        raise pytest.UsageError("cruxgate: the conformance suite does not run under pytest-xdist (-n/--dist): "
                                "its verdict, reports and baseline are the whole run's; run it without -n "
                                "(scenarios already prepare servers ahead in parallel)")
    # pytest's own --strict (its strict mode) also makes cruxgate's warnings fail: one switch for a strict run.
    config.stash[STRICT_KEY] = bool(config.getoption("strict", False) or _ini_strict(config))
    config.stash[results_json.TRANSPORT_KEY] = config.getoption("target")
    gate = GatePlugin(config)
    config.pluginmanager.register(gate, "cruxgate-gate")
    baseline.register(config)
    results_json.register(config, {"conformance_report": markdown.render, "conformance_html": html_report.render})
    fuzz_plugin.register(config)


def _distributed(config: pytest.Config) -> bool:
    """Whether pytest-xdist will spread this run over workers."""
    workers = config.getoption("numprocesses", None)
    return bool(workers and workers != "0") or config.getoption("dist", "no") not in ("no", None)


def _runs_the_suite(config: pytest.Config) -> bool:
    """Whether the run's arguments reach conformance/suite.yaml (a path to or above it, or the package by name)."""
    suite = Path(__file__).resolve().parent
    for arg in config.args:
        where = arg.split("::")[0]
        if where == SUITE_PACKAGE or where.startswith(SUITE_PACKAGE + "."):
            return True
        path = (config.invocation_params.dir / where).resolve()
        if path == suite or suite in path.parents or path in suite.parents:
            return True
    return False


def _ini_strict(config: pytest.Config) -> bool:
    try:
        return bool(config.getini("strict"))
    except (ValueError, KeyError):  # a pytest without the strict ini option
        return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The wheel's fixture repositories are data to index: `--pyargs cruxgate.conformance` must not run their tests."""
    data = packaged_data_dir()
    return True if collection_path == data or data in collection_path.parents else None


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if is_suite_anchor(file_path):
        return SuiteFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """A scenario's calls ride on its call-phase report (records, dropped), as its findings ride on properties;
    its skip line names the scenario (`SKIPPED [1] AP-CONFIG-01: reason`), not the runner's source line."""
    report = yield
    transcript = getattr(item, "transcript", None)
    if call.when == "call" and isinstance(item, ScenarioItem) and transcript is not None:
        setattr(report, CALLS, (transcript.records, transcript.dropped))
    if isinstance(item, ScenarioItem) and isinstance(report, pytest.TestReport) and report.skipped \
            and isinstance(report.longrepr, tuple) and not hasattr(report, "wasxfail"):
        # pytest's terminal summary prints a location without a line number when it is None (typed as int).
        report.longrepr = cast("tuple[str, int, str]", (item.name, None, report.longrepr[2]))
    return report


LOOKAHEAD = 8  # items scanned for environments to prepare ahead


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """While a scenario runs, prepare the next ones' workspaces and servers (starting a server is the slow part)."""
    if not isinstance(item, ScenarioItem) or nextitem is None:
        return
    items = item.session.items
    position = items.index(item) if item in items else -1
    upcoming = [(later.spec, transports) for later in items[position + 1:position + 1 + LOOKAHEAD]
                if isinstance(later, ScenarioItem) and (transports := later.needs_environment())]
    if upcoming:
        lifecycle_for(item.config).prefetch(upcoming, item.spec)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Group scenarios that can share a workspace and server, keeping the spec order otherwise."""
    raise_deferred_usage_error(config)  # a bad profile or spec stops here: its message, exit status 4
    scenario_items = [item for item in items if isinstance(item, ScenarioItem)]
    if not scenario_items:
        return
    groups: dict[str, list[ScenarioItem]] = {}
    for item in scenario_items:
        key = item.nodeid if item.spec.mutates() else item.spec.environment_key("")
        groups.setdefault(key, []).append(item)
    # The wire scenario goes last: it judges what every server of the run wrote to stdout.
    ordered = iter(sorted((item for group in groups.values() for item in group), key=lambda i: isinstance(i, WireItem)))
    items[:] = [next(ordered) if isinstance(item, ScenarioItem) else item for item in items]


class GatePlugin:
    """The run's verdict beyond single scenarios: a run that executed no scenario is not green; warnings listed."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.collected = 0
        self.executed = 0
        self.warnings: list[tuple[str, dict[str, Any]]] = []
        self.blocked: dict[str, list[str]] = {}  # missing tool -> scenarios it blocked
        self.readings: dict[str, set[str]] = {}  # reading id -> the scenarios whose answers depart from it

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if session.config.option.collectonly:  # the wire scenario judges no requirement: it is not a run
            return
        scenarios = [item for item in session.items if isinstance(item, ScenarioItem)]
        self.collected = len(scenarios)
        if scenarios:
            later = any(map(session.config.pluginmanager.has_plugin, ("hypothesispytest", "cruxgate-fuzz")))
            heap.settle(needs_server=any(item.needs_environment() for item in scenarios), hypothesis_later=later)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call":
            return
        for name, tool in report.user_properties:
            if name == BLOCKED:
                self.blocked.setdefault(str(tool), []).append(report.nodeid.rsplit("::", 1)[-1])
        findings = recorded_findings(report.user_properties)
        if report.passed:  # a scenario's warnings, or a fuzz item's
            self.warnings += [(report.nodeid, finding) for finding in findings]
        for finding in findings:  # passed with warnings, or failed on one under --strict
            if finding["basis"].get("reading"):
                self.readings.setdefault(finding["basis"]["reading"], set()).add(finding["id"].split("/", 1)[0])
        if not any(name == SCENARIO for name, _ in report.user_properties):
            return
        if (report.passed or report.failed or hasattr(report, "wasxfail")) and \
                not any(name == SCENARIO and value == WIRE_SCENARIO_ID for name, value in report.user_properties):
            self.executed += 1

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        # Failed, raised as --maxfail does, settles the exit status before any pytest_sessionfinish runs,
        # so every plugin (ours, junitxml, a user's) sees the same verdict whatever the hook order.
        result = yield
        if self.collected and not self.executed:
            raise session.Failed("cruxgate: no scenario of the spec was executed against the target")
        return result

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.warnings:
            terminalreporter.write_sep("-", f"cruxgate: {len(self.warnings)} warning(s) "
                                            "(not gating; --strict fails them)")
            for _, finding in self.warnings:
                basis = finding["basis"]
                # a fuzz item's finding (and the wire scenario's) has no step
                step = f" step {finding['step']}" if finding["step"] is not None else ""
                terminalreporter.write_line(f"  {finding['id']} [{digest.basis_label(basis)}]"
                                            f"{step}: {finding['message'].splitlines()[0][:200]}")
        if self.blocked:
            terminalreporter.write_sep("-", f"cruxgate: {sum(map(len, self.blocked.values()))} scenario(s) blocked "
                                            "by a tool the target does not list (tools/list)")
            for tool, scenarios in sorted(self.blocked.items()):
                terminalreporter.write_line(f"  {tool}: {', '.join(scenarios)}")
        if self.readings:
            terminalreporter.write_sep("-", f"cruxgate: the target departs from {len(self.readings)} reading(s) "
                                            "of docs/readings.md")
            for reading in sorted(self.readings, key=lambda r: int(r[1:])):
                scenarios = sorted(self.readings[reading])
                terminalreporter.write_line(f"  {reading}: {', '.join(scenarios)}")
        if self.collected and not self.executed:
            terminalreporter.write_sep("!", "cruxgate: no scenario of the spec was executed against the target, so "
                                            "it is not judged conformant (every scenario was skipped or only the "
                                            "wire scenario ran; see the reasons)")
        note = reaper.subreaper_note()
        if note and LIFECYCLE_KEY in self.config.stash:
            terminalreporter.write_line(f"cruxgate: process groups only: {note}")
        for option, kind in (("conformance_report", "Markdown"), ("conformance_html", "HTML")):
            report = self.config.getoption(option, None)
            if report and TARGET_KEY in self.config.stash:
                terminalreporter.write_line(f"cruxgate: {kind} report written to {report}")


def pytest_unconfigure(config: pytest.Config) -> None:
    lifecycle = config.stash.get(LIFECYCLE_KEY, None)
    if lifecycle is not None:
        lifecycle.close()
        del config.stash[LIFECYCLE_KEY]
