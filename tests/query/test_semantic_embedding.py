"""The static word-vector backend of the semantic channel, on the polyglot fixture's real index, with a tiny word-vector
file written by the test (no model is downloaded or shipped).

The file gives a question's words that the code never uses ("pause", "tries") the direction of the code's own
("backoff", "retry"): the LSI channel cannot weigh them, the word-vector backend finds the retry code.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cruxgate.reference.config import SemanticConfig
from cruxgate.reference.index import IndexReader
from cruxgate.reference.index.semantic import SemanticIndexError
from cruxgate.reference.index.semantic.embedding import read_word_vectors
from cruxgate.reference.query.engine import QueryEngine
from cruxgate.reference.query.semantic import channel_for

QUESTION = "pause between tries"


def word_vectors(path: Path, header: bool = True) -> Path:
    """A 4-dimensional table: a retry axis, a backoff axis, and two unrelated ones."""
    table: dict[str, list[float]] = {
             "retry": [1, 0, 0, 0], "retries": [1, 0.1, 0, 0], "tries": [0.9, 0.1, 0, 0], "attempt": [0.8, 0, 0.2, 0],
             "backoff": [0, 1, 0, 0], "pause": [0.1, 0.9, 0, 0], "delay": [0, 0.9, 0.1, 0],
             "parse": [0, 0, 1, 0], "token": [0, 0, 0, 1], "the": [0.5, 0.5, 0.5, 0.5]}
    lines = [f"{len(table)} 4"] if header else []
    lines += [f"{word} " + " ".join(str(float(x)) for x in vector) for word, vector in table.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def engine(workspace: Path, **settings: str) -> QueryEngine:
    reader = IndexReader.open(workspace)
    return QueryEngine(reader, semantic=channel_for(SemanticConfig(**settings), reader.generation))  # type: ignore[arg-type]


def test_the_table_is_reduced_to_the_channels_terms(tmp_path: Path) -> None:
    table = read_word_vectors(word_vectors(tmp_path / "v.vec"))
    assert "the" not in table.rows  # a stop word stands for no term
    assert {"retry", "try", "attempt", "backoff", "paus", "delay", "pars", "token"} <= set(table.rows)
    assert table.dimensions == 4 and np.allclose(np.linalg.norm(table.vectors, axis=1), 1.0)
    # "retry" and "retries" reduce to one term: their vectors are averaged.
    assert np.allclose(table.vectors[table.rows["retry"]], np.array([1, 0.05, 0, 0]) / np.hypot(1, 0.05))
    again = read_word_vectors(word_vectors(tmp_path / "plain.txt", header=False))  # the header is optional
    assert again.rows == table.rows and np.array_equal(again.vectors, table.vectors)


def test_word_vectors_relate_words_the_code_never_uses(polyglot_workspace: Path, tmp_path: Path) -> None:
    lsi = engine(polyglot_workspace).search_code(QUESTION, limit=10, semantic=True)
    assert lsi.semantic["semantic_skipped_reason"] == "too_few_query_terms"
    model = word_vectors(tmp_path / "v.vec")
    result = engine(polyglot_workspace, backend="static", model=str(model)).search_code(QUESTION, limit=10,
                                                                                        semantic=True)
    assert result.semantic["semantic_triggered"] is True and result.semantic["semantic_fallback"] is False
    assert result.hits and result.hits[0].path == "src/net/retry.py", [h.path for h in result.hits]
    assert all(h.path == "src/net/retry.py" for h in result.hits[:3])


def test_a_missing_or_broken_model_degrades_to_lexical(polyglot_workspace: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.vec"
    broken.write_text("retry 1 0 0\nbackoff 0 1\n", encoding="utf-8")
    for model in (tmp_path / "absent.vec", broken):
        result = engine(polyglot_workspace, backend="static", model=str(model)).search_code(
            "retry with exponential backoff", limit=10, semantic=True)
        assert result.semantic["semantic_fallback"] is True
        assert result.semantic["semantic_skipped_reason"] == "semantic_backend_error"
        assert result.hits  # the lexical answer still comes
    with pytest.raises(SemanticIndexError, match="expected 3"):
        read_word_vectors(broken)
