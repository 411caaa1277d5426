"""The rows and extractions a generation writer takes wait in memory for a bounded batch only: a batch goes to SQLite
once its extractions pass a byte budget, and a full run writes the last batch before the semantic fit (not at the
end of the run)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cruxgate.reference.index import index_workspace, store
from cruxgate.reference.index.extract import extract
from cruxgate.reference.index.extracts import ExtractStore
from cruxgate.reference.index.languages import language_of

from .conftest import copy_fixture


def _extract(path: str, text: str):
    language, grammar = language_of(path) or (None, None)
    result = extract(path, text.encode(), language, grammar)
    return result, result.dumps()


def test_a_batch_is_written_once_its_extractions_pass_the_byte_budget(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    generation = tmp_path / "gen-1"
    generation.mkdir()
    extracts = ExtractStore(tmp_path, "test")
    writer = store.GenerationWriter(generation, extracts)
    try:
        first, first_blob = _extract("a.py", "def a():\n    return 1\n")
        second, second_blob = _extract("b.py", "def b():\n    return 2\n")
        monkeypatch.setattr(store, "PENDING_BYTES", len(first_blob) + len(second_blob) - 1)
        writer.add(first, first_blob)
        assert len(writer.extracts) == 1  # under the budget: it waits
        writer.add(second, second_blob)
        assert writer.extracts == [] and writer.symbols == [] and writer.pending_bytes == 0
        assert [row[0] for row in writer.db.execute("SELECT path FROM files ORDER BY file_id")] == ["a.py", "b.py"]
        assert extracts.get("b.py", second.content_hash) == second_blob
    finally:
        writer.abort()
        extracts.close()


def test_a_full_run_writes_its_last_batch_before_the_fit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pending: list[tuple[int, int, int]] = []
    wait = store.GenerationWriter.wait_search_indices

    def waiting(self: store.GenerationWriter) -> None:
        pending.append((len(self.files), len(self.symbols), len(self.extracts)))
        wait(self)

    monkeypatch.setattr(store.GenerationWriter, "wait_search_indices", waiting)
    workspace = copy_fixture(tmp_path / "ws")
    summary = index_workspace(workspace, force=True, workers=1)
    assert pending == [(0, 0, 0)]
    db = sqlite3.connect(workspace / ".cruxgate" / summary.generation / "index.db")
    try:
        assert db.execute("SELECT count(*) FROM files").fetchone()[0] == summary.file_count
    finally:
        db.close()
