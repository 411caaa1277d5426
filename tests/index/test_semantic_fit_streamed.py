"""The semantic fit keeps its basis in a scratch file and writes the row vectors a slice at a time: neither
(rows x k) array is ever resident whole, and every file it writes has the bytes the fit over whole arrays gave."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from cruxgate.reference.index.semantic import build


def _matrix(rows: int, columns: int, per_row: int, seed: int) -> sp.csr_matrix:
    """A TF-IDF-like matrix: `per_row` random terms a row, unit rows, float32."""
    rng = np.random.default_rng(seed)
    indices = np.sort(rng.choice(columns, size=(rows, per_row)), axis=1).ravel().astype(np.int32)
    data = rng.random(rows * per_row, dtype=np.float32) + np.float32(0.1)
    matrix = sp.csr_matrix((data, indices, np.arange(0, rows * per_row + 1, per_row)), shape=(rows, columns))
    matrix.sum_duplicates()
    return build._unit_rows(matrix)


def _whole_fit(tfidf: sp.csr_matrix, dimensions: int) -> tuple[np.ndarray, np.ndarray]:
    """The fit over whole in-memory arrays (scipy's own products): what the streamed fit must reproduce."""
    rows, columns = tfidf.shape
    rng = np.random.default_rng(build.SEED)
    width = min(dimensions + build.OVERSAMPLING, columns, rows)
    basis = build._orthonormal(build._product(tfidf, rng.standard_normal((columns, width), dtype=np.float32)))
    for _ in range(build.POWER_ITERATIONS):
        basis = build._orthonormal(build._product(tfidf, build._orthonormal(np.asarray(tfidf.T @ basis))))
    vt = build.right_singular_vectors(np.asarray(tfidf.T @ basis).T)
    term_vectors = np.ascontiguousarray(vt[:dimensions].T, dtype=np.float32)
    doc_vectors = build._product(tfidf, term_vectors)
    norms = np.linalg.norm(doc_vectors, axis=1)
    norms[norms == 0] = 1.0
    return term_vectors, doc_vectors / norms[:, None]


@pytest.fixture
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slices of 96 rows (a multiple of 96: BLAS gives a slice the bits of the whole) and Gram sums of 192."""
    monkeypatch.setattr(build, "ROW_CHUNK", 96)
    monkeypatch.setattr(build, "GRAM_ROWS", 192)


def assert_transposed_product_is_scipys(tfidf: sp.csr_matrix, dense: np.ndarray, folder: Path) -> None:
    """`_transposed_product` of `dense`, in memory and in a scratch file, is scipy's `tfidf.T @ dense` bit for bit."""
    expected = np.asarray(tfidf.T @ dense)
    assert np.array_equal(build._transposed_product(tfidf, dense), expected)
    stored = build._RowFile(folder, *dense.shape)
    try:
        stored[0:dense.shape[0]] = dense
        assert np.array_equal(build._transposed_product(tfidf, stored), expected)
    finally:
        stored.close()


def test_the_transposed_product_a_slice_at_a_time_is_scipys_bit_for_bit(small_slices: None, tmp_path: Path) -> None:
    tfidf = _matrix(1000, 300, 12, seed=3)  # eleven slices, the last one short
    assert_transposed_product_is_scipys(
        tfidf, np.random.default_rng(4).standard_normal((1000, 40)).astype(np.float32), tmp_path)


@pytest.fixture
def fresh_kernel() -> Iterator[None]:
    """The kernel checked afresh in the test, and again after it (the check is cached per process)."""
    build._slice_kernel.cache_clear()
    yield
    build._slice_kernel.cache_clear()


def test_the_slices_use_scipys_kernel_where_it_computes_the_product(fresh_kernel: None) -> None:
    from scipy.sparse import _sparsetools

    assert build._slice_kernel() is _sparsetools.csc_matvecs


@pytest.mark.parametrize("kernel", [
    pytest.param(None, id="missing"),
    pytest.param(lambda *args: None, id="adds-nothing"),
    pytest.param(lambda columns, rows, width, indptr, indices, data, block, out: out.__iadd__(1.0), id="adds-wrong"),
    pytest.param(lambda columns, rows: None, id="other-arguments"),
])
def test_a_kernel_missing_or_not_the_product_is_not_used_and_the_product_is_scipys(
        kernel: object, small_slices: None, fresh_kernel: None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "_private_kernel", lambda: kernel)
    assert build._slice_kernel() is None
    assert_transposed_product_is_scipys(
        _matrix(500, 200, 10, seed=5), np.random.default_rng(6).standard_normal((500, 24)).astype(np.float32), tmp_path)


def test_orthonormal_on_the_scratch_file_is_orthonormal_on_the_array(small_slices: None, tmp_path: Path) -> None:
    block = np.random.default_rng(5).standard_normal((1000, 30)).astype(np.float32)
    stored = build._RowFile(tmp_path, 1000, 30)
    try:
        stored[0:1000] = block
        build._orthonormal(stored)
        assert np.array_equal(stored[0:1000], build._orthonormal(block))
    finally:
        stored.close()
    assert not list(tmp_path.iterdir())  # the scratch file was never linked


@pytest.mark.parametrize("shape", [(1000, 24), (7, 0), (0, 0)])
def test_rows_written_a_slice_at_a_time_are_the_bytes_of_np_save(tmp_path: Path, shape: tuple[int, int]) -> None:
    values = np.random.default_rng(6).standard_normal(shape).astype(np.float32)
    np.save(tmp_path / "whole.npy", values, allow_pickle=False)
    build.write_rows(tmp_path / "sliced.npy", shape, (values[start:start + 96] for start in range(0, shape[0], 96)))
    assert (tmp_path / "sliced.npy").read_bytes() == (tmp_path / "whole.npy").read_bytes()
    with pytest.raises(ValueError, match="rows written"):
        build.write_rows(tmp_path / "short.npy", (shape[0] + 1, shape[1]), [values])


def test_the_streamed_fit_gives_the_vectors_of_the_whole_arrays_fit(small_slices: None, tmp_path: Path) -> None:
    tfidf = _matrix(1000, 400, 10, seed=8)
    term_vectors, doc_vectors = _whole_fit(tfidf, 24)
    assert np.array_equal(build._lsi(tfidf, 24, tmp_path), term_vectors)
    written = np.load(tmp_path / "doc_vectors.npy", allow_pickle=False)
    assert written.dtype == np.float32 and np.array_equal(written, doc_vectors)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["doc_vectors.npy"]  # no scratch file left


def test_the_fit_never_holds_a_whole_rows_by_k_array(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "ROW_CHUNK", 960)
    monkeypatch.setattr(build, "GRAM_ROWS", 960)
    rows, dimensions = 24_000, 64
    tfidf = _matrix(rows, 500, 3, seed=9)
    whole = rows * (dimensions + build.OVERSAMPLING) * 4  # the basis, the fit's largest array when held whole
    tracemalloc.start()
    try:
        build._lsi(tfidf, dimensions, tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < whole / 3, f"the fit held {peak} bytes at once; the whole basis is {whole}"


def test_a_builder_that_spills_its_term_entries_writes_the_same_index(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from .test_semantic_graph import definitions

    monkeypatch.setattr(build, "SPILL_ENTRIES", 100)  # many spills, the last part held
    rows = definitions(600, seed=11)
    held, spilled = build.SemanticIndexBuilder(), build.SemanticIndexBuilder(scratch=tmp_path)
    for start in range(0, len(rows), 7):
        held.add_rows(rows[start:start + 7])
        spilled.add_rows(rows[start:start + 7])
        assert len(spilled._columns.tail) < 100 + 7 * 40  # never more than one batch of rows past the limit
    assert spilled._columns.spilled > 0 and spilled._weights.spilled == spilled._columns.spilled
    for builder, generation in ((held, tmp_path / "held"), (spilled, tmp_path / "spilled")):
        generation.mkdir()
        builder.write(generation)
    assert list(tmp_path.glob("tmp*")) == []  # the scratch files were never linked
    for path in sorted((tmp_path / "held" / "semantic").iterdir()):
        assert (tmp_path / "spilled" / "semantic" / path.name).read_bytes() == path.read_bytes(), path.name


@pytest.mark.parametrize("chunk", [7, 96, 100_000])
def test_tfidf_in_place_is_the_whole_products_bytes_in_the_counts_own_arrays(
        chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "ROW_CHUNK", chunk)
    rng = np.random.default_rng(12)
    rows, columns = 1000, 300
    sizes = rng.integers(0, 15, rows)  # empty rows too
    indices = np.concatenate([rng.permutation(columns)[:size] for size in sizes]).astype(np.int32)  # unsorted
    data = rng.choice(np.array([0.5, 1.0, 1.7, 2.1, 3.0], dtype=np.float32), len(indices))
    indptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    idf = rng.random(columns, dtype=np.float32)
    idf[rng.random(columns) < 0.3] = 0.0  # dropped terms: the product has fewer entries than the counts
    expected = build._unit_rows(sp.csr_matrix((data, indices, indptr), shape=(rows, columns)) @ sp.diags(idf))
    counts = sp.csr_matrix((data.copy(), indices.copy(), indptr), shape=(rows, columns))
    tfidf = build._tfidf_in_place(counts, idf)
    assert expected.nnz < len(data)
    assert np.array_equal(tfidf.indptr, expected.indptr)
    assert tfidf.indices.tobytes() == expected.indices.tobytes() and tfidf.data.tobytes() == expected.data.tobytes()
    assert np.shares_memory(tfidf.data, counts.data) and np.shares_memory(tfidf.indices, counts.indices)


def test_right_singular_vectors_span_the_projection_in_about_one_more_copy_of_it() -> None:
    rng = np.random.default_rng(13)
    projection = (rng.standard_normal((40, 30), dtype=np.float32) @ rng.standard_normal((30, 3000), dtype=np.float32))
    work = projection.T.copy().T  # Fortran-ordered, as the fit's projection (a transposed C array) is
    build.right_singular_vectors(np.ones((2, 3), dtype=np.float32).T.copy().T)  # scipy.linalg imported first
    tracemalloc.start()
    try:
        vt = build.right_singular_vectors(work)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert vt.dtype == np.float32 and vt.shape == (40, 3000)
    top = vt[:30]  # the projection's rank: its first 30 right singular vectors span its rows
    assert np.allclose(top @ top.T, np.eye(30), atol=1e-4)
    assert np.allclose(projection @ top.T @ top, projection, rtol=1e-3, atol=1e-2 * float(np.abs(projection).max()))
    assert peak < 2 * projection.nbytes, f"{peak} bytes at once for a {projection.nbytes}-byte projection"
