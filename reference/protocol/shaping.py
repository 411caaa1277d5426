"""Serialization of ranked hits: detail_level and compact (never re-ranks; dedup is the engine's, FR-105b)."""

from __future__ import annotations

from typing import Any

from cruxgate.reference.config import DETAIL_LEVELS

# FR-102..FR-104: the fields each level adds to the one before. location is FR-102's five fields and
# nothing else (about 50 tokens a result; SC-101). From signature on a result carries its identity,
# `result_id` (for a symbol `symbol:<symbol_id>`, the handle find_references takes), and its score;
# context adds the full symbol handles beside the body, parent and related symbols.
LEVEL_FIELDS: dict[str, tuple[str, ...]] = {
    "location": ("path", "line_start", "line_end", "kind", "name"),
    "signature": ("result_id", "qualified_name", "signature", "language", "visibility"),
    "context": ("result_type", "symbol_id", "symbol_stable_id", "body_preview", "parent", "related_symbols"),
}
# compact keeps identity, location and score (000: "`compact` MUST preserve identity/location/score
# fields"; "stable identifiers MUST match non-compact output") and drops every other field: SC-102a asks
# for <= 20% of the non-compact bytes. At location there is nothing heavy to drop: FR-102's five fields stay.
COMPACT_KEEPS = frozenset(("result_id", "result_type", "symbol_id", "symbol_stable_id", "kind", "name",
                           "path", "line_start", "line_end"))


def without_nulls(value: Any) -> Any:
    """`value` with every None member removed, recursively: absent means omitted, never null."""
    # Recurse only into containers: one call per dict/list, not per scalar (outlines have hundreds of nodes).
    if isinstance(value, dict):
        return {k: without_nulls(v) if isinstance(v, (dict, list)) else v
                for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) if isinstance(v, (dict, list)) else v for v in value if v is not None]
    return value


def fields_for(detail_level: str) -> tuple[str, ...]:
    """Every descriptive field a level includes, in output order."""
    names: list[str] = []
    for level in DETAIL_LEVELS:  # each level adds to the ones before it
        names.extend(LEVEL_FIELDS[level])
        if level == detail_level:
            break
    return tuple(names)


def _value(hit: Any, name: str) -> Any:
    """A hit attribute; `body_preview` falls back to the snippet text for snippet/file hits."""
    value = getattr(hit, name, None)
    if name == "body_preview" and not value:
        value = getattr(hit, "snippet", None)
    return value


def shape_hit(hit: Any, detail_level: str, compact: bool) -> dict[str, Any]:
    """One result at `detail_level`; None and empty values are omitted, not null."""
    out: dict[str, Any] = {}
    compact = compact and detail_level != "location"
    for name in fields_for(detail_level):
        if compact and name not in COMPACT_KEEPS:
            continue
        value = _value(hit, name)
        if value is None or value == [] or value == {}:
            continue
        out[name] = without_nulls(value)
    score = getattr(hit, "score", None)
    if score is not None and detail_level != "location":
        out["score"] = round(float(score), 6)
    return out
