"""An unchanged tree is re-indexed by linking the live generation's files; anything else is rebuilt."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cruxgate.reference.index import IndexReader, index_workspace, read_state
from cruxgate.reference.index import build as build_module
from cruxgate.reference.index.hooks import corrupt_index_segment
from cruxgate.reference.index.seal import SEAL
from cruxgate.reference.index.semantic_manifest import FORMAT, SEMANTIC_DIR, semantic_format
from cruxgate.reference.index.semantic_manifest import MANIFEST as SEMANTIC_MANIFEST
from cruxgate.reference.index.state import DATABASE, MANIFEST

from .conftest import built


def live(workspace: Path) -> Path:
    generation = read_state(workspace).generation
    assert generation is not None
    return generation


def test_an_unchanged_tree_links_the_live_files_and_reports_the_same_figures(workspace: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (workspace / "broken.py").write_text("def bad(:\n", encoding="utf-8")
    (workspace / "blob.bin").write_bytes(b"\x00\x01binary")
    first = index_workspace(workspace)
    old = live(workspace)
    builds = built(monkeypatch)
    again = index_workspace(workspace)
    new = live(workspace)
    assert builds == [] and new != old
    assert (new / DATABASE).stat().st_ino == (old / DATABASE).stat().st_ino
    same = ("file_count", "symbol_count", "edge_count", "unresolved_edge_count", "parse_error_files",
            "skipped_files", "problems")
    assert {k: getattr(again, k) for k in same} == {k: getattr(first, k) for k in same}
    assert any(p.startswith("broken.py: ") for p in again.problems)
    assert (again.parsed_files, again.reused_files) == (0, first.file_count)
    assert again.manifest["cursor"] == first.manifest["cursor"]
    assert json.loads((new / MANIFEST).read_text(encoding="utf-8"))["status"] == "ready"
    reader = IndexReader.open(workspace)
    assert reader.searcher("symbols").num_docs == first.symbol_count


def test_a_changed_file_patches_the_live_generation(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    index_workspace(workspace)
    old = live(workspace)
    builds = built(monkeypatch)
    with open(workspace / "src/auth/tokens.py", "a", encoding="utf-8") as fh:
        fh.write("\n# touched\n")
    summary = index_workspace(workspace)
    new = live(workspace)
    assert builds == [] and new != old and summary.parsed_files == 1
    # The new generation shares the live one's Tantivy segments (hard links), not its database.
    segments = [p.name for p in (old / "tantivy" / "symbols").iterdir() if p.suffix == ".idx"]
    assert segments and all((new / "tantivy" / "symbols" / s).stat().st_ino ==
                            (old / "tantivy" / "symbols" / s).stat().st_ino for s in segments)
    assert (new / DATABASE).stat().st_ino != (old / DATABASE).stat().st_ino


def test_a_damaged_live_generation_is_rebuilt_not_linked(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = index_workspace(workspace)
    corrupt_index_segment(workspace)
    builds = built(monkeypatch)
    index_workspace(workspace)
    assert builds == [live(workspace)]
    assert IndexReader.open(workspace).searcher("symbols").num_docs == first.symbol_count


def test_a_generation_without_a_seal_or_from_another_release_is_rebuilt(workspace: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    index_workspace(workspace)
    (live(workspace) / SEAL).unlink()
    builds = built(monkeypatch)
    index_workspace(workspace)
    assert builds == [live(workspace)]
    monkeypatch.setattr(build_module, "TOOL_VERSION", "0.0.0-other")
    index_workspace(workspace)
    assert len(builds) == 2


def test_a_semantic_index_of_another_format_is_rebuilt_not_linked(workspace: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    index_workspace(workspace)
    manifest = live(workspace) / SEMANTIC_DIR / SEMANTIC_MANIFEST
    written = manifest.stat()
    text = manifest.read_text(encoding="utf-8")
    older = text.replace(f'"format": {FORMAT}', f'"format": {FORMAT - 1}')
    assert older != text and len(older) == len(text)
    with open(manifest, "r+", encoding="utf-8") as fh:  # in place, size and mtime kept: the seal still holds
        fh.write(older)
    os.utime(manifest, ns=(written.st_atime_ns, written.st_mtime_ns))
    builds = built(monkeypatch)
    index_workspace(workspace)
    assert builds == [live(workspace)]
    assert semantic_format(live(workspace)) == FORMAT
