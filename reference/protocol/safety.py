"""Payload safety limit: over the byte budget keep a deterministic prefix, mark it truncated, never fail."""

from __future__ import annotations

from typing import Any

from .encoding import encoded_size


def _actions(tool: str, list_key: str, kept: int, total: int, has_reasons: bool) -> list[str]:
    """Deterministic follow-up guidance for a truncated response (same input, same strings)."""
    actions = [f"Only the first {kept} of {total} {list_key} fit the response size limit; "
               f"call {tool} again with limit={max(kept, 1)} or a narrower query."]
    if tool in ("search_code", "locate_symbol"):
        actions.append('Ask for smaller results with compact=true or detail_level="location".')
    if has_reasons:
        actions.append('Set ranking_explain_level="off" to drop ranking_reasons from the response.')
    if tool == "get_file_outline":
        actions.append('Use depth="top" for the top-level symbols only.')
    return actions


def _with_prefix(payload: dict[str, Any], list_key: str, items: list[Any], reasons: list[Any] | None,
                 count: int, actions: list[str]) -> dict[str, Any]:
    """The payload with the first `count` items (and their ranking reasons) and the truncation marks."""
    out = dict(payload)
    out[list_key] = items[:count]
    metadata = dict(payload["metadata"])
    metadata["result_completeness"] = "truncated"
    metadata["safety_limit_applied"] = True
    if reasons is not None:
        metadata["ranking_reasons"] = reasons[:count]
    out["metadata"] = metadata
    out["suggested_next_actions"] = actions
    return out


def apply_safety_limit(payload: dict[str, Any], list_key: str, max_bytes: int, tool: str) -> dict[str, Any]:
    """`payload` unchanged when it fits (or is already truncated upstream), else its largest fitting prefix."""
    metadata = payload.get("metadata", {})
    if metadata.get("result_completeness") == "truncated":
        return payload  # bounded upstream already: never truncate twice
    if encoded_size(payload) <= max_bytes:
        return payload
    items = list(payload.get(list_key) or [])
    reasons = metadata.get("ranking_reasons")
    total = len(items)
    # Actions depend on the kept count, which depends on their size: measure with the longest
    # wording (kept = total) so the chosen prefix always fits once the real count is filled in.
    worst = _actions(tool, list_key, total, total, reasons is not None)
    low, high = 0, total  # largest count whose payload fits, by bisection (size grows with count)
    while low < high:
        mid = (low + high + 1) // 2
        if encoded_size(_with_prefix(payload, list_key, items, reasons, mid, worst)) <= max_bytes:
            low = mid
        else:
            high = mid - 1
    actions = _actions(tool, list_key, low, total, reasons is not None)
    out = _with_prefix(payload, list_key, items, reasons, low, actions)
    if list_key in out and "total_results" in out:
        out["total_results"] = low
    return out
