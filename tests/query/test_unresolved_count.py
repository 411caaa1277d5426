"""find_references' unresolved count through the name-key index is the count the scan of symbol_edges gives."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cruxgate.reference.index import read_state
from cruxgate.reference.index.names import name_key
from cruxgate.reference.query.references import _UNRESOLVED_SQL, _like_suffix, find_references


def scan_count(db: sqlite3.Connection, name: str) -> int:
    return db.execute(_UNRESOLVED_SQL, (name, _like_suffix(".", name), _like_suffix("::", name))).fetchone()[0]


@pytest.fixture(scope="module")
def db(polyglot_workspace: Path) -> sqlite3.Connection:
    generation = read_state(polyglot_workspace).generation
    assert generation is not None
    return sqlite3.connect(f"file:{generation / 'index.db'}?mode=ro", uri=True)


@pytest.mark.parametrize(("name", "key"), [("a", "a"), ("a.B", "b"), ("x::y", "y"), ("a.b::C", "c"), ("foo.", ""),
                                           ("a:::x", "x"), (":x", "x"), ("", "")])
def test_the_key_is_the_last_part_lower_cased(name: str, key: str) -> None:
    assert name_key(name) == key


def test_the_indexed_count_equals_the_scan_for_every_name_and_its_variants(db: sqlite3.Connection) -> None:
    names = {n for (n,) in db.execute("SELECT DISTINCT to_name FROM symbol_edges")}
    names |= {n for (n,) in db.execute("SELECT DISTINCT name FROM symbols")}
    variants = {v for n in names for v in (n, n.upper(), n.lower(), n.rsplit(".", 1)[-1], n.split("::")[-1])}
    assert len(variants) > 100
    checked = 0
    for name in sorted(variants):
        if not name:
            continue
        try:
            indexed = find_references(db, name, limit=1).unresolved_count
        except Exception:  # noqa: BLE001 - no symbol and nothing unresolved: then the scan finds nothing either
            indexed = 0
        assert indexed == scan_count(db, name), name
        checked += indexed > 0
    assert checked > 20


def test_an_index_without_the_table_counts_by_scanning(db: sqlite3.Connection, tmp_path: Path) -> None:
    copy = tmp_path / "index.db"
    with sqlite3.connect(copy) as target:
        db.backup(target)
        target.execute("DROP TABLE unresolved_names")
    old = sqlite3.connect(copy)
    for name in ("createPool", "parse_config", "get"):
        assert find_references(old, name, limit=5).unresolved_count == scan_count(db, name)
