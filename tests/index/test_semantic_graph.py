"""The nearest-neighbour graph of large semantic indexes: built at index time, searched with exact rescoring, kept
through patches.

The guarantee tested: a search over the graph scores its candidates exactly as the full scan does (same
similarity, bit for bit), so it differs from the full scan only by rows it did not consider; every row a
patch added is considered (it is outside the graph, so always scanned) and no row a patch removed is answered.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from cruxgate.reference.index.semantic import SEMANTIC_DIR, SemanticIndex, SemanticIndexError, graph
from cruxgate.reference.index.semantic.build import DefinitionRow, SemanticIndexBuilder
from cruxgate.reference.index.semantic.fold import fold
from cruxgate.reference.index.semantic.model import TERM_CANDIDATES, heaviest
from cruxgate.reference.index.semantic.text import terms

# Topics of a synthetic code base: each definition draws most of its words from one topic, so rows cluster.
TOPICS = [
    ["parse", "email", "address", "header", "mailbox", "domain", "quoted", "local", "part"],
    ["compress", "archive", "zip", "deflate", "stream", "block", "checksum", "crc"],
    ["socket", "connect", "timeout", "retry", "backoff", "server", "client", "request"],
    ["render", "template", "escape", "html", "markup", "context", "variable", "filter"],
    ["matrix", "vector", "multiply", "transpose", "determinant", "inverse", "eigen", "solve"],
    ["cache", "entry", "expire", "evict", "least", "recently", "lookup", "store"],
    ["thread", "lock", "queue", "worker", "pool", "schedule", "wait", "notify"],
    ["path", "directory", "walk", "remove", "tree", "copy", "rename", "permission"],
]
QUERIES = ["parse the email address of a header", "retry a socket request after a timeout",
           "remove a directory tree", "evict expired cache entries", "invert a matrix", "escape html in a template",
           "checksum of a compressed block", "wait for a worker in the pool"]


Row = DefinitionRow


def definitions(count: int, seed: int, first_id: int = 1) -> list[Row]:
    """`count` definition rows (`definition_rows`'s) of a seeded synthetic code base (stable ids from `first_id`)."""
    rng = random.Random(seed)
    rows: list[Row] = []
    for i in range(count):
        topic = TOPICS[rng.randrange(len(TOPICS))]
        other = TOPICS[rng.randrange(len(TOPICS))]
        name = "_".join(rng.sample(topic, 2))
        doc = " ".join(rng.sample(topic, 4) + rng.sample(other, 1))
        body = " ".join(rng.choice(topic + other) for _ in range(8))
        rows.append(DefinitionRow(name, f"pkg.mod{i % 40}.", doc, body, first_id + i, 1.0, f"pkg/mod{i % 40}.py",
                                  i + 1, i + 3, "python"))
    return rows


def build(generation: Path, rows: list[Row], min_rows: int,
          monkeypatch: pytest.MonkeyPatch) -> SemanticIndex:
    """Write a semantic index of `rows` into `generation` (a graph from `min_rows` rows) and open it."""
    monkeypatch.setattr(graph, "MIN_ROWS", min_rows)
    builder = SemanticIndexBuilder()
    builder.add_rows(rows)
    generation.mkdir(parents=True)
    builder.write(generation)
    return SemanticIndex.open(generation)


def top_ids(index: SemanticIndex, query: str, limit: int = 10, exact: bool = False) -> list[tuple[str, float]]:
    return [(m.stable_id, m.similarity) for m in index.search(terms(query), limit, 0.05, exact=exact)]


def reachable_once(index: SemanticIndex) -> bool:
    """Every row a search may answer is either a key of the graph or outside it (scanned), never both, never
    neither; a row a patch removed is neither."""
    assert index.graph is not None
    in_graph = [int(r) for r in index.graph.rows if r >= 0]
    outside = [int(r) for r in index.graph.extra]
    return sorted(in_graph + outside) == list(index.live_rows())


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return definitions(3000, seed=7)


def test_a_large_index_gets_a_graph_and_a_small_one_does_not(tmp_path: Path, rows: list,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    small = build(tmp_path / "small", rows, min_rows=len(rows) + 1, monkeypatch=monkeypatch)
    large = build(tmp_path / "large", rows, min_rows=len(rows), monkeypatch=monkeypatch)
    assert small.graph is None and "graph" not in small.manifest
    assert large.graph is not None and large.manifest["graph"]["keys"] == len(rows)
    assert (tmp_path / "large" / SEMANTIC_DIR / graph.GRAPH_FILE).is_file()


def test_graph_answers_score_exactly_and_miss_little(tmp_path: Path, rows: list,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    index = build(tmp_path / "gen", rows, min_rows=1, monkeypatch=monkeypatch)
    overlap = []
    for query in QUERIES:
        exact = top_ids(index, query, exact=True)
        found = top_ids(index, query)
        assert found and found[0] == exact[0], query  # the best row is never missed on these topics
        scores = dict(top_ids(index, query, limit=index.rows, exact=True))
        assert all(scores[sid] == similarity for sid, similarity in found)  # bit-identical similarity
        assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
        overlap.append(len({sid for sid, _ in exact} & {sid for sid, _ in found}) / len(exact))
    assert np.mean(overlap) >= 0.9, overlap


def test_a_rebuild_of_the_same_rows_gives_the_same_graph_file(tmp_path: Path, rows: list,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    build(tmp_path / "a", rows, min_rows=1, monkeypatch=monkeypatch)
    build(tmp_path / "b", rows, min_rows=1, monkeypatch=monkeypatch)
    a, b = (tmp_path / name / SEMANTIC_DIR / graph.GRAPH_FILE for name in ("a", "b"))
    assert a.read_bytes() == b.read_bytes()


def test_a_patch_keeps_the_graph_and_scans_what_it_added(tmp_path: Path, rows: list,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    previous = tmp_path / "gen-1"
    before = build(previous, rows, min_rows=1, monkeypatch=monkeypatch)
    query = "remove a directory tree"
    gone = [int(sid, 16) for sid, _ in top_ids(before, query)[:3]]  # the best answers are deleted
    added: list[Row] = [DefinitionRow("remove_directory_tree", "pkg.shutil.",
                                      "Remove a directory tree: walk the path, remove each entry.",
                                      "walk path remove directory tree", 10_000_001, 1.0, "pkg/shutil.rs", 40, 52,
                                      "rust")]
    generation = tmp_path / "gen-2"
    generation.mkdir()
    fold(previous, generation, gone, added, source="patched")
    after = SemanticIndex.open(generation)
    folder, old = generation / SEMANTIC_DIR, previous / SEMANTIC_DIR
    assert after.graph is not None
    assert (folder / graph.GRAPH_FILE).stat().st_ino == (old / graph.GRAPH_FILE).stat().st_ino  # linked
    assert reachable_once(after)
    assert {int(s) for s in after.stable_ids[after.graph.extra]} == {10_000_001}
    found = top_ids(after, query)
    assert found[0][0] == f"{10_000_001:016x}"  # the added row is outside the graph, and scanned
    # Every row keeps its location: the kept rows theirs, the added row its own (a new file entry).
    where = {f"{r.stable_id:016x}": (r.path, r.line_start, r.line_end, r.language) for r in [*rows, *added]}
    assert all((m.path, m.line_start, m.line_end, m.language) == where[m.stable_id]
               for m in after.search(terms(query), after.rows, 0.0, exact=True))
    assert not {f"{sid:016x}" for sid in gone} & {sid for sid, _ in found}
    exact = top_ids(after, query, exact=True)
    assert found[0] == exact[0]
    scores = dict(top_ids(after, query, limit=after.rows, exact=True))
    assert all(scores[sid] == similarity for sid, similarity in found)
    # A second patch: the first patch's row stays outside the graph and is still found; the graph stays linked.
    third = tmp_path / "gen-3"
    third.mkdir()
    fold(generation, third, [rows[0].stable_id], [], source="patched again")
    again = SemanticIndex.open(third)
    assert again.graph is not None and reachable_once(again)
    assert top_ids(again, query)[0][0] == f"{10_000_001:016x}"
    assert (third / SEMANTIC_DIR / graph.GRAPH_FILE).stat().st_ino == (old / graph.GRAPH_FILE).stat().st_ino


def test_without_the_library_the_search_scans_every_row(tmp_path: Path, rows: list,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    index = build(tmp_path / "gen", rows, min_rows=1, monkeypatch=monkeypatch)
    monkeypatch.setitem(__import__("sys").modules, "usearch.index", None)  # import fails
    scanned = SemanticIndex.open(tmp_path / "gen")
    assert scanned.graph is None
    assert top_ids(scanned, QUERIES[0]) == top_ids(index, QUERIES[0], exact=True)
    unbuilt = build(tmp_path / "without", rows, min_rows=1, monkeypatch=monkeypatch)  # the index run goes on
    assert unbuilt.graph is None and "graph" not in unbuilt.manifest
    assert not (tmp_path / "without" / SEMANTIC_DIR / graph.GRAPH_FILE).exists()


def test_a_damaged_graph_is_a_backend_error(tmp_path: Path, rows: list, monkeypatch: pytest.MonkeyPatch) -> None:
    build(tmp_path / "gen", rows, min_rows=1, monkeypatch=monkeypatch)
    damaged = tmp_path / "damaged"
    shutil.copytree(tmp_path / "gen", damaged)
    np.save(damaged / SEMANTIC_DIR / graph.GRAPH_ROWS, np.arange(5, dtype=np.int64))  # fewer keys than the graph
    with pytest.raises(SemanticIndexError) as caught:
        SemanticIndex.open(damaged)
    assert caught.value.reason == "semantic_backend_error"


def test_a_graph_built_from_the_vectors_file_a_slice_at_a_time_is_the_graph_of_the_array(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vectors = np.random.default_rng(7).standard_normal((1000, 24)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1)[:, None]
    whole, sliced = tmp_path / "whole", tmp_path / "sliced"
    whole.mkdir()
    sliced.mkdir()
    assert graph.build(whole, vectors, min_rows=1) is not None
    np.save(sliced / "doc_vectors.npy", vectors, allow_pickle=False)
    monkeypatch.setattr(graph, "SLICE", 96)  # eleven slices, the last one short
    assert graph.build(sliced, sliced / "doc_vectors.npy", min_rows=1) is not None
    assert (sliced / graph.GRAPH_FILE).read_bytes() == (whole / graph.GRAPH_FILE).read_bytes()
    assert graph.build(sliced, sliced / "doc_vectors.npy") is None  # below MIN_ROWS: no graph, the file unread


def test_the_graph_built_and_viewed_without_a_key_table_is_the_one_with_it(tmp_path: Path) -> None:
    from usearch.index import Index

    vectors = np.random.default_rng(11).standard_normal((600, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1)[:, None]
    assert graph.build(tmp_path, vectors, min_rows=1) is not None
    keyed = Index(ndim=16, metric="ip", dtype="f16", connectivity=graph.CONNECTIVITY,
                  expansion_add=graph.EXPANSION_ADD, expansion_search=graph.EXPANSION_SEARCH)
    keyed.add(np.arange(600, dtype=np.uint64), vectors, threads=1)
    keyed.save(str(tmp_path / "keyed.usearch"))
    assert (tmp_path / graph.GRAPH_FILE).read_bytes() == (tmp_path / "keyed.usearch").read_bytes()
    opened = graph.Graph.open(tmp_path, 600)  # viewed without the table too: the same neighbours
    assert opened is not None
    keyed_view = Index.restore(str(tmp_path / "keyed.usearch"), view=True, expansion_search=graph.EXPANSION_SEARCH)
    for vector in vectors[:50]:
        assert opened.nearest(vector, 10).tolist() == [int(k) for k in keyed_view.search(vector, 10).keys]


def expected_heavy(index: SemanticIndex, column: int) -> set[int]:
    """The rows of `column`'s TERM_CANDIDATES largest weights, ties to the lower row (none for a smaller column)."""
    start, end = int(index.tfidf_indptr[column]), int(index.tfidf_indptr[column + 1])
    if end - start <= TERM_CANDIDATES:
        return set()
    rows, weights = np.asarray(index.tfidf_indices[start:end]), np.asarray(index.tfidf_data[start:end])
    return {int(r) for r in rows[np.lexsort((rows, -weights))[:TERM_CANDIDATES]]}


def stored_heavy(index: SemanticIndex, column: int) -> set[int]:
    first, last = int(index.tfidf_heavy_indptr[column]), int(index.tfidf_heavy_indptr[column + 1])
    return {int(r) for r in index.tfidf_heavy[first:last]}


def test_each_common_terms_heaviest_rows_are_kept_and_searched(tmp_path: Path, rows: list,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    previous = tmp_path / "gen-1"
    index = build(previous, rows, min_rows=1, monkeypatch=monkeypatch)
    columns = range(index.tfidf_indptr.shape[0] - 1)
    assert sum(1 for c in columns if expected_heavy(index, c)) >= 20  # the topics' words are in > 256 rows
    assert all(stored_heavy(index, c) == expected_heavy(index, c) for c in columns)
    query = terms("parse the email address of a header")
    wanted = [index.columns[t] for t in query if t in index.columns]
    candidates = set(index._candidates(None, wanted, 10).tolist())
    assert all(stored_heavy(index, c) <= candidates for c in wanted) and any(stored_heavy(index, c) for c in wanted)
    # A patch writes the columns anew, and their heaviest rows with them.
    generation = tmp_path / "gen-2"
    generation.mkdir()
    fold(previous, generation, [r.stable_id for r in rows[:500]], definitions(400, seed=8, first_id=50_000),
         source="patched")
    after = SemanticIndex.open(generation)
    assert all(stored_heavy(after, c) == expected_heavy(after, c) for c in range(after.tfidf_indptr.shape[0] - 1))
    assert any(r >= index.rows for c in wanted for r in stored_heavy(after, c))  # folded rows among them
    # A patch that only removes rows: the columns that lose their heaviest rows choose again.
    third = tmp_path / "gen-3"
    third.mkdir()
    heavy = sorted(stored_heavy(after, wanted[0]))[:50]
    fold(generation, third, [int(after.stable_ids[r]) for r in heavy], [], source="removed")
    last = SemanticIndex.open(third)
    assert all(stored_heavy(last, c) == expected_heavy(last, c) for c in range(last.tfidf_indptr.shape[0] - 1))
    assert not stored_heavy(last, wanted[0]) & set(heavy)


@pytest.mark.parametrize(("weights", "count", "expected"), [
    ([1.0, 3.0, 3.0, 3.0, 2.0], 2, [1, 2]),  # of equal weights at the cut, the first
    ([5.0, 1.0, 4.0, 2.0], 3, [0, 2, 3]),
    ([2.0, 2.0, 2.0], 2, [0, 1]),
])
def test_heaviest_picks_the_largest_and_the_first_of_ties(weights: list[float], count: int,
                                                          expected: list[int]) -> None:
    assert sorted(heaviest(np.asarray(weights, dtype=np.float32), count).tolist()) == expected
