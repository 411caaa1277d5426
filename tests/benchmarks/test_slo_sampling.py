"""Nearest-rank percentiles and interleaved A/B sampling of the SLO harness."""

from __future__ import annotations

import gc
import itertools

import pytest

from cruxgate.conformance.slo.sampling import Figures, counterbalanced, interleave, nearest_rank


def test_nearest_rank_is_a_measured_value_never_an_interpolation() -> None:
    samples = [float(v) for v in range(1, 101)]  # 1..100
    assert nearest_rank(samples, 0.95) == 95.0
    assert nearest_rank(samples, 0.5) == 50.0
    assert nearest_rank(samples, 1.0) == 100.0
    assert nearest_rank([3.0, 1.0, 2.0], 0.95) == 3.0  # ceil(2.85) = rank 3
    assert nearest_rank([7.0], 0.95) == 7.0
    assert nearest_rank([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0], 0.95) == 10.0


def test_nearest_rank_refuses_nothing_to_rank() -> None:
    with pytest.raises(ValueError, match="no samples"):
        nearest_rank([], 0.95)
    with pytest.raises(ValueError, match="not in"):
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
    assert all(sample.total >= 0.0 and sample.wire == sample.total for s in series for sample in s)  # no wire stamps


def test_interleave_runs_the_given_orders_in_turn() -> None:
    log: list[tuple[str, int]] = []
    calls = [lambda n, name=name: log.append((name, n)) for name in "fab"]
    interleave(calls, rounds=3, warmup=0, orders=[[0, 1, 2], [0, 2, 1]])
    assert log == [("f", 0), ("a", 0), ("b", 0), ("f", 1), ("b", 1), ("a", 1), ("f", 2), ("a", 2), ("b", 2)]
    with pytest.raises(ValueError, match="every one of the 3 calls"):
        interleave(calls, rounds=1, warmup=0, orders=[[0, 1]])  # a round that skips a call


def test_the_client_collector_is_off_only_while_calls_are_timed() -> None:
    seen: list[bool] = []
    assert gc.isenabled()
    interleave([lambda n: seen.append(gc.isenabled())], rounds=2, warmup=1)
    assert seen == [True, False, False] and gc.isenabled()
    gc.disable()
    try:
        interleave([lambda n: None], rounds=1, warmup=0)
        assert not gc.isenabled()  # a caller's own setting is left as it was
    finally:
        gc.enable()


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6])
def test_counterbalanced_orders_lead_with_the_floor_and_balance_who_follows_whom(count: int) -> None:
    orders = counterbalanced(count)
    assert all(order[0] == 0 and sorted(order) == list(range(count)) for order in orders)
    compared = range(1, count)
    firsts = [order[1] for order in orders if count > 1]
    assert len({firsts.count(x) for x in compared} or {0}) == 1  # each compared call leads equally often
    pairs = [pair for order in orders for pair in itertools.pairwise(order[1:])]
    assert len({pairs.count(pair) for pair in itertools.permutations(compared, 2)} or {0}) == 1


def test_counterbalanced_pair_alternates_its_two_sides() -> None:
    assert counterbalanced(3) == [[0, 1, 2], [0, 2, 1]]
