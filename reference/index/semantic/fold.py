"""Fold changed definitions into the live generation's semantic model instead of fitting it again.

A patch (`index/incremental.py`) keeps the model the last full run fitted (vocabulary, IDF, the LSI term
vectors: linked, not copied) and rewrites only the rows: the rows of the changed files' old definitions
go, their new definitions are weighted with the kept IDF (a term the vocabulary lacks weighs nothing) and
projected on the kept term vectors, exactly as a full run computes a row from its own model. What drifts
is the model: it no longer reflects the folded rows' vocabulary. A full run refits it once the rows folded
in since the fit pass `MAX_FOLDED_SHARE` of the rows it was fitted on (`can_fold` says no).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from . import graph
from .build import RECIPE, DefinitionRow, file_table, link_file, save_arrays, stored_columns, term_bag, term_weight
from .model import FILES, FORMAT, SEMANTIC_DIR, SemanticIndex, SemanticIndexError
from .sentence import VECTORS, SentenceModel, made_by, row_text
from .text import Terms

MAX_FOLDED_SHARE = 0.10
_MODEL = ("terms.json", "idf.npy", "term_vectors.npy")


def can_fold(previous: Path, new_rows: int, sentence: SentenceModel | None = None) -> bool:
    """Whether `previous`'s semantic index is whole, by this recipe (with vectors of `sentence`, or none), and has
    room for `new_rows` more folded rows."""
    if not made_by(previous, sentence):
        return False
    try:
        manifest = SemanticIndex.open(previous, graph=False).manifest
    except SemanticIndexError:
        return False
    if manifest.get("recipe") != RECIPE or manifest.get("format") != FORMAT or "fitted_rows" not in manifest:
        return False
    return int(manifest["folded_rows"]) + new_rows <= MAX_FOLDED_SHARE * max(int(manifest["fitted_rows"]), 1)


def fold(previous: Path, generation: Path, removed: Iterable[int], rows: list[DefinitionRow], source: str,
         sentence: SentenceModel | None = None) -> dict:
    """Write `generation`'s semantic index: `previous`'s without the rows of stable ids `removed`, plus `rows`
    (`definition_rows`); with `sentence` (the model of `previous`'s vectors: `can_fold`), only the new rows are
    embedded. Returns its manifest."""
    old = SemanticIndex.open(previous, graph=False)  # the graph file is linked, not read
    folder = generation / SEMANTIC_DIR
    folder.mkdir()
    for name in _MODEL:
        link_file(previous / SEMANTIC_DIR / name, folder / name)
    stable = np.asarray(old.stable_ids)
    gone = np.flatnonzero(np.isin(stable, np.fromiter(removed, dtype=np.uint64)))  # sorted, a few rows
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
    # The kept rows keep their file entries; a new row's file is looked up, or appended. An entry no row
    # points to any more stays until the next full run (a fold changes at most MAX_FOLDED_SHARE of the rows).
    files = {(path, language): entry for entry, (path, language) in enumerate(old.files)}
    file_of: list[int] = []
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
        file_of.append(files.setdefault((row.path, row.language), len(files)))
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
    # The kept rows' entries, renumbered past the removed rows, then each new entry inserted at the end of its
    # column (the new rows come after every kept row): within a column the rows stay in order. Every step is one
    # pass over the arrays (the patch's time at 20k files was in sorting and gathering them whole).
    indptr = np.asarray(old.tfidf_indptr)
    indices = np.asarray(old.tfidf_indices)
    data = np.asarray(old.tfidf_data)
    base = old.rows - len(gone)
    counts = np.diff(indptr)
    if len(gone):
        dropped = np.flatnonzero(~keep[indices])
        counts = counts - np.bincount(np.searchsorted(indptr, dropped, side="right") - 1, minlength=len(counts))
        indices = np.delete(indices, dropped)
        data = np.delete(data, dropped)
        indices = indices - np.cumsum(~keep, dtype=indices.dtype)[indices]  # less the removed rows before each
    kept_end = np.cumsum(counts)  # where each column's kept entries end
    order = np.lexsort((new_rows, new_columns))
    at = kept_end[new_columns[order]] if len(order) else np.zeros(0, dtype=np.int64)
    entries = np.insert(indices, at, (new_rows + base)[order].astype(indices.dtype))
    data = np.insert(data, at, new_values[order])
    pointers = np.concatenate([[0], np.cumsum(counts + np.bincount(new_columns, minlength=len(counts)))])
    doc_vectors = np.empty((base + len(stable_ids), old.term_vectors.shape[1]), dtype=np.float32)
    doc_vectors[base:] = vectors
    _copy_rows(np.asarray(old.doc_vectors), gone, doc_vectors[:base])
    graph.fold(previous / SEMANTIC_DIR, folder, keep, len(stable_ids))
    manifest = {**old.manifest, "rows": int(doc_vectors.shape[0]), "nonzeros": int(data.shape[0]), "source": source,
                "folded_rows": int(old.manifest["folded_rows"]) + len(stable_ids)}
    (folder / FILES).write_text(json.dumps(file_table(files)), encoding="utf-8")
    extra: dict[str, np.ndarray] = {}
    if sentence is not None:
        kept = np.load(previous / SEMANTIC_DIR / f"{VECTORS}.npy", mmap_mode="r", allow_pickle=False)
        extra[VECTORS] = np.empty((base + len(stable_ids), kept.shape[1]), dtype=np.float32)
        _copy_rows(kept, gone, extra[VECTORS][:base])
        if texts:
            extra[VECTORS][base:] = sentence.encode(texts)
    save_arrays(folder, {**extra, "doc_vectors": doc_vectors, **stored_columns(pointers, entries, data),
                         "stable_ids": np.concatenate([np.delete(stable, gone),
                                                       np.asarray(stable_ids, dtype=np.uint64)]),
                         "priors": np.concatenate([np.delete(np.asarray(old.priors), gone),
                                                   np.asarray(priors, dtype=np.float32)]),
                         "file_of": np.concatenate([np.delete(np.asarray(old.file_of), gone),
                                                    np.asarray(file_of, dtype=np.int32)]),
                         "lines": np.concatenate([np.delete(np.asarray(old.lines), gone, axis=0),
                                                  np.asarray(lines, dtype=np.int32).reshape(-1, 2)])}, manifest)
    return manifest


def _copy_rows(source: np.ndarray, gone: np.ndarray, target: np.ndarray) -> None:
    """`source` without the rows `gone` (sorted) into `target`: slices between them, no gathered copy."""
    start = written = 0
    for row in (*gone.tolist(), source.shape[0]):
        target[written:written + row - start] = source[start:row]
        written += row - start
        start = row + 1
