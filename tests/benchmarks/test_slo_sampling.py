"""Nearest-rank percentiles and interleaved A/B sampling of the SLO harness."""

from __future__ import annotations

import pytest
from sampling import Figures, interleave, nearest_rank


def test_nearest_rank_is_a_measured_value_never_an_interpolation() -> None:
    samples = [float(v) for v in range(1, 101)]  # 1..100
    assert nearest_rank(samples, 0.95) == 95.0
    assert nearest_rank(samples, 0.5) == 50.0
    assert nearest_rank(samples, 1.0) == 100.0
    assert nearest_rank([3.0, 1.0, 2.0], 0.95) == 3.0  # ceil(2.85) = rank 3
    assert nearest_rank([7.0], 0.95) == 7.0
    assert nearest_rank([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0], 0.95) == 10.0


def test_nearest_rank_refuses_nothing_to_rank() -> None:
    with pytest.raises(ValueError):
        nearest_rank([], 0.95)
    with pytest.raises(ValueError):
        nearest_rank([1.0], 0.0)


def test_figures_take_p95_from_raw_samples_not_the_mean() -> None:
    samples = [1.0] * 94 + [50.0] * 6  # a slow tail the mean would hide
    figures = Figures.of(samples)
    assert figures.p95 == 50.0 and figures.p50 == 1.0 and figures.count == 100


def test_interleave_alternates_variants_and_rotates_who_goes_first() -> None:
    log: list[tuple[str, int]] = []
    series = interleave([lambda n: log.append(("a", n)), lambda n: log.append(("b", n))], rounds=3, warmup=1)
    assert log == [("a", 0), ("b", 0),  # warm-up, untimed
                   ("a", 0), ("b", 0), ("b", 1), ("a", 1), ("a", 2), ("b", 2)]
    assert [len(s) for s in series] == [3, 3]
    assert all(value >= 0.0 for s in series for value in s)
