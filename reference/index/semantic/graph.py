"""The approximate nearest-neighbour graph over the LSI row vectors (usearch HNSW), for large indexes.

Below `MIN_ROWS` rows the exact scan of every row's vector is as fast as a graph search plus the
rescoring of its candidates, so no graph is built. Above it a full run builds an HNSW graph of the rows
(inner product on unit vectors = cosine), in one thread so that a rebuild of the same vectors gives the
same graph file. The query side opens it memory-mapped (`view`): the graph stays in the page cache,
shared by every server of the workspace, as the vectors do.

Files in `gen-<n>/semantic/` when built:

    graph.usearch        the HNSW graph; its keys are the rows of the full run that built it
    graph_rows.npy       int64[keys]   each key's row now (-1: the row went in a later patch)
    graph_extra.npy      int64[...]    rows the graph does not hold (folded in by patches): always scanned

A patch links the graph file and rewrites only the two small arrays (`fold`): a row it removes is
dropped from the graph's answers, a row it adds is scanned exactly until a full run rebuilds the
graph (the patch budget keeps those under 10% of the rows).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

GRAPH_FILE = "graph.usearch"
GRAPH_ROWS = "graph_rows.npy"
GRAPH_EXTRA = "graph_extra.npy"
# Measured in docs/semantic.md: below this the exact scan costs no more than the graph search with its rescoring.
MIN_ROWS = 32_768
CONNECTIVITY = 16
EXPANSION_ADD = 64
EXPANSION_SEARCH = 96
SLICE = 12_288  # rows handed to the graph at a time
# Everything above that shapes the graph (an index built by another recipe is not reused).
RECIPE = f"graph>={MIN_ROWS} M={CONNECTIVITY} ef_add={EXPANSION_ADD}"

log = logging.getLogger("cruxgate.semantic")


def build(folder: Path, doc_vectors: np.ndarray | Path, min_rows: int | None = None) -> dict[str, Any] | None:
    """Write the graph of `doc_vectors` (the rows' vectors, or the .npy file that holds them) into `folder` when
    there are at least `min_rows` rows (default `MIN_ROWS`); its manifest entry, or None when no graph is built."""
    rows, dims, slices = _row_slices(doc_vectors)
    if rows < (MIN_ROWS if min_rows is None else min_rows) or dims == 0:
        return None
    try:
        from usearch.index import Index
    except ImportError as err:  # an install without it: every search scans, as below MIN_ROWS
        log.warning("no semantic graph built (%s): searches will scan all %d rows", err, rows)
        return None

    # No key -> slot table: the build never looks a key up, and the file it saves is the same without it (the
    # table is 12 MB of the build's 74 at 20k files).
    index = Index(ndim=dims, metric="ip", dtype="f16", connectivity=CONNECTIVITY,
                  expansion_add=EXPANSION_ADD, expansion_search=EXPANSION_SEARCH, enable_key_lookups=False)
    # One thread: the graph then depends on the vectors only (insertion order is the row order; rows added a slice
    # at a time give the same graph file as all at once: measured).
    for start, vectors in slices:
        index.add(np.arange(start, start + vectors.shape[0], dtype=np.uint64), vectors, threads=1)
    index.save(str(folder / GRAPH_FILE))
    np.save(folder / GRAPH_ROWS, np.arange(rows, dtype=np.int64), allow_pickle=False)
    np.save(folder / GRAPH_EXTRA, np.zeros(0, dtype=np.int64), allow_pickle=False)
    return {"library": "usearch", "keys": rows, "connectivity": CONNECTIVITY, "expansion_add": EXPANSION_ADD}


def _row_slices(source: np.ndarray | Path) -> tuple[int, int, Iterator[tuple[int, np.ndarray]]]:
    """(rows, dimensions, (first row, float32 vectors) of `SLICE` rows at a time) of an array or a .npy file. A
    file is read a slice at a time, neither loaded nor memory-mapped: the vectors are never resident whole beside
    the graph."""
    if isinstance(source, np.ndarray):
        rows, dims = source.shape
        return rows, dims, ((start, np.ascontiguousarray(source[start:start + SLICE], dtype=np.float32))
                            for start in range(0, rows, SLICE))
    with open(source, "rb") as file:
        version = np.lib.format.read_magic(file)
        header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        (rows, dims), fortran, dtype = header(file)
        offset = file.tell()
    if fortran or dtype != np.float32:
        raise ValueError(f"{source}: not C-ordered float32 rows")

    def read() -> Iterator[tuple[int, np.ndarray]]:
        with open(source, "rb") as file:
            file.seek(offset)
            for start in range(0, rows, SLICE):
                count = min(SLICE, rows - start)
                yield start, np.fromfile(file, dtype=np.float32, count=count * dims).reshape(count, dims)

    return rows, dims, read()


def fold(previous: Path, folder: Path, keep: np.ndarray, added: int) -> None:
    """`folder`'s graph arrays after a patch: `previous`'s graph with the rows not in `keep` gone (rows keep their
    numbers: `semantic/fold.py` never renumbers) and `added` new rows after every old one; no-op when `previous`
    has no graph."""
    from .build import link_file

    if not (previous / GRAPH_FILE).is_file():
        return
    link_file(previous / GRAPH_FILE, folder / GRAPH_FILE)
    old_rows = np.load(previous / GRAPH_ROWS, allow_pickle=False)
    old_extra = np.load(previous / GRAPH_EXTRA, allow_pickle=False)
    rows = np.where((old_rows >= 0) & keep[np.maximum(old_rows, 0)], old_rows, -1)
    extra = np.concatenate([old_extra[keep[old_extra]], np.arange(keep.shape[0], keep.shape[0] + added)])
    np.save(folder / GRAPH_ROWS, rows.astype(np.int64), allow_pickle=False)
    np.save(folder / GRAPH_EXTRA, extra.astype(np.int64), allow_pickle=False)


class Graph:
    """An opened graph: the rows nearest to a unit query vector, as rows of the generation now."""

    def __init__(self, index: Any, rows: np.ndarray, extra: np.ndarray) -> None:
        self._index = index
        self.rows = rows
        self.extra = extra

    @classmethod
    def open(cls, folder: Path, row_count: int) -> Graph | None:
        """The graph in `folder` (memory-mapped), None without one; raises ValueError/OSError when it does not
        fit the rows, and ImportError when the library is missing."""
        if not (folder / GRAPH_FILE).is_file():
            return None
        from usearch.index import Index

        rows = np.load(folder / GRAPH_ROWS, mmap_mode="r", allow_pickle=False)
        extra = np.load(folder / GRAPH_EXTRA, mmap_mode="r", allow_pickle=False)
        # Searches read keys off the graph's nodes; only a lookup by key needs the key -> slot table, which a view
        # would otherwise build in memory (4 MB and half the open's 16 ms at 20k files).
        index = Index.restore(str(folder / GRAPH_FILE), view=True, expansion_search=EXPANSION_SEARCH,
                              enable_key_lookups=False)
        if index is None or len(index) != rows.shape[0] or (rows.size and int(rows.max()) >= row_count) \
                or (extra.size and int(extra.max()) >= row_count):
            raise ValueError(f"{folder / GRAPH_FILE} does not fit the index's {row_count} rows")
        return cls(index, np.asarray(rows), np.asarray(extra))

    def nearest(self, vector: np.ndarray, count: int) -> np.ndarray:
        """Rows (of the generation now) among the graph's `count` nearest to `vector`, plus every row outside it."""
        found = self._index.search(np.ascontiguousarray(vector, dtype=np.float32), count)
        rows = self.rows[np.asarray(found.keys, dtype=np.int64)]
        return np.concatenate([rows[rows >= 0], self.extra])
