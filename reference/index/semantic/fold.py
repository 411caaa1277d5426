"""Fold changed definitions into the live generation's semantic model instead of fitting it again.

A patch (`index/incremental.py`) keeps the model the last full run fitted (vocabulary, IDF, the LSI term
vectors: linked, not copied) and the fitted rows' LSI vectors (`doc_vectors.npy`, linked: the largest file,
never written again until the next fit). Rows are never renumbered: the rows of the changed files' old
definitions stay as removed rows (prior 0, no TF-IDF entries: never answered), their new definitions are
appended, weighted with the kept IDF (a term the vocabulary lacks weighs nothing) and projected on the kept
term vectors, exactly as a full run computes a row from its own model; their vectors go with every row
folded since the fit into the generation's own `folded_vectors.npy` (at most `MAX_FOLDED_SHARE` of the
fitted rows). The TF-IDF columns and the small per-row arrays are written anew, in single passes. What drifts
is the model: it no longer reflects the folded rows' vocabulary. A full run refits it once the rows folded
in since the fit pass `MAX_FOLDED_SHARE` of the rows it was fitted on (`foldable` says no).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from . import graph
from .build import RECIPE, DefinitionRow, file_table, link_file, save_arrays, stored_columns, term_bag, term_weight
from .model import FILES, FOLDED_VECTORS, FORMAT, SEMANTIC_DIR, SemanticIndex, SemanticIndexError
from .sentence import FOLDED, VECTORS, SentenceModel, made_by, row_text
from .text import Terms

MAX_FOLDED_SHARE = 0.10
_MODEL = ("terms.json", "idf.npy", "term_vectors.npy")


def foldable(previous: Path, new_rows: int, sentence: SentenceModel | None = None) -> SemanticIndex | None:
    """`previous`'s semantic index (without its graph) when it is whole, by this recipe (with vectors of
    `sentence`, or none), and has room for `new_rows` more folded rows (`fold` takes it); None when a full run must
    refit."""
    if not made_by(previous, sentence):
        return None
    try:
        index = SemanticIndex.open(previous, graph=False)  # the graph file is linked, not read
    except SemanticIndexError:
        return None
    manifest = index.manifest
    if manifest.get("recipe") != RECIPE or manifest.get("format") != FORMAT or "fitted_rows" not in manifest:
        return None
    room = int(manifest["folded_rows"]) + new_rows <= MAX_FOLDED_SHARE * max(int(manifest["fitted_rows"]), 1)
    return index if room else None


def fold(previous: Path, generation: Path, removed: Iterable[int], rows: list[DefinitionRow], source: str,
         old: SemanticIndex | None = None, sentence: SentenceModel | None = None) -> dict:
    """Write `generation`'s semantic index: `previous`'s (`old`, when `foldable` opened it already) without the
    rows of stable ids `removed`, plus `rows` (`definition_rows`); with `sentence` (the model of `previous`'s
    vectors: `foldable`), only the new rows are embedded. Returns its manifest."""
    if old is None:
        old = SemanticIndex.open(previous, graph=False)
    folder = generation / SEMANTIC_DIR
    folder.mkdir()
    for name in _MODEL:
        link_file(previous / SEMANTIC_DIR / name, folder / name)
    stable = np.asarray(old.stable_ids)
    old_priors = np.asarray(old.priors)
    # Rows are never renumbered: a removed row stays, with prior 0 (never answered) and no TF-IDF entries.
    gone = np.flatnonzero(np.isin(stable, np.fromiter(removed, dtype=np.uint64)) & (old_priors > 0))
    keep = np.ones(old.rows, dtype=bool)
    keep[gone] = False
    idf = np.asarray(old.idf)
    # The new rows' TF-IDF entries (row, column, value), each row scaled to unit length as a full run does.
    terms = Terms()
    entry_rows: list[int] = []
    entry_columns: list[int] = []
    values: list[float] = []
    stable_ids: list[int] = []
    priors: list[float] = []
    files: list[tuple[str, str | None]] = []  # each new row's (path, language): `_located` numbers them
    lines: list[tuple[int, int]] = []
    texts: list[str] = []
    for row in rows:
        bag = term_bag(terms, row.name, row.scope, row.doc, row.body)
        if not bag:
            continue  # as a full run: a definition without terms is no row
        texts.append(row_text(row))
        for term, count in bag.items():
            column = old.columns.get(term)
            if column is not None:
                entry_rows.append(len(stable_ids))
                entry_columns.append(column)
                values.append(term_weight(count) * float(idf[column]))
        stable_ids.append(row.stable_id)
        priors.append(row.prior)
        files.append((row.path, row.language))
        lines.append((row.line_start, row.line_end))
    new_rows = np.asarray(entry_rows, dtype=np.int64)
    new_columns = np.asarray(entry_columns, dtype=np.int64)
    new_values = np.asarray(values, dtype=np.float32)
    norms = np.sqrt(np.bincount(new_rows, weights=new_values.astype(np.float64) ** 2, minlength=len(stable_ids)))
    norms[norms == 0] = 1.0
    new_values = (new_values / norms[new_rows]).astype(np.float32)
    vectors = np.zeros((len(stable_ids), old.term_vectors.shape[1]), dtype=np.float32)
    np.add.at(vectors, new_rows, new_values[:, None] * np.asarray(old.term_vectors)[new_columns])
    lengths = np.linalg.norm(vectors, axis=1)
    lengths[lengths == 0] = 1.0
    vectors /= lengths[:, None]
    # The removed rows' entries dropped, then each new entry inserted at the end of its column (the new rows
    # come after every old row): within a column the rows stay in order. Every step is one pass over the arrays.
    indptr = np.asarray(old.tfidf_indptr)
    indices = np.asarray(old.tfidf_indices)
    data = np.asarray(old.tfidf_data)
    counts = np.diff(indptr)
    touched = np.zeros(len(counts), dtype=bool)  # the columns that lose or gain entries: their heavy rows change
    touched[new_columns] = True
    if len(gone):
        dropped = np.flatnonzero(~keep[indices])
        losing = np.searchsorted(indptr, dropped, side="right") - 1
        counts = counts - np.bincount(losing, minlength=len(counts))
        touched[losing] = True
        indices = np.delete(indices, dropped)
        data = np.delete(data, dropped)
    kept_end = np.cumsum(counts)  # where each column's kept entries end
    order = np.lexsort((new_rows, new_columns))
    at = kept_end[new_columns[order]] if len(order) else np.zeros(0, dtype=np.int64)
    entries = np.insert(indices, at, (new_rows + old.rows)[order].astype(indices.dtype))
    data = np.insert(data, at, new_values[order])
    pointers = np.concatenate([[0], np.cumsum(counts + np.bincount(new_columns, minlength=len(counts)))])
    # The fitted rows' vectors are shared with every generation since the fit (linked, never written again);
    # this generation's own file holds the rows folded in since, the new ones last.
    link_file(previous / SEMANTIC_DIR / "doc_vectors.npy", folder / "doc_vectors.npy")
    folded_vectors = np.concatenate([np.asarray(old.folded_vectors), vectors])
    graph.fold(previous / SEMANTIC_DIR, folder, keep, len(stable_ids))
    manifest = {**old.manifest, "rows": old.rows + len(stable_ids), "nonzeros": int(data.shape[0]), "source": source,
                "folded_rows": int(old.manifest["folded_rows"]) + len(stable_ids)}
    table, file_of = _located(old, keep, files)
    (folder / FILES).write_text(json.dumps(file_table(table)), encoding="utf-8")
    extra: dict[str, np.ndarray] = {}
    if sentence is not None:  # the sentence vectors as the LSI ones: the fitted rows' linked, the folded ones after
        link_file(previous / SEMANTIC_DIR / f"{VECTORS}.npy", folder / f"{VECTORS}.npy")
        parts = [sentence.encode(texts)] if texts else []
        if (previous / SEMANTIC_DIR / f"{FOLDED}.npy").is_file():
            parts.insert(0, np.load(previous / SEMANTIC_DIR / f"{FOLDED}.npy", allow_pickle=False))
        if parts:
            extra[FOLDED] = np.concatenate(parts).astype(np.float32)
    columns = stored_columns(pointers, entries, data, (np.asarray(old.tfidf_heavy_indptr), np.asarray(old.tfidf_heavy),
                                                       touched))
    save_arrays(folder, {**extra, FOLDED_VECTORS: folded_vectors, **columns,
                         "stable_ids": np.concatenate([stable, np.asarray(stable_ids, dtype=np.uint64)]),
                         "priors": np.concatenate([np.where(keep, old_priors, np.float32(0)).astype(np.float32),
                                                   np.asarray(priors, dtype=np.float32)]),
                         "file_of": file_of,
                         "lines": np.concatenate([np.asarray(old.lines),
                                                  np.asarray(lines, dtype=np.int32).reshape(-1, 2)])}, manifest)
    return manifest


def _located(old: SemanticIndex, keep: np.ndarray, new: list[tuple[str, str | None]],
             ) -> tuple[dict[tuple[str, str | None], int], np.ndarray]:
    """The file table a full run writes for the rows still answered (every file one of them is in, in path order:
    the order a full run adds them) and each row's entry in it (-1: a removed row, in no file)."""
    live = keep & (np.asarray(old.priors) > 0)
    old_of = np.asarray(old.file_of)
    # The entries in use, by a count per entry (one pass; a sort of every row's entry costs several).
    kept = {old.files[entry] for entry in np.flatnonzero(np.bincount(old_of[live], minlength=len(old.files))).tolist()}
    table = {located: entry for entry, located in enumerate(sorted(kept | set(new), key=lambda item: item[0]))}
    # Old entry -> new entry; the last place answers the -1 of a row an earlier fold removed.
    renumber = np.array([table.get(located, -1) for located in old.files] + [-1], dtype=np.int32)
    file_of = np.concatenate([np.where(live, renumber[old_of], np.int32(-1)),
                              np.array([table[located] for located in new], dtype=np.int32)])
    return table, file_of.astype(np.int32, copy=False)
