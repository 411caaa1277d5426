"""Near-duplicate suppression (FR-105b): one representative per symbol / file-region identity."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def identity_keys(hit: Any) -> tuple[tuple, ...]:
    """The identities a hit claims: its symbol (stable id) and its file region (path, lines)."""
    region = ("region", hit.path, hit.line_start, hit.line_end)
    if hit.symbol_stable_id:
        return (("symbol", hit.symbol_stable_id), region)
    return (region,)


def top_k_unique(ranked: Iterable[Any], limit: int) -> tuple[list[Any], int]:
    """The first `limit` hits of `ranked` whose identities are unseen, and how many duplicates were skipped.

    Duplicates are counted only while the top-k is being filled: the count is what the
    caller would otherwise have received, not what lay beyond the page.
    """
    seen: set[tuple] = set()
    kept: list[Any] = []
    suppressed = 0
    for hit in ranked:
        if len(kept) >= limit:
            break
        keys = identity_keys(hit)
        if any(key in seen for key in keys):
            suppressed += 1
            continue
        seen.update(keys)
        kept.append(hit)
    return kept, suppressed
