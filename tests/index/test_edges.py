"""Reference edges: calls and imports, resolved to a symbol when unambiguous, else stored with to_name only."""

from __future__ import annotations

import sqlite3


def edges_named(db: sqlite3.Connection, name: str) -> list[tuple]:
    """(from_path, line, edge_type, resolved target's qualified name or None, to_name) matching `name`."""
    return db.execute(
        """SELECT e.from_path, e.line, e.edge_type, t.qualified_name, e.to_name FROM symbol_edges e
           LEFT JOIN symbols t ON t.symbol_id = e.to_symbol_id
           WHERE e.to_name = ? OR e.to_name LIKE ? OR e.to_name LIKE ? OR t.name = ?
           ORDER BY e.from_path, e.line, e.edge_type""", (name, f"%.{name}", f"%::{name}", name)).fetchall()


def test_create_pool_has_3_resolved_and_5_unresolved_references(db: sqlite3.Connection) -> None:
    assert edges_named(db, "createPool") == [
        ("src/app/db.rs", 4, "import", None, "deadpool::createPool"),
        ("src/db/client.ts", 1, "import", "createPool", "./pool.createPool"),
        ("src/db/client.ts", 3, "call", "createPool", "createPool"),
        ("src/db/legacy.ts", 1, "import", None, "mysql2/promise.createPool"),
        ("src/db/legacy.ts", 3, "call", None, "mysql2/promise.createPool"),
        ("src/db/legacy_pool.py", 3, "import", None, "aiomysql.createPool"),
        ("src/db/legacy_pool.py", 5, "call", None, "aiomysql.createPool"),
        ("src/db/pool.ts", 13, "call", "createPool", "createPool"),
    ]
    unresolved = db.execute("SELECT edge_type, COUNT(*) FROM symbol_edges WHERE to_symbol_id IS NULL AND "
                            "(to_name LIKE '%.createPool' OR to_name LIKE '%::createPool' OR to_name = 'createPool') "
                            "GROUP BY edge_type ORDER BY edge_type").fetchall()
    assert unresolved == [("call", 2), ("import", 3)]


def test_parse_config_references_all_resolve(db: sqlite3.Connection) -> None:
    assert edges_named(db, "parse_config") == [
        ("src/auth/handler.py", 4, "import", "settings.config.parse_config", "settings.config.parse_config"),
        ("src/auth/handler.py", 13, "call", "settings.config.parse_config", "parse_config"),
        ("src/settings/config.py", 21, "call", "settings.config.parse_config", "parse_config"),
    ]


def test_edges_record_the_calling_symbol(db: sqlite3.Connection) -> None:
    rows = db.execute("""SELECT f.qualified_name, e.line
                         FROM symbol_edges e JOIN symbols f ON f.symbol_id = e.from_symbol_id
                         WHERE e.to_name = 'parse_config' ORDER BY e.from_path""").fetchall()
    assert rows == [("auth.handler.AuthHandler.__init__", 13), ("settings.config.config", 21)]
    file_level = db.execute("SELECT from_symbol_id FROM symbol_edges WHERE from_path = 'src/db/client.ts' AND "
                            "edge_type = 'import'").fetchall()
    assert file_level == [(None,)]


def test_member_calls_resolve_through_self_and_type_names(db: sqlite3.Connection) -> None:
    assert edges_named(db, "authenticate") == [
        ("src/auth/handler.py", 21, "call", "auth.handler.AuthHandler.authenticate", "self.authenticate")]
    assert edges_named(db, "new") == [
        ("src/app/config.rs", 51, "call", "app::config::Config::new", "Config::new")]


def test_go_call_prefers_the_definition_in_the_same_file(db: sqlite3.Connection) -> None:
    rows = db.execute("""SELECT e.from_path, t.path FROM symbol_edges e JOIN symbols t ON t.symbol_id = e.to_symbol_id
                         WHERE e.to_name = 'Serve' ORDER BY e.from_path""").fetchall()
    assert rows == [("pkg/handler.go", "pkg/handler.go"), ("pkg/handler_test.go", "pkg/handler_test.go")]


def test_rust_use_resolves_crate_paths(db: sqlite3.Connection) -> None:
    assert db.execute("""SELECT t.qualified_name FROM symbol_edges e JOIN symbols t ON t.symbol_id = e.to_symbol_id
                         WHERE e.to_name = 'crate::app::config::Config'""").fetchall() == [("app::config::Config",)]


def test_unknown_targets_stay_unresolved_with_their_name(db: sqlite3.Connection) -> None:
    assert db.execute("SELECT to_symbol_id, edge_type FROM symbol_edges WHERE to_name = 'std::collections::HashMap'"
                      ).fetchall() == [(None, "import")]
    assert db.execute("SELECT COUNT(*) FROM symbol_edges WHERE to_name = 'random.uniform' AND to_symbol_id IS NULL"
                      ).fetchone() == (1,)


def test_edge_columns(db: sqlite3.Connection) -> None:
    assert db.execute("SELECT DISTINCT repo, \"ref\" FROM symbol_edges").fetchall() == [("workspace", "live")]
    assert {t for (t,) in db.execute("SELECT DISTINCT edge_type FROM symbol_edges")} == {"call", "import"}
