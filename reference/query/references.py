"""find_references: resolved reference edges to a symbol, and the count of unresolved ones that match by name."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from cruxgate.reference.index.names import name_key

from .errors import QueryNotFound

# SQLite's largest INTEGER: a larger symbol_id (the input schema sets no maximum) cannot name a row,
# and binding it would raise OverflowError.
_SQLITE_MAX_INTEGER = 2**63 - 1
_SYMBOL_COLUMNS = "symbol_id, symbol_stable_id, name, qualified_name, kind, path, line_start, line_end"
_RESOLVED_SQL = """SELECT e.edge_id, e.from_path, e.line, e.edge_type, e.to_symbol_id, e.to_name,
                          f.symbol_id, f.name, f.qualified_name, f.kind
                   FROM symbol_edges e LEFT JOIN symbols f ON f.symbol_id = e.from_symbol_id
                   WHERE e.to_symbol_id IN ({})
                   ORDER BY e.from_path, e.line, e.edge_id"""
# Seed 000's count: unresolved call and import edges whose target name is the name, bare or qualified.
_UNRESOLVED_SQL = """SELECT COUNT(*) FROM symbol_edges
                     WHERE to_symbol_id IS NULL
                       AND (to_name = ? OR to_name LIKE ? ESCAPE '\\' OR to_name LIKE ? ESCAPE '\\')"""
# The same count through the index of unresolved names by their last part (indices built since it exists);
# flat in the tree's size, where the scan above grows with it.
_UNRESOLVED_BY_KEY_SQL = """SELECT COALESCE(SUM(edges), 0) FROM unresolved_names
                             WHERE name_key = ?
                               AND (to_name = ? OR to_name LIKE ? ESCAPE '\\' OR to_name LIKE ? ESCAPE '\\')"""


@dataclass(slots=True)
class References:
    """Resolved references (ordered by path, line), their total, and the unresolved count (0 when none)."""

    targets: list[dict[str, Any]]
    references: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0
    unresolved_count: int = 0


def _has_unresolved_names(db: sqlite3.Connection) -> bool:
    """Whether the index has the unresolved_names table (an index written before it counts by a scan)."""
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'unresolved_names'"
                      ).fetchone() is not None


def _like_suffix(separator: str, name: str) -> str:
    escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{separator}{escaped}"


def _targets(db: sqlite3.Connection, target: int | str) -> tuple[list[tuple], str]:
    """The symbols `target` names (by symbol_id, symbol_stable_id or name) and the name to count by."""
    if isinstance(target, int):
        rows = [] if target > _SQLITE_MAX_INTEGER else db.execute(
            f"SELECT {_SYMBOL_COLUMNS} FROM symbols WHERE symbol_id = ?", (target,)).fetchall()
        if not rows:
            raise QueryNotFound("symbol_not_found", f"no symbol with symbol_id {target}")
        return rows, rows[0][2]
    text = target.strip()
    rows = db.execute(f"SELECT {_SYMBOL_COLUMNS} FROM symbols WHERE symbol_stable_id = ?", (text,)).fetchall()
    if rows:
        return rows, rows[0][2]
    rows = db.execute(f"SELECT {_SYMBOL_COLUMNS} FROM symbols WHERE name = ? ORDER BY path, line_start", (text,)
                      ).fetchall()
    return rows, text


def find_references(db: sqlite3.Connection, target: int | str, limit: int) -> References:
    """References to `target`, at most `limit` listed; QueryNotFound when no symbol and no unresolved edge matches."""
    rows, name = _targets(db, target)
    patterns = (name, _like_suffix(".", name), _like_suffix("::", name))
    if _has_unresolved_names(db):
        unresolved = db.execute(_UNRESOLVED_BY_KEY_SQL, (name_key(name), *patterns)).fetchone()[0]
    else:
        unresolved = db.execute(_UNRESOLVED_SQL, patterns).fetchone()[0]
    if not rows and not unresolved:
        raise QueryNotFound("symbol_not_found", f"no symbol named {name!r} and no reference to it")
    ids = [r[0] for r in rows]
    refs: list[dict[str, Any]] = []
    total = 0
    if ids:
        for e in db.execute(_RESOLVED_SQL.format(",".join("?" * len(ids))), ids):
            total += 1
            if len(refs) < limit:
                refs.append({"path": e[1], "line": e[2], "edge_type": e[3], "to_symbol_id": e[4], "to_name": e[5],
                             "from_symbol": None if e[6] is None else
                             {"symbol_id": e[6], "name": e[7], "qualified_name": e[8], "kind": e[9]}})
    targets = [dict(zip(("symbol_id", "symbol_stable_id", "name", "qualified_name", "kind", "path", "line_start",
                         "line_end"), r, strict=True)) for r in rows]
    return References(targets=targets, references=refs, total=total, unresolved_count=unresolved)
