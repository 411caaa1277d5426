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
from cruxgate.reference.index.semantic.fold import fold

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
def test_a_fold_keeps_every_other_row_exactly_and_appends_the_new(tmp_path: Path, removed_at: list[int],
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

    keep = [i for i in range(before.rows) if i not in removed_at]
    assert [int(s) for s in after.stable_ids] == [stable[i] for i in keep] + [r.stable_id for r in added]
    assert after.manifest["folded_rows"] == before.manifest["folded_rows"] + len(added)
    assert after.manifest["nonzeros"] == int(after.tfidf_data.shape[0])
    old_tfidf, new_tfidf = dense_tfidf(before), dense_tfidf(after)
    assert np.array_equal(new_tfidf[:len(keep)], old_tfidf[keep])
    assert np.array_equal(np.asarray(after.doc_vectors)[:len(keep)], np.asarray(before.doc_vectors)[keep])
    for name in ("priors", "file_of", "lines"):
        assert np.array_equal(np.asarray(getattr(after, name))[:len(keep)], np.asarray(getattr(before, name))[keep])
    # The new rows: unit length, weighted by the kept model.
    new = new_tfidf[len(keep):]
    assert new.shape[0] == len(added) and np.allclose(np.linalg.norm(new, axis=1), 1.0, atol=1e-5)
    assert np.allclose(np.linalg.norm(np.asarray(after.doc_vectors)[len(keep):], axis=1), 1.0, atol=1e-5)
