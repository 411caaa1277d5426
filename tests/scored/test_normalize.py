"""Score normalization: bands by strength of evidence, monotone inside a band, the tie-break, no ties."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from cruxgate.reference.query.scored.normalize import (
    BANDS,
    EPSILON,
    HALF_SCORE_RAW,
    MAX_POOL,
    Strength,
    normalize,
    page_scores,
    rank_key,
)

raw_scores = st.floats(min_value=-10.0, max_value=1e9, allow_nan=False)
strengths = st.sampled_from(list(Strength))


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(strengths, raw_scores)
def test_score_stays_inside_its_band(strength: Strength, raw: float) -> None:
    low, high = BANDS[strength]
    assert low <= normalize(strength, raw) < high
    assert 0.0 < normalize(strength, raw) < 1.0


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(strengths, raw_scores, raw_scores)
def test_score_is_monotone_in_raw_inside_a_band(strength: Strength, a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert normalize(strength, low) <= normalize(strength, high)


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(raw_scores, raw_scores)
def test_a_stronger_match_always_outscores_a_weaker_one(a: float, b: float) -> None:
    # However large the raw score of a body-only hit, it stays below a doc, a partial name, an exact name.
    ordered = [Strength.CODE, Strength.TEXT, Strength.PARTIAL_NAME, Strength.EXACT_NAME]
    for weaker, stronger in pairwise(ordered):
        assert normalize(weaker, a) < normalize(stronger, b)


def test_bands_and_anchor() -> None:
    assert normalize(Strength.CODE, 1e9) < 0.5  # the reported bug: body-only hits at ~0.9
    assert normalize(Strength.EXACT_NAME, 0.0) == 0.8
    assert normalize(Strength.EXACT_NAME, 5.0) > 0.8  # the exact-name boost alone
    low, high = BANDS[Strength.TEXT]
    assert normalize(Strength.TEXT, HALF_SCORE_RAW) == round((low + high) / 2, 4)
    assert normalize(Strength.CODE, float("nan")) == normalize(Strength.CODE, -3.0) == BANDS[Strength.CODE][0]


def test_page_scores_break_ties_with_a_strict_epsilon_step() -> None:
    scores = page_scores([(Strength.EXACT_NAME, 20.0)] * 3 + [(Strength.CODE, 8.0)])
    assert scores[0] == normalize(Strength.EXACT_NAME, 20.0)
    assert scores[1] == round(scores[0] - EPSILON, 4) and scores[2] == round(scores[1] - EPSILON, 4)
    assert scores[3] == normalize(Strength.CODE, 8.0)


def test_page_scores_break_ties_made_by_rounding() -> None:
    scores = page_scores([(Strength.CODE, 1000.1), (Strength.CODE, 1000.0)])  # same four decimals
    assert scores[0] > scores[1]


def test_a_full_pool_of_equal_weakest_results_has_no_tie_and_no_zero() -> None:
    scores = page_scores([(Strength.CODE, -1.0)] * MAX_POOL)
    assert all(a > b for a, b in pairwise(scores)) and scores[-1] > 0.0


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(st.lists(st.tuples(strengths, st.floats(min_value=-1.0, max_value=1e4, allow_nan=False)),
                min_size=1, max_size=MAX_POOL))
def test_ranked_page_scores_strictly_decrease_in_unit_range(pairs: list[tuple[Strength, float]]) -> None:
    ranked = sorted(pairs, key=lambda p: rank_key(p[0], p[1], "f", 1, 0, ""))
    scores = page_scores(ranked)
    assert all(0.0 < s < 1.0 for s in scores)
    assert all(a > b for a, b in pairwise(scores))


def test_rank_key_is_strength_then_raw_then_file_line_type_id() -> None:
    keys = [
        rank_key(Strength.CODE, 90.0, "a.py", 1, 0, "s1"),
        rank_key(Strength.EXACT_NAME, 5.0, "z.py", 9, 2, "f9"),
        rank_key(Strength.EXACT_NAME, 5.0, "a.py", 9, 1, "n1"),
        rank_key(Strength.EXACT_NAME, 5.0, "a.py", 9, 0, "s2"),
        rank_key(Strength.EXACT_NAME, 7.0, "z.py", 30, 2, "f1"),
    ]
    assert sorted(keys) == [keys[4], keys[3], keys[2], keys[1], keys[0]]
