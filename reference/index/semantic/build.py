"""Build a generation's semantic index from the symbols the indexer writes: TF-IDF rows and their LSI projection.

Each definition (type and callable kinds) becomes a bag of terms: its name's sub-tokens (weighted
3: the name is what a symbol is about), its module and enclosing definitions, its docstring, and the
first `BODY_CHARS` of its body (identifiers and comments). Terms are TF-IDF weighted (log tf); a term
in fewer than `MIN_DOCUMENT_FREQUENCY` rows is dropped. A randomized truncated SVD (numpy + scipy,
seeded, so a rebuild of the same code gives the same vectors) maps terms and rows to `DIMENSIONS`
concepts. Nothing is downloaded: the model is the indexed code.
"""

from __future__ import annotations

import functools
import json
import math
import os
import shutil
import tempfile
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeVar, overload

import numpy as np

from ..heap import trim_heap
from ..kinds import kinds_of
from . import graph
from .model import FILES, FORMAT, MANIFEST, SEMANTIC_DIR, SemanticIndex, SemanticIndexError, heavy_rows
from .sentence import VECTORS, made_by, manifest_entry, row_text
from .text import Terms

if TYPE_CHECKING:
    import scipy.sparse as sp

    from .sentence import VectorSpill

# Kinds with a meaning to describe; values (constants, variables, fields) carry too little text.
INDEXED_KINDS = kinds_of("type", "callable")
NAME_WEIGHT = 3.0
BODY_WEIGHT = 0.5
BODY_CHARS = 300
MIN_DOCUMENT_FREQUENCY = 2
DIMENSIONS = 96
OVERSAMPLING = 16
POWER_ITERATIONS = 1
# Share of the sparse TF-IDF cosine in a row's similarity; the LSI cosine has the rest (measured: docs/semantic.md).
ALPHA = 0.5
# Tests describe behaviour in words (`test_unpack_archive_zip`), so in the channel they crowd out the code
# under test; they stay out of it (the lexical channel still finds them). Measured in docs/semantic.md.
INDEX_TESTS = False
TEST_PRIOR = 0.8  # their weight when INDEX_TESTS is on
SEED = 20261124
# Terms of the random test matrix drawn at a time, and rows of the basis copied to float64 at a time for its Gram
# matrix: the fit's temporaries are these slices, never whole (rows x k) copies.
CHUNK = 65_536
GRAM_ROWS = 16_384
# Rows of a (rows x k) product computed at a time, into the array that keeps it: the fit holds one such array
# (two while the graph is built), never a second whole copy. A multiple of 96: on this machine's OpenBLAS a
# slice of 96n rows gives the same bits as the whole product (measured), so the vectors did not change.
ROW_CHUNK = 12_288
# Everything above that shapes the vectors: an index built by another recipe is not reused.
RECIPE = (f"kinds={sorted(INDEXED_KINDS)} name={NAME_WEIGHT} body={BODY_WEIGHT}x{BODY_CHARS} "
          f"df>={MIN_DOCUMENT_FREQUENCY} k={DIMENSIONS}+{OVERSAMPLING} q={POWER_ITERATIONS} alpha={ALPHA} "
          f"tests={INDEX_TESTS}/{TEST_PRIOR} seed={SEED} {graph.RECIPE}")


def is_test_path(path: str) -> bool:
    """The ranking's test-file rule (seed 000's patterns), on the relative path."""
    probe = "/" + path.lower()
    return any(p in probe for p in ("_test.", ".test.", ".spec.", "/test/", "/tests/", "test_"))


def term_bag(terms: Terms, name: str, scope: str, doc: str | None, body: str) -> dict[str, float]:
    """A definition's terms and their weighted counts, in first-seen order."""
    bag: defaultdict[str, float] = defaultdict(float)
    for term in terms(name):
        bag[term] += NAME_WEIGHT
    for term in terms(scope):
        bag[term] += 1.0
    for term in terms(doc or ""):
        bag[term] += 1.0
    for term in terms(body):
        bag[term] += BODY_WEIGHT
    return bag


def term_weight(count: float) -> float:
    """A term's weight in a row before IDF: log-scaled from its weighted count."""
    return 1.0 + math.log(count) if count >= 1.0 else count


class _Vocabulary(dict[str, int]):
    """term -> column; a term looked up for the first time takes the next column."""

    def __missing__(self, term: str) -> int:
        column = self[term] = len(self)
        return column


class _Weights(dict[float, float]):
    """weighted count -> `term_weight` (the counts are sums of a few weights: a handful of distinct values)."""

    def __missing__(self, count: float) -> float:
        weight = self[count] = term_weight(count)
        return weight


_WEIGHTS = _Weights()


class DefinitionRow(NamedTuple):
    """One definition as the semantic index takes it: its text, stable id (an int) and prior, and its location."""

    name: str
    scope: str
    doc: str | None
    body: str
    stable_id: int
    prior: float
    path: str
    line_start: int
    line_end: int
    language: str | None


def definition_rows(path: str, symbols: Sequence[tuple], language: str | None) -> list[DefinitionRow]:
    """The rows one file's definitions give the channel (extract Symbol tuples of the file at `path`)."""
    test = is_test_path(path)
    if test and not INDEX_TESTS:
        return []
    prior = TEST_PRIOR if test else 1.0
    return [DefinitionRow(name, qualified[: len(qualified) - len(name)], doc, content[:BODY_CHARS], int(stable, 16),
                          prior, path, start, end, language)
            for name, qualified, kind, start, end, _, _, doc, _, stable, content, *_ in symbols
            if kind in INDEXED_KINDS]


def file_table(files: dict[tuple[str, str | None], int]) -> list[list[str | None]]:
    """The file table as stored in files.json: [path, language] in entry order."""
    return [[path, language] for (path, language), _ in sorted(files.items(), key=lambda item: item[1])]


# Term entries (8 bytes each: a column and a weight) a builder given a scratch folder keeps in memory; older ones
# wait in its scratch files until the fit (2.8 million entries, 22 MB, at 20k files).
SPILL_ENTRIES = 1 << 20


class _Entries:
    """A typed array that grows row after row; given a `scratch` folder, its older part goes to an unlinked file
    there every `SPILL_ENTRIES` entries. `values()` is the whole, in order."""

    def __init__(self, typecode: str, scratch: Path | None) -> None:
        self.tail = array(typecode)
        self.file = tempfile.TemporaryFile(dir=scratch) if scratch is not None else None  # noqa: SIM115 - `close`
        self.spilled = 0

    def __len__(self) -> int:
        return self.spilled + len(self.tail)

    def extend(self, values: Iterable) -> None:
        """Append `values`; spill what is held once it reaches `SPILL_ENTRIES`."""
        self.tail.extend(values)
        if self.file is not None and len(self.tail) >= SPILL_ENTRIES:
            self.tail.tofile(self.file)
            self.spilled += len(self.tail)
            del self.tail[:]

    def values(self, dtype: type) -> np.ndarray:
        """Every entry, spilled or held, as one array of `dtype` (the typecode's)."""
        held: np.ndarray = np.frombuffer(self.tail, dtype=dtype)
        if not self.spilled:
            return held
        assert self.file is not None
        out: np.ndarray = np.empty(len(self), dtype=dtype)
        self.file.seek(0)
        if self.file.readinto(out[:self.spilled].data.cast("B")) != self.spilled * out.itemsize:
            raise OSError("short read of the semantic builder's scratch file")
        out[self.spilled:] = held
        return out

    def close(self) -> None:
        """Let the entries go (the file was never linked)."""
        self.tail = array(self.tail.typecode)
        self.spilled = 0
        if self.file is not None:
            self.file.close()
            self.file = None


class SemanticIndexBuilder:
    """Counts each definition's terms while the indexer streams files, then builds and writes the index at the end.

    A row is kept as its term columns and weighted counts in flat typed arrays (4 bytes an entry), never as
    its text: what the builder holds grows with the terms, a fraction of the definitions' text.
    """

    def __init__(self, sentence: VectorSpill | None = None, scratch: Path | None = None) -> None:
        self._sentence = sentence  # the sentence backend's vectors, encoded as the rows come (sentence.py)
        self._terms = Terms()
        self._vocabulary: dict[str, int] = _Vocabulary()
        # With `scratch` (a folder), all but the last SPILL_ENTRIES of these wait on disk until the fit.
        self._columns = _Entries("i", scratch)  # each row's term columns, row after row
        self._weights = _Entries("f", scratch)  # their term_weight, float32 as stored
        self._indptr = array("q", [0])  # where each row starts in the two arrays above
        self._stable_ids = array("Q")
        self._priors = array("f")
        self._files: dict[tuple[str, str | None], int] = {}  # (path, language) -> entry of files.json
        self._file_of = array("i")  # each row's file entry
        self._lines = array("i")  # each row's line_start and line_end

    def add_file(self, path: str, symbols: Sequence[tuple], language: str | None) -> None:
        """Count the definitions of one file (extract Symbol tuples: name, qualified, kind, lines, ..., doc, ...)."""
        self.add_rows(definition_rows(path, symbols, language))

    def add_rows(self, rows: Iterable[DefinitionRow]) -> None:
        """Count `definition_rows` rows."""
        vocabulary, columns, weights, weight_of = self._vocabulary, self._columns, self._weights, _WEIGHTS
        texts: list[str] = []
        for row in rows:
            bag = term_bag(self._terms, row.name, row.scope, row.doc, row.body)
            if not bag:
                continue  # a definition without terms is no row
            if self._sentence is not None:
                texts.append(row_text(row))
            columns.extend(map(vocabulary.__getitem__, bag))  # a new term takes the next column (_Vocabulary)
            weights.extend(map(weight_of.__getitem__, bag.values()))
            self._indptr.append(len(columns))
            self._stable_ids.append(row.stable_id)
            self._priors.append(row.prior)
            self._file_of.append(self._files.setdefault((row.path, row.language), len(self._files)))
            self._lines.extend((row.line_start, row.line_end))
        if texts and self._sentence is not None:
            self._sentence.add(texts)

    def write(self, generation: Path, source: str = "", previous: Path | None = None) -> dict:
        """Write `generation/semantic/`: linked from `previous` when it was built from the same `source` (the
        index run's cursor), else computed (TF-IDF, LSI); returns its manifest."""
        folder = Path(generation) / SEMANTIC_DIR
        sentence = self._sentence.model if self._sentence is not None else None
        if source and previous is not None and made_by(previous, sentence) \
                and _reuse(previous / SEMANTIC_DIR, folder, source):
            self._columns.close()
            self._weights.close()
            return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        vocabulary = self._vocabulary
        data = self._weights.values(np.float32)
        columns_of = self._columns.values(np.int32)
        indptr = np.frombuffer(self._indptr, dtype=np.int64)
        stable_ids = np.frombuffer(self._stable_ids, dtype=np.uint64)
        priors = np.frombuffer(self._priors, dtype=np.float32)
        rows, columns = len(stable_ids), len(vocabulary)
        # Here, not at the top: scipy takes most of a second to import, which a patch (semantic/fold.py) never needs.
        import scipy.sparse as sp
        from threadpoolctl import threadpool_limits

        counts = sp.csr_matrix((data, columns_of, indptr), shape=(rows, columns))
        document_frequency = np.bincount(counts.indices, minlength=columns)
        idf = np.log(max(rows, 1) / (1.0 + document_frequency)).astype(np.float32)
        idf[(document_frequency < MIN_DOCUMENT_FREQUENCY) | (idf < 0)] = 0.0
        tfidf = _tfidf_in_place(counts, idf)
        # `tfidf` holds the counts' arrays, overwritten: the builder's own views of them go (it is spent).
        del counts, data, columns_of, indptr
        self._columns.close()
        self._weights.close()
        self._indptr = array("q", [0])
        self._terms = Terms()  # and its memory of every raw word met (6 MB at 20k files)
        trim_heap()  # the matrix's temporaries, freed, would otherwise stay resident under the fit
        folder.mkdir()  # the manifest, written last, makes it an index
        # One BLAS thread: the products are small, and OpenBLAS's threads, spinning for cores the indexer's
        # workers and Tantivy also want, took the SVD of the stdlib from 0.7 s to 10 s on 2 busy cores.
        with threadpool_limits(limits=1, user_api="blas"):
            term_vectors = _lsi(tfidf, min(DIMENSIONS, max(min(rows, columns) - 1, 1)), folder)
        csc = tfidf.tocsc()
        del tfidf
        csc.sort_indices()
        words = [""] * columns
        for term, column in vocabulary.items():
            words[column] = term
        manifest = {"format": FORMAT, "rows": rows, "terms": columns, "dimensions": int(term_vectors.shape[1]),
                    "alpha": ALPHA, "test_prior": TEST_PRIOR, "nonzeros": int(csc.nnz), "source": source,
                    "recipe": RECIPE, "fitted_rows": rows, "folded_rows": 0}
        # Everything but the graph (and the sentence vectors) is written and let go before the graph is built: the
        # build's peak is then the graph alone, not the matrix, the term vectors and the vocabulary beside it. The
        # graph reads the row vectors from the file `_lsi` wrote them to; the manifest, last, makes it an index.
        write_arrays(folder, csc_arrays(csc))
        del csc
        (folder / "terms.json").write_text(json.dumps(words), encoding="utf-8")
        (folder / FILES).write_text(json.dumps(file_table(self._files)), encoding="utf-8")
        write_arrays(folder, {"idf": idf, "term_vectors": term_vectors, "stable_ids": stable_ids, "priors": priors,
                              "file_of": np.frombuffer(self._file_of, dtype=np.int32),
                              "lines": np.frombuffer(self._lines, dtype=np.int32).reshape(-1, 2)})
        del words, vocabulary, term_vectors
        self._vocabulary = _Vocabulary()
        trim_heap()  # and the fit's slices under the graph
        built = graph.build(folder, folder / "doc_vectors.npy")
        if built is not None:
            manifest["graph"] = built
        extra: dict[str, np.ndarray] = {}
        if self._sentence is not None:
            manifest_entry(self._sentence.model).add_to(manifest)
            extra[VECTORS] = self._sentence.vectors()
        save_arrays(folder, extra, manifest)
        return manifest


def csc_arrays(csc: sp.csc_matrix) -> dict[str, np.ndarray]:
    """The TF-IDF rows' arrays as stored: the CSC columns (one per term) of the rows x terms matrix."""
    return stored_columns(csc.indptr, csc.indices, csc.data)


def stored_columns(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,
                   kept: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """CSC arrays (column pointers, row of each entry, its value) in the stored dtypes, and the heavy columns' heaviest
    rows (`heavy_rows`, which takes `kept`)."""
    # copy=False: an array already in its stored dtype is written as it is, not copied first.
    pointers, entries = indptr.astype(np.int64, copy=False), indices.astype(np.int32, copy=False)
    weights = data.astype(np.float32, copy=False)
    heavy_indptr, heavy = heavy_rows(pointers, entries, weights, kept)
    return {"tfidf_indptr": pointers, "tfidf_indices": entries, "tfidf_data": weights,
            "tfidf_heavy_indptr": heavy_indptr, "tfidf_heavy": heavy}


def write_arrays(folder: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write `arrays` as .npy files into `folder`."""
    for name, values in arrays.items():
        np.save(folder / f"{name}.npy", values, allow_pickle=False)


def save_arrays(folder: Path, arrays: dict[str, np.ndarray], manifest: dict) -> None:
    """Write `arrays` as .npy files into `folder`, then the manifest (a folder without it reads as missing)."""
    write_arrays(folder, arrays)
    tmp = folder / f".{MANIFEST}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, folder / MANIFEST)


def _reuse(old: Path, new: Path, source: str) -> bool:
    """Hard-link (or copy) `old` into `new` when it was built by this recipe from `source` and still opens whole;
    False otherwise."""
    try:
        manifest = SemanticIndex.open(old.parent).manifest
    except SemanticIndexError:
        return False
    if not isinstance(manifest, dict) or manifest.get("source") != source or manifest.get("recipe") != RECIPE \
            or manifest.get("format") != FORMAT:
        return False
    try:
        new.mkdir()
        for path in sorted(old.iterdir()):
            if path.name != MANIFEST and path.is_file():
                link_file(path, new / path.name)
        link_file(old / MANIFEST, new / MANIFEST)  # last, as when built
    except OSError:
        shutil.rmtree(new, ignore_errors=True)
        return False
    return True


def link_file(source: Path, target: Path) -> None:
    """Hard-link `source` to `target` (a copy where links fail)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _tfidf_in_place(counts: sp.csr_matrix, idf: np.ndarray) -> sp.csr_matrix:
    """`_unit_rows(counts @ diags(idf))`, computed ROW_CHUNK rows at a time into the arrays of `counts` itself.

    Each row of that product is made from that row alone, so a slice of rows gives the same bits as the whole;
    a row's entries never outnumber its counts (a zero weight drops an entry), so each slice's result fits where
    its counts were read from. The whole computation made three copies of the counts (22 MB each at 20k files).
    """
    import scipy.sparse as sp

    rows = counts.shape[0]
    data, indices = counts.data, counts.indices
    if not (data.flags.writeable and indices.flags.writeable):
        data, indices = data.copy(), indices.copy()
    weights = sp.diags(idf)
    pointers = np.zeros(rows + 1, dtype=np.int64)
    written = 0
    for start in range(0, rows, ROW_CHUNK):
        stop = min(start + ROW_CHUNK, rows)
        part = _unit_rows(counts[start:stop] @ weights)  # copies of the slice: its counts are read before written
        size = part.nnz
        data[written:written + size] = part.data
        indices[written:written + size] = part.indices
        pointers[start + 1:stop + 1] = part.indptr[1:] + written
        written += size
    return sp.csr_matrix((data[:written], indices[:written], pointers), shape=counts.shape, dtype=np.float32)


def _unit_rows(matrix: sp.spmatrix) -> sp.csr_matrix:
    """Each row scaled to unit length (empty rows stay empty)."""
    import scipy.sparse as sp

    matrix = sp.csr_matrix(matrix, dtype=np.float32)
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sp.csr_matrix(sp.diags((1.0 / norms).astype(np.float32)) @ matrix, dtype=np.float32)


class _RowFile:
    """A (rows x width) float32 array in an unlinked scratch file, read and written a slice of rows at a time
    (`block[start:stop]`, `block[start:stop] = values`): the fit's basis, never resident whole."""

    def __init__(self, folder: Path, rows: int, width: int) -> None:
        self.shape = (rows, width)
        self.file = tempfile.TemporaryFile(dir=folder)  # noqa: SIM115 - closed by `close`
        self.file.truncate(rows * width * 4)  # zeros

    def _span(self, rows: slice) -> tuple[int, int]:
        start, stop, _ = rows.indices(self.shape[0])
        return start, max(stop, start)

    def __getitem__(self, rows: slice) -> np.ndarray:
        start, stop = self._span(rows)
        values = np.empty((stop - start, self.shape[1]), dtype=np.float32)
        offset = start * self.shape[1] * 4
        if values.size and os.preadv(self.file.fileno(), [values.data.cast("B")], offset) != values.nbytes:
            raise OSError(f"short read of the fit's scratch file at row {start}")
        return values

    def __setitem__(self, rows: slice, values: np.ndarray) -> None:
        start, stop = self._span(rows)
        values = np.ascontiguousarray(values, dtype=np.float32)
        if values.shape != (stop - start, self.shape[1]):
            raise ValueError(f"rows {start}:{stop} given an array of shape {values.shape}")
        if not values.size:
            return
        data, offset = values.data.cast("B"), start * self.shape[1] * 4
        while data:  # a regular file takes it whole; a short write is continued, not lost
            written = os.pwrite(self.file.fileno(), data, offset)
            data, offset = data[written:], offset + written

    def close(self) -> None:
        """Let the file go (it was never linked)."""
        self.file.close()


_Block = TypeVar("_Block", np.ndarray, _RowFile)


def _orthonormal(block: _Block) -> _Block:
    """An orthonormal basis of a tall block's columns by Cholesky QR, twice (CholeskyQR2), in `block` itself.

    LAPACK's QR of a 72,000 x 144 block took 3-8 s here; the Gram matrix route is two small
    products and a 144 x 144 factorization (0.1 s), and the second pass restores orthogonality.
    """
    for _ in range(2):
        gram = np.zeros((block.shape[1], block.shape[1]), dtype=np.float64)
        for start in range(0, block.shape[0], GRAM_ROWS):  # float64 copies of a slice at a time, never of the block
            part = block[start:start + GRAM_ROWS]
            gram += part.T.astype(np.float64) @ part.astype(np.float64)
        gram[np.diag_indices_from(gram)] += 1e-9 * max(float(np.trace(gram)), 1e-30) / gram.shape[0]
        inverse = np.linalg.inv(np.linalg.cholesky(gram)).T.astype(np.float32)
        for start in range(0, block.shape[0], ROW_CHUNK):  # in place, a slice at a time
            block[start:start + ROW_CHUNK] = block[start:start + ROW_CHUNK] @ inverse
    return block


@overload
def _product(matrix: sp.csr_matrix, dense: np.ndarray) -> np.ndarray: ...
@overload
def _product(matrix: sp.csr_matrix, dense: np.ndarray, out: _Block) -> _Block: ...
def _product(matrix: sp.csr_matrix, dense: np.ndarray, out: np.ndarray | _RowFile | None = None,
             ) -> np.ndarray | _RowFile:
    """`matrix @ dense` (float32), computed ROW_CHUNK rows at a time into `out` (a new array by default; each row
    of a sparse product is its own sum: the same bits as the whole product, without a second copy)."""
    if out is None:
        out = np.empty((matrix.shape[0], dense.shape[1]), dtype=np.float32)
    for start in range(0, matrix.shape[0], ROW_CHUNK):
        out[start:start + ROW_CHUNK] = matrix[start:start + ROW_CHUNK] @ dense
    return out


def _transposed_product(matrix: sp.csr_matrix, block: np.ndarray | _RowFile) -> np.ndarray:
    """`matrix.T @ block` (float32), `block` read ROW_CHUNK rows at a time.

    scipy computes the whole product by adding each row's terms into one zeroed array, row after row
    (`csc_matvecs`); the slices are added into one array by the same routine in the same order, so every
    sum is made of the same additions in the same order: the same bits as `matrix.T @ block`. Where that
    routine is missing or does not compute that product (a scipy the ranges allow may change it: it is not
    public), the product is scipy's public one over the whole block, which costs the memory the slices save.
    """
    rows, columns = matrix.shape
    kernel = _slice_kernel()
    if kernel is None:
        return np.asarray(matrix.T @ np.ascontiguousarray(block[0:rows], dtype=np.float32), dtype=np.float32)
    width = block.shape[1]
    out = np.zeros((columns, width), dtype=np.float32)
    indptr, indices, data = matrix.indptr, matrix.indices, matrix.data
    for start in range(0, rows, ROW_CHUNK):
        stop = min(start + ROW_CHUNK, rows)
        part = np.ascontiguousarray(block[start:stop], dtype=np.float32)
        first, last = int(indptr[start]), int(indptr[stop])
        kernel(columns, stop - start, width, (indptr[start:stop + 1] - first).astype(indices.dtype),
               indices[first:last], data[first:last], part.ravel(), out.ravel())
    return out


def _private_kernel() -> Callable[..., None] | None:
    """scipy's `csc_matvecs`, if this scipy has it (a private module: the ranges do not promise it)."""
    try:
        from scipy.sparse import _sparsetools
    except ImportError:
        return None
    kernel: Callable[..., None] | None = getattr(_sparsetools, "csc_matvecs", None)
    return kernel


@functools.cache
def _slice_kernel() -> Callable[..., None] | None:
    """scipy's `csc_matvecs` when it is there and computes `matrix.T @ block` on a small case checked once (values
    whose sums are exact, so any order of additions gives the same bits); None otherwise."""
    kernel = _private_kernel()
    if kernel is None:
        return None
    import scipy.sparse as sparse

    dense = np.array([[1.5, 0, 2, 0], [0, 3, 0.25, 0], [4, 0, 0, 0.5]], dtype=np.float32)
    probe = sparse.csr_matrix(dense)
    block = np.arange(6, dtype=np.float32).reshape(3, 2) * np.float32(1.25) + np.float32(0.5)
    out = np.zeros((4, 2), dtype=np.float32)
    try:
        kernel(4, 3, 2, probe.indptr, probe.indices, probe.data, block.ravel(), out.ravel())
    except (TypeError, ValueError):
        return None
    return kernel if np.array_equal(out, dense.T @ block) else None


def write_rows(path: Path, shape: tuple[int, int], slices: Iterable[np.ndarray]) -> None:
    """Write a float32 .npy file of `shape` from its row slices, in order: the bytes `np.save` writes of the whole
    array, without the whole array."""
    rows = 0
    with open(path, "wb") as file:
        np.lib.format.write_array_header_1_0(file, {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)),
                                                    "fortran_order": False, "shape": shape})
        for part in slices:
            if part.size:  # a view of no bytes cannot be cast to bytes (nor has any to write)
                file.write(np.ascontiguousarray(part, dtype=np.float32).data.cast("B"))
            rows += part.shape[0]
    if rows != shape[0]:
        raise ValueError(f"{path}: {rows} rows written of {shape[0]}")


def right_singular_vectors(projection: np.ndarray) -> np.ndarray:
    """The rows of V^T in the thin SVD of a wide float32 `projection` (width x terms), which it overwrites.

    LAPACK's gesdd through scipy, in place on the Fortran-ordered projection: numpy's `linalg.svd` copies it in,
    and its V^T out, four (width x terms) arrays at once (43 MB at 20k files, the fit's largest step)."""
    from scipy.linalg import svd

    _, _, vt = svd(projection, full_matrices=False, overwrite_a=True, check_finite=False, lapack_driver="gesdd")
    return np.asarray(vt, dtype=np.float32)


def _lsi(tfidf: sp.csr_matrix, dimensions: int, folder: Path) -> np.ndarray:
    """The term vectors of a randomized truncated SVD (Halko et al.), float32, seeded; the unit row vectors are
    written to `folder/doc_vectors.npy`.

    The (rows x width) basis lives in a scratch file of `folder`, read and written a slice at a time, and the row
    vectors go to their file a slice at a time as they are computed: neither is ever resident whole (they were the
    fit's two largest arrays, 71 and 61 MB at 20k files). Every slice is computed as the whole array was: the files
    are byte for byte the same.
    """
    rows, columns = tfidf.shape
    if rows == 0 or columns == 0:
        write_rows(folder / "doc_vectors.npy", (rows, 0), [np.zeros((rows, 0), np.float32)])
        return np.zeros((columns, 0), np.float32)
    rng = np.random.default_rng(SEED)
    width = min(dimensions + OVERSAMPLING, columns, rows)
    basis = _RowFile(folder, rows, width)
    try:
        # The random test matrix (terms x width) is drawn and applied a slice of terms at a time: the same draws in
        # the same order as one (terms x width) matrix, without holding it.
        for start in range(0, columns, CHUNK):
            stop = min(start + CHUNK, columns)
            terms = tfidf if stop - start == columns else tfidf[:, start:stop]
            draws = rng.standard_normal((stop - start, width), dtype=np.float32)
            for row in range(0, rows, ROW_CHUNK):
                basis[row:row + ROW_CHUNK] += terms[row:row + ROW_CHUNK] @ draws
            del terms, draws  # (terms x width) each: not held past their use
        _orthonormal(basis)
        for _ in range(POWER_ITERATIONS):
            back = _orthonormal(_transposed_product(tfidf, basis))
            _product(tfidf, back, out=basis)
            del back
            _orthonormal(basis)
        projection = _transposed_product(tfidf, basis).T
    finally:
        basis.close()
    # LAPACK's workspace goes where the freed slices were, not above them.
    trim_heap()
    vt = right_singular_vectors(projection)
    del projection
    term_vectors = np.ascontiguousarray(vt[:dimensions].T, dtype=np.float32)

    def unit_rows() -> Iterable[np.ndarray]:
        for row in range(0, rows, ROW_CHUNK):
            part = tfidf[row:row + ROW_CHUNK] @ term_vectors
            norms = np.linalg.norm(part, axis=1)
            norms[norms == 0] = 1.0
            part /= norms[:, None]
            yield part

    write_rows(folder / "doc_vectors.npy", (rows, term_vectors.shape[1]), unit_rows())
    return term_vectors
