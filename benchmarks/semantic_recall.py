"""The semantic index's search against its exact scan: recall@10 and CPU time per question.

Recall@10 here is the share of the exact scan's first 10 rows that the search answers in its first 10
(the search asks 20 rows, as search_code's channel does for a limit-10 call), averaged over the
questions the exact scan answers. The questions are the semantic benchmark's
(golden/semantic/stdlib-queries.yaml). Used by test_semantic_quality.py (the stdlib, a graph built
for the measurement) and by the scale benchmark (each corpus as indexed).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import yaml

from cruxgate.reference.index.semantic import SemanticIndex
from cruxgate.reference.index.semantic.text import terms

QUESTIONS = Path(__file__).resolve().parents[1] / "golden" / "semantic" / "stdlib-queries.yaml"
ASKED = 20  # semantic_limit of a limit-10 search_code call (docs/semantic.md)
COMPARED = 10
REPEATS = 3  # the least CPU time of a few runs per question: the machine is shared


def load_queries(path: Path = QUESTIONS) -> list[dict[str, Any]]:
    """The labeled questions: [{query, accept: [qualified names]}]."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))["queries"]


def _cpu_ms(run: Any) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best * 1e3


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def compare(index: SemanticIndex, asked: list[str]) -> dict[str, Any]:
    """The search as configured (graph when the index has one) against the exact scan, over `asked`."""
    overlaps: list[float] = []
    exact_ms: list[float] = []
    search_ms: list[float] = []
    for question in asked:
        words = terms(question)
        exact = [m.stable_id for m in index.search(words, ASKED, 0.05, exact=True)][:COMPARED]
        found = [m.stable_id for m in index.search(words, ASKED, 0.05)][:COMPARED]
        if exact:
            overlaps.append(len(set(exact) & set(found)) / len(exact))
        exact_ms.append(_cpu_ms(lambda w=words: index.search(w, ASKED, 0.05, exact=True)))
        search_ms.append(_cpu_ms(lambda w=words: index.search(w, ASKED, 0.05)))
    return {"rows": index.rows, "search": "graph" if index.graph is not None else "exact scan",
            "questions": len(overlaps), "recall_at_10": round(statistics.fmean(overlaps), 4) if overlaps else None,
            "exact_cpu_ms": {"p50": round(_percentile(exact_ms, 0.5), 3), "p95": round(_percentile(exact_ms, 0.95), 3)},
            "search_cpu_ms": {"p50": round(_percentile(search_ms, 0.5), 3),
                              "p95": round(_percentile(search_ms, 0.95), 3)}}


def measure(root: Path, asked: list[str]) -> dict[str, Any]:
    """`compare` on the live generation's semantic index of the workspace `root`."""
    from cruxgate.reference.index import read_state

    generation = read_state(root).generation
    assert generation is not None
    return compare(SemanticIndex.open(generation), asked)


def table(rows: list[dict[str, Any]]) -> str:
    """A Markdown table of scale rows that carry a `semantic` comparison (empty when none does)."""
    measured = [r for r in rows if r.get("semantic")]
    if not measured:
        return ""
    lines = ["| files | semantic rows | search | recall@10 vs exact scan | exact scan CPU p50 / p95 ms "
             "| search CPU p50 / p95 ms |", "|---|---|---|---|---|---|"]
    for r in measured:
        s = r["semantic"]
        recall = "-" if s["search"] == "exact scan" or s["recall_at_10"] is None else f"{s['recall_at_10']:.3f}"
        lines.append(f"| {r['files']:,} | {s['rows']:,} | {s['search']} | {recall} "
                     f"| {s['exact_cpu_ms']['p50']:.2f} / {s['exact_cpu_ms']['p95']:.2f} "
                     f"| {s['search_cpu_ms']['p50']:.2f} / {s['search_cpu_ms']['p95']:.2f} |")
    return "\n".join(lines)


def paired_search_code(root: Path, asked: list[str], rounds: int = 3) -> dict[str, dict[str, float]]:
    """search_code (limit 10, hybrid) in process on `root`'s live generation, the graph against the exact scan,
    alternated call by call so both see the same machine: p50 / p95 ms (nearest rank) of each call's wall time
    and of its CPU time (both threads of a split scan; the load inflates it less)."""
    from cruxgate.reference.config import SemanticConfig
    from cruxgate.reference.index import IndexReader
    from cruxgate.reference.query.engine import QueryEngine
    from cruxgate.reference.query.semantic.channel import SemanticChannel

    reader = IndexReader.open(root)
    generation = reader.generation

    def scan_only() -> SemanticIndex:
        index = SemanticIndex.open(generation)
        index.graph = None
        return index

    engines = {"graph": QueryEngine(reader, semantic=SemanticChannel(SemanticConfig(),
                                                                     lambda: SemanticIndex.open(generation))),
               "exact scan": QueryEngine(reader, semantic=SemanticChannel(SemanticConfig(), scan_only))}
    wall: dict[str, list[float]] = {name: [] for name in engines}
    cpu: dict[str, list[float]] = {name: [] for name in engines}
    for engine in engines.values():
        for question in asked[:10]:
            engine.search_code(question, limit=10, semantic=True)  # warm: open the index, touch the pages
    for _ in range(rounds):
        for question in asked:
            for name, engine in engines.items():
                started, started_cpu = time.perf_counter(), time.process_time()
                engine.search_code(question, limit=10, semantic=True)
                wall[name].append((time.perf_counter() - started) * 1e3)
                cpu[name].append((time.process_time() - started_cpu) * 1e3)
    return {name: {"p50": round(_percentile(wall[name], 0.5), 3), "p95": round(_percentile(wall[name], 0.95), 3),
                   "cpu_p50": round(_percentile(cpu[name], 0.5), 3), "cpu_p95": round(_percentile(cpu[name], 0.95), 3)}
            for name in engines}


if __name__ == "__main__":
    import sys

    # python3 benchmarks/semantic_recall.py WORKSPACE...: both comparisons on each indexed workspace.
    questions = [q["query"] for q in load_queries()]
    for workspace in sys.argv[1:]:
        print(workspace, measure(Path(workspace), questions), paired_search_code(Path(workspace), questions),
              flush=True)
