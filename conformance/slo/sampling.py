"""Raw per-call timing: nearest-rank percentiles, timed loops, and A/B calls interleaved in one run.

A timed call returns its time on the wire (ms, from the transport's stamps: see conformance/target/wire_clock.py)
and is timed whole around it with the same clock, so each sample holds both and the wire time is the inner one.
"""

from __future__ import annotations

import gc
import itertools
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


def nearest_rank(samples: Sequence[float], fraction: float) -> float:
    """The `fraction` quantile of `samples` by the nearest-rank method (a value that was measured)."""
    if not samples:
        raise ValueError("no samples")
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"fraction {fraction} is not in (0, 1]")
    ordered = sorted(samples)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


@dataclass(frozen=True)
class Figures:
    """p50 and p95 (nearest rank) of one series of per-call latencies, in milliseconds."""

    p50: float
    p95: float
    count: int

    @classmethod
    def of(cls, samples_ms: Sequence[float]) -> Figures:
        """The figures of a series in milliseconds."""
        return cls(p50=statistics.median(samples_ms), p95=nearest_rank(samples_ms, 0.95), count=len(samples_ms))

    @classmethod
    def wire(cls, samples: Sequence[Sample]) -> Figures:
        """The figures of the series' times on the wire (what a latency SLO judges)."""
        return cls.of([sample.wire for sample in samples])

    @classmethod
    def client(cls, samples: Sequence[Sample]) -> Figures:
        """The figures of the series' whole calls as the client saw them (reported beside the wire's)."""
        return cls.of([sample.total for sample in samples])


@dataclass(frozen=True)
class Sample:
    """One call in milliseconds: on the wire (request's last byte written to answer's last byte read) and whole."""

    wire: float
    total: float


def timed(call: Callable[[int], float | None], round_no: int) -> Sample:
    """One call, timed whole with perf_counter around it; its wire time is what it returns.

    A call that returns None has no wire stamps (not a server call): its wire time is its whole time.
    """
    started = time.perf_counter()
    wire = call(round_no)
    total = (time.perf_counter() - started) * 1000.0
    return Sample(wire=total if wire is None else wire, total=total)


def counterbalanced(count: int) -> list[list[int]]:
    """Round orders for a floor call (index 0) and `count - 1` compared calls, cycled by `interleave`.

    A call runs slower right after a heavy call than after the no-op (about 1% of a search_code p95 on
    the stdlib, read off two identical series at different places in the round). So the floor leads
    every round and the compared calls follow in the rows of a Williams square: each compared call
    comes first, and follows each other one, equally often.
    """
    k = count - 1
    if k < 1:
        return [[0]]
    first = [0] + [(i + 1) // 2 if i % 2 else k - i // 2 for i in range(1, k)]
    rows = [[(x + shift) % k for x in first] for shift in range(k)]
    if k % 2 and k > 1:  # an odd square needs its mirror for every pair to occur equally often
        rows += [row[::-1] for row in rows]
    return [[0] + [x + 1 for x in row] for row in rows]


def interleave(calls: Sequence[Callable[[int], Any]], rounds: int, warmup: int,
               orders: Sequence[Sequence[int]] | None = None) -> list[list[Sample]]:
    """Per-call samples of variants called in turn, one series per variant.

    Each call gets the round number (to pick that round's query). Variants alternate
    A, B, A, B ... in one run so that all see the same machine load, which on a shared
    machine moves far more than the difference being measured. Round r runs the calls in
    `orders[r % len(orders)]` (indexes into `calls`); by default the order rotates so no
    variant always runs first. The client's garbage collector is off while calls are timed,
    as `timeit` does: a collection in the client lands on a random call and times the
    harness, not the server.
    """
    if orders is None:
        orders = [[*range(shift, len(calls)), *range(shift)] for shift in range(len(calls))]
    if any(sorted(order) != list(range(len(calls))) for order in orders):
        raise ValueError(f"each order must run every one of the {len(calls)} calls once: {orders}")
    series: list[list[Sample]] = [[] for _ in calls]
    for round_no in range(warmup):
        for call in calls:
            call(round_no)
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for round_no, order in zip(range(rounds), itertools.cycle(orders)):
            for index in order:
                series[index].append(timed(calls[index], round_no))
    finally:
        if was_enabled:
            gc.enable()
    return series
