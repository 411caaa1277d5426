"""read_state and IndexReader: every status the manifest can put an index in."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cruxgate.reference.index import SCHEMA_VERSION, IndexNotReady, IndexReader, index_workspace, read_state


@pytest.fixture
def indexed(workspace: Path) -> Path:
    index_workspace(workspace)
    return workspace


def manifest_path(workspace: Path) -> Path:
    name = (workspace / ".cruxgate" / "CURRENT").read_text(encoding="utf-8").strip()
    return workspace / ".cruxgate" / name / "manifest.json"


def edit(workspace: Path, **changes) -> None:
    path = manifest_path(workspace)
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.update(changes)
    path.write_text(json.dumps(manifest), encoding="utf-8")


def test_not_indexed(workspace: Path) -> None:
    state = read_state(workspace)
    assert (state.status, state.manifest, state.current_schema_version) == ("not_indexed", None, None)
    assert state.required_schema_version == SCHEMA_VERSION
    with pytest.raises(IndexNotReady) as err:
        IndexReader.open(workspace)
    assert err.value.state.status == "not_indexed"


def test_ready_manifest_has_the_documented_fields(indexed: Path) -> None:
    state = read_state(indexed)
    assert state.status == "ready" and state.current_schema_version == SCHEMA_VERSION
    m = state.manifest
    assert m is not None
    assert set(m) == {"schema_version", "status", "cursor", "git_head", "file_count", "symbol_count", "edge_count",
                      "unresolved_edge_count", "indexed_at", "tool_version", "module_layout", "resolution",
                      "ref"}
    assert (m["status"], m["ref"], m["git_head"], m["tool_version"]) == ("ready", "live", None, "0.1.0")
    assert len(m["cursor"]) == 64 and m["file_count"] > 20 and m["symbol_count"] > 250


@pytest.mark.parametrize("status", ["idle", "partial_available"])
def test_legacy_statuses_read_as_ready(indexed: Path, status: str) -> None:
    edit(indexed, status=status)
    assert read_state(indexed).status == "ready"
    assert IndexReader.open(indexed).manifest["status"] == status


@pytest.mark.parametrize(("changes", "status"), [
    ({"schema_version": SCHEMA_VERSION + 1}, "reindex_required"),
    ({"schema_version": 0}, "reindex_required"),
    ({"schema_version": "1"}, "corrupt_manifest"),
    ({"schema_version": True}, "corrupt_manifest"),
    ({"status": "indexing"}, "corrupt_manifest"),
])
def test_manifest_versions_and_statuses(indexed: Path, changes: dict, status: str) -> None:
    edit(indexed, **changes)
    state = read_state(indexed)
    assert state.status == status and state.reason
    with pytest.raises(IndexNotReady) as err:
        IndexReader.open(indexed)
    assert err.value.state.status == status
    if status == "reindex_required":
        assert state.current_schema_version == changes["schema_version"]


@pytest.mark.parametrize("damage", ["garbage", "list", "missing_manifest", "missing_db", "bad_current", "missing_gen"])
def test_corrupt_manifest(indexed: Path, damage: str) -> None:
    path = manifest_path(indexed)
    if damage == "garbage":
        path.write_text('{"schema_version": 1, ', encoding="utf-8")
    elif damage == "list":
        path.write_text("[1, 2]", encoding="utf-8")
    elif damage == "missing_manifest":
        path.unlink()
    elif damage == "missing_db":
        (path.parent / "index.db").unlink()
    elif damage == "bad_current":
        (indexed / ".cruxgate" / "CURRENT").write_text("../../etc\n", encoding="utf-8")
    else:
        (indexed / ".cruxgate" / "CURRENT").write_text("gen-99\n", encoding="utf-8")
    assert read_state(indexed).status == "corrupt_manifest"


def test_reader_opens_sqlite_read_only_and_every_tantivy_index(indexed: Path) -> None:
    reader = IndexReader.open(indexed)
    assert reader.workspace == indexed.resolve() and reader.manifest["status"] == "ready"
    with pytest.raises(Exception, match="readonly"):
        reader.db.execute("DELETE FROM files")
    docs = {name: reader.searcher(name).num_docs for name in ("symbols", "snippets", "files")}
    files, symbols = reader.db.execute("SELECT (SELECT COUNT(*) FROM files), (SELECT COUNT(*) FROM symbols)").fetchone()
    assert docs["symbols"] == symbols and docs["files"] == files and docs["snippets"] >= files - 2
    assert reader.searcher("files") is reader.searcher("files")
    with pytest.raises(KeyError):
        reader.index("nope")


def test_reader_keeps_its_generation_while_a_new_one_goes_live(indexed: Path) -> None:
    reader = IndexReader.open(indexed)
    (indexed / "src/web/app.js").unlink()
    index_workspace(indexed)
    assert reader.db.execute("SELECT COUNT(*) FROM files WHERE path = 'src/web/app.js'").fetchone() == (1,)
    assert IndexReader.open(indexed).db.execute(
        "SELECT COUNT(*) FROM files WHERE path = 'src/web/app.js'").fetchone() == (0,)


def test_read_state_of_a_named_generation(indexed: Path) -> None:
    (indexed / "src/web/app.js").unlink()
    index_workspace(indexed)
    assert read_state(indexed).generation.name == "gen-2"
    older = read_state(indexed, "gen-1")  # the generation a reader named, not the one CURRENT names now
    assert older.status == "ready" and older.generation.name == "gen-1"
    assert older.manifest["file_count"] == read_state(indexed).manifest["file_count"] + 1
    assert read_state(indexed, "gen-9").status == "corrupt_manifest"
    assert read_state(indexed, "../gen-1").status == "corrupt_manifest"


def git(workspace: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=workspace, check=True,
                          capture_output=True, text=True, timeout=30)
    return done.stdout.strip()


def test_manifest_head_is_read_before_the_tree(workspace: Path, monkeypatch) -> None:
    """A commit made while a run reads the tree must leave the manifest's git_head behind, never ahead."""
    from cruxgate.reference.index import build

    git(workspace, "init", "-q")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-m", "fixture")
    before = git(workspace, "rev-parse", "HEAD")
    real_scan = build.scan

    def scan_then_commit(root: Path):
        report = real_scan(root)
        (workspace / "src" / "committed_later.py").write_text("def committed_later():\n    return 1\n")
        git(workspace, "add", "-A")
        git(workspace, "commit", "-q", "-m", "more")  # the run indexes the tree without this file
        return report

    monkeypatch.setattr(build, "scan", scan_then_commit)
    summary = index_workspace(workspace)
    assert git(workspace, "rev-parse", "HEAD") != before
    assert summary.manifest["git_head"] == before  # so the server sees the index as stale and syncs again
    assert IndexReader.open(workspace).db.execute(
        "SELECT COUNT(*) FROM files WHERE path = 'src/committed_later.py'").fetchone() == (0,)
