"""The scale benchmark's outputs: a Markdown table (spliced into docs/benchmarks.md), an SVG plot, a JSON record."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import semantic_recall

BEGIN = "<!-- scale-table:begin (benchmarks/scale.py writes this table) -->"
END = "<!-- scale-table:end -->"
TOOLS = ("search_code", "locate_symbol", "find_references", "get_file_outline")
COLOURS = {"search_code": "#1f77b4", "locate_symbol": "#ff7f0e", "find_references": "#2ca02c",
           "get_file_outline": "#d62728", "files/s": "#555555"}


def table(rows: list[dict[str, Any]]) -> str:
    """The Markdown table: one row per corpus size, from the JSON rows."""
    head = ["files", "MB", "symbols", "full index s", "files/s", "unchanged re-index s (of full)",
            "one-file edit re-index s (of full)", "indexer peak RSS MB", "index MB", "server peak RSS MB",
            *(f"{tool} p50 / p95 ms" for tool in TOOLS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        edit = r.get("edit_s")  # absent from records made before the benchmark timed edits
        cells = [f"{r['files']:,}", f"{r['bytes'] / 1e6:.1f}", f"{r['symbols']:,}", f"{r['full_s']:.1f}",
                 f"{r['files'] / r['full_s']:.0f}", f"{r['reindex_s']:.2f} ({100 * r['reindex_s'] / r['full_s']:.1f}%)",
                 "-" if edit is None else f"{edit:.2f} ({100 * edit / r['full_s']:.1f}%)",
                 f"{r['indexer_rss_mb']:.0f}", f"{r['index_mb']:.0f}", f"{r['server_rss_mb']:.0f}",
                 *(f"{r['latency'][t]['p50']:.1f} / {r['latency'][t]['p95']:.1f}" for t in TOOLS)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def splice(document: str, block: str) -> str:
    """`document` with the text between the markers replaced by `block` (markers kept); an error without them."""
    start, stop = document.find(BEGIN), document.find(END)
    if start < 0 or stop < start:
        raise ValueError(f"the document has no {BEGIN!r} ... {END!r} markers")
    return document[:start + len(BEGIN)] + "\n" + block.strip("\n") + "\n" + document[stop:]


def _axis_x(files: list[int], left: float, width: float) -> Any:
    lo, hi = math.log10(min(files)), math.log10(max(files))
    span = hi - lo or 1.0
    return lambda n: left + (math.log10(n) - lo) / span * width


def _polyline(points: list[tuple[float, float]], colour: str) -> str:
    coordinates = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>' for x, y in points)
    return f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{coordinates}"/>{dots}'


def _panel(title: str, series: dict[str, list[float]], files: list[int], left: float, unit: str) -> list[str]:
    """One panel: each series against the file count (log scale), y from 0."""
    top, width, height = 40.0, 300.0, 200.0
    x = _axis_x(files, left, width)
    peak = max(max(values) for values in series.values()) * 1.15 or 1.0
    y = lambda v: top + height - v / peak * height  # noqa: E731 - a one-line scale, local to the panel
    out = [f'<text x="{left + width / 2:.0f}" y="24" text-anchor="middle" font-size="14">{escape(title)}</text>',
           f'<line x1="{left}" y1="{top + height}" x2="{left + width}" y2="{top + height}" stroke="#000"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + height}" stroke="#000"/>']
    for i in range(5):
        value = peak * i / 4
        out.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end" font-size="11">{value:.0f}</text>')
        out.append(f'<line x1="{left}" y1="{y(value):.1f}" x2="{left + width}" y2="{y(value):.1f}" stroke="#ddd"/>')
    out.extend(f'<text x="{x(n):.1f}" y="{top + height + 16}" text-anchor="middle" font-size="11">{n:,}</text>'
               for n in files)
    out.append(f'<text x="{left + width / 2:.0f}" y="{top + height + 34}" text-anchor="middle" font-size="12">'
               f'files in the corpus (log scale)</text>')
    out.append(f'<text x="{left - 40}" y="{top + height / 2:.0f}" font-size="12" text-anchor="middle" '
               f'transform="rotate(-90 {left - 40} {top + height / 2:.0f})">{escape(unit)}</text>')
    for k, (name, values) in enumerate(series.items()):
        colour = COLOURS.get(name, "#000")
        out.append(_polyline([(x(n), y(v)) for n, v in zip(files, values, strict=True)], colour))
        out.append(f'<text x="{left + 8}" y="{top + 14 + 14 * k}" font-size="11" fill="{colour}">{escape(name)}</text>')
    return out


def svg(rows: list[dict[str, Any]]) -> str:
    """Two panels: warm p95 latency per tool, and full-index throughput, against corpus size."""
    files = [r["files"] for r in rows]
    latency = {tool: [r["latency"][tool]["p95"] for r in rows] for tool in TOOLS}
    throughput = {"files/s": [r["files"] / r["full_s"] for r in rows]}
    body = [*_panel("warm p95 over stdio", latency, files, 70.0, "ms"),
            *_panel("full index throughput", throughput, files, 470.0, "files/s")]
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="290" font-family="sans-serif">'
            '<rect width="100%" height="100%" fill="#fff"/>' + "".join(body) + "</svg>\n")


def write(rows: list[dict[str, Any]], header: dict[str, Any], docs: Path, data: Path, plot: Path) -> None:
    """Write the JSON record, the SVG plot, and the table (with the run's header lines) into `docs`."""
    data.write_text(json.dumps({**header, "rows": rows}, indent=2) + "\n", encoding="utf-8")
    plot.write_text(svg(rows), encoding="utf-8")
    lines = [f"{key}: {value}" for key, value in header.items()]
    semantic = semantic_recall.table(rows)  # the semantic search against its exact scan, where measured
    block = "\n".join(f"- {line}" for line in lines) + "\n\n" + table(rows) + "\n\n" + \
        (semantic + "\n\n" if semantic else "") + \
        f"![warm p95 and full-index throughput against corpus size]({plot.name})"
    docs.write_text(splice(docs.read_text(encoding="utf-8"), block), encoding="utf-8")


def information(data: Path) -> list[str]:
    """The scale figures as Markdown lines for the SLO report (information, never gated); [] without a record."""
    try:
        record = json.loads(data.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    rows = record.get("rows") or []
    if not rows:
        return []
    return ["", "## Scale (information, not gated)", "",
            f"From `{data.name}`, recorded {record.get('date', '?')} by `python3 benchmarks/scale.py` "
            "(the reference, not this run's target):", "", table(rows)]


def appendix(data: Path) -> tuple[list[str], dict[str, Any]]:
    """The scale figures as the SLO report's appendix: Markdown lines and the JSON key (empty without a record)."""
    lines = information(data)
    return (lines, {"scale_information": json.loads(data.read_text(encoding="utf-8"))}) if lines else ([], {})
