"""The SLO options (--slo-gate, --slo-report, --slo-smoke, ...), the `record` fixture that gates, and the report.

benchmarks/conftest.py re-exports these hooks and fixtures; tests/benchmarks loads them into
small pytester runs to prove the gate bites without starting a server.
"""

from __future__ import annotations

import datetime
import os
import platform
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bench_settings import FULL, SMOKE, Settings
from slo import Measurement, gate_message
from slo_report import markdown, write

ROOT = Path(__file__).resolve().parents[1]
MATCH_REASONS = ROOT / "golden" / "scored-search" / "match-reasons.yaml"
SCALE_RECORD = ROOT / "docs" / "scale.json"  # the scale benchmark's last record: information in the report


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cruxgate-slo", "cruxgate SLO benchmarks (benchmarks/test_slo.py)")
    group.addoption("--slo-gate", action="store_true", default=False,
                    help="fail a benchmark whose p95 or ratio is over our bar (default: record and report only)")
    group.addoption("--slo-report", metavar="PATH", default=None,
                    help="write the SLO table as Markdown at PATH and as JSON beside it (PATH with suffix .json)")
    group.addoption("--slo-smoke", action="store_true", default=False,
                    help="few rounds on the fixture corpus only, never gating: proves the benchmarks run")
    group.addoption("--slo-rounds", metavar="N", type=int, default=None,
                    help="timed calls per variant of each latency scenario (default 200; smoke 10)")
    group.addoption("--slo-match-reasons", metavar="FILE", default=str(MATCH_REASONS),
                    help="labeled match-reason cases for SS-REASONS-04 "
                         "(default golden/scored-search/match-reasons.yaml)")


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
        }

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.header["load average at end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
        path = self.config.getoption("slo_report")
        if path and self.measurements:
            write(Path(path), self.measurements, self.header, scale=SCALE_RECORD)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.measurements:
            return
        terminalreporter.write_sep("-", "cruxgate SLO figures")
        for line in markdown(self.measurements, self.header).splitlines()[2:]:
            terminalreporter.write_line(line)
        path = self.config.getoption("slo_report")
        if path:
            terminalreporter.write_line(f"cruxgate: SLO report written to {path} (and its .json twin)")


RECORDER_KEY = pytest.StashKey[SLORecorder]()


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("slo_smoke") and config.getoption("slo_gate"):
        raise pytest.UsageError("--slo-smoke never gates: drop --slo-gate (smoke figures are a handful of calls)")
    # The SDK flags ping as legacy-only on every call; the runner's connections are legacy-mode.
    config.addinivalue_line("filterwarnings", "ignore:ping is removed")
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
            print(f"\n[{measurement.slo.id} on {measurement.corpus}] {measurement.value:.2f} {measurement.slo.unit}"
                  f"{floor} ({measurement.samples} samples) {measurement.note}")
        failures = [message for m in measurements if (message := gate_message(m))]
        if failures and request.config.getoption("slo_gate"):
            pytest.fail("\n".join(failures), pytrace=False)

    return record_all
