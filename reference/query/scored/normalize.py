"""Raw engine scores -> relevance scores in [0.0, 1.0]: a band per kind of evidence, the raw score inside it.

The engine's `final_score` (`bm25 + total_boost`) is unbounded and its scale
moves with the query (more query words, more BM25 terms): a body-only hit of
one query can out-score the exact definition of another, so no fixed map of
the raw score alone can say "above 0.8 means the definition you asked for".
The score therefore has two parts:

- the band (`Strength`), from what matched (the match-reason evidence
  `reasons.py` finds): a definition named exactly by the query
  [0.8, 1.0), a definition whose name the query names in part [0.65, 0.8),
  a doc comment or an import line [0.5, 0.65), code only [0.01, 0.5);
- the position inside the band, from the raw score through the saturating
  hyperbola `r / (r + HALF_SCORE_RAW)`: monotone, one constant with a plain
  meaning (the raw score that lands mid-band), per result.

A result's score depends on that result alone, so it does not move when
`limit` changes or `min_score` drops its neighbours. Results are ranked by
(band desc, raw desc, file, line, result type, result id), which is a total
order; scores are rounded to `DECIMALS` places, kept below their band's top,
and walking down the ranked list a score that is not strictly below its
predecessor becomes the predecessor minus `EPSILON` (floored at 0.0): distinct
results never share a score and a `min_score` cut is a prefix of the list.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum


class Strength(IntEnum):
    """How strongly a result matched, weakest first; each strength has its score band."""

    CODE = 0  # only code in a body matched
    TEXT = 1  # a doc comment / comment or an import line matched
    PARTIAL_NAME = 2  # the query names part of a definition's name (or the name is part of the query)
    EXACT_NAME = 3  # a definition is named exactly what the query says


# Score band of each strength: [low, high).
BANDS: dict[Strength, tuple[float, float]] = {
    # Not 0.0: a pool of up to MAX_POOL results walking down by EPSILON from 0.01
    # stays above 0, so the walk never has to floor two results at 0 (a tie).
    Strength.CODE: (0.01, 0.5),
    Strength.TEXT: (0.5, 0.65),
    Strength.PARTIAL_NAME: (0.65, 0.8),
    Strength.EXACT_NAME: (0.8, 1.0),
}
# Raw final_score that lands in the middle of its band. Raw scores on the golden
# fixture run from ~2 (one body word) to ~240 (exact name, every field).
HALF_SCORE_RAW = 16.0
DECIMALS = 4
EPSILON = 10.0**-DECIMALS
# The most results one page is scored over (scored.POOL must not exceed it).
MAX_POOL = 100


def saturate(raw: float) -> float:
    """A raw engine score -> [0.0, 1.0), monotone non-decreasing; 0 for NaN or raw <= 0."""
    if raw != raw or raw <= 0.0:  # NaN or no evidence at all
        return 0.0
    return raw / (raw + HALF_SCORE_RAW)


def normalize(strength: Strength, raw: float) -> float:
    """One result's score: its band's low end plus the band's width times `saturate(raw)`, rounded, below the top."""
    low, high = BANDS[strength]
    score = round(low + (high - low) * saturate(raw), DECIMALS)
    return min(score, round(high - EPSILON, DECIMALS))


def rank_key(strength: Strength, raw: float, path: str, line: int, type_order: int, result_id: str) -> tuple:
    """Sort key of the documented total order: strength desc, raw desc, file, line, result type, result id."""
    return (-int(strength), -raw, path, line, type_order, result_id)


def page_scores(ranked: Sequence[tuple[Strength, float]]) -> list[float]:
    """Scores for (strength, raw) pairs in rank order: rounded, in (0, 1), strictly decreasing (up to MAX_POOL)."""
    scores: list[float] = []
    for strength, raw in ranked:
        score = normalize(strength, raw)
        if scores and score >= scores[-1]:
            score = round(max(scores[-1] - EPSILON, 0.0), DECIMALS)
        scores.append(score)
    return scores
