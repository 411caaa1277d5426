"""The polyglot fixture indexed once per session (a private copy), and helpers to read what the index holds."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from cruxgate.reference.index import IndexReader, index_workspace

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"


def copy_fixture(dest: Path) -> Path:
    """A fresh copy of the polyglot fixture at `dest`."""
    shutil.copytree(FIXTURE, dest, ignore=shutil.ignore_patterns(".cruxgate"))
    return dest


@pytest.fixture(scope="session")
def polyglot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An indexed copy of the polyglot fixture (read-only for tests)."""
    workspace = copy_fixture(tmp_path_factory.mktemp("index") / "polyglot")
    index_workspace(workspace)
    return workspace


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


def symbol_rows(db: sqlite3.Connection, path: str) -> list[tuple]:
    """(qualified_name, kind, line_start, line_end, parent qualified_name) of a file's symbols, in line order."""
    return db.execute(
        """SELECT s.qualified_name, s.kind, s.line_start, s.line_end, p.qualified_name
           FROM symbols s JOIN symbol_relations r ON r.symbol_id = s.symbol_id
           LEFT JOIN symbols p ON p.symbol_id = r.parent_symbol_id
           WHERE s.path = ? ORDER BY s.line_start, s.line_end DESC, s.symbol_id""", (path,)).fetchall()
