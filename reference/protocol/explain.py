"""`ranking_explain_level`: precedence and the `basic` / `full` views of a hit's score breakdown."""

from __future__ import annotations

from typing import Any

from reference.config import Config

# Full view: every signal of the ranking formula (seed 000), by name.
FULL_FIELDS = ("exact_match_boost", "qualified_name_boost", "path_affinity", "definition_boost",
               "kind_match", "bm25_score", "final_score")
FULL_EXTRA = ("kind_weight", "query_intent_boost", "test_file_penalty")

# Maximum of each boolean-like boost, so that `basic` can report it normalized to 0..1.
_MAX_BOOST = {"exact_match_boost": 5.0, "path_affinity": 1.0, "definition_boost": 1.0}


def resolve_level(requested: str | None, config: Config) -> str:
    """Request argument first, then the config (which already folded in the legacy debug flag)."""
    return requested if requested is not None else config.ranking_explain_level


def _signal(breakdown: Any, name: str) -> float:
    """One signal of a breakdown (object or mapping) as a float, 0.0 when absent."""
    value = breakdown.get(name) if isinstance(breakdown, dict) else getattr(breakdown, name, None)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _kind_match(breakdown: Any) -> float:
    """`kind_match` is kind_weight + query_intent_boost unless the breakdown states it."""
    stated = breakdown.get("kind_match") if isinstance(breakdown, dict) else getattr(breakdown, "kind_match", None)
    if isinstance(stated, (int, float)):
        return float(stated)
    return _signal(breakdown, "kind_weight") + _signal(breakdown, "query_intent_boost")


def _normalized(breakdown: Any, name: str) -> float:
    """A boost divided by its maximum, clamped to 0..1."""
    return round(min(max(_signal(breakdown, name) / _MAX_BOOST[name], 0.0), 1.0), 4)


def basic_view(index: int, breakdown: Any, final_score: float) -> dict[str, Any]:
    """Compact normalized factors (seed 004's `basic` names)."""
    return {
        "result_index": index,
        "exact_match": _normalized(breakdown, "exact_match_boost"),
        "path_boost": _normalized(breakdown, "path_affinity"),
        "definition_boost": _normalized(breakdown, "definition_boost"),
        "semantic_similarity": 0.0,  # no semantic channel in the reference
        "final_score": round(final_score, 4),
    }


def full_view(index: int, breakdown: Any, final_score: float) -> dict[str, Any]:
    """Every signal of the formula, so that final_score = bm25_score + the sum of boosts."""
    view: dict[str, Any] = {"result_index": index}
    for name in FULL_FIELDS:
        if name == "kind_match":
            view[name] = round(_kind_match(breakdown), 4)
        elif name == "final_score":
            view[name] = round(final_score, 4)
        else:
            view[name] = round(_signal(breakdown, name), 4)
    for name in FULL_EXTRA:
        view[name] = round(_signal(breakdown, name), 4)
    return view


def ranking_reasons(hits: list[Any], level: str) -> list[dict[str, Any]] | None:
    """Per-result reasons for `level` (None for `off`, so the field is omitted)."""
    if level == "off":
        return None
    view = basic_view if level == "basic" else full_view
    reasons = []
    for index, hit in enumerate(hits):
        breakdown = getattr(hit, "breakdown", None) or {}
        reasons.append(view(index, breakdown, float(getattr(hit, "score", 0.0) or 0.0)))
    return reasons
