"""An optional embedding backend of the semantic channel: static word vectors from a local file the user names.

The default channel (LSI, model.py) learns which words stand in for each other from the indexed code
alone, so it cannot relate a question's words that the code never uses ("erase" a "folder") to the
code's own (`rmtree`, "directory"). Pre-trained word vectors can. This backend reads a table of them
from a local path set in the config (`[search.semantic] backend = "static"`, `model = "/path"`); nothing
is ever downloaded. The format is the common text one of word2vec / GloVe / fastText `.vec` files: one
word and its numbers per line, an optional first line "<count> <dimensions>".

It keeps the channel's interface and its index: each model word goes through the channel's own term
reduction (`text.terms`), the vectors of words that reduce to the same term are averaged; a row's vector
is its TF-IDF row (from the generation's semantic index) projected on those term vectors, unit length;
a question's vector is its words' vectors weighted as the LSI query weighs them (a word the code never
uses weighs as a rare one). The similarity blends it with the TF-IDF cosine as the LSI backend does.
The rows are projected when the channel first opens a generation (numpy: about nonzeros x dimensions
multiply-adds), and searched by the exact scan.
"""

from __future__ import annotations

import math
import os
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .model import Match, SemanticIndex, SemanticIndexError
from .text import terms as text_terms

ERROR = "semantic_backend_error"
BLOCK_ENTRIES = 1 << 16  # TF-IDF entries projected per step: bounds the temporary (entries x dimensions floats)


@dataclass(frozen=True)
class WordVectors:
    """A word-vector table reduced to the channel's terms: term -> row of `vectors` (float32, unit length)."""

    rows: dict[str, int]
    vectors: np.ndarray
    source: str

    @property
    def dimensions(self) -> int:
        """Numbers per vector."""
        return int(self.vectors.shape[1])


def read_word_vectors(path: Path) -> WordVectors:
    """Read a text word-vector file; raises SemanticIndexError (semantic_backend_error) when it cannot be used."""
    sums: dict[str, np.ndarray] = {}
    counts: Counter[str] = Counter()
    dimensions = 0
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for number, line in enumerate(fh):
                parts = line.rstrip().split(" ")
                if number == 0 and len(parts) == 2 and all(p.isdigit() for p in parts):
                    continue  # the "<count> <dimensions>" header of word2vec / fastText files
                if len(parts) < 2:
                    continue
                if not dimensions:
                    dimensions = len(parts) - 1
                if len(parts) - 1 != dimensions:
                    raise SemanticIndexError(ERROR, f"{path}:{number + 1}: {len(parts) - 1} numbers, "
                                                    f"expected {dimensions}")
                reduced = text_terms(parts[0])
                if len(reduced) != 1:
                    continue  # a stop word, a number or several sub-tokens: no single term to stand for
                vector = np.asarray(parts[1:], dtype=np.float32)
                term = reduced[0]
                sums[term] = sums[term] + vector if term in sums else vector
                counts[term] += 1
    except OSError as err:
        raise SemanticIndexError(ERROR, f"word vectors {path}: {type(err).__name__}: {err}") from err
    except ValueError as err:
        raise SemanticIndexError(ERROR, f"word vectors {path}: not a word-vector text file: {err}") from err
    if not sums:
        raise SemanticIndexError(ERROR, f"word vectors {path}: no word of the file reduces to a term")
    words = sorted(sums)
    vectors = np.stack([sums[w] / counts[w] for w in words]).astype(np.float32)
    lengths = np.linalg.norm(vectors, axis=1)
    lengths[lengths == 0] = 1.0
    return WordVectors({w: i for i, w in enumerate(words)}, vectors / lengths[:, None], str(path))


_cache: dict[tuple[str, int, int], WordVectors] = {}
_cache_lock = threading.Lock()


def load_word_vectors(path: Path) -> WordVectors:
    """`read_word_vectors`, kept while the file is unchanged (each new generation reopens the channel)."""
    try:
        stat = os.stat(path)
    except OSError as err:
        raise SemanticIndexError(ERROR, f"word vectors {path}: {type(err).__name__}: {err}") from err
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    with _cache_lock:
        if key not in _cache:
            _cache.clear()
            _cache[key] = read_word_vectors(path)
        return _cache[key]


class EmbeddingIndex:
    """The channel's backend over one generation with word vectors: `known_terms` and `search` as SemanticIndex's."""

    def __init__(self, index: SemanticIndex, table: WordVectors) -> None:
        self.index = index
        self.table = table
        # Each index column's word vector (zeros for a term the table lacks).
        words = [""] * len(index.columns)
        for term, column in index.columns.items():
            words[column] = term
        self.term_vectors = np.zeros((len(words), table.dimensions), dtype=np.float32)
        for column, term in enumerate(words):
            row = table.rows.get(term)
            if row is not None:
                self.term_vectors[column] = table.vectors[row]
        self.doc_vectors = self._project()
        known = index.idf[index.idf > 0]
        # A question word the code never uses is rarer than any word it does: it weighs as the rarest.
        self.unseen_idf = float(known.max()) if known.size else 1.0

    def _project(self) -> np.ndarray:
        """Each row's TF-IDF row times the term vectors, unit length (rows sharing no term with the table: zero)."""
        ix = self.index
        columns = np.repeat(np.arange(ix.tfidf_indptr.shape[0] - 1), np.diff(ix.tfidf_indptr))
        order = np.argsort(ix.tfidf_indices, kind="stable")  # entries grouped by row
        rows, columns, data = ix.tfidf_indices[order], columns[order], ix.tfidf_data[order]
        out = np.zeros((ix.rows, self.table.dimensions), dtype=np.float32)
        for start in range(0, rows.shape[0], BLOCK_ENTRIES):
            block = slice(start, start + BLOCK_ENTRIES)
            weighted = self.term_vectors[columns[block]] * data[block, None]
            # Entries of one row are adjacent: sum each run of the same row.
            starts = np.flatnonzero(np.r_[True, rows[block][1:] != rows[block][:-1]])
            out[rows[block][starts]] += np.add.reduceat(weighted, starts, axis=0)
        lengths = np.linalg.norm(out, axis=1)
        lengths[lengths == 0] = 1.0
        return np.ascontiguousarray(out / lengths[:, None], dtype=np.float32)

    def known_terms(self, terms: list[str]) -> list[str]:
        """The distinct query terms the index or the word vectors can weigh, in first-seen order."""
        return [t for t in dict.fromkeys(terms)
                if t in self.table.rows or (t in self.index.columns and self.index.idf[self.index.columns[t]] > 0)]

    def search(self, terms: list[str], limit: int, min_similarity: float, *, text: str | None = None) -> list[Match]:
        """The `limit` rows most similar to the query (best first, ties by row), above `min_similarity` (`text`, the
        question as asked, is not read: the table weighs its terms)."""
        ix = self.index
        unseen = Counter(t for t in terms if t not in ix.columns and t in self.table.rows)
        unseen_weights = {t: (1.0 + math.log(n)) * self.unseen_idf for t, n in unseen.items()}
        columns, weights = ix.query_weights(terms)
        norm = math.sqrt(float(np.dot(weights, weights)) + sum(w * w for w in unseen_weights.values()))
        if norm == 0.0 or ix.rows == 0:
            return []
        weights /= norm
        query = np.einsum("i,ij->j", weights, self.term_vectors[columns])
        for term, weight in unseen_weights.items():
            query += self.table.vectors[self.table.rows[term]] * np.float32(weight / norm)
        length = float(np.linalg.norm(query))
        scaled = query * np.float32((1.0 - ix.alpha) / length) if length > 0.0 else query
        scores = ix.scores(scaled, columns, weights, length > 0.0, doc_vectors=self.doc_vectors)
        return ix.best(scores, None, limit, min_similarity)


def open_embedding_index(generation: Path, model: Path) -> EmbeddingIndex:
    """The embedding backend over `generation`'s semantic index with the word vectors at `model`."""
    return EmbeddingIndex(SemanticIndex.open(generation), load_word_vectors(model))
