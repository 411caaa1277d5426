"""How much a benchmark run measures: the full run, or the smoke run that only proves the benchmarks still work."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """Sizes of one run."""

    smoke: bool
    rounds: int  # timed calls per variant of a latency scenario
    paired_factor: int  # a paired scenario (a difference of two p95s) times rounds x this per variant
    warmup: int  # untimed rounds first
    starts: int  # fresh server starts for SC-104
    token_queries: int  # queries whose answers are counted in tokens / bytes
    query_set: int  # distinct queries the latency scenarios cycle through


# Paired figures are small differences of two tails: at 200 rounds SC-107's basic-over-off p95 read
# -2.1, +5.7 and -0.6% in three runs of the same code, so they sample three times as long.
FULL = Settings(smoke=False, rounds=200, paired_factor=3, warmup=20, starts=10, token_queries=50, query_set=200)
SMOKE = Settings(smoke=True, rounds=10, paired_factor=1, warmup=2, starts=1, token_queries=4, query_set=10)
