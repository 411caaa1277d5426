"""--conformance-html: the results document as one self-contained HTML page (inline CSS and script, no network).

The verdict, counts by outcome and level, a table filterable by outcome, level, tool and basis with
each failure expandable to its whole story (WHEN/THEN, the failure, its findings and bases, every call
and answer), the scenarios that did not run grouped by cause, the warnings with their ids, and, when
given, the SLO figures of the same target (`cruxgate slo --report`'s JSON).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

from cruxgate.conformance.report import digest
from cruxgate.conformance.report.markdown import STORY, anchor, answer_caption, call_heading

ASSETS = Path(__file__).resolve().parent / "assets"


def e(value: Any) -> str:
    """Text as HTML (quotes escaped too: it may sit in an attribute)."""
    return escape("" if value is None else str(value), quote=True)


def page(title: str, body: Iterable[str]) -> str:
    """A whole HTML document with the report's style and script inlined."""
    css = (ASSETS / "report.css").read_text(encoding="utf-8")
    script = (ASSETS / "report.js").read_text(encoding="utf-8").replace("</", "<\\/")
    return "\n".join(["<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">',
                      # Everything is inline: forbid any fetch, so the page renders the same offline.
                      '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
                      'style-src \'unsafe-inline\'; script-src \'unsafe-inline\'; img-src data:">',
                      f"<title>{e(title)}</title>", f"<style>\n{css}</style>", "</head>", "<body>", *body,
                      f"<script>\n{script}</script>", "</body>", "</html>", ""])


def badge(outcome: str) -> str:
    """An outcome as a coloured badge."""
    return f'<span class="badge {e(outcome)}">{e(outcome)}</span>'


def select(name: str, label: str, values: Iterable[str]) -> str:
    """One filter: a select whose empty option means any."""
    options = "".join(f'<option value="{e(v)}">{e(v)}</option>' for v in values)
    return f'<label>{e(label)}<select name="{e(name)}"><option value="">any</option>{options}</select></label>'


def pre(text: str) -> str:
    """Preformatted text."""
    return f"<pre>{e(text)}</pre>"


def calls_html(record: dict[str, Any], open_last: bool) -> list[str]:
    """Each call of a record as an expandable block: arguments and the answer, cut by size."""
    calls = record.get("calls", [])
    dropped = record.get("calls_dropped", 0)
    parts = []
    for number, call in enumerate(calls, start=1 + dropped):
        is_open = " open" if open_last and number == len(calls) + dropped else ""
        parts.append(f'<details class="call"{is_open}><summary>{e(call_heading(number, call))}</summary>')
        if call.get("arguments") is not None:
            parts.append("<div>arguments</div>" + pre(json.dumps(call["arguments"], indent=2, ensure_ascii=False)))
        parts.append(f"<div>{e(answer_caption(call))}</div>" + pre(call["answer"]) + "</details>")
    if dropped:
        parts.insert(0, f'<p class="muted">{dropped} earlier call(s) left out.</p>')
    return parts


def story_html(record: dict[str, Any]) -> str:
    """A scenario's whole story, inside a details element whose summary is its one-line summary."""
    lines = [f'<details class="story" id="{e(anchor(record["id"]))}">',
             f"<summary>{e(digest.summary_line(record) or record['outcome'])}</summary>", '<div class="body">',
             '<dl class="meta">']
    requirement = record.get("requirement") or "-"
    if record.get("requirement_title"):
        requirement += f" ({record['requirement_title']})"
    for label, value in (("requirement", requirement), ("source", record.get("source")),
                         ("WHEN", record.get("when")), ("THEN", record.get("then")),
                         ("baseline", record.get("baseline_reason")),
                         ("transport", record.get("transport")), ("duration", f"{record.get('duration', 0):.2f} s")):
        if value:
            lines.append(f"<dt>{e(label)}</dt><dd>{e(value)}</dd>")
    lines.append("</dl>")
    if record.get("failure_message"):
        lines += ["<h3>What broke</h3>", pre(record["failure_message"])]
    findings = record.get("findings", [])
    if findings:
        lines.append("<h3>Rules that did not hold</h3><ul>")
        for finding in findings:
            step = f"step {finding['step']}, " if finding.get("step") is not None else ""
            lines.append(f"<li><code>{e(finding['id'])}</code> ({e(step)}{e(finding['severity'])}): "
                         f"{e(finding['message'])}<br><span class=\"muted\">basis: "
                         f"{e(digest.basis_label(finding['basis']))}: {e(finding['basis']['ref'])}</span></li>")
        lines.append("</ul>")
    if record.get("calls"):
        lines.append("<h3>Calls and answers</h3>")
        lines += calls_html(record, open_last=record["outcome"] in STORY)
    elif record["outcome"] in STORY:
        lines.append('<p class="muted">No call was made (the scenario failed before its first request).</p>')
    lines += ["</div>", "</details>"]
    return "\n".join(lines)


def header_html(document: dict[str, Any]) -> list[str]:
    """Title, verdict and what was run."""
    verdict = digest.verdict(document)
    rows = [("target", digest.target_name(document)), ("transport", document.get("transport") or "-"),
            ("server", digest.server_label(document) or "unknown (no server was started)"),
            ("strict", "yes (warnings fail)" if document.get("strict") else digest.NOT_STRICT),
            ("started", document.get("started_at")), ("cruxgate", document.get("cruxgate_version")),
            ("spec revision", (document.get("spec_revision") or "-")[:12]),
            ("exit status", document.get("exit_status"))]
    return ["<header>", "<h1>cruxgate conformance report</h1>",
            f'<p><span class="verdict {verdict.word.lower()}" id="verdict">{verdict.word}</span> '
            f"{e(verdict.note)}</p>", '<dl class="meta">',
            *(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in rows), "</dl>", "</header>"]


def counts_html(records: list[dict[str, Any]]) -> list[str]:
    """Counts by outcome (columns) and level (rows)."""
    lines = ['<section id="counts"><h2>Counts by outcome and level</h2><table>',
             "<thead><tr><th>level</th>" + "".join(f'<th class="num">{badge(o)}</th>' for o in digest.OUTCOMES)
             + '<th class="num">total</th></tr></thead><tbody>']
    for level, counts in digest.counts_by_level(records).items():
        lines.append(f"<tr><th>{e(level)}</th>" + "".join(f'<td class="num">{counts[o]}</td>'
                                                          for o in digest.OUTCOMES)
                     + f'<td class="num">{sum(counts.values())}</td></tr>')
    return [*lines, "</tbody></table></section>"]


def scenarios_html(records: list[dict[str, Any]], found: list[digest.Cause]) -> list[str]:
    """The filterable table: one row per scenario, its detail expandable."""
    cause_of = digest.cause_of(found)
    tools = sorted({tool for r in records for tool in r.get("tools", [])})
    kinds = sorted({kind for r in records for kind in digest.bases(r)})
    lines = ['<section id="scenarios"><h2>Scenarios</h2>',
             '<form class="filters" data-table="scenario-table">',
             select("outcome", "outcome", [o for o in digest.OUTCOMES if any(r["outcome"] == o for r in records)]),
             select("level", "level", [lv for lv in digest.LEVELS if any(r.get("level") == lv for r in records)]),
             select("tools", "tool", tools), select("bases", "basis of a finding", kinds),
             '<label>search<input type="search" name="q" placeholder="id, title, message"></label>',
             '<span class="shown"></span></form>',
             '<table id="scenario-table"><thead><tr><th>requirement</th><th>scenario</th><th>title</th>'
             "<th>level</th><th>tools</th><th>outcome</th><th>detail</th></tr></thead><tbody>"]
    for r in records:
        row_id = ""  # a row without a story carries the anchor itself, so a link to the scenario lands somewhere
        if r["outcome"] in STORY or r.get("findings") or r.get("calls"):
            detail = story_html(r)
        else:
            row_id = f' id="{e(anchor(r["id"]))}"'
        if row_id and r["id"] in cause_of:
            cause = cause_of[r["id"]]
            detail = f'<a href="#{e(cause.anchor)}">{e(cause.anchor)}</a>: {e(cause.reason)}'
        elif row_id:
            detail = e(digest.summary_line(r))
        text = " ".join(str(r.get(k) or "") for k in ("id", "requirement", "title", "skip_reason", "failure_message"))
        lines.append(
            f'<tr{row_id} data-outcome="{e(r["outcome"])}" data-level="{e(r.get("level") or "")}" '
            f'data-tools="{e(" ".join(r.get("tools", [])))}" data-bases="{e(" ".join(digest.bases(r)))}" '
            f'data-text="{e(text)}"><td>{e(r.get("requirement") or "-")}</td><td><code>{e(r["id"])}</code></td>'
            f'<td>{e(r.get("title") or "")}</td><td>{e(r.get("level") or "-")}</td>'
            f'<td>{e(", ".join(r.get("tools", [])))}</td><td>{badge(r["outcome"])}</td><td>{detail}</td></tr>')
    return [*lines, "</tbody></table></section>"]


def causes_html(found: list[digest.Cause]) -> list[str]:
    """The scenarios that did not run, one block per reason."""
    if not found:
        return []
    lines = ['<section id="causes"><h2>Not run, by cause</h2>']
    for cause in found:
        lines += [f'<h3 id="{e(cause.anchor)}">{e(cause.anchor)}: {badge(cause.outcome)} '
                  f"{len(cause.scenarios)} scenario(s)</h3>", pre(cause.reason),
                  '<ul class="ids">' + "".join(f"<li>{e(sid)}</li>" for sid in cause.scenarios) + "</ul>"]
    return [*lines, "</section>"]


def warnings_html(records: list[dict[str, Any]]) -> list[str]:
    """Every warning with its id, step and basis."""
    warned = digest.warnings(records)
    if not warned:
        return []
    lines = ['<section id="warnings"><h2>Warnings</h2>',
             "<p>Checks that did not hold on a basis that does not gate (a SHOULD, an MCP convention or a reading "
             "of ours); <code>--strict</code> fails them.</p>",
             "<table><thead><tr><th>id</th><th>step</th><th>basis</th><th>message</th></tr></thead><tbody>"]
    for finding in warned:
        step = finding["step"] if finding.get("step") is not None else "-"
        lines.append(f"<tr><td><code>{e(finding['id'])}</code></td><td>{e(step)}</td>"
                     f"<td>{e(digest.basis_label(finding['basis']))}: {e(finding['basis']['ref'])}</td>"
                     f"<td>{pre(finding['message'])}</td></tr>")
    return [*lines, "</tbody></table></section>"]


SLO_COLUMNS = (("slo", "SLO"), ("measured", "measured"), ("our_bar", "our bar"), ("spec_limit", "spec limit"),
               ("p50_ms", "p50 ms"), ("p95_ms", "p95 ms"), ("client_p95_ms", "client p95 ms"),
               ("floor_p95_ms", "floor p95 ms"),
               ("ratio_to_floor", "ratio to floor"), ("verdict", "verdict"), ("corpus", "corpus"),
               ("samples", "samples"))


def measured(row: dict[str, Any]) -> str:
    """An SLO row's figure in its unit."""
    return f"{row['value']:.2f} {row.get('unit') or ''}".strip()


def slo_html(slo: dict[str, Any]) -> list[str]:
    """The SLO figures (`cruxgate slo --report`'s JSON): header lines, then one row per figure."""
    header = {k: v for k, v in slo.items() if not isinstance(v, (list, dict))}
    lines = ['<section id="slo"><h2>SLO figures</h2>', '<dl class="meta">',
             *(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in header.items()), "</dl>",
             "<table><thead><tr>" + "".join(f"<th>{e(label)}</th>" for _, label in SLO_COLUMNS)
             + "</tr></thead><tbody>"]
    for row in slo.get("results", []):
        cells = [measured(row) if key == "measured" else row.get(key) for key, _ in SLO_COLUMNS]
        shown = [f"{c:.2f}" if isinstance(c, float) else "" if c is None else c for c in cells]
        lines.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in shown) + "</tr>")
    lines.append("</tbody></table>")
    notes = [f"<li><b>{e(row['slo'])}</b>: {e(row['note'])}</li>" for row in slo.get("results", []) if row.get("note")]
    if notes:
        lines += ["<h3>Notes</h3><ul>", *notes, "</ul>"]
    return [*lines, "</section>"]


def body(document: dict[str, Any] | None, slo: dict[str, Any] | None = None) -> list[str]:
    """The sections of one target's page: its conformance results, its SLO figures, or both."""
    lines: list[str] = []
    if document is not None:
        records = digest.by_requirement(document["scenarios"])
        found = digest.causes(records)
        lines += [*header_html(document), *counts_html(records), *scenarios_html(records, found),
                  *causes_html(found), *warnings_html(records)]
    if slo is not None:
        lines += slo_html(slo)
    version = (document or slo or {}).get("cruxgate_version", "")
    lines.append(f'<footer class="muted"><p>Written by cruxgate {e(version)}'
                 f" on {datetime.now(UTC).isoformat(timespec='seconds')}; one file, nothing fetched.</p></footer>")
    return lines


def render(document: dict[str, Any], slo: dict[str, Any] | None = None) -> str:
    """The whole page for one target."""
    verdict = digest.verdict(document)
    return page(f"cruxgate: {digest.target_name(document)} {verdict.word}", body(document, slo))


def render_slo(slo: dict[str, Any]) -> str:
    """A page of SLO figures alone (`cruxgate slo --report` writes it beside the Markdown)."""
    return page(f"cruxgate SLO: {slo.get('target', '')}", ["<h1>cruxgate SLO report</h1>", *body(None, slo)])
