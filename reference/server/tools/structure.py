"""get_file_outline and find_references: SQLite-only structure tools."""

from __future__ import annotations

from typing import Any

from reference.protocol.errors import ToolError, invalid_input
from reference.protocol.shaping import without_nulls
from reference.query.errors import QueryInputError, QueryNotFound

from ..paths import workspace_path
from ..runtime import Runtime


def _query_errors(tool: str, exc: Exception) -> ToolError:
    """The engine's errors as registry errors."""
    if isinstance(exc, QueryInputError):
        return invalid_input(exc.field, f"{tool}: {exc.message}")
    assert isinstance(exc, QueryNotFound)
    return ToolError(exc.code, exc.message)


def get_file_outline(rt: Runtime, args: dict[str, Any]) -> dict[str, Any]:
    """The file's symbol tree (empty `symbols` with file metadata when the file has no grammar)."""
    relative, _ = workspace_path(rt.workspace, args["path"])  # bad paths fail before any index access
    snap, engine, freshness = rt.for_query(args.get("freshness_policy"))
    ref = args.get("ref")
    if ref is not None and ref not in ("live", snap.ref):
        raise ToolError("ref_not_indexed", f"ref {ref!r} is not indexed (indexed: {snap.ref!r})",
                        {"indexed_refs": [snap.ref], "remediation": "omit ref or pass the indexed one"})
    try:
        outline = engine.file_outline(relative, depth=args.get("depth", "all"), language=args.get("language"))
    except (QueryInputError, QueryNotFound) as exc:
        raise _query_errors("get_file_outline", exc) from None
    payload = {
        "path": outline.path,
        **({"language": outline.language} if outline.language is not None else {}),  # no grammar: omitted
        "line_count": outline.line_count,
        "depth": outline.depth,
        "symbol_count": outline.count(),
        "symbols": outline.symbols,  # the engine's nodes never hold None (reference.query.outline)
        "metadata": rt.metadata(snap, freshness=freshness),
    }
    return payload


def find_references(rt: Runtime, args: dict[str, Any]) -> dict[str, Any]:
    """Resolved references and `unresolved_count` (always present, 0 when none)."""
    snap, engine, freshness = rt.for_query(args.get("freshness_policy"))
    target = args.get("symbol_id", args.get("name"))
    name_field = {"name": args["name"]} if "name" in args else {}
    try:
        refs = engine.find_references(target, limit=args.get("limit", 50))
    except (QueryInputError, QueryNotFound) as exc:
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
