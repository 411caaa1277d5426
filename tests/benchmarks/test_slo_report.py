"""The SLO report: a Markdown table, its JSON twin and its HTML page carrying the same figures."""

from __future__ import annotations

import json
from pathlib import Path

from cruxgate.conformance.slo.registry import REGISTRY, Measurement
from cruxgate.conformance.slo.report import html_path, json_path, write


def test_report_writes_markdown_table_and_json_twin(tmp_path: Path) -> None:
    measurements = [
        Measurement(REGISTRY["floor"], value=2.0, p50=1.5, p95=2.0, samples=200, corpus="stdlib-py3.11"),
        Measurement(REGISTRY["SC-105"], value=4.0, p50=3.0, p95=4.0, floor_p95=2.0, client_p95=6.5, samples=200,
                    corpus="stdlib-py3.11"),
        Measurement(REGISTRY["SC-101"], value=33.3, samples=400, corpus="polyglot", note="a | pipe"),
    ]
    markdown_path, twin = write(tmp_path / "out" / "slo.md", measurements, {"target": "t", "mode": "full"})
    assert twin == tmp_path / "out" / "slo.json"
    text = markdown_path.read_text(encoding="utf-8")
    assert "- target: t" in text
    header = ("| SLO | measured | our bar | spec limit | p50 ms | p95 ms | client p95 ms | floor p95 ms "
              "| ratio to floor | verdict |")
    assert header in text
    assert "| SC-105 | 4.00 ms | <= 1.5x floor | < 10 ms | 3.00 | 4.00 | 6.50 | 2.00 | 2.00 | over our bar |" in text
    assert "| SC-101 | 33.30 tokens | <= 40 tokens | <= 60 tokens |  |  |  |  |  | pass |" in text
    assert "- SC-101: a | pipe" in text
    data = json.loads(twin.read_text(encoding="utf-8"))
    assert data["target"] == "t"
    health = next(r for r in data["results"] if r["slo"] == "SC-105")
    assert health == {**health, "p95_ms": 4.0, "client_p95_ms": 6.5, "floor_p95_ms": 2.0, "ratio_to_floor": 2.0,
                      "verdict": "over our bar",
                      "our_bar": "<= 1.5x floor", "spec_limit": "< 10 ms", "test": "test_sc105_health_check_p95"}
    page = html_path(markdown_path).read_text(encoding="utf-8")  # the HTML report's SLO section, alone
    assert '<section id="slo">' in page and "default-src 'none'" in page
    assert ("<td>SC-105</td><td>4.00 ms</td><td>&lt;= 1.5x floor</td><td>&lt; 10 ms</td><td>3.00</td><td>4.00</td>"
            "<td>6.50</td>") in page
    assert "<b>SC-101</b>: a | pipe" in page


def test_json_twin_never_overwrites_the_markdown() -> None:
    assert json_path(Path("r/slo.md")) == Path("r/slo.json")
    assert json_path(Path("r/slo")) == Path("r/slo.json")
    assert json_path(Path("r/slo.json")) == Path("r/slo.json.json")
    assert html_path(Path("r/slo.md")) == Path("r/slo.html")
    assert html_path(Path("r/slo.html")) == Path("r/slo.html.html")
