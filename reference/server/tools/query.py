"""search_code and locate_symbol: ranked, deduplicated engine hits -> detail_level/compact -> explain -> safety limit."""

from __future__ import annotations

from typing import Any

from reference.protocol.errors import invalid_input
from reference.protocol.explain import ranking_reasons, resolve_level
from reference.protocol.metadata import add_optional
from reference.protocol.shaping import shape_hit
from reference.query.errors import QueryInputError

from ..runtime import Runtime


def _respond(rt: Runtime, tool: str, args: dict[str, Any], run: Any) -> dict[str, Any]:
    """Shared pipeline of the two ranked query tools."""
    snap, engine, freshness = rt.for_query(args.get("freshness_policy"))
    level = resolve_level(args.get("ranking_explain_level"), rt.config)
    try:
        result = run(engine, level == "full")  # basic reads the hits' signals; only full needs a Breakdown
    except QueryInputError as exc:
        raise invalid_input(exc.field, f"{tool}: {exc}") from None
    hits = list(result.hits)
    detail = args.get("detail_level") or rt.config.default_detail_level
    compact = bool(args.get("compact", False))
    results = [shape_hit(hit, detail, compact) for hit in hits]
    meta = rt.metadata(snap, freshness=freshness)
    if tool == "search_code":  # the engine's channel reports every semantic field (mode off included)
        meta.update(result.semantic)
    add_optional(meta, suppressed_duplicate_count=result.suppressed_duplicate_count,
                 ranking_reasons=ranking_reasons(hits, level))
    payload = {"results": results, "total_results": len(results), "metadata": meta}
    return payload


def search_code(rt: Runtime, args: dict[str, Any]) -> dict[str, Any]:
    """Ranked symbols, snippets and files for a query."""
    return _respond(rt, "search_code", args, lambda engine, explain: engine.search_code(
        args["query"], limit=args.get("limit", 10), language=args.get("language"), role=args.get("role"),
        explain=explain, semantic=True))


def locate_symbol(rt: Runtime, args: dict[str, Any]) -> dict[str, Any]:
    """Ranked symbol definitions for a name (kind and role intersect)."""
    name = args.get("name", args.get("query"))
    return _respond(rt, "locate_symbol", args, lambda engine, explain: engine.locate_symbol(
        name, limit=args.get("limit", 10), language=args.get("language"), kind=args.get("kind"),
        role=args.get("role"), explain=explain))
