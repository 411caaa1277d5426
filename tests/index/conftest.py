"""The session's indexed polyglot fixture (tests/conftest.py) opened for reading, and helpers to read what it holds."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from cruxgate.reference.index import IndexReader, read_state
from cruxgate.reference.index import build as build_module
from cruxgate.reference.index.state import DATABASE

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"


def copy_fixture(dest: Path) -> Path:
    """A fresh copy of the polyglot fixture at `dest`."""
    shutil.copytree(FIXTURE, dest, ignore=shutil.ignore_patterns(".cruxgate"))
    return dest


@pytest.fixture(scope="session")
def polyglot(polyglot_copy: Callable[[str], Path]) -> Path:
    """An indexed copy of the polyglot fixture (read-only for tests)."""
    return polyglot_copy("index")


@pytest.fixture(scope="session")
def reader(polyglot: Path) -> IndexReader:
    """The open index of the polyglot fixture."""
    return IndexReader.open(polyglot)


@pytest.fixture(scope="session")
def db(reader: IndexReader) -> sqlite3.Connection:
    """Its SQLite database."""
    return reader.db


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A private copy of the fixture a test may change (not indexed yet)."""
    return copy_fixture(tmp_path / "ws")


def indexed_paths(workspace: Path) -> set[str]:
    """The paths of the files the workspace's live generation holds."""
    reader = IndexReader.open(workspace)
    try:
        return {path for (path,) in reader.db.execute("SELECT path FROM files")}
    finally:
        reader.close()


def symbol_rows(db: sqlite3.Connection, path: str) -> list[tuple]:
    """(qualified_name, kind, line_start, line_end, parent qualified_name) of a file's symbols, in line order."""
    return db.execute(
        """SELECT s.qualified_name, s.kind, s.line_start, s.line_end, p.qualified_name
           FROM symbols s JOIN symbol_relations r ON r.symbol_id = s.symbol_id
           LEFT JOIN symbols p ON p.symbol_id = r.parent_symbol_id
           WHERE s.path = ? ORDER BY s.line_start, s.line_end DESC, s.symbol_id""", (path,)).fetchall()


def built(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The generations the next runs build from the sources (rather than link or patch)."""
    seen: list[Path] = []
    real = build_module._build

    def spy(root, previous, report, old, generation, store, progress, workers, *rest):
        seen.append(generation)
        return real(root, previous, report, old, generation, store, progress, workers, *rest)

    monkeypatch.setattr(build_module, "_build", spy)
    return seen


def resolved_edges(root: Path) -> tuple[dict[str, str], list[tuple]]:
    """Each symbol's qualified name by its name, and every edge of the live generation with the qualified name of its
    target (None: unresolved)."""
    generation = read_state(root).generation
    assert generation is not None
    db = sqlite3.connect(generation / DATABASE)
    names = dict(db.execute("SELECT name, qualified_name FROM symbols"))
    edges = sorted(db.execute("SELECT e.from_path, e.line, e.edge_type, e.to_name, s.qualified_name "
                              "FROM symbol_edges e LEFT JOIN symbols s ON s.symbol_id = e.to_symbol_id"))
    db.close()
    return names, edges


def resolved_calls(root: Path) -> list[tuple]:
    """(from_path, line, to_name, target's qualified name or None) of every call edge of the live generation."""
    return [(path, line, name, target) for path, line, kind, name, target in resolved_edges(root)[1] if kind == "call"]


def edge_targets(root: Path) -> list[tuple]:
    """(from_path, line, edge_type, to_name, and the target's path, qualified name, kind and first line, or Nones) of
    every edge of the live generation: where a target is, when several definitions share its qualified name."""
    generation = read_state(root).generation
    assert generation is not None
    with closing(sqlite3.connect(generation / DATABASE)) as db:
        return db.execute("SELECT e.from_path, e.line, e.edge_type, e.to_name, s.path, s.qualified_name, s.kind, "
                          "s.line_start FROM symbol_edges e LEFT JOIN symbols s ON s.symbol_id = e.to_symbol_id "
                          "ORDER BY e.from_path, e.line, e.edge_type, e.to_name").fetchall()


def write_tree(root: Path, tree: dict[str, str]) -> Path:
    """`root` with each of `tree`'s files (relative path -> text) written in it, its folders made."""
    for path, text in tree.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root
