"""--slo-gate: a measurement over our bar fails its test with measured vs limit; without the gate it is reported."""

from __future__ import annotations

import json

import pytest

pytest_plugins = ["pytester"]

OVER_BAR = """
from cruxgate.conformance.slo.registry import REGISTRY, Measurement

def test_health(record):
    record(Measurement(REGISTRY["SC-105"], value=4.0, p50=3.0, p95=4.0, floor_p95=2.0, samples=3, corpus="c"))

def test_floor(record):
    record(Measurement(REGISTRY["floor"], value=2.0, p50=1.0, p95=2.0, samples=3, corpus="c"))
"""


@pytest.fixture
def bench_dir(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest("from cruxgate.conformance.slo.plugin import (  # noqa: F401\n"
                          "    pytest_addoption, pytest_configure, record, settings)\n")
    pytester.makepyfile(test_fake_slo=OVER_BAR)
    return pytester


def test_gate_fails_the_test_over_our_bar_with_measured_vs_limit(bench_dir: pytest.Pytester) -> None:
    result = bench_dir.runpytest_inprocess("--slo-gate", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*SC-105 (health_check p95): measured 2.00x floor (p95 4.00 ms, floor p95 2.00 ms), "
                                 "our bar <= 1.5x floor; spec: < 10 ms (over our bar)*"])


def test_without_gate_figures_are_reported_not_failed(bench_dir: pytest.Pytester) -> None:
    report = bench_dir.path / "slo.md"
    result = bench_dir.runpytest_inprocess("--slo-report", str(report), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*cruxgate SLO figures*", "*| SC-105 | 4.00 ms |*over our bar*"])
    assert "| floor | 2.00 ms |" in report.read_text(encoding="utf-8")
    verdicts = {row["slo"]: row["verdict"] for row in json.loads((bench_dir.path / "slo.json").read_text())["results"]}
    assert verdicts == {"SC-105": "over our bar", "floor": "recorded"}


def test_smoke_refuses_the_gate(bench_dir: pytest.Pytester) -> None:
    result = bench_dir.runpytest_inprocess("--slo-smoke", "--slo-gate", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--slo-smoke never gates*"])
