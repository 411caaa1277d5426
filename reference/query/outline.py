"""get_file_outline (FR-106..FR-109): a file's symbols as a nested tree from `symbol_relations`."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from cruxgate.reference.index.languages import canonical_language

from .errors import QueryNotFound
from .workspace_paths import relative_path

_SYMBOLS_SQL = """SELECT s.symbol_id, s.symbol_stable_id, s.name, s.qualified_name, s.kind, s.line_start,
                         s.line_end, s.signature, s.visibility, s.language, r.parent_symbol_id
                  FROM symbols s LEFT JOIN symbol_relations r ON r.symbol_id = s.symbol_id
                  WHERE s.file_id = ?{language}
                  ORDER BY s.line_start, s.line_end DESC, s.symbol_id"""


# Nullable columns of a node: omitted when NULL, so nodes never carry a null (no walk to strip them later).
_NULLABLE = ("signature", "visibility")


@dataclass(slots=True)
class Outline:
    """A file's symbol tree: top-level nodes, each with `children` at depth `all`; no member is ever None."""

    path: str
    language: str | None
    line_count: int | None
    depth: str
    symbols: list[dict[str, Any]] = field(default_factory=list)
    size: int = 0  # nodes in the tree at every level, counted while it is built

    def count(self) -> int:
        """Number of symbols in the tree, at every level."""
        return self.size


def file_outline(db: sqlite3.Connection, path: str, depth: str, language: str | None = None) -> Outline:
    """The outline of indexed file `path`; `depth` "top" keeps only symbols without a parent, "all" nests them all."""
    rel = relative_path(path)
    row = db.execute("SELECT file_id, language, line_count FROM files WHERE path = ?", (rel,)).fetchone()
    if row is None:
        raise QueryNotFound("file_not_found", f"{rel} is not in the index")
    file_id, file_language, line_count = row
    language = canonical_language(language)
    params: tuple = (file_id,) if language is None else (file_id, language)
    sql = _SYMBOLS_SQL.format(language="" if language is None else " AND s.language = ?")
    nodes: dict[int, dict[str, Any]] = {}
    parents: list[tuple[dict[str, Any], int | None]] = []
    for r in db.execute(sql, params):
        node = {"symbol_id": r[0], "symbol_stable_id": r[1], "name": r[2], "qualified_name": r[3], "kind": r[4],
                "line_start": r[5], "line_end": r[6], "signature": r[7], "visibility": r[8], "language": r[9]}
        if r[7] is None or r[8] is None:
            for name in _NULLABLE:
                if node[name] is None:
                    del node[name]
        if depth == "all":
            node["children"] = []
        nodes[r[0]] = node
        parents.append((node, r[10]))
    top: list[dict[str, Any]] = []
    for node, parent_id in parents:
        if parent_id is None:
            top.append(node)
        elif depth == "all":
            # A parent filtered out (another language) or missing leaves the node at top level.
            nodes[parent_id]["children"].append(node) if parent_id in nodes else top.append(node)
    # Depth all places every row in the tree; depth top keeps the parentless ones only.
    size = len(parents) if depth == "all" else len(top)
    return Outline(path=rel, language=language or file_language, line_count=line_count, depth=depth,
                   symbols=top, size=size)
