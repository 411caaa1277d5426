"""Raw engine scores -> relevance scores in [0.0, 1.0], strictly decreasing down the page.

The engine's `final_score` is `bm25 + total_boost`: unbounded above, in practice
never below zero, and only comparable within one index. We map it with the
saturating hyperbola `s = r / (r + HALF_SCORE_RAW)`:

- monotone (a higher raw score never gets a lower relevance score), so sorting by
  `score` keeps the engine's ranking;
- per result: a result's score does not depend on the other results, so it does
  not move when `limit` changes or when `min_score` drops its neighbours, and a
  `min_score` cut is a prefix of the ranked list;
- one constant with a plain meaning (the raw score that reads as 0.5), where a
  sigmoid needs a midpoint and a steepness and squashes both ends together,
  which is where ties come from after rounding.

Scores are rounded to `DECIMALS` places; distinct results never share a score:
walking down the ranked list, a score that is not strictly below its
predecessor is set to the predecessor minus `EPSILON` (floored at 0.0). The
list itself is ordered by (raw score desc, file, line) before that walk, so
the order and the scores are deterministic for equal raw scores.
"""

from __future__ import annotations

from collections.abc import Sequence

# Raw final_score that maps to 0.5. Calibrated on the golden fixture: an exact
# definition match (exact-name + definition boosts over a symbol_exact BM25 hit)
# lands far above it, a body-only match (content field, boost 0.5) below it.
HALF_SCORE_RAW = 4.0
DECIMALS = 4
EPSILON = 10.0**-DECIMALS


def normalize(raw: float) -> float:
    """One raw engine score -> [0.0, 1.0), monotone non-decreasing in `raw`."""
    if raw != raw or raw <= 0.0:  # NaN or no evidence at all
        return 0.0
    return raw / (raw + HALF_SCORE_RAW)


def page_scores(raws: Sequence[float]) -> list[float]:
    """Scores for a page already ranked by raw score desc: rounded, in [0, 1], strictly decreasing while above 0."""
    scores: list[float] = []
    for raw in raws:
        score = round(normalize(raw), DECIMALS)
        if scores and score >= scores[-1]:
            score = round(max(scores[-1] - EPSILON, 0.0), DECIMALS)
        scores.append(score)
    return scores
