"""How much a benchmark run measures: the full run, or the smoke run that only proves the benchmarks still work."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """Sizes of one run."""

    smoke: bool
    rounds: int  # timed calls per variant of a latency scenario
    warmup: int  # untimed rounds first
    starts: int  # fresh server starts for SC-104
    token_queries: int  # queries whose answers are counted in tokens / bytes
    query_set: int  # distinct queries the latency scenarios cycle through


FULL = Settings(smoke=False, rounds=200, warmup=20, starts=10, token_queries=50, query_set=200)
SMOKE = Settings(smoke=True, rounds=10, warmup=2, starts=1, token_queries=4, query_set=10)
