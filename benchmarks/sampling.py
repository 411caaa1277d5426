"""Raw per-call timing: nearest-rank percentiles, timed loops, and A/B calls interleaved in one run."""

from __future__ import annotations

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
    def of(cls, samples_ms: Sequence[float]) -> "Figures":
        """The figures of a series in milliseconds."""
        return cls(p50=statistics.median(samples_ms), p95=nearest_rank(samples_ms, 0.95), count=len(samples_ms))


def timed(call: Callable[[int], Any], round_no: int) -> float:
    """Milliseconds one call takes (perf_counter around it only)."""
    started = time.perf_counter()
    call(round_no)
    return (time.perf_counter() - started) * 1000.0


def interleave(calls: Sequence[Callable[[int], Any]], rounds: int, warmup: int) -> list[list[float]]:
    """Per-call latencies (ms) of variants called in turn, one series per variant.

    Each call gets the round number (to pick that round's query). Variants alternate
    A, B, A, B ... in one run so that all see the same machine load, which on a shared
    machine moves far more than the difference being measured; the order inside a round
    rotates so no variant always runs first.
    """
    series: list[list[float]] = [[] for _ in calls]
    for round_no in range(warmup):
        for call in calls:
            call(round_no)
    for round_no in range(rounds):
        shift = round_no % len(calls)
        for index in [*range(shift, len(calls)), *range(shift)]:
            series[index].append(timed(calls[index], round_no))
    return series
