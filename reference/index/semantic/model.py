"""The semantic index of one generation on disk, and the similarity search it answers (numpy, and usearch's
graph on large indexes, at query time).

Files in `gen-<n>/semantic/` (all written before the generation's CURRENT flip, so they swap with it):

    manifest.json            format, row / term / dimension counts, the blend weight
    terms.json               the vocabulary, in column order
    idf.npy                  float32[terms]      inverse document frequency (0 for a term kept out)
    term_vectors.npy         float32[terms, k]   LSI: each term in the k-dimensional concept space
    doc_vectors.npy          float32[fitted, k]  LSI: each row the last full run fitted, unit length (a patch links it)
    folded_vectors.npy       float32[rows - fitted, k]   the rows patches folded in since (absent: none), after them
    tfidf_indptr.npy, tfidf_indices.npy, tfidf_data.npy   the unit-length TF-IDF rows, as CSC columns
    stable_ids.npy           uint64[rows]        each row's symbol_stable_id (16 hex digits)
    priors.npy               float32[rows]       a row's weight in the ranking (test files below 1; 0: a row a
                                                 patch removed, which keeps its number and is never answered)
    files.json               the file table: [path, language] of every file an answered row is in, in path order
    file_of.npy, lines.npy   int32[rows], int32[rows, 2]   each row's file entry (-1: a removed row) and
                                                           line_start, line_end
    graph.usearch, graph_rows.npy, graph_extra.npy   the nearest-neighbour graph of large indexes (graph.py)
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..semantic_manifest import FORMAT, MANIFEST, SEMANTIC_DIR
from .graph import Graph

log = logging.getLogger("cruxgate.semantic")
# FORMAT 2: each row carries its location (files.json, file_of, lines), so a match the lexical index cannot enrich
# still has a path and lines (000: enrichment looks up kind, name and qualified_name). 3: the heavy columns' heaviest
# rows (tfidf_heavy_indptr, tfidf_heavy: `heavy_rows`).
FILES = "files.json"
ARRAYS = ("idf", "term_vectors", "doc_vectors", "tfidf_indptr", "tfidf_indices", "tfidf_data", "tfidf_heavy_indptr",
          "tfidf_heavy", "stable_ids", "priors", "file_of", "lines")
FOLDED_VECTORS = "folded_vectors"  # optional: a generation no patch wrote has none


# Rows above which the dense scan is split between this thread and one more. The exact scan reads every
# row's vector (61 MB at 20k files) and is bound by memory bandwidth, which one core does not use up;
# below this size the hand-over costs more than it saves.
SPLIT_ROWS = 32_768
_SPLIT_ALIGN = 16  # rows: a split at the same alignment as the arrays' start keeps einsum's inner loop alike
# A search over a graph scores, per result asked, this many of the graph's nearest rows and of each query
# term's heaviest rows (at least the minimums): recall against the exact scan is measured in docs/semantic.md.
CANDIDATES_PER_RESULT = 4
MIN_GRAPH_CANDIDATES = 64
TERM_CANDIDATES = 256
_scan_pool: ThreadPoolExecutor | None = None
_scan_pool_lock = threading.Lock()


def _second_thread() -> ThreadPoolExecutor:
    """The one extra scan thread, started on the first large search (never at import)."""
    global _scan_pool
    with _scan_pool_lock:
        if _scan_pool is None:
            _scan_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="semantic-scan")
        return _scan_pool


def heaviest(weights: np.ndarray, count: int) -> np.ndarray:
    """The positions of the `count` largest of `weights` (more than `count`), in order of position; of equal weights
    at the cut, the first ones."""
    top = np.argpartition(-weights, count - 1)[:count]
    cut = weights[top].min()
    above = np.flatnonzero(weights > cut)
    return np.concatenate([above, np.flatnonzero(weights == cut)[:count - len(above)]])


def heavy_rows(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,
               kept: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(pointers, rows): each column's TERM_CANDIDATES heaviest rows, for the columns with more entries (the others
    store none: a search takes all of theirs). A graph search adds them for each query term (`_candidates`); chosen
    once when the columns are written, a search no longer reads a common term's whole column (50,000 weights at
    20,000 files) to pick them. `kept`: the previous columns' (pointers, rows) and which columns changed since; an
    unchanged column keeps its rows (a patch never renumbers rows) instead of being read again."""
    sizes = np.diff(indptr)
    big = np.flatnonzero(sizes > TERM_CANDIDATES)
    pointers = np.zeros(sizes.shape[0] + 1, dtype=np.int64)
    pointers[big + 1] = TERM_CANDIDATES
    np.cumsum(pointers, out=pointers)
    rows = np.empty(big.shape[0] * TERM_CANDIDATES, dtype=np.int32)
    for k, column in enumerate(big.tolist()):
        at = slice(k * TERM_CANDIDATES, (k + 1) * TERM_CANDIDATES)
        if kept is not None and not kept[2][column]:
            rows[at] = kept[1][int(kept[0][column]):int(kept[0][column + 1])]
            continue
        start, end = int(indptr[column]), int(indptr[column + 1])
        rows[at] = indices[start:end][heaviest(data[start:end], TERM_CANDIDATES)]
    return pointers, rows


def dense_scores(doc_vectors: np.ndarray, concept: np.ndarray, split_rows: int = SPLIT_ROWS) -> np.ndarray:
    """Each row's dot product with `concept`; above `split_rows` rows the first half runs in a second thread.

    einsum computes every row by the same loop whichever slice it is given (and releases the GIL while it
    runs), so the split scores are bit-identical to one call's.
    """
    # einsum, not BLAS: for one query vector BLAS's threads cost more than they save (they spin between
    # calls on the shared cores: 2-4x the CPU time of einsum for the same product here).
    rows = doc_vectors.shape[0]
    if rows <= split_rows:
        return np.einsum("ij,j->i", doc_vectors, concept)
    half = rows // 2 - (rows // 2) % _SPLIT_ALIGN
    out = np.empty(rows, dtype=np.result_type(doc_vectors, concept))
    first = _second_thread().submit(np.einsum, "ij,j->i", doc_vectors[:half], concept, out=out[:half])
    np.einsum("ij,j->i", doc_vectors[half:], concept, out=out[half:])
    first.result()
    return out


def stacked_scores(fitted: np.ndarray, folded: np.ndarray, concept: np.ndarray) -> np.ndarray:
    """Each row's dot product with `concept`, the fitted rows' then the rows folded in since (rows keep their
    numbers: the folded ones come after every fitted one)."""
    scores = dense_scores(fitted, concept)
    return np.concatenate([scores, dense_scores(folded, concept)]) if folded.shape[0] else scores


def _open_graph(folder: Path, rows: int) -> Graph | None:
    """The folder's graph; None (the exact scan, same answers, slower) when the library is not installed."""
    try:
        return Graph.open(folder, rows)
    except ImportError as err:
        log.warning("semantic graph not used (%s): every search scans all %d rows", err, rows)
        return None
    except (RuntimeError, ValueError, OSError) as err:
        raise SemanticIndexError("semantic_backend_error", f"{folder}: graph: {type(err).__name__}: {err}") from err


class SemanticIndexError(Exception):
    """The generation's semantic index cannot be used; `reason` is the deterministic skip reason."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Match:
    """One row of the semantic index, its similarity to the query (0..1) and where the definition is."""

    stable_id: str
    similarity: float
    path: str | None = None
    line_start: int | None = None
    line_end: int | None = None
    language: str | None = None


class SemanticIndex:
    """A loaded semantic index; read-only, safe to share between threads."""

    def __init__(self, manifest: dict, terms: list[str], arrays: dict[str, np.ndarray],
                 files: list[list[str | None]]) -> None:
        self.manifest = manifest
        self.files = [(str(path), language) for path, language in files]
        self.alpha = float(manifest["alpha"])
        self.columns = {term: column for column, term in enumerate(terms)}
        self.idf: np.ndarray = arrays["idf"]
        self.term_vectors: np.ndarray = arrays["term_vectors"]
        self.doc_vectors: np.ndarray = arrays["doc_vectors"]
        dimensions = self.doc_vectors.shape[1] if self.doc_vectors.ndim == 2 else 0
        self.folded_vectors: np.ndarray = arrays.get(FOLDED_VECTORS, np.zeros((0, dimensions), dtype=np.float32))
        self.tfidf_indptr: np.ndarray = arrays["tfidf_indptr"]
        self.tfidf_indices: np.ndarray = arrays["tfidf_indices"]
        self.tfidf_data: np.ndarray = arrays["tfidf_data"]
        self.tfidf_heavy_indptr: np.ndarray = arrays["tfidf_heavy_indptr"]
        self.tfidf_heavy: np.ndarray = arrays["tfidf_heavy"]
        self.stable_ids: np.ndarray = arrays["stable_ids"]
        self.priors: np.ndarray = arrays["priors"]
        self.file_of: np.ndarray = arrays["file_of"]
        self.lines: np.ndarray = arrays["lines"]
        self.rows = int(self.doc_vectors.shape[0]) + int(self.folded_vectors.shape[0])
        self.graph: Graph | None = None

    @classmethod
    def open(cls, generation: Path, graph: bool = True) -> SemanticIndex:
        """Load `generation`'s semantic index (its graph too unless not `graph`); raises SemanticIndexError
        (missing or unreadable/inconsistent)."""
        folder = Path(generation) / SEMANTIC_DIR
        if not (folder / MANIFEST).is_file():
            raise SemanticIndexError("semantic_index_missing", f"{folder} has no {MANIFEST}")
        try:
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            written = manifest.get("format") if isinstance(manifest, dict) else None
            if written != FORMAT:  # before its files: another format's may be missing or mean something else
                raise SemanticIndexError("semantic_backend_error", f"{folder} is in format {written}, this release "
                                         f"reads format {FORMAT}: the next index run rebuilds it")
            terms = json.loads((folder / "terms.json").read_text(encoding="utf-8"))
            # mmap: the vectors stay in the page cache, shared by every server of the workspace.
            # np.asarray: plain views of the same pages, without np.memmap's Python-level indexing (a search
            # indexes them a few dozen times).
            arrays = {name: np.asarray(np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False))
                      for name in ARRAYS}
            if (folder / f"{FOLDED_VECTORS}.npy").is_file():
                arrays[FOLDED_VECTORS] = np.asarray(np.load(folder / f"{FOLDED_VECTORS}.npy", mmap_mode="r",
                                                            allow_pickle=False))
            files = json.loads((folder / FILES).read_text(encoding="utf-8"))
            index = cls(manifest, terms, arrays, files)
            index._check(len(terms))
            index.graph = _open_graph(folder, index.rows) if graph else None
        except SemanticIndexError:
            raise
        except (OSError, ValueError, KeyError, TypeError, EOFError) as err:
            raise SemanticIndexError("semantic_backend_error", f"{folder}: {type(err).__name__}: {err}") from err
        return index

    def _check(self, term_count: int) -> None:
        """Shapes agree with each other and with the manifest (a torn or foreign file fails here, not mid-query)."""
        m = self.manifest
        rows, dims = int(m["rows"]), int(m["dimensions"])
        ok = (m.get("terms") == term_count
              and self.idf.shape == (term_count,) and self.term_vectors.shape == (term_count, dims)
              and self.doc_vectors.ndim == 2 and self.doc_vectors.shape[1] == dims
              and self.folded_vectors.ndim == 2 and self.folded_vectors.shape[1] == dims and self.rows == rows
              and self.tfidf_indptr.shape == (term_count + 1,)
              and self.tfidf_indices.shape == self.tfidf_data.shape
              and (term_count == 0 or int(self.tfidf_indptr[-1]) == self.tfidf_data.shape[0])
              and self.tfidf_heavy_indptr.shape == (term_count + 1,)
              and (term_count == 0 or int(self.tfidf_heavy_indptr[-1]) == self.tfidf_heavy.shape[0])
              and self.stable_ids.shape == (rows,) and self.priors.shape == (rows,)
              and self.file_of.shape == (rows,) and self.lines.shape == (rows, 2)
              and (rows == 0 or (int(self.file_of.min()) >= -1 and int(self.file_of.max()) < len(self.files)
                                 and bool(np.all((self.file_of >= 0) | (self.priors == 0))))))
        if not ok:
            raise SemanticIndexError("semantic_backend_error", "semantic index files disagree on their shapes")

    def known_terms(self, terms: list[str]) -> list[str]:
        """The distinct query terms the index can weigh, in first-seen order."""
        return [t for t in dict.fromkeys(terms) if t in self.columns and self.idf[self.columns[t]] > 0]

    def search(self, terms: list[str], limit: int, min_similarity: float, exact: bool = False, *,
               text: str | None = None) -> list[Match]:
        """The `limit` rows most similar to the query's terms (best first, ties by row), above `min_similarity`
        (`text`, the question as asked, is not read: LSI weighs its terms).

        With a graph (large indexes) only candidate rows are scored: the graph's nearest rows, every row outside
        the graph, and for each query term the rows it weighs most in; `exact` scores every row instead.
        """
        columns, weights = self.query_weights(terms)
        norm = float(np.linalg.norm(weights))
        if not columns or norm == 0.0 or self.rows == 0:
            return []
        weights /= norm
        # Dense part: the cosine in the LSI concept space, where co-occurring words stand in for each other.
        concept = np.einsum("i,ij->j", weights, self.term_vectors[columns])
        length = float(np.linalg.norm(concept))
        scaled = concept * np.float32((1.0 - self.alpha) / length) if length > 0.0 else concept
        if self.graph is not None and not exact:
            unit = concept * np.float32(1.0 / length) if length > 0.0 else None
            rows = self._candidates(unit, columns, limit)
            return self.best(self._scores_of(rows, scaled, columns, weights, length > 0.0), rows, limit,
                             min_similarity)
        return self.best(self.scores(scaled, columns, weights, length > 0.0), None, limit, min_similarity)

    def query_weights(self, terms: list[str]) -> tuple[list[int], np.ndarray]:
        """The distinct query terms' columns and their weights (log tf x idf), not yet scaled to unit length."""
        counts = Counter(t for t in terms if t in self.columns)
        columns = [self.columns[t] for t in counts]
        return columns, np.array([(1.0 + math.log(n)) * float(self.idf[c])
                                  for c, n in zip(columns, counts.values(), strict=True)], dtype=np.float32)

    def best(self, scores: np.ndarray, rows: np.ndarray | None, limit: int, min_similarity: float) -> list[Match]:
        """The `limit` best of `scores` (of every row, or of `rows`), best first, ties by row, above the floor."""
        count = min(limit, scores.shape[0])
        if count == 0:
            return []
        top = np.argpartition(-scores, count - 1)[:count] if count < scores.shape[0] else np.arange(scores.shape[0])
        order = top if rows is None else rows[top]
        top = top[np.lexsort((order, -scores[top]))]
        found = top if rows is None else rows[top]
        # A removed row scores 0 (its prior); below a floor under 0 it would still pass: it never does.
        return [self.match(int(r), min(float(scores[i]), 1.0))
                for i, r in zip(top, found, strict=True) if scores[i] > min_similarity and self.priors[r] > 0]

    def match(self, row: int, similarity: float) -> Match:
        """Row `row` as a match of `similarity`, with its stable id and location."""
        path, language = self.files[int(self.file_of[row])]
        start, end = (int(v) for v in self.lines[row])
        return Match(f"{int(self.stable_ids[row]):016x}", similarity, path, start, end, language)

    def vectors_of(self, rows: np.ndarray) -> np.ndarray:
        """The LSI vectors of `rows` (sorted): the fitted ones' from `doc_vectors`, the folded ones' after them."""
        fitted = self.doc_vectors.shape[0]
        if not self.folded_vectors.shape[0] or not rows.shape[0] or int(rows[-1]) < fitted:
            return self.doc_vectors[rows]
        split = int(np.searchsorted(rows, fitted))
        return np.concatenate([self.doc_vectors[rows[:split]], self.folded_vectors[rows[split:] - fitted]])

    def live_rows(self) -> np.ndarray:
        """The rows a search may answer: every row but those a patch removed (prior 0)."""
        return np.flatnonzero(np.asarray(self.priors) > 0)

    def scores(self, concept: np.ndarray, columns: list[int], weights: np.ndarray, dense: bool = True,
               doc_vectors: np.ndarray | None = None) -> np.ndarray:
        """Every row's similarity (the exact scan): `doc_vectors` (default the LSI rows) against `concept`, plus the
        TF-IDF cosine of `columns` weighted by `weights`, times each row's prior."""
        if not dense:
            scores = np.zeros(self.rows, dtype=np.float32)
        elif doc_vectors is not None:
            scores = dense_scores(doc_vectors, concept)
        else:
            scores = stacked_scores(self.doc_vectors, self.folded_vectors, concept)
        # Sparse part: the query's TF-IDF cosine, added only where a row holds a query term.
        for column, weight in zip(columns, weights * np.float32(self.alpha), strict=True):
            start, end = int(self.tfidf_indptr[column]), int(self.tfidf_indptr[column + 1])
            scores[self.tfidf_indices[start:end]] += self.tfidf_data[start:end] * weight
        scores *= self.priors
        return scores

    def _candidates(self, concept: np.ndarray | None, columns: list[int], limit: int) -> np.ndarray:
        """The rows worth scoring (sorted, distinct): the graph's nearest to `concept` (with the rows outside the
        graph), and each query term's `TERM_CANDIDATES` heaviest rows (all of its rows when it has fewer)."""
        assert self.graph is not None
        wanted = max(limit * CANDIDATES_PER_RESULT, MIN_GRAPH_CANDIDATES)
        parts = [self.graph.nearest(concept, wanted) if concept is not None else self.graph.extra]
        per_term = max(limit * CANDIDATES_PER_RESULT, TERM_CANDIDATES)
        for column in columns:
            start, end = int(self.tfidf_indptr[column]), int(self.tfidf_indptr[column + 1])
            if end - start <= per_term:
                parts.append(np.asarray(self.tfidf_indices[start:end], dtype=np.int64))
            elif per_term == TERM_CANDIDATES:  # chosen when the columns were written (`heavy_rows`)
                first, last = int(self.tfidf_heavy_indptr[column]), int(self.tfidf_heavy_indptr[column + 1])
                parts.append(np.asarray(self.tfidf_heavy[first:last], dtype=np.int64))
            else:
                top = heaviest(np.asarray(self.tfidf_data[start:end]), per_term)
                parts.append(np.asarray(self.tfidf_indices[start:end], dtype=np.int64)[top])
        return np.unique(np.concatenate(parts))

    def _scores_of(self, rows: np.ndarray, concept: np.ndarray, columns: list[int], weights: np.ndarray,
                   dense: bool) -> np.ndarray:
        """The similarity of `rows` (sorted) only: the same sums as the exact scan, per row."""
        if dense:
            scores = np.einsum("ij,j->i", self.vectors_of(rows), concept)
        else:
            scores = np.zeros(rows.shape[0], dtype=np.float32)
        for column, weight in zip(columns, weights * np.float32(self.alpha), strict=True):
            start, end = int(self.tfidf_indptr[column]), int(self.tfidf_indptr[column + 1])
            holders = self.tfidf_indices[start:end]  # sorted: the CSC column's rows in order
            at = np.minimum(np.searchsorted(holders, rows), max(end - start - 1, 0))
            hit = (holders[at] == rows) if end > start else np.zeros(rows.shape[0], dtype=bool)
            scores[hit] += self.tfidf_data[start:end][at[hit]] * weight
        scores *= self.priors[rows]
        return scores
