"""`ranking_explain_level`: its precedence, and the per-result reasons the metadata carries."""

from __future__ import annotations

from typing import Any

from reference.config import Config


def resolve_level(requested: str | None, config: Config) -> str:
    """Request argument first, then the config (which already folded in the legacy debug flag)."""
    return requested if requested is not None else config.ranking_explain_level


def ranking_reasons(hits: list[Any], level: str) -> list[dict[str, Any]] | None:
    """Per-result reasons at `level` (None for `off`, so the field is omitted), indexed by emitted position."""
    if level == "off":
        return None
    reasons = []
    for index, hit in enumerate(hits):
        if hit.breakdown is None:
            continue  # the engine explains every hit when asked; a hit without one has nothing to say
        view = hit.breakdown.at(index)
        # Metadata carries flat factors only (numbers): full's nested per-signal detail stays internal.
        # Floats get the results' score precision, so final_score reads as the result's score; whole
        # ones (most factors are 0.0 or 1.0) skip round(), the costliest step of a basic explanation.
        reason = view.basic() if level == "basic" else view.full()
        reasons.append({k: round(v, 6) if type(v) is float and not v.is_integer() else v
                        for k, v in reason.items() if not isinstance(v, dict)})
    return reasons
