"""The SLO harness's pytest plugin: options (--slo-gate, --slo-report, --slo-smoke, ...: slo/options.py), the targets
as session fixtures, the `record` fixture that gates, and the report.

`cruxgate slo` loads it with `-p`; benchmarks/conftest.py re-exports its hooks and fixtures for
`pytest benchmarks/test_slo.py`; tests/benchmarks loads it into small pytester runs to prove the gate
bites without starting a server. The target options are the conformance runner's (--target,
--target-profile, --server-cmd, --server-url, --fixtures-dir: its entry point defines them); a target
is prepared and started by conformance's own lifecycle, so a benchmark sees exactly the server a
conformance run would gate.
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cruxgate.conformance.slo import options as slo_options
from cruxgate.conformance.slo import tokens
from cruxgate.conformance.slo.cache import cache_dir
from cruxgate.conformance.slo.corpus import copy_stdlib
from cruxgate.conformance.slo.registry import Measurement, gate_message
from cruxgate.conformance.slo.report import markdown, write
from cruxgate.conformance.slo.server import BenchServer
from cruxgate.conformance.slo.settings import FULL, SMOKE, Settings
from cruxgate.conformance.spec.paths import fixtures_dir, scored_search_dir
from cruxgate.conformance.target.profile import ProfileError, Target, resolve

FIXTURE = "polyglot"
# The source system's name for the semantic channel's mode; a target that does not know it ignores it.
SEMANTIC_OFF = {"search": {"semantic": {"mode": "off"}}}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cruxgate-slo", "cruxgate SLO benchmarks (benchmarks/test_slo.py)")
    slo_options.OPTIONS.add_to_pytest(group)


class SLORecorder:
    """Collects every measurement of the session; writes the report and prints the table at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.measurements: list[Measurement] = []
        self.header: dict[str, Any] = {
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "mode": "smoke" if config.getoption("slo_smoke") else "full",
            "gate": "on" if config.getoption("slo_gate") else "off",
            "transport": config.getoption("target"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
            "tokens": tokens.method(),
        }
        # Markdown lines and JSON keys appended to the report as information (the checkout's scale figures).
        self.appendix: Callable[[], tuple[list[str], dict[str, Any]]] = lambda: ([], {})

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.header["load average at end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
        path = self.config.getoption("slo_report")
        if path and self.measurements:
            write(Path(path), self.measurements, self.header, self.appendix())

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.measurements:
            return
        terminalreporter.write_sep("-", "cruxgate SLO figures")
        for line in markdown(self.measurements, self.header).splitlines()[2:]:
            terminalreporter.write_line(line)
        path = self.config.getoption("slo_report")
        if path:
            terminalreporter.write_line(f"cruxgate: SLO report written to {path} (and its .json and .html twins)")


RECORDER_KEY = pytest.StashKey[SLORecorder]()


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("slo_smoke") and config.getoption("slo_gate"):
        raise pytest.UsageError("--slo-smoke never gates: drop --slo-gate (smoke figures are a handful of calls)")
    recorder = SLORecorder(config)
    config.stash[RECORDER_KEY] = recorder
    config.pluginmanager.register(recorder, "cruxgate-slo-recorder")


@pytest.fixture(scope="session")
def settings(pytestconfig: pytest.Config) -> Settings:
    """The run's sizes (full or smoke, --slo-rounds applied)."""
    chosen = SMOKE if pytestconfig.getoption("slo_smoke") else FULL
    rounds = pytestconfig.getoption("slo_rounds")
    return chosen if rounds is None else Settings(**{**chosen.__dict__, "rounds": rounds})


@pytest.fixture
def record(request: pytest.FixtureRequest) -> Callable[..., None]:
    """Record measurements for the report, print them, and under --slo-gate fail on any over our bar."""
    recorder = request.config.stash[RECORDER_KEY]

    def record_all(*measurements: Measurement) -> None:
        recorder.measurements.extend(measurements)
        for measurement in measurements:
            floor = f", floor p95 {measurement.floor_p95:.2f} ms" if measurement.floor_p95 is not None else ""
            if measurement.client_p95 is not None:
                floor += f", client-side p95 {measurement.client_p95:.2f} ms"
            print(f"\n[{measurement.slo.id} on {measurement.corpus}] {measurement.value:.2f} {measurement.slo.unit}"
                  f"{floor} ({measurement.samples} samples) {measurement.note}")
        failures = [message for m in measurements if (message := gate_message(m))]
        if failures and request.config.getoption("slo_gate"):
            pytest.fail("\n".join(failures), pytrace=False)

    return record_all


def match_reasons(config: pytest.Config) -> Path:
    """The labeled match-reason cases: --slo-match-reasons, else the bundled set."""
    option = config.getoption("slo_match_reasons")
    return Path(option) if option else scored_search_dir() / "match-reasons.yaml"


# ------------------------------------------------------------------ targets over the wire


@pytest.fixture(scope="session")
def bench_target(pytestconfig: pytest.Config) -> Target:
    """The target the conformance options name (default: the bundled reference over stdio)."""
    try:
        return resolve(pytestconfig.getoption("target"), pytestconfig.getoption("target_profile"),
                       pytestconfig.getoption("server_cmd"), pytestconfig.getoption("server_url"),
                       pytestconfig.getoption("server_token_file"))
    except ProfileError as exc:
        raise pytest.UsageError(str(exc)) from None


def _started(pytestconfig: pytest.Config, target: Target, root: Path, corpus: str,
             config: dict[str, Any] | None = None) -> BenchServer:
    """A BenchServer on `root/corpus`, warm (prewarm finished) before any figure is taken."""
    server = BenchServer(target, pytestconfig.getoption("target"), root, corpus, config,
                         pytestconfig.getoption("target_deadline") or 0)  # given: each server's own deadline
    recorder = pytestconfig.stash[RECORDER_KEY]
    info = server.server_info() or {}
    recorder.header["target"] = f"{target.name} ({info.get('name', '?')} {info.get('version', '')})".strip()
    recorder.header["target_profile"] = target.name  # what `cruxgate report --slo` matches results by
    server.wait_ready(target.timeouts["start"])
    return server


def _fixtures_root(pytestconfig: pytest.Config) -> Path:
    option = pytestconfig.getoption("fixtures_dir")
    return Path(option) if option else fixtures_dir()


@pytest.fixture(scope="session")
def fixture_server(pytestconfig: pytest.Config, bench_target: Target) -> Iterator[BenchServer]:
    """The target serving the polyglot golden fixture (outline file, labeled match reasons)."""
    server = _started(pytestconfig, bench_target, _fixtures_root(pytestconfig), FIXTURE)
    yield server
    server.close()


@pytest.fixture(scope="session")
def stdlib_source(pytestconfig: pytest.Config) -> Path:
    """The stdlib's sources, copied once into the cache (unindexed: each target indexes its own copy)."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    source = cache_dir(pytestconfig, "cruxgate-corpus") / f"stdlib-py{version}"
    marker = source.parent / f"{source.name}.complete"
    if not marker.exists():
        started = time.perf_counter()
        files = copy_stdlib(source)
        marker.write_text(str(files), encoding="utf-8")
        print(f"\n[stdlib corpus] copied {files} files in {time.perf_counter() - started:.1f} s into {source}")
    return source


@pytest.fixture(scope="session")
def corpus_server(pytestconfig: pytest.Config, bench_target: Target, settings: Settings,
                  request: pytest.FixtureRequest) -> Iterator[BenchServer]:
    """The target serving the real corpus (the stdlib); in smoke mode, or with --server-url, the fixture's server."""
    if settings.smoke or bench_target.fixed_url:
        yield request.getfixturevalue("fixture_server")
        return
    source = request.getfixturevalue("stdlib_source")
    server = _started(pytestconfig, bench_target, source.parent, source.name)
    yield server
    server.close()


@pytest.fixture(scope="session")
def lexical_server(pytestconfig: pytest.Config, bench_target: Target, settings: Settings,
                   request: pytest.FixtureRequest) -> Iterator[BenchServer]:
    """The corpus server's twin with the semantic channel off (`search.semantic.mode = "off"`)."""
    if bench_target.fixed_url:
        pytest.skip("a running server (--server-url) cannot be started a second time with another config")
    if settings.smoke:
        server = _started(pytestconfig, bench_target, _fixtures_root(pytestconfig), FIXTURE, SEMANTIC_OFF)
    else:
        source = request.getfixturevalue("stdlib_source")
        server = _started(pytestconfig, bench_target, source.parent, source.name, SEMANTIC_OFF)
    yield server
    server.close()
