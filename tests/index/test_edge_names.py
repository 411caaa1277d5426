"""The extraction store's edge names: what a patch finds the files to resolve again by.

A patch re-resolves every unchanged file with an edge whose target names (as a `.` or `::` part) a symbol
that appeared or went. It looks those files up in `.cruxgate/extracts.db` (each extraction's target parts),
so the store must answer exactly by part, stay pruned with the extractions, and hold every live file's
names; a store that does not is no answer, and the run is a full one.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from cruxgate.reference.index import extracts as extracts_module
from cruxgate.reference.index import index_workspace, read_state
from cruxgate.reference.index.extracts import EXTRACTS, PAGE_SIZE, ExtractStore
from cruxgate.reference.index.names import edge_names
from cruxgate.reference.index.state import STATE_DIR

from .conftest import built, copy_fixture
from .test_patch import EXTRA, snapshot


def store(tmp_path: Path) -> ExtractStore:
    return ExtractStore(tmp_path, "test")


@pytest.mark.parametrize("few", [extracts_module.FEW_NAMES, 0])  # SQLite searching the texts, or them split
def test_a_name_is_found_as_a_whole_part_of_a_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     few: int) -> None:
    monkeypatch.setattr(extracts_module, "FEW_NAMES", few)
    extracts = store(tmp_path)
    extracts.put([("a.py", "h1", b"x", edge_names(["pkg.mod::helper", "run"])),
                  ("b.py", "h2", b"y", edge_names(["helpers.run_all"]))])
    assert extracts.naming({"mod"}) == {("a.py", "h1")}
    assert extracts.naming({"run"}) == {("a.py", "h1")}  # not run_all
    assert extracts.naming({"helper"}) == {("a.py", "h1")}  # not helpers
    assert extracts.naming({"helpers", "pkg"}) == {("a.py", "h1"), ("b.py", "h2")}
    assert extracts.naming({"pkg.mod", "ru", "mod::helper"}) == set()  # parts, never a substring


def test_a_pruned_extraction_takes_its_names_along(tmp_path: Path) -> None:
    extracts = store(tmp_path)
    extracts.put([("a.py", "old", b"x", edge_names(["f"])), ("a.py", "new", b"x", edge_names(["f"])),
                  ("b.py", "h", b"y", edge_names(["f"]))])
    extracts.prune([("a.py", "new")], paths={"a.py"})  # only a.py looked at: b.py stays
    assert extracts.naming({"f"}) == {("a.py", "new"), ("b.py", "h")}
    assert extracts.get("a.py", "old") is None and extracts.get("b.py", "h") == b"y"
    extracts.prune([("a.py", "new")])
    assert extracts.naming({"f"}) == {("a.py", "new")}


def test_a_store_written_without_edge_names_is_emptied(tmp_path: Path) -> None:
    extracts = store(tmp_path)
    extracts.put([("a.py", "h", b"x", edge_names(["f"]))])
    extracts.close()
    with sqlite3.connect(tmp_path / EXTRACTS) as db:  # as an older release left it: no layout recorded
        db.execute("DELETE FROM meta WHERE key = 'layout'")
    reopened = store(tmp_path)
    assert reopened.get("a.py", "h") is None and reopened.naming({"f"}) == set()


def test_a_store_of_the_earlier_layout_is_started_afresh(tmp_path: Path) -> None:
    """The extractions moved to a rowid table on larger pages (cheaper to rewrite): a store written before (a WITHOUT
    ROWID table on 4 KiB pages) is replaced by a new file, since neither the table nor the page size can change in
    place."""
    with sqlite3.connect(tmp_path / EXTRACTS) as db:
        db.executescript("""
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE extracts(path TEXT NOT NULL, content_hash TEXT NOT NULL, payload BLOB NOT NULL,
                                  PRIMARY KEY (path, content_hash)) WITHOUT ROWID;
            INSERT INTO meta VALUES ('tool_version', 'test'), ('layout', 'extracts+edge_names');
            INSERT INTO extracts VALUES ('a.py', 'h', x'00');""")
    extracts = store(tmp_path)
    assert extracts.get("a.py", "h") is None
    extracts.put([("a.py", "h", b"x", edge_names(["f"]))])
    extracts.close()
    with sqlite3.connect(tmp_path / EXTRACTS) as db:
        assert db.execute("PRAGMA page_size").fetchone() == (PAGE_SIZE,)
        assert "WITHOUT ROWID" not in db.execute("SELECT sql FROM sqlite_master WHERE name = 'extracts'").fetchone()[0]
    assert store(tmp_path).get("a.py", "h") == b"x"


def test_a_store_that_lost_rows_vouches_for_no_generation(tmp_path: Path) -> None:
    extracts = store(tmp_path)
    extracts.put([("a.py", "h", b"x", edge_names(["f"]))])
    extracts.record_names_of("gen-1")
    extracts.prune([("a.py", "h")])
    assert extracts.names_of() == "gen-1"
    extracts.put([("b.py", "h")])  # type: ignore[list-item]  # a failing write: its rows are lost
    extracts.record_names_of("gen-2")
    extracts.prune([("a.py", "h")])
    assert extracts.names_of() is None
    extracts.close()
    assert store(tmp_path).names_of() is None  # nor once reopened


@pytest.mark.parametrize("damage", [None, "no record"])
def test_a_patch_resolves_again_the_files_naming_a_new_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             damage: str | None) -> None:
    """extra.py calls helper_fn, defined nowhere until the edit: a patch must resolve extra.py's edges again. A store
    that cannot vouch for the live generation's names (an older one, a killed run's) makes the run a full one."""
    workspace = copy_fixture(tmp_path / "ws")
    (workspace / "src/auth/extra.py").write_text(EXTRA, encoding="utf-8")
    index_workspace(workspace)
    live = read_state(workspace).generation
    assert live is not None
    with sqlite3.connect(workspace / STATE_DIR / EXTRACTS) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'names_of'").fetchone() == (live.name,)
        if damage == "no record":
            db.execute("DELETE FROM meta WHERE key = 'names_of'")
    full_builds = built(monkeypatch)
    (workspace / "src/net/helpers.py").write_text("def helper_fn() -> int:\n    return 2\n", encoding="utf-8")
    summary = index_workspace(workspace)
    assert len(full_builds) == (1 if damage == "no record" else 0)
    fresh = tmp_path / "fresh"
    shutil.copytree(workspace, fresh, ignore=shutil.ignore_patterns(STATE_DIR))
    assert summary.edge_count == index_workspace(fresh, force=True).edge_count
    patched, rebuilt = snapshot(workspace), snapshot(fresh)
    assert patched["edges"] == rebuilt["edges"]
    assert any(edge[1] == "src/auth/extra.py" and edge[5] == "helper_fn" and edge[4] for edge in patched["edges"])
    # Either way the store vouches for the new generation: the next edit is a patch.
    full_builds.clear()
    (workspace / "src/net/helpers.py").write_text("def helper_fn() -> int:\n    return 3\n", encoding="utf-8")
    index_workspace(workspace)
    assert full_builds == []


def test_every_stored_extraction_has_its_edge_names(workspace: Path) -> None:
    index_workspace(workspace)
    with sqlite3.connect(workspace / STATE_DIR / EXTRACTS) as db:
        pairs = set(db.execute("SELECT path, content_hash FROM extracts"))
        named = set(db.execute("SELECT path, content_hash FROM edge_names"))
    assert pairs and pairs == named


@pytest.mark.parametrize("targets", [[], [""], ["a.b::c", "x", "a"], ["a::", ":b", "a:::b"], ["a\nb.c", "d"],
                                     ["a\x00b.c", "d"], ["\x00"]])
def test_edge_names_are_each_part_of_each_target_once(targets: list[str]) -> None:
    """Split joined (the fast way) or target by target (a target holding the joining separator), the text is the
    same: every `.`/`::` part once, sorted, each between newlines."""
    parts = {part for target in targets for part in target.replace("::", ".").split(".")}
    assert edge_names(iter(targets)) == "\n" + "\n".join(sorted(parts)) + "\n"
