"""The reports people read, from real runs: the Markdown story, the HTML page and the side-by-side site.

Two runs feed them: the bundled reference and the fake server through its profile (a third-party target
that fails), both on the same scenarios of the real spec. The browser tests of the same pages are in
test_report_browser.py; here the files themselves are read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from cruxgate.conformance.report import digest, transcript


def results(run: Path) -> dict[str, Any]:
    """The results document of a run."""
    loaded: dict[str, Any] = json.loads(run.with_suffix(".json").read_text(encoding="utf-8"))
    return loaded


def test_the_reference_passes_and_the_fake_server_fails(report_runs):
    assert digest.verdict(results(report_runs["reference"])).passed
    fake = results(report_runs["fake"])
    assert not digest.verdict(fake).passed
    assert "RC-SURFACE-01" in {r["id"] for r in fake["scenarios"] if r["outcome"] == "failed"}


def test_a_failure_is_told_in_full_in_markdown(report_runs):
    fake = results(report_runs["fake"])
    text = report_runs["fake"].with_suffix(".md").read_text(encoding="utf-8")
    surface = next(r for r in fake["scenarios"] if r["id"] == "RC-SURFACE-01")
    assert '<a id="story-RC-SURFACE-01"></a>' in text and "([the whole story](#story-RC-SURFACE-01))" in text
    story = text.split('<a id="story-RC-SURFACE-01"></a>')[1].split("<a id=")[0]
    assert f"**WHEN** {surface['when']}" in story and f"**THEN** {surface['then']}" in story
    # The whole failure message, not its first 160 characters: every line of it is there.
    assert len(surface["failure_message"]) > 160
    assert all(line in story for line in surface["failure_message"].splitlines())
    # Each call and what came back: the fake server's tools/list answer, whole (it is small).
    listing = next(call for call in surface["calls"] if call["method"] == "tools/list")
    assert not listing["truncated"] and listing["answer"] in story
    for finding in surface["findings"]:
        assert f"`{finding['id']}`" in story and finding["basis"]["ref"] in story


def test_scenarios_that_did_not_run_are_grouped_by_cause(report_runs):
    fake = results(report_runs["fake"])
    text = report_runs["fake"].with_suffix(".md").read_text(encoding="utf-8")
    causes = digest.causes(fake["scenarios"])
    assert causes, "the subset has scenarios the fake server cannot run"
    for cause in causes:
        assert f'<a id="{cause.anchor}"></a>' in text and ", ".join(cause.scenarios) in text
        # Each table row points at its cause instead of repeating the reason.
        for sid in cause.scenarios:
            assert f"| {sid} |" in text and f"[{cause.anchor}](#{cause.anchor})" in text
    assert sum(len(c.scenarios) for c in causes) == sum(
        1 for r in fake["scenarios"] if r["outcome"] in ("skipped", "informative"))


def test_the_html_page_is_self_contained_and_holds_every_failure(report_runs):
    page = report_runs["fake"].with_suffix(".html").read_text(encoding="utf-8")
    assert "default-src 'none'" in page  # nothing may be fetched at view time
    assert "<link" not in page and "src=" not in page.replace("default-src", "")
    fake = results(report_runs["fake"])
    for record in fake["scenarios"]:
        if record["outcome"] == "failed":
            assert f'<details class="story" id="story-{record["id"]}">' in page


def test_the_site_puts_both_targets_side_by_side(report_runs):
    site = report_runs["site"]
    assert sorted(p.name for p in site.iterdir()) == ["cruxgate-reference.html", "fake-code-search.html",
                                                      "index.html"]
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="cruxgate-reference.html">cruxgate-reference</a>' in index
    assert '<a href="fake-code-search.html#story-RC-SURFACE-01"' in index
    # The SLO figures given for the reference stand beside it; the fake server was not measured.
    slo = index.split('<section id="slo">')[1]
    assert "<th>cruxgate-reference</th>" in slo and "2.60 ms" in slo and "27.10 tokens" in slo
    assert '<section id="slo">' in (site / "cruxgate-reference.html").read_text(encoding="utf-8")
    assert '<section id="slo">' not in (site / "fake-code-search.html").read_text(encoding="utf-8")


def test_answers_are_cut_by_bytes_at_a_line_break():
    text = "\n".join(f'  "line {n}": "{"x" * 50}",' for n in range(2000))
    kept, cut = transcript.cut(text, transcript.FULL_BUDGET)
    assert cut and len(kept.encode("utf-8")) <= transcript.FULL_BUDGET
    assert text.startswith(kept) and text[len(kept)] == "\n"  # whole lines only
    assert len(kept.encode("utf-8")) > transcript.FULL_BUDGET - 100
    assert transcript.cut("short", transcript.BRIEF_BUDGET) == ("short", False)
    brief = transcript.trimmed_calls([{"answer": text}], passed=True)[0]
    assert brief["truncated"] and len(brief["answer"].encode("utf-8")) <= transcript.BRIEF_BUDGET


def test_the_report_command_refuses_what_is_not_a_results_file(tmp_path):
    bad = tmp_path / "results.json"
    bad.write_text(json.dumps({"format_version": 1, "scenarios": "none"}), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "cruxgate", "report", str(bad), "-o", str(tmp_path / "site")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "is not a cruxgate results file" in done.stderr and not (tmp_path / "site").exists()
