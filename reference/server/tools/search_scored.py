"""`search` and `search_preview` (seed 002): the scored-search payload plus metadata and the error envelope."""

from __future__ import annotations

import threading
import weakref
from typing import Any

from reference.protocol.errors import invalid_input
from reference.query.errors import QueryInputError
from reference.query.scored.search import Kept, ScoredSearch, ScoredSearchInputError, ScoredSearchParams, preview_params

from ..runtime import Runtime

# What scored search keeps across calls, per open index (engine). Weak keys: when a new
# generation replaces the engine, what was kept for the old one goes with it.
_kept: weakref.WeakKeyDictionary[Any, Kept] = weakref.WeakKeyDictionary()
_kept_lock = threading.Lock()


def _scored_search(rt: Runtime, engine: Any) -> ScoredSearch:
    with _kept_lock:
        kept = _kept.get(engine)
        if kept is None:
            kept = _kept[engine] = Kept.open(engine.db, rt.workspace)
    return ScoredSearch(engine, engine.db, rt.workspace, kept=kept)


def _run(rt: Runtime, tool: str, params_of: Any, args: dict[str, Any]) -> dict[str, Any]:
    try:
        params = params_of(args)
    except ScoredSearchInputError as exc:
        raise invalid_input(exc.field, f"{tool}: {exc}") from None
    snap, engine, freshness = rt.for_query(None)
    try:
        payload = _scored_search(rt, engine).run(params)
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
