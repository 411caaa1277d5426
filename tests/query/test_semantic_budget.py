"""The hybrid budget: multipliers x limit, each floored and capped (seed 000's effective values)."""

from __future__ import annotations

import pytest

from cruxgate.reference.query.semantic.budget import (
    LEXICAL_FANOUT_BOUNDS,
    SEMANTIC_FANOUT_BOUNDS,
    SEMANTIC_LIMIT_BOUNDS,
    budget,
)


def test_the_bounds_are_the_documented_ones() -> None:
    bounds = (SEMANTIC_LIMIT_BOUNDS, LEXICAL_FANOUT_BOUNDS, SEMANTIC_FANOUT_BOUNDS)
    assert bounds == ((20, 1000), (40, 2000), (30, 1000))


@pytest.mark.parametrize(("limit", "multipliers", "expected"), [
    (10, (2, 4, 3), (20, 40, 30)),         # the defaults at limit 10: the floors
    (1, (2, 4, 3), (20, 40, 30)),          # floors
    (50, (2, 4, 3), (100, 200, 150)),      # in range: limit x multiplier
    (100, (50, 50, 50), (1000, 2000, 1000)),  # caps
    (10, (0, 0, 0), (20, 40, 30)),         # a zero multiplier is floored, never 0
])
def test_effective_values(limit: int, multipliers: tuple[int, int, int], expected: tuple[int, int, int]) -> None:
    b = budget(limit, *multipliers)
    assert (b.semantic_limit, b.lexical_fanout, b.semantic_fanout) == expected
    assert b.semantic_cap == min(expected[0], expected[2])
    fields = ("semantic_limit_used", "lexical_fanout_used", "semantic_fanout_used")
    assert b.metadata() == dict(zip(fields, expected, strict=True))
