"""The cross-implementation site: several targets' results side by side, and one page per target.

`index.html`: one row per scenario, grouped by requirement, one column per target, each cell the
outcome linking to that scenario's story on the target's page; the SLO figures of each target in a
second table with the same columns. `<target>.html`: the target's whole report (html_report) with its
SLO section. Every page is self-contained: the site can be published as it is, or opened from disk.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cruxgate.conformance.report import digest
from cruxgate.conformance.report.html_report import badge, body, e, measured, page, select
from cruxgate.conformance.report.markdown import anchor

# An SLO verdict shown with the colour of the conformance outcome it reads like.
SLO_BADGES = {"pass": "passed", "over our bar": "warned", "over spec": "failed", "recorded": "skipped"}


@dataclass(frozen=True)
class Column:
    """One target of the site: its label, page file name, results document and SLO figures (if any)."""

    label: str
    page: str
    document: dict[str, Any]
    slo: dict[str, Any] | None


def slo_target(slo: dict[str, Any]) -> str | None:
    """The target profile an SLO report measured (its `target_profile`, else the name its `target` line starts with)."""
    if slo.get("target_profile"):
        return str(slo["target_profile"])
    target = str(slo.get("target") or "").strip()
    return target.split(" (")[0] or None


def columns(documents: Iterable[dict[str, Any]], slos: Iterable[dict[str, Any]] = ()) -> list[Column]:
    """A column per results document, labelled by its target (and transport when two share a name)."""
    documents = list(documents)
    names = [digest.target_name(d) for d in documents]
    by_target = {name: slo for slo in slos if (name := slo_target(slo))}
    found: list[Column] = []
    used: set[str] = set()
    for document, name in zip(documents, names, strict=True):
        label = name if names.count(name) == 1 else f"{name} ({document.get('transport') or '?'})"
        if label in used:  # the same target and transport twice (two runs): number them
            label = next(f"{label} #{n}" for n in range(2, len(documents) + 2) if f"{label} #{n}" not in used)
        used.add(label)
        slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "target"
        found.append(Column(label, f"{slug}.html", document, by_target.get(name)))
    return found


def requirement_rows(cols: list[Column]) -> dict[str, dict[str, Any]]:
    """Every scenario any target ran, as {id: a record describing it}, in requirement then id order."""
    seen: dict[str, dict[str, Any]] = {}
    for column in cols:
        for record in column.document["scenarios"]:
            seen.setdefault(record["id"], record)
    return {r["id"]: r for r in digest.by_requirement(seen.values())}


def targets_html(cols: list[Column]) -> list[str]:
    """The targets: verdict, server, counts, SLO summary, each linking to its page."""
    head = "".join(f"<th>{badge(o)}</th>" for o in digest.OUTCOMES)
    lines = ['<section id="targets"><h2>Targets</h2><table><thead><tr><th>target</th><th>server</th>'
             f"<th>transport</th><th>verdict</th>{head}<th>SLO figures</th></tr></thead><tbody>"]
    for column in cols:
        document = column.document
        verdict = digest.verdict(document)
        counts = digest.counts_by_level(document["scenarios"])["all"]
        slo = "-"
        if column.slo is not None:
            verdicts = [row.get("verdict") for row in column.slo.get("results", [])]
            slo = ", ".join(f"{verdicts.count(v)} {v}" for v in SLO_BADGES if verdicts.count(v))
        lines.append(f'<tr><td><a href="{e(column.page)}">{e(column.label)}</a></td>'
                     f"<td>{e(digest.server_label(document) or '-')}</td><td>{e(document.get('transport') or '-')}</td>"
                     f'<td><span class="badge {"passed" if verdict.passed else "failed"}">{verdict.word}</span> '
                     f"{e(verdict.note)}</td>" + "".join(f'<td class="num">{counts[o]}</td>' for o in digest.OUTCOMES)
                     + f"<td>{e(slo)}</td></tr>")
    return [*lines, "</tbody></table></section>"]


def matrix_html(cols: list[Column]) -> list[str]:
    """Scenarios x targets, grouped by requirement; filterable by outcome, level and disagreement."""
    rows = requirement_rows(cols)
    outcomes = {column.label: {r["id"]: r for r in column.document["scenarios"]} for column in cols}
    lines = ['<section id="matrix"><h2>Scenarios by requirement</h2>',
             '<form class="filters" data-table="matrix-table">',
             select("outcomes", "an outcome of any target", digest.OUTCOMES),
             select("level", "level", digest.LEVELS),
             '<label class="check"><input type="checkbox" name="differ"> only where targets differ</label>',
             '<label>search<input type="search" name="q" placeholder="scenario or requirement"></label>',
             '<span class="shown"></span></form>',
             '<table id="matrix-table"><thead><tr><th>scenario</th><th>title</th><th>level</th>'
             + "".join(f'<th><a href="{e(c.page)}">{e(c.label)}</a></th>' for c in cols) + "</tr></thead><tbody>"]
    requirement = None
    for sid, record in rows.items():
        if record.get("requirement") != requirement:
            requirement = record.get("requirement")
            title = f" {record['requirement_title']}" if record.get("requirement_title") else ""
            lines.append(f'<tr class="requirement"><th colspan="{3 + len(cols)}">{e(requirement or "-")}'
                         f"{e(title)}</th></tr>")
        cells, seen = [], []
        for column in cols:
            mine = outcomes[column.label].get(sid)
            if mine is None:
                cells.append('<td class="cell"><span class="badge missing">not run</span></td>')
                continue
            seen.append(mine["outcome"])
            cells.append(f'<td class="cell"><a href="{e(column.page)}#{e(anchor(sid))}" '
                         f'title="{e(digest.summary_line(mine) or mine["outcome"])}">{badge(mine["outcome"])}</a></td>')
        differ = "1" if len(set(seen)) > 1 or len(seen) < len(cols) else "0"
        text = f"{sid} {record.get('requirement') or ''} {record.get('title') or ''}"
        lines.append(f'<tr data-outcomes="{e(" ".join(sorted(set(seen))))}" data-level="{e(record.get("level") or "")}"'
                     f' data-differ="{differ}" data-text="{e(text)}"><td><code>{e(sid)}</code></td>'
                     f"<td>{e(record.get('title') or '')}</td><td>{e(record.get('level') or '-')}</td>"
                     + "".join(cells) + "</tr>")
    return [*lines, "</tbody></table></section>"]


def slo_matrix_html(cols: list[Column]) -> list[str]:
    """Each target's SLO figures beside the others': SLO x target, the figure and its verdict."""
    with_slo = [c for c in cols if c.slo is not None]
    if not with_slo:
        return []
    figures: dict[str, dict[str, dict[str, Any]]] = {}
    for column in with_slo:
        for row in (column.slo or {}).get("results", []):
            figures.setdefault(row["slo"], {})[column.label] = row
    lines = ['<section id="slo"><h2>SLO figures</h2>',
             "<p>Each figure against our bar and the spec's limit; a latency is read against a no-op floor measured "
             "in the same run (open a target's page for the machine and load it was measured under).</p>",
             "<table><thead><tr><th>SLO</th><th>our bar</th><th>spec limit</th>"
             + "".join(f"<th>{e(c.label)}</th>" for c in with_slo) + "</tr></thead><tbody>"]
    for slo_id, by_target in figures.items():
        any_row = next(iter(by_target.values()))
        cells = []
        for column in with_slo:
            row = by_target.get(column.label)
            if row is None:
                cells.append('<td class="cell"><span class="badge missing">not measured</span></td>')
                continue
            tip = f"p50 {row.get('p50_ms')} ms, p95 {row.get('p95_ms')} ms, floor p95 {row.get('floor_p95_ms')} ms"
            cells.append(f'<td class="cell" title="{e(tip)}">{e(measured(row))} '
                         f'<span class="badge {SLO_BADGES.get(row.get("verdict", ""), "skipped")}">'
                         f"{e(row.get('verdict'))}</span></td>")
        lines.append(f"<tr><td>{e(slo_id)}</td><td>{e(any_row.get('our_bar') or '-')}</td>"
                     f"<td>{e(any_row.get('spec_limit') or '-')}</td>" + "".join(cells) + "</tr>")
    return [*lines, "</tbody></table></section>"]


def render(documents: Iterable[dict[str, Any]], slos: Iterable[dict[str, Any]] = ()) -> dict[str, str]:
    """Every page of the site: {file name: HTML}, index.html first."""
    cols = columns(documents, slos)
    index = ["<header><h1>cruxgate: code-search MCP servers side by side</h1>",
             f"<p>{len(cols)} target(s), each run against the same spec by the cruxgate conformance gate. "
             "A cell links to that scenario's whole story on the target's page.</p></header>",
             *targets_html(cols), *matrix_html(cols), *slo_matrix_html(cols)]
    pages = {"index.html": page("cruxgate: targets side by side", index)}
    for column in cols:
        nav = '<nav><a href="index.html">&larr; all targets</a></nav>'
        pages[column.page] = page(f"cruxgate: {column.label}", [nav, *body(column.document, column.slo)])
    return pages
