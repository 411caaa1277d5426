"""Incremental re-index by content hash, --force, stable ids across moved lines, deleted and added files."""

from __future__ import annotations

from pathlib import Path

import pytest

from cruxgate.reference.index import IndexReader, index_workspace, read_state
from cruxgate.reference.index import build as build_module


@pytest.fixture
def parsed_paths(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Paths the extractor is called on (the fixture is small enough to be parsed in-process)."""
    seen: list[str] = []
    real = build_module.extract

    def spy(path, data, language, grammar_name, **options):
        seen.append(path)
        return real(path, data, language, grammar_name, **options)

    monkeypatch.setattr(build_module, "extract", spy)
    return seen


def stable_ids(workspace: Path) -> dict[str, tuple[str, int]]:
    reader = IndexReader.open(workspace)
    try:
        return {q: (s, line) for q, s, line in reader.db.execute(
            "SELECT qualified_name, symbol_stable_id, line_start FROM symbols")}
    finally:
        reader.close()


def test_touching_one_file_reparses_only_it(workspace: Path, parsed_paths: list[str]) -> None:
    first = index_workspace(workspace)
    assert first.parsed_files == first.file_count and first.reused_files == 0
    parsed_paths.clear()
    with open(workspace / "src/auth/tokens.py", "a", encoding="utf-8") as fh:
        fh.write("\n\ndef freshly_added_function():\n    return 1\n")
    second = index_workspace(workspace)
    assert parsed_paths == ["src/auth/tokens.py"]
    assert (second.parsed_files, second.reused_files) == (1, first.file_count - 1)
    assert second.symbol_count == first.symbol_count + 1
    reader = IndexReader.open(workspace)
    assert reader.db.execute("SELECT path FROM symbols WHERE name = 'freshly_added_function'").fetchall() == [
        ("src/auth/tokens.py",)]
    assert reader.manifest["cursor"] != first.manifest["cursor"]


def test_unchanged_workspace_reuses_everything_and_keeps_the_cursor(workspace: Path,
                                                                    parsed_paths: list[str]) -> None:
    first = index_workspace(workspace)
    parsed_paths.clear()
    again = index_workspace(workspace)
    assert parsed_paths == [] and again.reused_files == first.file_count
    assert again.manifest["cursor"] == first.manifest["cursor"]
    assert again.generation != first.generation


def test_force_reparses_everything(workspace: Path, parsed_paths: list[str]) -> None:
    first = index_workspace(workspace)
    parsed_paths.clear()
    forced = index_workspace(workspace, force=True)
    assert forced.parsed_files == first.file_count and forced.reused_files == 0
    assert len(parsed_paths) == first.file_count


def test_force_repairs_an_incompatible_index(workspace: Path) -> None:
    index_workspace(workspace)
    from cruxgate.reference.index.hooks import corrupt_manifest, reindex_required
    reindex_required(workspace)
    assert read_state(workspace).status == "reindex_required"
    index_workspace(workspace, force=True)
    assert read_state(workspace).status == "ready"
    corrupt_manifest(workspace)
    assert read_state(workspace).status == "corrupt_manifest"
    assert index_workspace(workspace).parsed_files > 0  # a corrupt index is never reused
    assert read_state(workspace).status == "ready"


def test_stable_ids_survive_moved_lines(workspace: Path) -> None:
    index_workspace(workspace)
    before = stable_ids(workspace)
    path = workspace / "src/settings/config.py"
    path.write_text("# a comment\n# another\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    index_workspace(workspace)
    after = stable_ids(workspace)
    assert after["settings.config.parse_config"] == (before["settings.config.parse_config"][0],
                                                     before["settings.config.parse_config"][1] + 3)
    assert {q: s for q, (s, _) in after.items()} == {q: s for q, (s, _) in before.items()}


def test_deleted_and_added_files(workspace: Path) -> None:
    first = index_workspace(workspace)
    (workspace / "src/web/app.js").unlink()
    (workspace / "src/web/extra.js").write_text("function extra() { return startApp(1); }\n", encoding="utf-8")
    second = index_workspace(workspace)
    assert second.file_count == first.file_count
    reader = IndexReader.open(workspace)
    paths = {p for (p,) in reader.db.execute("SELECT path FROM files")}
    assert "src/web/app.js" not in paths and "src/web/extra.js" in paths
    # startApp lived in the deleted file: the call no longer resolves.
    assert reader.db.execute("SELECT to_symbol_id FROM symbol_edges WHERE to_name = 'startApp'").fetchall() == [(None,)]


def generation_names(workspace: Path) -> list[str]:
    return sorted(p.name for p in (workspace / ".cruxgate").iterdir() if p.name.startswith("gen-"))


def test_a_generation_goes_at_the_start_of_the_run_after_the_one_that_replaced_it(workspace: Path) -> None:
    for _ in range(3):
        summary = index_workspace(workspace)
    # gen-1 was replaced by gen-2, which gen-3 replaced: a reader may still hold gen-2, none gen-1, which the
    # run after gen-3's removes (beside its own work), and no earlier run did.
    assert generation_names(workspace) == ["gen-1", "gen-2", "gen-3"] and summary.generation == "gen-3"
    replaced = IndexReader(workspace.resolve(), read_state(workspace, "gen-2"))
    try:
        summary = index_workspace(workspace)
        assert generation_names(workspace) == ["gen-2", "gen-3", "gen-4"] and summary.generation == "gen-4"
        assert replaced.db.execute("SELECT COUNT(*) FROM files").fetchone()[0] == summary.file_count
        assert replaced.searcher("symbols").num_docs > 0
    finally:
        replaced.close()
    index_workspace(workspace)
    assert generation_names(workspace) == ["gen-3", "gen-4", "gen-5"]
