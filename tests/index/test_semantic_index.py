"""The semantic index of a generation: built with it, swapped with it, checked when opened, deterministic."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from cruxgate.reference.index import IndexReader, index_workspace
from cruxgate.reference.index.semantic import SEMANTIC_DIR, SemanticIndex, SemanticIndexError
from cruxgate.reference.index.semantic.build import is_test_path as semantic_is_test_path
from cruxgate.reference.index.semantic.model import FORMAT, dense_scores
from cruxgate.reference.index.semantic.text import stem, terms
from cruxgate.reference.query.ranking import TEST_PATH_PATTERNS, is_test_path

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"


@pytest.fixture(scope="module")
def workspace(polyglot_copy: Callable[[str], Path]) -> Path:
    """A private copy of the session's indexed polyglot fixture."""
    return polyglot_copy("semantic")


def test_terms_meet_across_spellings() -> None:
    assert terms("where do we parse an email address") == ["pars", "email", "address"]
    assert terms("parseAddress parse_address ParsedAddresses") == ["pars", "address"] * 3
    assert {stem(w) for w in ("validation", "validator", "validate", "validated", "validates")} == {"validat"}
    assert terms("the of 42 x") == []


def test_the_channel_reads_tests_as_the_ranking_does() -> None:
    for path in ("tests/a.py", "src/a_test.go", "x/test_b.py", "a.spec.ts", "src/attestation.go", "lib/a.py"):
        assert semantic_is_test_path(path) == is_test_path(path), path
    assert TEST_PATH_PATTERNS == ("_test.", ".test.", ".spec.", "/test/", "/tests/", "test_")


def test_each_generation_carries_its_semantic_index(workspace: Path) -> None:
    generation = IndexReader.open(workspace).generation
    index = SemanticIndex.open(generation)
    manifest = json.loads((generation / SEMANTIC_DIR / "manifest.json").read_text(encoding="utf-8"))
    assert index.rows == manifest["rows"] > 0 and manifest["dimensions"] > 0
    db = IndexReader.open(workspace).db
    stable = {sid for sid, path in db.execute("SELECT symbol_stable_id, path FROM symbols WHERE kind IN "
                                              "('class','struct','enum','trait','interface','type_alias','function',"
                                              "'method')") if not is_test_path(path)}
    rows = {f"{int(s):016x}" for s in index.stable_ids}
    assert rows == stable and len(rows) == index.rows  # test files stay out (INDEX_TESTS off)
    # Each row carries its symbol's location, so a match the symbols table lacks still has one.
    where = {sid: (path, start, end, language) for sid, path, start, end, language in db.execute(
        "SELECT symbol_stable_id, path, line_start, line_end, language FROM symbols")}
    located = [index.match(row, 1.0) for row in range(index.rows)]
    assert all((m.path, m.line_start, m.line_end, m.language) == where[m.stable_id] for m in located)
    assert {m.language for m in located} >= {"python", "rust", "go"}


def test_search_is_ranked_bounded_and_deterministic(workspace: Path) -> None:
    index = SemanticIndex.open(IndexReader.open(workspace).generation)
    query = terms("retry with exponential backoff")
    first = index.search(query, 5, 0.05)
    assert 0 < len(first) <= 5 and first == index.search(query, 5, 0.05)
    sims = [m.similarity for m in first]
    assert sims == sorted(sims, reverse=True) and all(0.05 < s <= 1.0 for s in sims)
    assert index.search(terms("zzqx"), 5, 0.05) == []
    assert index.known_terms(["retry", "zzqx", "retry"]) == ["retry"]


def test_a_rebuild_of_the_same_code_gives_the_same_vectors(workspace: Path, tmp_path: Path) -> None:
    copy = tmp_path / "ws"
    shutil.copytree(FIXTURE, copy)
    index_workspace(copy)
    a = SemanticIndex.open(IndexReader.open(workspace).generation)
    b = SemanticIndex.open(IndexReader.open(copy).generation)
    assert np.array_equal(a.stable_ids, b.stable_ids) and np.allclose(a.doc_vectors, b.doc_vectors, atol=1e-5)


def test_a_new_generation_brings_a_new_semantic_index(workspace: Path, tmp_path: Path) -> None:
    copy = tmp_path / "ws"
    shutil.copytree(workspace, copy)
    before = IndexReader.open(copy).generation
    (copy / "src" / "mailer.py").write_text('def send_mail(to):\n    """Send an email message."""\n\n\n'
                                            'def read_mail(box):\n    """Read one email message."""\n',
                                            encoding="utf-8")
    index_workspace(copy)
    after = IndexReader.open(copy).generation
    assert after != before and (after / SEMANTIC_DIR / "manifest.json").is_file()
    hits = SemanticIndex.open(after).search(terms("send an email message"), 3, 0.05)
    db = IndexReader.open(copy).db
    names = [db.execute("SELECT name FROM symbols WHERE symbol_stable_id = ?", (m.stable_id,)).fetchone()[0]
             for m in hits]
    assert names[0] == "send_mail"


@pytest.mark.parametrize(("damage", "reason"), [
    ("no folder", "semantic_index_missing"),
    ("no manifest", "semantic_index_missing"),
    ("garbage array", "semantic_backend_error"),
    ("wrong shape", "semantic_backend_error"),
    ("foreign format", "semantic_backend_error"),
    ("an older format, without the files added since", "semantic_backend_error"),
    ("file entry past the table", "semantic_backend_error"),
    ("an answered row in no file", "semantic_backend_error"),
])
def test_open_fails_with_a_deterministic_reason(workspace: Path, tmp_path: Path, damage: str, reason: str) -> None:
    generation = tmp_path / "gen"
    shutil.copytree(IndexReader.open(workspace).generation / SEMANTIC_DIR, generation / SEMANTIC_DIR)
    folder = generation / SEMANTIC_DIR
    if damage == "no folder":
        shutil.rmtree(folder)
    elif damage == "no manifest":
        (folder / "manifest.json").unlink()
    elif damage == "garbage array":
        (folder / "term_vectors.npy").write_bytes(b"\x93NUMPY nonsense")
    elif damage == "wrong shape":
        np.save(folder / "priors.npy", np.ones(3, dtype=np.float32))
    elif damage == "file entry past the table":
        (folder / "files.json").write_text("[]", encoding="utf-8")
    elif damage == "an answered row in no file":  # -1 is a removed row's (prior 0) entry only
        file_of = np.load(folder / "file_of.npy")
        file_of[0] = -1
        np.save(folder / "file_of.npy", file_of)
    else:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        written = 99 if damage == "foreign format" else FORMAT - 1
        if written < FORMAT:
            (folder / "tfidf_heavy.npy").unlink()
        (folder / "manifest.json").write_text(json.dumps({**manifest, "format": written}), encoding="utf-8")
    with pytest.raises(SemanticIndexError) as caught:
        SemanticIndex.open(generation)
    assert caught.value.reason == reason
    if "format" in damage:  # said as such, not as a file the other format lacks
        assert f"format {FORMAT}" in str(caught.value) and "rebuilds" in str(caught.value)


def test_an_unchanged_run_reuses_the_semantic_index_and_a_change_folds_into_it(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(FIXTURE, workspace)
    index_workspace(workspace)
    first = IndexReader.open(workspace).generation / SEMANTIC_DIR
    index_workspace(workspace)  # nothing changed: the files are linked, not rebuilt
    second = IndexReader.open(workspace).generation / SEMANTIC_DIR
    assert second != first and (second / "doc_vectors.npy").stat().st_ino == (first / "doc_vectors.npy").stat().st_ino
    (workspace / "src" / "mailer.py").write_text('def send_mail(to):\n    """Send mail."""\n', encoding="utf-8")
    index_workspace(workspace)
    third = IndexReader.open(workspace).generation / SEMANTIC_DIR
    # A patch: the fitted rows' vectors stay shared, the rows folded in are the new generation's own.
    assert (third / "doc_vectors.npy").stat().st_ino == (second / "doc_vectors.npy").stat().st_ino
    assert not (second / "folded_vectors.npy").exists() and (third / "folded_vectors.npy").is_file()
    manifest = json.loads((third / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source"] == IndexReader.open(workspace).manifest["cursor"]


def test_a_damaged_previous_index_is_rebuilt_not_reused(tmp_path: Path) -> None:
    from cruxgate.reference.index.hooks import semantic_backend_failure

    workspace = tmp_path / "ws"
    shutil.copytree(FIXTURE, workspace)
    index_workspace(workspace)
    semantic_backend_failure(workspace)
    index_workspace(workspace)
    assert SemanticIndex.open(IndexReader.open(workspace).generation).rows > 0


@pytest.mark.parametrize("rows", [1, 33, 1000, 4099])
def test_a_split_dense_scan_gives_the_same_bits_as_one_scan(rows: int) -> None:
    # Above the split size half the rows are scored in a second thread: the answer may not move by one bit.
    rng = np.random.default_rng(rows)
    vectors = rng.standard_normal((rows, 96)).astype(np.float32)
    concept = rng.standard_normal(96).astype(np.float32)
    whole = np.einsum("ij,j->i", vectors, concept)
    split = dense_scores(vectors, concept, split_rows=0)
    assert split.dtype == whole.dtype and split.tobytes() == whole.tobytes()
    assert dense_scores(vectors, concept).tobytes() == whole.tobytes()  # below SPLIT_ROWS: one scan
