"""get_file_outline and find_references: SQLite-only structure tools."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from cruxgate.reference.index.state import LIVE_REF
from cruxgate.reference.protocol.encoding import to_json_bytes
from cruxgate.reference.protocol.errors import ToolError, invalid_input, quoted
from cruxgate.reference.protocol.params import FindReferencesParams, GetFileOutlineParams
from cruxgate.reference.protocol.shaping import without_nulls
from cruxgate.reference.query.engine import OUTLINES_KEPT
from cruxgate.reference.query.errors import QueryInputError, QueryNotFound
from cruxgate.reference.query.outline import Outline

from ..paths import workspace_path
from ..runtime import Runtime


def _query_errors(tool: str, exc: Exception) -> ToolError:
    """The engine's errors as registry errors."""
    if isinstance(exc, QueryInputError):
        return invalid_input(exc.field, f"{tool}: {exc.message}")
    assert isinstance(exc, QueryNotFound)
    return ToolError(exc.code, exc.message)


# An outline maps a file for navigation: a node's qualified name is its parents' names joined, and its
# follow-up handle is symbol_id (what find_references takes); the stable id is a search result's, at context.
# Leaving both out takes a third off the 200-symbol outline, which the SDK validates, copies and encodes
# on the way out and the client parses twice on the way in (SC-103).
OUTLINE_OMITS = frozenset(("qualified_name", "symbol_stable_id", "children"))


def wire_nodes(nodes: list[dict[str, Any]], language: str | None) -> list[dict[str, Any]]:
    """Outline nodes as sent: no qualified name or stable id, `language` only where it is not the file's,
    `children` only when not empty (both implied)."""
    out = []
    for node in nodes:
        wire = {key: value for key, value in node.items()
                if key not in OUTLINE_OMITS and (key != "language" or value != language)}
        if node.get("children"):
            wire["children"] = wire_nodes(node["children"], language)
        out.append(wire)
    return out


class WireOutlines:
    """The wire nodes and their JSON for the last outlines the engine answered (an outline never changes).

    Keyed by the engine's Outline object, which the entry holds, so an id is never reused while kept;
    the engine's own cache hands back the same object for a repeated request.
    """

    def __init__(self, size: int = OUTLINES_KEPT) -> None:
        """Keep at most `size` outlines."""
        self._size = size
        self._lock = threading.Lock()
        self._by_outline: OrderedDict[int, tuple[Outline, list[dict[str, Any]], bytes]] = OrderedDict()
        self._by_nodes: dict[int, bytes] = {}  # id(wire node list) -> its JSON

    def nodes(self, outline: Outline) -> list[dict[str, Any]]:
        """The outline's wire nodes (built and encoded on first use)."""
        with self._lock:
            entry = self._by_outline.get(id(outline))
            if entry is not None:
                self._by_outline.move_to_end(id(outline))
                return entry[1]
        nodes = wire_nodes(outline.symbols, outline.language)
        encoded = to_json_bytes(nodes)
        with self._lock:
            self._by_outline[id(outline)] = (outline, nodes, encoded)
            self._by_nodes[id(nodes)] = encoded
            while len(self._by_outline) > self._size:
                _, (_, old, _) = self._by_outline.popitem(last=False)
                del self._by_nodes[id(old)]
        return nodes

    def encoded(self, nodes: Any) -> bytes | None:
        """The JSON of a node list this cache handed out, None for any other."""
        with self._lock:
            return self._by_nodes.get(id(nodes))


WIRE_OUTLINES = WireOutlines()  # as many as the engine keeps: its cache hands back the same Outline objects


def encode_outline(payload: dict[str, Any]) -> bytes:
    """The outline payload's JSON, its `symbols` (last) spliced in from the kept encoding when there is one."""
    symbols = WIRE_OUTLINES.encoded(payload.get("symbols"))
    if symbols is None or next(reversed(payload)) != "symbols":
        return to_json_bytes(payload)
    head = to_json_bytes({key: value for key, value in payload.items() if key != "symbols"})
    return head[:-1] + b',"symbols":' + symbols + b"}"


def get_file_outline(rt: Runtime, params: GetFileOutlineParams) -> dict[str, Any]:
    """The file's symbol tree (empty `symbols` with file metadata when the file has no grammar)."""
    relative, _ = workspace_path(rt.workspace, params.path)  # bad paths fail before any index access
    snap, engine, freshness = rt.for_query(params.freshness_policy)
    ref = params.ref
    if ref is not None and ref not in (LIVE_REF, snap.ref):
        raise ToolError("ref_not_indexed", f"ref {quoted(ref)} is not indexed (indexed: {snap.ref!r})",
                        {"indexed_refs": [snap.ref], "remediation": "omit ref or pass the indexed one"})
    try:
        outline = engine.file_outline(relative, depth=params.depth, language=params.language)
    except (QueryInputError, QueryNotFound) as exc:
        raise _query_errors("get_file_outline", exc) from None
    payload = {
        "path": outline.path,
        **({"language": outline.language} if outline.language is not None else {}),  # no grammar: omitted
        "line_count": outline.line_count,
        "depth": outline.depth,
        "symbol_count": outline.count(),
        "metadata": rt.metadata(snap, freshness=freshness),
        "symbols": WIRE_OUTLINES.nodes(outline),  # last: encode_outline splices its kept JSON in
    }
    return payload


def find_references(rt: Runtime, params: FindReferencesParams) -> dict[str, Any]:
    """Resolved references and `unresolved_count` (always present, 0 when none)."""
    snap, engine, freshness = rt.for_query(params.freshness_policy)
    name_field = {"name": params.name} if params.name is not None else {}
    try:
        refs = engine.find_references(params.target, limit=params.limit)
    except QueryNotFound as exc:
        raise _query_errors("find_references", exc) from None
    payload = {
        "targets": without_nulls(refs.targets),
        "references": without_nulls(refs.references),
        "total_results": refs.total,
        "unresolved_count": refs.unresolved_count,
        **name_field,
        "metadata": rt.metadata(snap, freshness=freshness),
    }
    return payload
