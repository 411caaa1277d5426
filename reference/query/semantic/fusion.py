"""Fusion of semantic candidates with lexical hits, in the seed's additive ranking.

A hit's score is `bm25_score + semantic_score + total_boost`. `semantic_score` is the similarity in BM25
units: similarity x the best lexical symbol BM25 of the query x ratio / (1 - ratio), so the order is
that of `(1 - ratio) x bm25 / best_bm25 + ratio x similarity` before the boosts, which keep their seed
weights. A lexical hit the channel also found gains its semantic_score; a semantic-only candidate
becomes a symbol hit (bm25 0) with the seed's signals computed on its enriched kind, name and path.
"""

from __future__ import annotations

from cruxgate.reference.query.hits import Hit
from cruxgate.reference.query.ranking import QueryFeatures, raw_signals

from .candidates import SemanticCandidate

# The scale when no lexical symbol matched at all: about the best BM25 of a two-term hit on a small tree.
DEFAULT_SCALE = 10.0


def semantic_weight(ratio: float, lexical: list[Hit]) -> float:
    """BM25 points that a similarity of 1.0 is worth for this query."""
    scale = max((h.bm25_score for h in lexical if h.result_type == "symbol"), default=0.0) or DEFAULT_SCALE
    return scale * ratio / (1.0 - ratio)


def fuse(q: QueryFeatures, lexical: list[Hit], candidates: list[SemanticCandidate], ratio: float) -> list[Hit]:
    """Lexical hits (semantic_score added where the channel agrees) plus one hit per semantic-only candidate."""
    weight = semantic_weight(ratio, lexical)
    by_id = {c.symbol_stable_id: c for c in candidates}
    for hit in lexical:
        stable_id = hit.symbol_stable_id if hit.result_type == "symbol" else None
        found = by_id.pop(stable_id, None) if stable_id is not None else None
        if found is not None:
            hit.semantic_similarity = found.similarity
            hit.semantic_score = weight * found.similarity
            hit.score += hit.semantic_score
    return lexical + [semantic_hit(q, c, weight) for c in candidates if c.symbol_stable_id in by_id]


def semantic_hit(q: QueryFeatures, c: SemanticCandidate, weight: float) -> Hit:
    """A semantic-only candidate as a ranked symbol hit (enriched first: its kind drives kind and intent)."""
    path = c.path or ""
    start = c.line_start or 0
    # A candidate the index no longer holds has no symbol_id: its stable id is the only identity left.
    handle = c.symbol_id if c.symbol_id is not None else c.symbol_stable_id
    signals = raw_signals(q, "symbol", c.name, c.qualified_name, c.kind, path)
    semantic_score = weight * c.similarity
    return Hit(result_type="symbol", result_id=f"symbol:{handle}", path=path, line_start=start,
               line_end=c.line_end or start, score=semantic_score + sum(signals), signals=signals,
               symbol_id=c.symbol_id, symbol_stable_id=c.symbol_stable_id, kind=c.kind, name=c.name,
               qualified_name=c.qualified_name, signature=c.signature, language=c.language,
               visibility=c.visibility, semantic_similarity=c.similarity, semantic_score=semantic_score)
