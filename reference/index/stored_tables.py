"""The resolver's tables keyed by name, answered from SQLite: a full run's from a scratch database it writes from
every file's symbols (`lookup_tables`), a patch's from the generation's own database (`stored_resolver`).

Held in memory these tables grow with the tree, and a patch has the symbols only in SQLite; resolving a file's
edges needs a few keys of each table. Each table answers `get(key)` as a dict of key -> symbol id would (the one
symbol id of the key, AMBIGUOUS when the key names more than one symbol, None when none) with one indexed query,
so a patch's edges resolve to what a full run over the same tree resolves them to.
"""

from __future__ import annotations

import posixpath
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from .packages import Layout
from .resolve import (
    AMBIGUOUS,
    CALLABLE_TARGETS,
    CONTAINERS,
    MEMBERS_OUTSIDE,
    MERGING,
    OUT_OF_CLASS,
    OVERLOADING,
    PLAIN_TARGETS,
    REDEFINING,
    REDEFINING_ACROSS,
    REDEFINING_MEMBERS,
    TYPES,
    Resolver,
)

_JOINED = "FROM symbols s JOIN symbol_relations r USING (symbol_id)"


def _marks(kinds: frozenset[str]) -> str:
    return ",".join(f"'{kind}'" for kind in sorted(kinds))  # the kinds are the index's own words, never input


MEMO_KEYS = 1 << 16


class _Remembering:
    """Answers kept by key, so that each key is asked of SQLite once: the rows do not change while a table is asked
    (a full run's scratch tables; a patch's, once its rows are written), and a tree asks the same keys from many
    files (at 5,000 files 52,000 lookups are 18,000 keys). Emptied when it holds `MEMO_KEYS`, so that what it holds
    never grows with the tree."""

    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}

    def _keep(self, key: Any, found: Any) -> Any:
        """Remember `found` as the answer for `key`; return it."""
        if len(self.memo) >= MEMO_KEYS:
            self.memo.clear()
        self.memo[key] = found
        return found


class _Memo(_Remembering):
    """A resolver table: `get(key)` -> symbol id | AMBIGUOUS | None, from `sql` with the key's parts bound."""

    def __init__(self, db: sqlite3.Connection, sql: str, bind: Callable[[tuple], tuple] = tuple) -> None:
        super().__init__()
        self.db, self.sql, self.bind = db, sql + " LIMIT 2", bind

    def get(self, key: tuple) -> int | None:
        try:
            return self.memo[key]
        except KeyError:
            rows = self.db.execute(self.sql, self.bind(key)).fetchall()
            return self._keep(key, None if not rows else rows[0][0] if len(rows) == 1 else AMBIGUOUS)


class _Listing(_Remembering):
    """`get(key)` -> every value `sql` gives with the key's parts bound (a tuple, empty when none): the modules a
    file re-exports all of."""

    def __init__(self, db: sqlite3.Connection, sql: str) -> None:
        super().__init__()
        self.db, self.sql = db, sql

    def get(self, key: tuple) -> tuple:
        try:
            return self.memo[key]
        except KeyError:
            return self._keep(key, tuple(row[0] for row in self.db.execute(self.sql, key)))


class _ById(_Remembering):
    """`kinds[sid]` / `parents[sid]` and `len()` over the symbols table (ids may have gaps after a patch)."""

    def __init__(self, db: sqlite3.Connection, column: str) -> None:
        super().__init__()
        self.db, self.column = db, column
        self.size = (db.execute("SELECT COALESCE(MAX(symbol_id), 0) FROM symbols").fetchone()[0] or 0) + 1

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, sid: int) -> Any:
        try:
            return self.memo[sid]
        except KeyError:
            row = self.db.execute(f"SELECT {self.column} {_JOINED} WHERE symbol_id = ?", (sid,)).fetchone()
            return self._keep(sid, row[0] if row else None)


class _Outside(_Remembering):
    """`outside.get(type id)`: the type's (language, directory, qualified name) where its members may be written
    outside it (`MEMBERS_OUTSIDE`), else None."""

    def __init__(self, db: sqlite3.Connection) -> None:
        super().__init__()
        self.db = db
        self.sql = (f"SELECT language, path, qualified_name FROM symbols WHERE symbol_id = ? "
                    f"AND language IN ({_marks(MEMBERS_OUTSIDE)}) AND kind IN ({_marks(TYPES)})")

    def get(self, sid: int) -> tuple[str, str, str] | None:
        try:
            return self.memo[sid]
        except KeyError:
            row = self.db.execute(self.sql, (sid,)).fetchone()
            return self._keep(sid, None if row is None else (row[0], posixpath.dirname(row[1]), row[2]))


class _Beside(_Remembering):
    """`type_beside.get(value id)`: the one type of its name at its file's top level, where a `MERGING` language
    declares both (`Resolver.add_symbols`), else None."""

    def __init__(self, db: sqlite3.Connection) -> None:
        super().__init__()
        self.db = db
        top = "symbol_id IN (SELECT symbol_id FROM symbol_relations WHERE parent_symbol_id IS NULL)"
        self.sql = (f"SELECT t.symbol_id FROM symbols v JOIN symbols t ON t.path = v.path AND t.name = v.name "
                    f"WHERE v.symbol_id = ?1 AND v.language IN ({_marks(MERGING)}) AND v.kind NOT IN ({_marks(TYPES)}) "
                    f"AND t.kind IN ({_marks(TYPES)}) AND t.symbol_id != ?1 AND v.{top} AND t.{top} LIMIT 2")

    def get(self, sid: int) -> int | None:
        try:
            return self.memo[sid]
        except KeyError:
            rows = self.db.execute(self.sql, (sid,)).fetchall()
            return self._keep(sid, rows[0][0] if len(rows) == 1 else None)


class _Paths:
    """`path in paths`: the indexed files, read whole the first time one is asked about. A patch that re-resolves
    every TypeScript file asks about each candidate of each import (33,000 paths for TanStack Query's 747 files):
    one query each cost more than reading them all once."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.known: frozenset[str] | None = None

    def __contains__(self, path: object) -> bool:
        if self.known is None:
            self.known = frozenset(found for (found,) in self.db.execute("SELECT path FROM files"))
        return path in self.known


class _Bases:
    """`Resolver.class_bases` of a patch: the generation's `class_bases` rows, read a class at a time; what the patch
    gives (`add_bases`) stands over them."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.own: dict[int, tuple[int, ...]] = {}

    def get(self, key: int, default: tuple[int, ...] = ()) -> tuple[int, ...]:
        found = self.own.get(key)
        if found is None:
            found = self.own[key] = tuple(base for (base,) in self.db.execute(
                "SELECT base_symbol_id FROM class_bases WHERE symbol_id = ? ORDER BY position", (key,)))
        return found or default

    def __setitem__(self, key: int, bases: tuple[int, ...]) -> None:
        self.own[key] = bases

    def pop(self, key: int, default: object = None) -> object:
        self.own[key] = ()
        return default


class _Attributes:
    """`Resolver.attribute_types` of a patch: the generation's `attribute_types` rows, read one at a time; what the
    patch gives (`add_bases`) stands over them."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.own: dict[tuple[int, str], int | None] = {}

    def get(self, key: tuple[int, str]) -> int | None:
        if key not in self.own:
            row = self.db.execute("SELECT type_symbol_id FROM attribute_types WHERE symbol_id = ? AND name = ?",
                                  key).fetchone()
            self.own[key] = None if row is None else row[0]
        return self.own[key]

    def __setitem__(self, key: tuple[int, str], found: int) -> None:
        self.own[key] = found


def stored_resolver(db: sqlite3.Connection, layout: Layout | None = None) -> Resolver:
    """A Resolver whose tables are the generation in `db` (its uncommitted rows included), in the tree's `layout` (its
    Go modules and TypeScript/JavaScript packages). Its answers are remembered: the symbols, their relations and the
    import aliases must not change while it resolves (a patch writes them all before)."""
    callables, containers = _marks(CALLABLE_TARGETS), _marks(CONTAINERS)
    resolver = Resolver(layout=layout)
    resolver.by_qualified = _Memo(db, "SELECT symbol_id FROM symbols WHERE language = ? AND qualified_name = ?")  # type: ignore[assignment]
    resolver.first_defined = _Memo(  # type: ignore[assignment]
        db, "SELECT MIN(symbol_id) FROM symbols WHERE language = ? AND qualified_name = ? "
            "HAVING COUNT(DISTINCT path) = 1")
    # As `Resolver.enter` and `lookup_tables` register them: what a plain name may call in each language.
    plain = "(" + " OR ".join(f"(language = '{language}' AND kind IN ({_marks(kinds)}))"
                              for language, kinds in PLAIN_TARGETS.items()) + ")"
    # A name defined again in its file (`REDEFINING`; `Resolver.enter`): its last definition, one answer.
    def last_in(languages: frozenset[str]) -> str:
        return f"GROUP BY CASE WHEN language IN ({_marks(languages)}) THEN path || char(0) || qualified_name " \
               "ELSE symbol_id END"
    resolver.by_name = _Memo(  # type: ignore[assignment]
        db, f"SELECT MAX(symbol_id) FROM symbols WHERE language = ? AND name = ? AND {plain} "
            f"{last_in(REDEFINING_ACROSS)}")
    resolver.by_file_name = _Memo(  # type: ignore[assignment]
        db, f"SELECT MAX(symbol_id) FROM symbols WHERE path = ? AND name = ? AND {plain} {last_in(REDEFINING)}")
    resolver.redefined = _Memo(  # type: ignore[assignment]
        db, f"SELECT MAX(symbol_id) FROM symbols WHERE language = ?1 AND qualified_name = ?2 "
            f"AND ?1 IN ({_marks(REDEFINING)}) HAVING COUNT(DISTINCT path) = 1 AND COUNT(*) > 1")
    # A file directly in the directory: no `/` in the path (the root), or `dir/` and no `/` after it. A Go definition
    # by its qualified name (a method by its type's: `T.m`), as `Resolver.add_symbols` registers it.
    in_directory = ("((?2 = '' AND instr(path, '/') = 0) OR (substr(path, 1, length(?2) + 1) = ?2 || '/' "
                    "AND instr(substr(path, length(?2) + 2), '/') = 0))")
    resolver.by_dir_name = _Memo(  # type: ignore[assignment]
        db, f"SELECT symbol_id FROM symbols WHERE language != 'go' AND name = ?1 AND kind IN ({callables}) "
            f"AND {in_directory} UNION "
            f"SELECT symbol_id FROM symbols WHERE language = 'go' AND qualified_name = ?1 AND kind IN ({callables}) "
            f"AND {in_directory}",
        lambda key: (key[1], key[0]))
    resolver.top_level = _Memo(  # type: ignore[assignment]
        db, f"SELECT MAX(symbol_id) {_JOINED} WHERE s.path = ? AND s.name = ? AND r.parent_symbol_id IS NULL "
            f"{last_in(REDEFINING)}")
    resolver.children = _Memo(  # type: ignore[assignment]
        db, f"SELECT MAX(symbol_id) {_JOINED} WHERE r.parent_symbol_id = ? AND s.name = ? "
            f"{last_in(REDEFINING_MEMBERS)}")
    resolver.overloads = _Memo(  # type: ignore[assignment]
        db, f"SELECT MIN(symbol_id) {_JOINED} WHERE r.parent_symbol_id = ? AND s.name = ? "
            f"AND s.language IN ({_marks(OVERLOADING)}) AND s.kind = 'method'")
    resolver.containers = _Memo(  # type: ignore[assignment]
        db, f"SELECT symbol_id FROM symbols WHERE language = ? AND name = ? AND kind IN ({containers})")
    resolver.aliases = _Memo(  # type: ignore[assignment]
        db, "SELECT DISTINCT target FROM import_aliases WHERE language = ? AND name = ?")
    resolver.stars = _Listing(  # type: ignore[assignment]
        db, "SELECT DISTINCT target FROM import_aliases WHERE language = ? AND name = ? ORDER BY target")
    resolver.kind = _ById(db, "s.kind")  # type: ignore[assignment]
    resolver.parent = _ById(db, "r.parent_symbol_id")  # type: ignore[assignment]
    resolver.paths = _Paths(db)  # type: ignore[assignment]
    resolver.outside = _Outside(db)  # type: ignore[assignment]
    resolver.type_beside = _Beside(db)  # type: ignore[assignment]
    resolver.class_bases = _Bases(db)  # type: ignore[assignment]
    resolver.attribute_types = _Attributes(db)  # type: ignore[assignment]
    return resolver


# A full run's `Resolver` tables keyed by name: its attribute -> the scratch table and the key's two columns (a row
# is the key and a symbol id).
LOOKUPS = {
    "by_qualified": ("qualified", "language TEXT", "qualified_name TEXT"),
    "top_level": ("top_level", "path TEXT", "name TEXT"),
    "by_name": ("named", "language TEXT", "name TEXT"),
    "children": ("children", "parent INTEGER", "name TEXT"),
    "overloads": ("overloads", "parent INTEGER", "name TEXT"),
    "containers": ("containers", "language TEXT", "name TEXT"),
}


def lookup_tables(db: sqlite3.Connection,
                  files: Iterable[tuple[str, str | None, list[tuple], int, list[tuple[str, str]]]],
                  ) -> dict[str, _Memo | _Listing]:
    """A full run's `Resolver` tables keyed by name (`LOOKUPS`, by attribute, `aliases`, `stars`, `redefined` and
    `first_defined`), written into `db` (a scratch database) from every file's (path, language, `registered` symbols,
    first symbol id, `import_aliases`) and answered by one indexed query a key, as a patch's are. In memory they took
    about 3 KB a file (the largest part of the run's memory that grew with the tree); a memo keeps the answers asked
    again."""
    for table, first_column, second_column in LOOKUPS.values():
        db.execute(f"CREATE TABLE {table}({first_column} NOT NULL, {second_column} NOT NULL, symbol_id INTEGER)")
    db.execute("CREATE TABLE aliases(language TEXT NOT NULL, name TEXT NOT NULL, target TEXT NOT NULL)")
    # A qualified name a file defines more than once: its last and its first definition there, and how many.
    db.execute("CREATE TABLE redefined(language TEXT NOT NULL, qualified_name TEXT NOT NULL, symbol_id INTEGER, "
               "first_id INTEGER, copies INTEGER NOT NULL)")
    for path, language, symbols, first, aliases in files:
        lang = language or ""
        plain = PLAIN_TARGETS.get(lang, CALLABLE_TARGETS)
        db.executemany("INSERT INTO aliases VALUES (?,?,?)", [(lang, name, target) for name, target in aliases])
        rows = list(enumerate(symbols, first))
        if lang in REDEFINING or lang in OUT_OF_CLASS:
            copies = Counter(qualified for _, (_, qualified, _, _) in rows)
            last = {qualified: sid for sid, (_, qualified, _, _) in rows}
            earliest = {qualified: sid for sid, (_, qualified, _, _) in reversed(rows)}
            db.executemany("INSERT INTO redefined VALUES (?,?,?,?,?)",
                           [(lang, qualified, last[qualified], earliest[qualified], n)
                            for qualified, n in copies.items() if n > 1])
        for attribute, found in (
                ("by_qualified", [(lang, qualified, sid) for sid, (_, qualified, _, _) in rows]),
                ("top_level", _last_of_each([(path, name, sid) for sid, (name, _, _, parent) in rows if parent < 0],
                                            rows, lang in REDEFINING)),
                ("children", _last_of_each([(first + parent, name, sid) for sid, (name, _, _, parent) in rows
                                            if parent >= 0], rows, lang in REDEFINING_MEMBERS)),
                ("overloads", [(first + parent, name, sid) for sid, (name, _, kind, parent) in rows
                               if parent >= 0 and lang in OVERLOADING and kind == "method"]),
                ("by_name", _last_of_each([(lang, name, sid) for sid, (name, _, kind, _) in rows if kind in plain],
                                          rows, lang in REDEFINING_ACROSS)),
                ("containers", [(lang, name, sid) for sid, (name, _, kind, _) in rows if kind in CONTAINERS])):
            db.executemany(f"INSERT INTO {LOOKUPS[attribute][0]} VALUES (?,?,?)", found)
    tables: dict[str, _Memo | _Listing] = {}
    for attribute, (table, *columns) in LOOKUPS.items():
        first_key, second_key = (column.split()[0] for column in columns)
        db.execute(f"CREATE INDEX {table}_key ON {table}({first_key}, {second_key})")
        column = "MIN(symbol_id)" if attribute == "overloads" else "symbol_id"  # the first declared: `Resolver._child`
        tables[attribute] = _Memo(db, f"SELECT {column} FROM {table} WHERE {first_key} = ? AND {second_key} = ?")
    db.execute("CREATE INDEX aliases_key ON aliases(language, name)")
    db.execute("CREATE INDEX redefined_key ON redefined(language, qualified_name)")
    # The last of a name's definitions when its one file holds them all (`Resolver.redefined`).
    tables["redefined"] = _Memo(
        db, "SELECT r.symbol_id FROM redefined r WHERE r.language = ?1 AND r.qualified_name = ?2 AND r.copies = "
            "(SELECT COUNT(*) FROM qualified q WHERE q.language = ?1 AND q.qualified_name = ?2)")
    # The first of a name's definitions when its one file holds them all (`Resolver.first_defined`).
    tables["first_defined"] = _Memo(
        db, "SELECT r.first_id FROM redefined r WHERE r.language = ?1 AND r.qualified_name = ?2 AND r.copies = "
            "(SELECT COUNT(*) FROM qualified q WHERE q.language = ?1 AND q.qualified_name = ?2)")
    tables["aliases"] = _Memo(db, "SELECT DISTINCT target FROM aliases WHERE language = ? AND name = ?")
    tables["stars"] = _Listing(db, "SELECT DISTINCT target FROM aliases WHERE language = ? AND name = ? "
                                   "ORDER BY target")
    return tables


def _last_of_each(found: list[tuple[Any, str, int]], rows: list[tuple[int, tuple]], redefining: bool,
                  ) -> list[tuple[Any, str, int]]:
    """`found`'s (key, name, symbol id) rows of one file, but where the file defines a name again under one qualified
    name (`redefining`: a `REDEFINING` language's top level, a `REDEFINING_ACROSS` one's plain names, a
    `REDEFINING_MEMBERS` one's class members): its last definition alone, as `Resolver.enter` keeps it."""
    if not redefining:
        return found
    qualified_of = {sid: symbol[1] for sid, symbol in rows}
    last = {(qualified_of[sid], name): (lang, name, sid) for lang, name, sid in found}
    return sorted(last.values(), key=lambda row: row[2])
