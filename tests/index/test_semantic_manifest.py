"""Which sentence model made a generation's vectors: one numpy-free reader, for the index run and the semantic fold."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.build import _sentence_of
from cruxgate.reference.index.semantic.sentence import SentenceModel, made_by
from cruxgate.reference.index.semantic_manifest import (
    MANIFEST,
    SEMANTIC_DIR,
    SentenceEntry,
    sentence_entry,
    sentence_identity,
)

MODEL = SentenceModel(Path("/nowhere"), "0123456789abcdef sentence-text=...")


@pytest.mark.parametrize(("manifest", "identity", "of_lsi", "of_model"), [
    ({"format": 2}, None, True, False),
    ({"format": 2, "sentence": {"model": MODEL.identity, "dimensions": 384}}, MODEL.identity, False, True),
    ({"format": 2, "sentence": {"model": "another model", "dimensions": 384}}, "another model", False, False),
    ({"format": 2, "sentence": {"dimensions": 384}}, ValueError, False, False),
    ({"format": 2, "sentence": {"model": MODEL.identity, "dimensions": "384"}}, ValueError, False, False),
    ("{torn", ValueError, False, False),
    (None, OSError, False, False),
], ids=["lsi", "this model", "another model", "no model named", "width not a number", "torn", "missing"])
def test_the_run_and_the_fold_read_one_identity(tmp_path: Path, manifest: dict | str | None,
                                                identity: str | type[Exception] | None, of_lsi: bool,
                                                of_model: bool) -> None:
    folder = tmp_path / SEMANTIC_DIR
    folder.mkdir()
    if manifest is not None:
        text = manifest if isinstance(manifest, str) else json.dumps(manifest)
        (folder / MANIFEST).write_text(text, encoding="utf-8")
    if isinstance(identity, type):
        with pytest.raises(identity):
            sentence_identity(tmp_path)
        assert _sentence_of(tmp_path) is None  # the run: no vectors to keep (the fold and reuse refuse it below)
    else:
        assert sentence_identity(tmp_path) == identity == _sentence_of(tmp_path)
    assert (made_by(tmp_path, None), made_by(tmp_path, MODEL)) == (of_lsi, of_model)


def test_the_entry_the_build_writes_is_the_one_every_reader_reads(tmp_path: Path) -> None:
    manifest: dict = {"format": 2}
    written = SentenceEntry(MODEL.identity, 384, str(MODEL.folder))  # manifest_entry(MODEL) would load the model
    written.add_to(manifest)  # as SemanticBuilder.write does
    folder = tmp_path / SEMANTIC_DIR
    folder.mkdir()
    (folder / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    assert sentence_identity(tmp_path) == MODEL.identity == _sentence_of(tmp_path)
    assert made_by(tmp_path, MODEL) and not made_by(tmp_path, None)
    entry = sentence_entry(json.loads((folder / MANIFEST).read_text(encoding="utf-8")), folder / MANIFEST)
    assert entry == written


def test_only_the_manifest_module_spells_the_sentence_entry_keys() -> None:
    index = Path(__file__).resolve().parents[2] / "reference" / "index"
    # As a subscript, a get() or a dict literal's key; not `backend != "sentence":`, the config's value.
    key = r"""["'](sentence|model)["']"""
    spelled = re.compile(rf"\[{key}\]|get\({key}|{key}\s*:\s*\S")
    found = [f"{path.relative_to(index)}: {line.strip()}" for path in sorted(index.rglob("*.py"))
             if path.name != "semantic_manifest.py"
             for line in path.read_text(encoding="utf-8").splitlines() if spelled.search(line)]
    assert not found


def test_an_unchanged_re_index_never_imports_numpy(workspace: Path) -> None:
    index_workspace(workspace)
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "cruxgate", "index", str(workspace), "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert " 0 parsed, " in done.stdout  # linked: the live generation's model was read, nothing rebuilt
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "cruxgate.reference.index.semantic_manifest" in imported
    assert not {name for name in imported if name.split(".")[0] in ("numpy", "scipy")}
