"""`search` and `search_preview` (seed 002): the scored-search payload plus metadata."""

from __future__ import annotations

import threading
import weakref
from typing import Any

from cruxgate.reference.protocol.params import SearchPreviewParams
from cruxgate.reference.query.scored.facts import FactsStore
from cruxgate.reference.query.scored.search import Kept, ScoredSearch, ScoredSearchParams

from ..runtime import Runtime

# What scored search keeps across calls, per open index (engine). Weak keys: when a new
# generation replaces the engine, what was kept for the old one goes with it.
_kept: weakref.WeakKeyDictionary[Any, Kept] = weakref.WeakKeyDictionary()
_kept_lock = threading.Lock()


def _scored_search(rt: Runtime, engine: Any) -> ScoredSearch:
    with _kept_lock:
        kept = _kept.get(engine)
        if kept is None:
            kept = _kept[engine] = Kept(FactsStore(engine.db), engine.files)  # the engine's files: one cache
    return ScoredSearch(engine, engine.db, rt.workspace, kept=kept)


def search(rt: Runtime, params: ScoredSearchParams) -> dict[str, Any]:
    """Plain search, with scores / reasons / previews / context as the flags ask."""
    snap, engine, freshness = rt.for_query(None)
    scored = _scored_search(rt, engine)
    payload = scored.run(params, budget=rt.config.max_response_bytes)
    freshness = rt.files_changed(freshness, rt.config.freshness_policy, scored.changed)
    payload["metadata"] = rt.metadata(snap, freshness=freshness)
    return payload


def search_preview(rt: Runtime, params: SearchPreviewParams) -> dict[str, Any]:
    """`search` with include_scores, preview_mode and include_context on (its own limit and min_score defaults)."""
    return search(rt, params.as_search())
