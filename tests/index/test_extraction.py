"""Extraction per language against the polyglot fixture: kinds, qualified names, parents, line ranges."""

from __future__ import annotations

import sqlite3

import pytest

from .conftest import symbol_rows

EXPECTED = {
    "src/settings/config.py": [
        ("settings.config.Config", "class", 4, 8, None),
        ("settings.config.Config.debug", "field", 7, 7, "settings.config.Config"),
        ("settings.config.Config.name", "field", 8, 8, "settings.config.Config"),
        ("settings.config.parse_config", "function", 11, 18, None),
        ("settings.config.config", "variable", 21, 21, None),
    ],
    "src/auth/tokens.py": [
        ("auth.tokens.TOKEN_TTL", "constant", 3, 3, None),
        ("auth.tokens._revoked", "variable", 4, 4, None),
        ("auth.tokens.validate_token", "function", 7, 9, None),
        ("auth.tokens.ValidateToken", "class", 12, 21, None),
        ("auth.tokens.ValidateToken.prefix", "field", 15, 15, "auth.tokens.ValidateToken"),
        ("auth.tokens.ValidateToken.__init__", "method", 17, 18, "auth.tokens.ValidateToken"),
        ("auth.tokens.ValidateToken.__call__", "method", 20, 21, "auth.tokens.ValidateToken"),
    ],
    "src/lib.rs": [
        ("app", "module", 3, 3, None),
        ("utils", "module", 6, 11, None),
        ("utils::normalize_key", "function", 8, 10, "utils"),
        ("UTILS", "constant", 14, 14, None),
    ],
    "src/app/config.rs": [
        ("app::config::ConfigMap", "type_alias", 6, 6, None),
        ("app::config::DEFAULT_PORT", "constant", 9, 9, None),
        ("app::config::GREETING", "variable", 11, 11, None),
        ("app::config::Mode", "enum", 14, 17, None),
        ("app::config::Validate", "trait", 20, 22, None),
        ("app::config::Validate::validate", "method", 21, 21, "app::config::Validate"),
        ("app::config::Config", "struct", 25, 29, None),
        ("app::config::Config::debug", "field", 26, 26, "app::config::Config"),
        ("app::config::Config::port", "field", 27, 27, "app::config::Config"),
        ("app::config::Config::mode", "field", 28, 28, "app::config::Config"),
        ("app::config::Config::new", "method", 33, 35, "app::config::Config"),
        ("app::config::Config::is_fast", "method", 38, 40, "app::config::Config"),
        ("app::config::Config::validate", "method", 44, 46, "app::config::Config"),
        ("app::config::load_settings", "function", 50, 55, None),
    ],
    "src/services/user_service.ts": [
        ("UserId", "type_alias", 3, 3, None),
        ("Role", "enum", 5, 8, None),
        ("ServiceOptions", "interface", 10, 12, None),
        ("ServiceOptions.cacheSize", "field", 11, 11, "ServiceOptions"),
        ("createUserService", "function", 14, 16, None),
        ("UserService", "variable", 18, 18, None),
        ("UserServiceFactory", "class", 20, 30, None),
        ("UserServiceFactory.options", "field", 21, 21, "UserServiceFactory"),
        ("UserServiceFactory.constructor", "method", 23, 25, "UserServiceFactory"),
        ("UserServiceFactory.build", "method", 27, 29, "UserServiceFactory"),
        ("userService", "function", 32, 34, None),
        ("Services", "module", 36, 38, None),
        ("Services.DEFAULT_ROLE", "constant", 37, 37, "Services"),
    ],
    "src/ui/UserCard.tsx": [
        ("UserCardProps", "interface", 3, 5, None),
        ("UserCardProps.name", "field", 4, 4, "UserCardProps"),
        ("DEFAULT_NAME", "constant", 7, 7, None),
        ("UserCard", "function", 9, 12, None),
    ],
    "src/web/app.js": [
        ("DEFAULT_PORT", "constant", 3, 3, None),
        ("requestCount", "variable", 4, 4, None),
        ("App", "class", 6, 15, None),
        ("App.constructor", "method", 7, 9, "App"),
        ("App.listen", "method", 11, 14, "App"),
        ("formatAddress", "function", 17, 19, None),
        ("startApp", "function", 21, 21, None),
    ],
    "pkg/handler.go": [
        ("MaxBody", "constant", 4, 4, None),
        ("Served", "variable", 7, 7, None),
        ("Handler", "interface", 10, 12, None),
        ("Handler.Handle", "method", 11, 11, "Handler"),
        ("Server", "struct", 15, 17, None),
        ("Server.Addr", "field", 16, 16, "Server"),
        ("Serve", "function", 20, 23, None),
        ("Server.Handle", "method", 26, 28, "Server"),
    ],
}


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_symbols_of_each_language(db: sqlite3.Connection, path: str) -> None:
    assert symbol_rows(db, path) == EXPECTED[path]


@pytest.mark.parametrize(("path", "language"), [
    ("src/settings/config.py", "python"), ("src/app/config.rs", "rust"), ("src/services/user_service.ts", "typescript"),
    ("src/ui/UserCard.tsx", "typescript"), ("src/web/app.js", "javascript"), ("pkg/handler.go", "go"),
    ("config/settings.ini", None)])
def test_file_languages(db: sqlite3.Connection, path: str, language: str | None) -> None:
    assert db.execute("SELECT language FROM files WHERE path = ?", (path,)).fetchone() == (language,)


def test_file_without_grammar_is_indexed_with_no_symbols(db: sqlite3.Connection) -> None:
    file_id, lines = db.execute("SELECT file_id, line_count FROM files WHERE path = 'config/settings.ini'").fetchone()
    assert lines == 9
    assert db.execute("SELECT COUNT(*) FROM symbols WHERE file_id = ?", (file_id,)).fetchone() == (0,)


def test_big_module_has_about_200_symbols(db: sqlite3.Connection) -> None:
    kinds = dict(db.execute("SELECT kind, COUNT(*) FROM symbols WHERE path = 'src/big_module.py' GROUP BY kind"))
    assert kinds == {"class": 20, "field": 20, "method": 140, "function": 20}


def test_every_kind_is_canonical_and_every_scenario_kind_exists(db: sqlite3.Connection) -> None:
    from cruxgate.reference.index.kinds import KINDS
    kinds = {k for (k,) in db.execute("SELECT DISTINCT kind FROM symbols")}
    assert kinds == set(KINDS)


def test_signatures_visibility_and_docs(db: sqlite3.Connection) -> None:
    rows = {r[0]: r[1:] for r in db.execute(
        "SELECT qualified_name, signature, visibility, doc FROM symbols WHERE qualified_name IN "
        "('auth.tokens.validate_token', 'auth.tokens._revoked', 'app::config::Config::new', 'app::config::GREETING',"
        " 'Server.Handle', 'createUserService', 'UserServiceFactory.options')")}
    assert rows["auth.tokens.validate_token"] == (
        "def validate_token(token: str) -> bool", "public",
        "Return True when the token is well formed and not revoked.")
    assert rows["auth.tokens._revoked"][1] == "private"
    assert rows["app::config::Config::new"][:2] == ("pub fn new() -> Self", "public")
    assert rows["app::config::GREETING"][1] == "private"
    assert rows["Server.Handle"][:2] == ("func (s *Server) Handle() int", "public")
    assert rows["createUserService"][1] == "private"  # not exported
    assert rows["UserServiceFactory.options"][1] == "private"


def test_stable_ids_are_unique_and_deterministic(db: sqlite3.Connection) -> None:
    from cruxgate.reference.index.extract import stable_id
    sid, = db.execute("SELECT symbol_stable_id FROM symbols WHERE qualified_name = 'settings.config.parse_config'"
                      ).fetchone()
    assert sid == stable_id("python", "src/settings/config.py", "function", "settings.config.parse_config", 0)
    total, distinct = db.execute("SELECT COUNT(*), COUNT(DISTINCT symbol_stable_id) FROM symbols").fetchone()
    assert total == distinct


def test_same_name_in_two_files_gives_two_symbols(db: sqlite3.Connection) -> None:
    rows = db.execute("SELECT path, kind FROM symbols WHERE name = 'Serve' ORDER BY path").fetchall()
    assert rows == [("pkg/handler.go", "function"), ("pkg/handler_test.go", "function")]
