"""The SLO report: a Markdown table for people, its JSON twin (same path, `.json`) for machines, and an HTML page.

The HTML page (same path, `.html`) is the HTML report's SLO section alone; `cruxgate report --slo`
puts the same figures beside a target's conformance results.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cruxgate.conformance.report.html_report import render_slo
from cruxgate.conformance.slo.registry import Measurement, verdict

COLUMNS = ("SLO", "measured", "our bar", "spec limit", "p50 ms", "p95 ms", "client p95 ms", "floor p95 ms",
           "ratio to floor", "verdict", "corpus", "samples")


def _number(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def row(measurement: Measurement) -> dict[str, Any]:
    """One measurement as plain data (the JSON entry; the Markdown row shows the same)."""
    slo = measurement.slo
    return {
        "slo": slo.id, "test": slo.test, "figure": slo.figure, "unit": slo.unit,
        "value": round(measurement.value, 4),
        "our_bar": slo.ours.describe(slo.unit) if slo.ours else None,
        "spec_limit": slo.spec.describe(slo.unit) if slo.spec else None,
        "p50_ms": None if measurement.p50 is None else round(measurement.p50, 4),
        "p95_ms": None if measurement.p95 is None else round(measurement.p95, 4),
        "client_p95_ms": None if measurement.client_p95 is None else round(measurement.client_p95, 4),
        "floor_p95_ms": None if measurement.floor_p95 is None else round(measurement.floor_p95, 4),
        "ratio_to_floor": None if measurement.ratio_to_floor is None else round(measurement.ratio_to_floor, 3),
        "verdict": verdict(measurement), "corpus": measurement.corpus, "samples": measurement.samples,
        "note": measurement.note,
    }


def markdown(measurements: list[Measurement], header: dict[str, Any]) -> str:
    """The report as Markdown: the run's header lines, then one table row per measurement."""
    lines = ["# SLO report", ""]
    lines += [f"- {key}: {value}" for key, value in header.items()]
    lines += ["", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for measurement in measurements:
        data = row(measurement)
        cells = [data["slo"], f"{measurement.value:.2f} {data['unit']}".rstrip(), data["our_bar"] or "",
                 data["spec_limit"] or "", _number(measurement.p50), _number(measurement.p95),
                 _number(measurement.client_p95), _number(measurement.floor_p95),
                 _number(measurement.ratio_to_floor), data["verdict"], data["corpus"], str(data["samples"])]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    notes = [f"- {m.slo.id}: {m.note}" for m in measurements if m.note]
    if notes:
        lines += ["", "Notes:", "", *notes]
    return "\n".join(lines) + "\n"


def json_path(path: Path) -> Path:
    """Where the JSON twin of a Markdown report goes: the same path with the suffix `.json`."""
    return path.with_suffix(".json") if path.suffix != ".json" else path.with_suffix(".json.json")


def html_path(path: Path) -> Path:
    """Where the HTML page of a Markdown report goes: the same path with the suffix `.html`."""
    return path.with_suffix(".html") if path.suffix != ".html" else path.with_suffix(".html.html")


def write(path: Path, measurements: list[Measurement], header: dict[str, Any],
          appendix: tuple[list[str], dict[str, Any]] = ([], {})) -> tuple[Path, Path]:
    """Write the Markdown report at `path`, its JSON twin and its HTML page; return the first two paths.

    `appendix`: Markdown lines and JSON keys appended as information (the checkout's scale figures, which come
    from another command and another run, and never gate this one).
    """
    lines, extra = appendix
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown(measurements, header) + "".join(f"{line}\n" for line in lines), encoding="utf-8")
    twin = json_path(path)
    record: dict[str, Any] = {**header, "results": [row(m) for m in measurements], **extra}
    twin.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    html_path(path).write_text(render_slo(record), encoding="utf-8")
    return path, twin
