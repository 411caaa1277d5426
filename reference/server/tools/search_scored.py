"""`search` and `search_preview` (seed 002): the scored-search payload plus metadata and the error envelope."""

from __future__ import annotations

from typing import Any

from reference.protocol.errors import invalid_input
from reference.query.errors import QueryInputError
from reference.query.scored import ScoredSearch, ScoredSearchInputError, ScoredSearchParams, preview_params

from ..runtime import Runtime


def _run(rt: Runtime, tool: str, params_of: Any, args: dict[str, Any]) -> dict[str, Any]:
    try:
        params = params_of(args)
    except ScoredSearchInputError as exc:
        raise invalid_input(exc.field, f"{tool}: {exc}") from None
    snap, engine, freshness = rt.for_query(None)
    try:
        payload = ScoredSearch(engine, engine.db, rt.workspace).run(params)
    except QueryInputError as exc:
        raise invalid_input(exc.field, f"{tool}: {exc.message}") from None
    payload["metadata"] = rt.metadata(snap, freshness=freshness)
    return payload


def search(rt: Runtime, args: dict[str, Any]) -> dict[str, Any]:
    """Plain search, with scores / reasons / previews / context as the flags ask."""
    return _run(rt, "search", ScoredSearchParams.from_args, args)


def search_preview(rt: Runtime, args: dict[str, Any]) -> dict[str, Any]:
    """`search` with include_scores, preview_mode and include_context on; limit 20, min_score 0.5."""
    return _run(rt, "search_preview", preview_params, args)
