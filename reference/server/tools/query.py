"""search_code and locate_symbol: ranked, deduplicated hits -> detail_level/compact -> explain -> safety limit."""

from __future__ import annotations

from typing import Any

from cruxgate.reference.protocol.explain import ranking_reasons, resolve_level
from cruxgate.reference.protocol.metadata import add_optional
from cruxgate.reference.protocol.params import LocateSymbolParams, SearchCodeParams
from cruxgate.reference.protocol.shaping import shape_hit

from ..runtime import Runtime


def _respond(rt: Runtime, tool: str, params: SearchCodeParams | LocateSymbolParams, run: Any) -> dict[str, Any]:
    """Shared pipeline of the two ranked query tools."""
    snap, engine, freshness = rt.for_query(params.freshness_policy)
    level = resolve_level(params.ranking_explain_level, rt.config)
    result = run(engine, level == "full")  # basic reads the hits' signals; only full needs a Breakdown
    hits = list(result.hits)
    detail = params.detail_level or rt.config.default_detail_level
    results = [shape_hit(hit, detail, params.compact) for hit in hits]
    if hits:  # the page's files read for its fields (body previews), and whether they still match the index
        freshness = rt.files_changed(freshness, params.freshness_policy or rt.config.freshness_policy,
                                     hits[0].details.changed)
    meta = rt.metadata(snap, freshness=freshness)
    if tool == "search_code":  # the engine's channel reports every semantic field (mode off included)
        meta.update(result.semantic)
    add_optional(meta, suppressed_duplicate_count=result.suppressed_duplicate_count,
                 ranking_reasons=ranking_reasons(hits, level))
    payload = {"results": results, "total_results": len(results), "metadata": meta}
    return payload


def search_code(rt: Runtime, params: SearchCodeParams) -> dict[str, Any]:
    """Ranked symbols, snippets and files for a query."""
    return _respond(rt, "search_code", params, lambda engine, explain: engine.search_code(
        params.query, limit=params.limit, language=params.language, role=params.role, explain=explain,
        semantic=True))


def locate_symbol(rt: Runtime, params: LocateSymbolParams) -> dict[str, Any]:
    """Ranked symbol definitions for a name (kind and role intersect)."""
    return _respond(rt, "locate_symbol", params, lambda engine, explain: engine.locate_symbol(
        params.text, limit=params.limit, language=params.language, kind=params.kind, role=params.role,
        explain=explain))
