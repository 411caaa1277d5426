"""`ranking_explain_level`: its precedence, and the per-result reasons the metadata carries."""

from __future__ import annotations

from typing import Any

from cruxgate.reference.config import Config
from cruxgate.reference.query.ranking import basic_view, clamp_all, signal_values


def resolve_level(requested: str | None, config: Config) -> str:
    """Request argument first, then the config (which already folded in the legacy debug flag)."""
    return requested if requested is not None else config.ranking_explain_level


def ranking_reasons(hits: list[Any], level: str) -> list[dict[str, Any]] | None:
    """Per-result reasons at `level` (None for `off`, so the field is omitted), indexed by emitted position.

    `basic` is read off each hit's ranking signals (`basic_view`): building a Breakdown per hit first cost
    as much again. `full` renders the Breakdown the engine attached (asked for with explain=True).
    """
    if level == "off":
        return None
    if level == "basic":
        views = [basic_view(clamp_all(signal_values(hit.signals)), hit.bm25_score, hit.semantic_similarity, index,
                            hit.semantic_score)
                 for index, hit in enumerate(hits)]
    else:
        # A hit without a breakdown (none was asked for) has nothing to say at `full`.
        views = [hit.breakdown.at(index).full() for index, hit in enumerate(hits) if hit.breakdown is not None]
    # Metadata carries flat factors only (numbers): full's nested per-signal detail stays internal.
    # Floats get the results' score precision, so final_score reads as the result's score; whole
    # ones (most factors are 0.0 or 1.0) skip round(), the costliest step of a basic explanation.
    return [{k: round(v, 6) if type(v) is float and not v.is_integer() else v
             for k, v in view.items() if not isinstance(v, dict)} for view in views]
