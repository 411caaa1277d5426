"""Score normalization: range, monotonicity, the exact-match anchor and the tie-break."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.query.scored_normalize import EPSILON, HALF_SCORE_RAW, normalize, page_scores

raw_scores = st.floats(min_value=-10.0, max_value=1e6, allow_nan=False)


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(raw_scores)
def test_normalized_score_is_in_unit_range(raw: float) -> None:
    assert 0.0 <= normalize(raw) <= 1.0


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(raw_scores, raw_scores)
def test_normalize_is_monotone(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert normalize(low) <= normalize(high)


def test_anchor_and_edges() -> None:
    assert normalize(HALF_SCORE_RAW) == 0.5
    assert normalize(0.0) == 0.0 and normalize(-3.0) == 0.0 and normalize(float("nan")) == 0.0
    # An exact definition match sits at several times the anchor and reads above 0.8.
    assert normalize(4 * HALF_SCORE_RAW) == 0.8
    assert normalize(5 * HALF_SCORE_RAW) > 0.8


def test_page_scores_break_ties_with_a_strict_epsilon_step() -> None:
    scores = page_scores([20.0, 20.0, 20.0, 8.0])
    assert scores[0] == round(normalize(20.0), 4)
    assert scores[1] == round(scores[0] - EPSILON, 4)
    assert scores[2] == round(scores[1] - EPSILON, 4)
    assert scores[3] == round(normalize(8.0), 4)


def test_page_scores_break_ties_made_by_rounding() -> None:
    # 1000.0 and 1000.1 differ but round to the same four decimals.
    scores = page_scores([1000.1, 1000.0])
    assert scores[0] > scores[1]


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(st.lists(st.floats(min_value=0.01, max_value=1e4, allow_nan=False), min_size=1, max_size=60))
def test_page_scores_strictly_decrease_in_unit_range(raws: list[float]) -> None:
    scores = page_scores(sorted(raws, reverse=True))
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert all(a > b for a, b in zip(scores, scores[1:]))


def test_page_scores_keep_distinct_scores_unchanged() -> None:
    raws = [30.0, 10.0, 3.0, 1.0]
    assert page_scores(raws) == [round(normalize(r), 4) for r in raws]
