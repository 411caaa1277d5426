"""The scale benchmark's outputs: a Markdown table (spliced into docs/benchmarks.md), an SVG plot, a JSON record."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import semantic_recall

BEGIN = "<!-- scale-table:begin (benchmarks/scale.py writes this table) -->"
END = "<!-- scale-table:end -->"
README_BEGIN = "<!-- scale-summary:begin (benchmarks/scale.py writes this table) -->"
README_END = "<!-- scale-summary:end -->"
TOOLS = ("search_code", "locate_symbol", "find_references", "get_file_outline")
COLOURS = {"search_code": "#1f77b4", "locate_symbol": "#ff7f0e", "find_references": "#2ca02c",
           "get_file_outline": "#d62728", "files/s": "#555555"}


Row = dict[str, Any]
Column = tuple[str, Callable[[Row], str]]


def _share(row: Row, key: str) -> str:
    """`row[key]` seconds and its share of the full run's, "-" in a record made before the figure was taken."""
    value = row.get(key)
    return "-" if value is None else f"{value:.2f} ({100 * value / row['full_s']:.1f}%)"


def _figure(row: Row, key: str, form: str) -> str:
    value = row.get(key)
    return "-" if value is None else format(value, form)


def _ratio(row: Row, numerator: str, denominator: str, spread: str | None = None) -> str:
    """`row[numerator] / row[denominator]` (medians), with the range of `row[spread]` beside it where recorded."""
    top, bottom = row.get(numerator), row.get(denominator)
    if top is None or not bottom:
        return "-"
    low_high = row.get(spread) if spread else None
    return f"{top / bottom:.2f}x" + (f" ({low_high[0]:.2f}-{low_high[1]:.2f}x)" if low_high else "")


# The main table, one (header, cell) per column: a benchmark that adds figures to the rows adds its columns here.
COLUMNS: list[Column] = [
    ("files", lambda r: f"{r['files']:,}"),
    ("MB", lambda r: f"{r['bytes'] / 1e6:.1f}"),
    ("symbols", lambda r: f"{r['symbols']:,}"),
    ("full index s", lambda r: f"{r['full_s']:.1f}"),
    ("files/s", lambda r: f"{r['files'] / r['full_s']:.0f}"),
    ("unchanged re-index s (of full)", lambda r: _share(r, "reindex_s")),
    ("one-file edit re-index s (of full)", lambda r: _share(r, "edit_s")),
    ("indexer peak RSS MB", lambda r: f"{r['indexer_rss_mb']:.0f}"),
    ("index MB", lambda r: f"{r['index_mb']:.0f}"),
    ("server peak RSS MB", lambda r: f"{r['server_rss_mb']:.0f}"),
    *((f"{tool} p50 / p95 ms (whole call p95)", lambda r, t=tool: _latency(r["latency"][t])) for tool in TOOLS),
    ("search_code p50 / p95 ms after a pause", lambda r: _after_pause(r.get("search_code_after_pause"))),
]


def _after_pause(figures: dict[str, Any] | None) -> str:
    """search_code's wire p50 / p95 over calls made each after a pause ("-" for a row measured without them)."""
    return "-" if figures is None else f"{figures['p50']:.1f} / {figures['p95']:.1f}"


def _latency(figures: dict[str, Any]) -> str:
    """A tool's wire p50 / p95 and, beside them, the p95 of the whole call as the client saw it (a row measured
    before both were kept has the whole call only: its figures stand alone)."""
    wire = f"{figures['p50']:.1f} / {figures['p95']:.1f}"
    return wire if figures.get("client_p95") is None else f"{wire} ({figures['client_p95']:.1f})"


# The indexer against its floor: wall seconds (which the neighbours of a shared machine move) and CPU seconds
# (which they move far less) of the full run, of tree-sitter's parse and query alone, and of Universal Ctags.
# A ratio is of the medians; its range, each full run against the floor runs either side of it (scale_run).
INDEXER_COLUMNS: list[Column] = [
    ("files", lambda r: f"{r['files']:,}"),
    ("full index s / CPU-s", lambda r: f"{r['full_s']:.1f} / {_figure(r, 'full_cpu_s', '.1f')}"),
    ("tree-sitter floor s / CPU-s", lambda r: f"{_figure(r, 'floor_s', '.1f')} / {_figure(r, 'floor_cpu_s', '.1f')}"),
    ("full / floor, wall (range)", lambda r: _ratio(r, "full_s", "floor_s", "floor_ratio_range")),
    ("full / floor, CPU (range)", lambda r: _ratio(r, "full_cpu_s", "floor_cpu_s", "floor_ratio_cpu_range")),
    ("ctags s (files/s)", lambda r: "-" if r.get("ctags_s") is None
     else f"{r['ctags_s']:.1f} ({r['files'] / r['ctags_s']:.0f})"),
    ("one-file edit s / CPU-s", lambda r: f"{_figure(r, 'edit_s', '.2f')} / {_figure(r, 'edit_cpu_s', '.2f')}"),
    ("indexer peak RSS MB", lambda r: f"{r['indexer_rss_mb']:.0f}"),
]


def table(rows: list[Row], columns: list[Column] | None = None) -> str:
    """A Markdown table, one row per corpus size, from the JSON rows (the main table unless `columns`)."""
    columns = COLUMNS if columns is None else columns
    lines = ["| " + " | ".join(head for head, _ in columns) + " |", "|" + "---|" * len(columns)]
    lines.extend("| " + " | ".join(cell(r) for _, cell in columns) + " |" for r in rows)
    return "\n".join(lines)


# The README's short table: the figures a team asks first, from the same record.
SUMMARY_COLUMNS: list[Column] = [
    ("files", lambda r: f"{r['files']:,}"),
    ("full index s (CPU-s x tree-sitter's)",
     lambda r: f"{r['full_s']:.1f} ({_ratio(r, 'full_cpu_s', 'floor_cpu_s')})"),
    ("one-file edit re-index s", lambda r: _figure(r, "edit_s", ".2f")),
    ("indexer peak RSS MB", lambda r: f"{r['indexer_rss_mb']:.0f}"),
    ("search_code p95 ms on the wire", lambda r: f"{r['latency']['search_code']['p95']:.1f}"),
]


def tables(rows: list[Row]) -> str:
    """Both tables: the main one, then the indexer against its floor."""
    return table(rows) + "\n\n" + table(rows, INDEXER_COLUMNS)


def splice(document: str, block: str, begin: str = BEGIN, end: str = END) -> str:
    """`document` with the text between the markers replaced by `block` (markers kept); an error without them."""
    start, stop = document.find(begin), document.find(end)
    if start < 0 or stop < start:
        raise ValueError(f"the document has no {begin!r} ... {end!r} markers")
    return document[:start + len(begin)] + "\n" + block.strip("\n") + "\n" + document[stop:]


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
    body = [*_panel("warm p95 on the wire (stdio)", latency, files, 70.0, "ms"),
            *_panel("full index throughput", throughput, files, 470.0, "files/s")]
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="290" font-family="sans-serif">'
            '<rect width="100%" height="100%" fill="#fff"/>' + "".join(body) + "</svg>\n")


def write(rows: list[dict[str, Any]], header: dict[str, Any], docs: Path, data: Path, plot: Path,
          readme: Path | None = None) -> None:
    """Write the JSON record, the SVG plot, the tables (with the run's header lines) into `docs`, and the short
    table into `readme` between its own markers."""
    data.write_text(json.dumps({**header, "rows": rows}, indent=2) + "\n", encoding="utf-8")
    plot.write_text(svg(rows), encoding="utf-8")
    lines = [f"{key}: {value}" for key, value in header.items()]
    semantic = semantic_recall.table(rows)  # the semantic search against its exact scan, where measured
    block = "\n".join(f"- {line}" for line in lines) + "\n\n" + tables(rows) + "\n\n" + \
        (semantic + "\n\n" if semantic else "") + \
        f"![warm p95 and full-index throughput against corpus size]({plot.name})"
    docs.write_text(splice(docs.read_text(encoding="utf-8"), block), encoding="utf-8")
    if readme is not None:
        short = table(rows, SUMMARY_COLUMNS) + f"\n\n{header.get('date', '')}, load average (1 min) before / after " \
            f"{header.get('load average (1 min) before / after', '?')}: `{header.get('command', '')}`."
        readme.write_text(splice(readme.read_text(encoding="utf-8"), short, README_BEGIN, README_END),
                          encoding="utf-8")


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
            "(the reference, not this run's target):", "", tables(rows)]


def appendix(data: Path) -> tuple[list[str], dict[str, Any]]:
    """The scale figures as the SLO report's appendix: Markdown lines and the JSON key (empty without a record)."""
    lines = information(data)
    return (lines, {"scale_information": json.loads(data.read_text(encoding="utf-8"))}) if lines else ([], {})
