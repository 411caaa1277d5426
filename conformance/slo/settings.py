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


# Paired figures are small differences of two tails. Two identical `off` series (6,000 rounds, cut in
# 1,200-round windows) read their p95s 0.5% apart (sd) at 1,200 rounds; at 200 rounds SC-107 read -2.1,
# +5.7 and -0.6% in three runs of the same code. The median of three 400-round blocks was tried and
# read 0.9% apart: pooling every round is the steadier figure.
FULL = Settings(smoke=False, rounds=200, paired_factor=6, warmup=20, starts=10, token_queries=50, query_set=200)
SMOKE = Settings(smoke=True, rounds=10, paired_factor=1, warmup=2, starts=1, token_queries=4, query_set=10)
