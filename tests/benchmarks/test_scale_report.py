"""The scale benchmark's pure parts: nested samples, the table spliced between markers, the plot, the SLO report's
information section. Nothing is installed, indexed or served."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
import scale_corpus
import scale_report

from cruxgate.conformance.slo.registry import REGISTRY, Measurement
from cruxgate.conformance.slo.report import write

TOOLS = scale_report.TOOLS


def rows() -> list[dict]:
    def row(files: int, full: float, p95: float) -> dict:
        return {"size": files, "files": files, "bytes": files * 15_000, "symbols": files * 40, "full_s": full,
                "reindex_s": full / 20, "edit_s": full / 10, "indexer_rss_mb": 300.0, "index_mb": files / 10,
                "server_rss_mb": 120.0,
                "latency": {t: {"p50": p95 / 2, "p95": p95, "client_p50": p95 / 2 + 1, "client_p95": p95 + 2,
                                "count": 200} for t in TOOLS}}

    return [row(1_000, 5.0, 10.0), row(5_000, 25.0, 12.0), row(20_000, 110.0, 15.0)]


def test_samples_are_fixed_and_nested() -> None:
    files = [(f"stdlib/m{i}.py", Path(f"/x/m{i}.py")) for i in range(500)]
    small, large = scale_corpus.sample(files, 50), scale_corpus.sample(files, 200)
    assert small == scale_corpus.sample(files, 50) and small != sorted(files)[:50]  # fixed seed, spread out
    assert set(small) <= set(large) and len(set(large)) == 200 and small == sorted(small)
    with pytest.raises(ValueError, match="fewer than"):
        scale_corpus.sample(files, 501)


def test_table_has_one_row_per_size_with_rates_and_ratios() -> None:
    text = scale_report.table(rows())
    lines = text.splitlines()
    assert len(lines) == 2 + 3
    assert lines[2].startswith("| 1,000 | 15.0 | 40,000 | 5.0 | 200 | 0.25 (5.0%) | 0.50 (10.0%) |")
    older = [{key: value for key, value in row.items() if key != "edit_s"} for row in rows()]
    assert "| 0.25 (5.0%) | - |" in scale_report.table(older)  # a record from before edits were timed
    assert "| 5.0 / 10.0 (12.0) |" in lines[2] and lines[4].endswith("| 7.5 / 15.0 (17.0) | - |")
    wire_only = [{**row, "latency": {t: {"p50": 1.0, "p95": 3.0, "count": 9} for t in TOOLS}} for row in rows()]
    assert scale_report.table(wire_only).splitlines()[2].endswith("| 1.0 / 3.0 | - |")  # measured before both were kept


def test_indexer_table_sets_the_full_run_against_the_floor_and_ctags() -> None:
    timed = [{**row, "full_cpu_s": row["full_s"] * 1.5, "floor_s": row["full_s"] / 4, "floor_cpu_s": row["full_s"] / 2,
              "ctags_s": row["full_s"] / 50, "edit_cpu_s": 0.4} for row in rows()]
    lines = scale_report.table(timed, scale_report.INDEXER_COLUMNS).splitlines()
    assert lines[2] == "| 1,000 | 5.0 / 7.5 | 1.2 / 2.5 | 4.00x | 3.00x | 0.1 (10000) | 0.50 / 0.40 | 300 |"
    ranged = [{**row, "floor_ratio_range": [3.5, 4.5], "floor_ratio_cpu_range": [2.75, 3.25]} for row in timed]
    lines = scale_report.table(ranged, scale_report.INDEXER_COLUMNS).splitlines()
    assert "| 4.00x (3.50-4.50x) | 3.00x (2.75-3.25x) |" in lines[2]
    older = scale_report.table(rows(), scale_report.INDEXER_COLUMNS).splitlines()  # before the floor was measured
    assert older[2] == "| 1,000 | 5.0 / - | - / - | - | - | - | 0.50 / - | 300 |"
    assert scale_report.tables(timed).count("| files |") == 2


def test_the_floor_parses_the_files_the_indexer_parses(polyglot_copy) -> None:
    import sqlite3

    import scale_floor

    from cruxgate.reference.index import read_state

    root = polyglot_copy("scale-floor")
    generation = read_state(root).generation
    assert generation is not None
    db = sqlite3.connect(generation / "index.db")
    parsed = {path for (path,) in db.execute("SELECT path FROM files WHERE language IS NOT NULL")}
    assert parsed and {path for _, path, _ in scale_floor.parse_tasks(root)} == parsed
    assert scale_floor.floor(root, workers=1) > len(parsed)  # every file matched something (a definition at least)


def test_every_full_run_sits_between_two_floor_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import scale_floor
    import scale_run

    order: list[str] = []

    def full(root: Path, force: bool) -> scale_run.IndexRun:
        order.append("full")
        return scale_run.IndexRun(10.0, 100.0, 1, 1, cpu_seconds=10.0)

    def floor(root: Path) -> scale_floor.Timed:
        order.append("floor")
        return scale_floor.Timed(1.0, 2.0)

    monkeypatch.setattr(scale_run, "index", full)
    monkeypatch.setattr(scale_floor, "tree_sitter_floor", floor)
    monkeypatch.setattr(scale_floor, "ctags", lambda root: None)
    for repeats in (1, 3):
        order.clear()
        runs, floors, tags = scale_run.bracketed(tmp_path, repeats, lambda line: None, 1_000)
        assert order == ["floor", *["full", "floor"] * repeats]
        assert (len(runs), len(floors), tags) == (repeats, repeats + 1, [])


def test_the_floor_ratio_is_of_medians_and_its_range_of_each_full_run_against_its_neighbours() -> None:
    import scale_floor
    import scale_run

    full = [scale_run.IndexRun(20.0, 100.0, 1, 1, cpu_seconds=cpu) for cpu in (10.0, 12.0)]
    floors = [scale_floor.Timed(5.0, cpu) for cpu in (2.0, 4.0, 3.0)]  # run before, between and after them
    result = scale_run.Result(size=1, files=1, bytes=1, symbols=1, full=full, reindex=full, edits=full, floors=floors,
                              ctags=[], index_mb=1.0, server_rss_mb=1.0)
    row = result.record()
    # 10/2, 10/4 for the first full run; 12/4, 12/3 for the second; not 12/2 (that floor run is not beside it).
    assert row["floor_ratio_cpu_range"] == [2.5, 5.0] and row["floor_ratio_range"] == [4.0, 4.0]
    assert (row["full_cpu_runs_s"], row["floor_cpu_runs_s"]) == ([10.0, 12.0], [2.0, 4.0, 3.0])
    assert "| 4.00x (4.00-4.00x) | 3.67x (2.50-5.00x) |" in scale_report.table([row], scale_report.INDEXER_COLUMNS)


def test_splice_replaces_only_between_the_markers() -> None:
    document = f"intro\n{scale_report.BEGIN}\nold table\n{scale_report.END}\noutro\n"
    spliced = scale_report.splice(document, "new table")
    assert spliced == f"intro\n{scale_report.BEGIN}\nnew table\n{scale_report.END}\noutro\n"
    assert scale_report.splice(spliced, "new table") == spliced
    with pytest.raises(ValueError, match="markers"):
        scale_report.splice("no markers here", "x")


def test_plot_is_svg_with_a_line_per_tool_and_one_for_throughput() -> None:
    root = ET.fromstring(scale_report.svg(rows()))
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and len(lines) == len(TOOLS) + 1
    assert all(len(line.get("points", "").split()) == 3 for line in lines)


def test_write_fills_docs_json_plot_and_the_readme_table(tmp_path: Path) -> None:
    docs = tmp_path / "benchmarks.md"
    docs.write_text(f"# B\n{scale_report.BEGIN}\n{scale_report.END}\n", encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text(f"# R\n{scale_report.README_BEGIN}\nold\n{scale_report.README_END}\ntail\n", encoding="utf-8")
    scale_report.write(rows(), {"date": "2026-11-25 08:00 UTC"}, docs, tmp_path / "scale.json", tmp_path / "scale.svg",
                       readme)
    text = docs.read_text(encoding="utf-8")
    assert "- date: 2026-11-25 08:00 UTC" in text and "| 20,000 |" in text and "](scale.svg)" in text
    short = readme.read_text(encoding="utf-8")
    assert "old" not in short and short.endswith("tail\n") and "2026-11-25 08:00 UTC" in short
    assert "| 20,000 | 110.0 (-) | 11.00 | 300 | 15.0 |" in short  # a record without the floor says so
    assert json.loads((tmp_path / "scale.json").read_text(encoding="utf-8"))["rows"][2]["files"] == 20_000


def test_slo_report_carries_the_scale_figures_as_information_only(tmp_path: Path) -> None:
    record = tmp_path / "scale.json"
    record.write_text(json.dumps({"date": "2026-11-25 08:00 UTC", "rows": rows()}), encoding="utf-8")
    measurements = [Measurement(REGISTRY["floor"], value=2.0, p50=1.5, p95=2.0, samples=10, corpus="polyglot")]
    report, twin = write(tmp_path / "slo.md", measurements, {"target": "t"}, scale_report.appendix(record))
    text = report.read_text(encoding="utf-8")
    assert "## Scale (information, not gated)" in text and "| 20,000 |" in text
    assert json.loads(twin.read_text(encoding="utf-8"))["scale_information"]["rows"][0]["files"] == 1_000
    assert [r["slo"] for r in json.loads(twin.read_text(encoding="utf-8"))["results"]] == ["floor"]
    bare, _ = write(tmp_path / "bare.md", measurements, {"target": "t"},
                     scale_report.appendix(tmp_path / "missing.json"))
    assert "Scale" not in bare.read_text(encoding="utf-8")


def test_the_semantic_comparison_gets_its_own_table_where_measured(tmp_path: Path) -> None:
    import semantic_recall

    measured = rows()
    assert semantic_recall.table(measured) == ""  # older records carry no comparison: no table
    cpu = {"p50": 1.0, "p95": 2.0}
    measured[0]["semantic"] = {"rows": 7_824, "search": "exact scan", "questions": 99, "recall_at_10": 1.0,
                               "exact_cpu_ms": cpu, "search_cpu_ms": cpu}
    measured[2]["semantic"] = {"rows": 158_290, "search": "graph", "questions": 99, "recall_at_10": 0.9923,
                               "exact_cpu_ms": {"p50": 8.3, "p95": 9.5}, "search_cpu_ms": {"p50": 1.5, "p95": 2.6}}
    text = semantic_recall.table(measured)
    lines = text.splitlines()
    assert len(lines) == 4 and "recall@10 vs exact scan" in lines[0]
    assert lines[2].startswith("| 1,000 | 7,824 | exact scan | - |")
    assert lines[3] == "| 20,000 | 158,290 | graph | 0.992 | 8.30 / 9.50 | 1.50 / 2.60 |"
    docs = tmp_path / "benchmarks.md"
    docs.write_text(f"x\n{scale_report.BEGIN}\n{scale_report.END}\ny\n", encoding="utf-8")
    scale_report.write(measured, {"date": "d"}, docs, tmp_path / "scale.json", tmp_path / "scale.svg")
    assert text in docs.read_text(encoding="utf-8")


def test_a_tools_latency_is_kept_on_the_wire_and_as_the_client_saw_the_whole_call() -> None:
    import scale_floor
    import scale_run

    from cruxgate.conformance.slo.sampling import Figures, Sample

    samples = [Sample(wire=float(ms), total=float(ms) + 2.5) for ms in range(1, 21)]
    latency = scale_run.Latency(Figures.wire(samples), Figures.client(samples))
    runs = [scale_run.IndexRun(2.0, 100.0, 1, 1, cpu_seconds=3.0)]
    result = scale_run.Result(size=1, files=1, bytes=1, symbols=1, full=runs, reindex=runs, edits=runs,
                              floors=[scale_floor.Timed(1.0, 1.0)] * 2, ctags=[], index_mb=1.0, server_rss_mb=1.0,
                              latency={"search_code": latency})
    figures = result.record()["latency"]["search_code"]
    assert (figures["p50"], figures["p95"], figures["count"]) == (10.5, 19.0, 20)
    assert (figures["client_p50"], figures["client_p95"]) == (13.0, 21.5)


class FakeServer:
    """A stand-in for a Connection's two calls (`call_tool`, `wire_clock`): each call is noted in `log` as (name,
    tool, query); its wire time is `wire_ms(log)` when the call is made."""

    def __init__(self, name: str, log: list[tuple[str, str, str]], wire_ms: Callable[[list], float]) -> None:
        self.name, self.log, self.wire_ms, self.wire_clock = name, log, wire_ms, self

    def begin(self) -> None:
        pass

    def call_ms(self) -> float:
        return self.wire_ms(self.log)

    def call_tool(self, tool: str, arguments: dict) -> SimpleNamespace:
        self.log.append((self.name, tool, arguments.get("query", "")))
        return SimpleNamespace(is_error=False, payload={})


def test_every_sizes_calls_alternate_in_blocks_starting_one_size_further_along(monkeypatch) -> None:
    """So a slower spell of the machine falls on every size alike, not on the size measured while it lasted."""
    import scale_run

    calls: list[tuple[str, str, str]] = []
    monkeypatch.setattr(scale_run, "BLOCK", 2)
    plan = scale_run.Queries(names=["n"], searches=[f"q{i}" for i in range(4)], paths=["p"])
    served: list = [FakeServer(name, calls, len) for name in ("1k", "5k", "20k")]
    latencies = scale_run._time_tool(served, plan, "search_code", 3, 1)
    assert [(name, query) for name, _, query in calls] == [
        ("1k", "q0"), ("5k", "q0"), ("20k", "q0"),  # warm-up, untimed
        ("1k", "q0"), ("1k", "q1"), ("5k", "q0"), ("5k", "q1"), ("20k", "q0"), ("20k", "q1"),
        ("5k", "q2"), ("20k", "q2"), ("1k", "q2")]
    # Each size's figures are of its own calls: the fake's wire time is the number of calls made by then (1k's
    # calls are the 4th, 5th and 12th).
    assert [(latency.wire.p50, latency.wire.p95, latency.wire.count) for latency in latencies] == [
        (5.0, 12.0, 3), (7.0, 10.0, 3), (9.0, 11.0, 3)]


def test_calls_after_a_pause_each_follow_one_and_are_reported_beside_the_warm_ones() -> None:
    """An agent thinks between its calls: what a server lets lapse while idle shows only in such calls."""
    import scale_floor
    import scale_report
    import scale_run

    events: list = []
    plan = scale_run.Queries(names=["n"], searches=["q"], paths=["p"])
    served: list = [FakeServer("1k", events, lambda log: 5.0), FakeServer("20k", events, lambda log: 100.0)]
    paused = scale_run._time_after_pauses(served, plan, 2, 1.5, sleep=lambda s: events.append(f"pause {s}"))
    assert events == ["pause 1.5", ("1k", "search_code", "q"), "pause 1.5", ("20k", "search_code", "q")] * 2
    assert [(latency.wire.p95, latency.wire.count) for latency in paused] == [(5.0, 2), (100.0, 2)]
    runs = [scale_run.IndexRun(2.0, 100.0, 1, 1, cpu_seconds=3.0)]
    result = scale_run.Result(size=1, files=1, bytes=1, symbols=1, full=runs, reindex=runs, edits=runs,
                              floors=[scale_floor.Timed(1.0, 1.0)] * 2, ctags=[], index_mb=1.0, server_rss_mb=1.0,
                              latency=dict.fromkeys(scale_run.TOOLS, paused[0]), after_pause=paused[1],
                              pause_s=1.5)
    row = result.record()
    assert row["search_code_after_pause"] == {"pause_s": 1.5, "p50": 100.0, "p95": 100.0, "count": 2}
    assert scale_report.table([row]).splitlines()[2].endswith("| 100.0 / 100.0 |")
    del row["search_code_after_pause"]  # a row measured before calls after a pause were
    assert scale_report.table([row]).splitlines()[2].endswith("| - |")
