"""A patch's fold of the semantic rows: the live rows minus the removed ones, in their order, then the new rows.

`fold` edits the stored arrays in place of rebuilding them (the TF-IDF columns spliced, the LSI rows copied
in slices around the removed ones); what it writes must be exactly the rows a plain rebuild of the same
arrays gives: each kept row's TF-IDF entries and LSI vector unchanged and renumbered, each new row after them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cruxgate.reference.index.semantic import SemanticIndex
from cruxgate.reference.index.semantic.fold import fold, foldable

from .test_semantic_graph import Row, build, definitions


def dense_tfidf(index: SemanticIndex) -> np.ndarray:
    """The TF-IDF rows as a dense (rows x terms) matrix, from the stored columns."""
    out = np.zeros((index.rows, index.idf.shape[0]), dtype=np.float32)
    indptr = np.asarray(index.tfidf_indptr)
    for column in range(indptr.shape[0] - 1):
        start, end = int(indptr[column]), int(indptr[column + 1])
        rows = np.asarray(index.tfidf_indices[start:end])
        assert list(rows) == sorted(rows), "a column's rows are stored in order"
        out[rows, column] = index.tfidf_data[start:end]
    return out


@pytest.mark.parametrize("removed_at", [[], [0], [5, 6, 40], [199], [0, 77, 199]], ids=str)
def test_a_fold_keeps_every_row_in_place_and_appends_the_new(tmp_path: Path, removed_at: list[int],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    rows = definitions(200, seed=7)
    before = build(tmp_path / "gen-1", rows, min_rows=10**9, monkeypatch=monkeypatch)
    stable = [int(s) for s in before.stable_ids]
    removed = [stable[i] for i in removed_at]
    added: list[Row] = definitions(3, seed=8, first_id=10_000)
    generation = tmp_path / "gen-2"
    generation.mkdir()
    fold(tmp_path / "gen-1", generation, removed, added, source="patched")
    after = SemanticIndex.open(generation)

    # Every old row keeps its number; the removed ones stay as rows no search answers (prior 0, no entries).
    keep = [i for i in range(before.rows) if i not in removed_at]
    assert after.rows == before.rows + len(added)
    assert [int(s) for s in after.stable_ids] == stable + [r.stable_id for r in added]
    assert list(after.live_rows()) == keep + list(range(before.rows, after.rows))
    assert after.manifest["folded_rows"] == before.manifest["folded_rows"] + len(added)
    assert after.manifest["nonzeros"] == int(after.tfidf_data.shape[0])
    old_tfidf, new_tfidf = dense_tfidf(before), dense_tfidf(after)
    assert np.array_equal(new_tfidf[keep], old_tfidf[keep])
    assert not new_tfidf[removed_at].any()
    assert np.array_equal(np.asarray(after.priors)[removed_at], np.zeros(len(removed_at), dtype=np.float32))
    for name in ("priors", "lines"):
        assert np.array_equal(np.asarray(getattr(after, name))[keep], np.asarray(getattr(before, name))[keep])
    # Kept rows keep their files (renumbered in a table of the answered rows' files only); removed rows have none.
    assert [after.files[after.file_of[i]] for i in keep] == [before.files[before.file_of[i]] for i in keep]
    assert all(after.file_of[i] == -1 for i in removed_at)
    answered = {after.files[after.file_of[i]] for i in after.live_rows()}
    assert sorted(answered) == after.files
    # The fitted rows' vectors are the same file (shared, never written again); the new rows' are the generation's.
    old_vectors = tmp_path / "gen-1" / "semantic" / "doc_vectors.npy"
    assert (generation / "semantic" / "doc_vectors.npy").stat().st_ino == old_vectors.stat().st_ino
    assert np.array_equal(after.vectors_of(np.arange(before.rows)), np.asarray(before.doc_vectors))
    # The new rows: unit length, weighted by the kept model.
    new = new_tfidf[before.rows:]
    assert new.shape[0] == len(added) and np.allclose(np.linalg.norm(new, axis=1), 1.0, atol=1e-5)
    folded = after.vectors_of(np.arange(before.rows, after.rows))
    assert np.allclose(np.linalg.norm(folded, axis=1), 1.0, atol=1e-5)


def test_a_removed_row_is_never_answered_and_a_second_fold_appends_after_the_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = definitions(200, seed=7)
    before = build(tmp_path / "gen-1", rows, min_rows=10**9, monkeypatch=monkeypatch)
    query = rows[3].name.split("_")
    # Below a floor under 0 every row is an answer, a row that shares no word with the query too.
    assert len(before.search(query, before.rows, -1.0, exact=True)) == before.rows
    (tmp_path / "gen-2").mkdir()
    fold(tmp_path / "gen-1", tmp_path / "gen-2", [rows[3].stable_id], definitions(2, seed=8, first_id=10_000),
         source="one")
    (tmp_path / "gen-3").mkdir()
    third = definitions(2, seed=9, first_id=20_000)
    fold(tmp_path / "gen-2", tmp_path / "gen-3", [10_000], third, source="two")
    after = SemanticIndex.open(tmp_path / "gen-3")
    answered = {int(m.stable_id, 16) for m in after.search(query, after.rows, -1.0, exact=True)}
    assert rows[3].stable_id not in answered and 10_000 not in answered  # removed, even below a floor under 0
    assert {10_001, *(r.stable_id for r in third)} <= answered  # folded rows of both patches are searched
    assert after.rows == before.rows + 4 and after.folded_vectors.shape[0] == 4


def test_a_fold_past_the_folded_share_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build(tmp_path / "gen-1", definitions(200, seed=7), min_rows=10**9, monkeypatch=monkeypatch)
    assert foldable(tmp_path / "gen-1", 20) is not None  # 10% of the 200 fitted rows
    assert foldable(tmp_path / "gen-1", 21) is None
    (tmp_path / "gen-2").mkdir()
    fold(tmp_path / "gen-1", tmp_path / "gen-2", [], definitions(15, seed=8, first_id=10_000), source="one")
    assert foldable(tmp_path / "gen-2", 5) is not None and foldable(tmp_path / "gen-2", 6) is None


def test_a_fold_never_changes_what_a_reader_of_the_previous_generation_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = definitions(200, seed=7)
    build(tmp_path / "gen-1", rows, min_rows=10**9, monkeypatch=monkeypatch)
    (tmp_path / "gen-2").mkdir()
    fold(tmp_path / "gen-1", tmp_path / "gen-2", [rows[5].stable_id], definitions(3, seed=8, first_id=10_000),
         source="one")
    reader = SemanticIndex.open(tmp_path / "gen-2")  # a server on the generation the next patch replaces
    query = rows[7].name.split("_")
    answers = reader.search(query, 20, 0.0, exact=True)
    files = {path.name: path.read_bytes() for path in (tmp_path / "gen-2" / "semantic").iterdir()}
    (tmp_path / "gen-3").mkdir()
    fold(tmp_path / "gen-2", tmp_path / "gen-3", [rows[7].stable_id, 10_001], definitions(4, seed=9, first_id=20_000),
         source="two")
    assert {path.name: path.read_bytes() for path in (tmp_path / "gen-2" / "semantic").iterdir()} == files
    assert reader.search(query, 20, 0.0, exact=True) == answers
    assert SemanticIndex.open(tmp_path / "gen-2").search(query, 20, 0.0, exact=True) == answers


def test_a_fold_leaves_the_file_table_of_the_answered_rows_only(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    rows = definitions(200, seed=7)  # 40 files of 5 rows: pkg/mod<i % 40>.py
    build(tmp_path / "gen-1", rows, min_rows=10**9, monkeypatch=monkeypatch)
    emptied = [row.stable_id for row in rows if row.path == "pkg/mod7.py"]
    moved = [row._replace(stable_id=30_000 + i, path="pkg/zz_new.py") for i, row in enumerate(rows[:2])]
    (tmp_path / "gen-2").mkdir()
    fold(tmp_path / "gen-1", tmp_path / "gen-2", emptied, moved, source="one")
    (tmp_path / "gen-3").mkdir()  # a second fold reads the first's removed rows (in no file)
    back = [rows[7]._replace(stable_id=40_000)]
    fold(tmp_path / "gen-2", tmp_path / "gen-3", [30_000], back, source="two")

    second = SemanticIndex.open(tmp_path / "gen-2")
    expected = sorted({(f"pkg/mod{i}.py", "python") for i in range(40) if i != 7} | {("pkg/zz_new.py", "python")})
    assert second.files == expected  # the emptied file's entry is gone, the new file's is in path order
    third = SemanticIndex.open(tmp_path / "gen-3")
    assert third.files == sorted({*expected, ("pkg/mod7.py", "python")})
    located = {f"{int(third.stable_ids[i]):016x}": third.match(int(i), 1.0).path for i in third.live_rows()}
    assert located[f"{40_000:016x}"] == "pkg/mod7.py" and located[f"{30_001:016x}"] == "pkg/zz_new.py"
    assert located[f"{rows[8].stable_id:016x}"] == rows[8].path
