"""How much a benchmark run measures: the full run, or the smoke run that only proves the benchmarks still work."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """Sizes of one run."""

    smoke: bool
    rounds: int  # timed calls per variant of a latency scenario
    paired_factor: int  # a paired scenario (a difference of two p95s) times rounds x this per variant and block
    paired_blocks: int  # separate runs of a paired scenario; its figure is their median
    warmup: int  # untimed rounds first
    starts: int  # fresh server starts for SC-104
    token_queries: int  # queries whose answers are counted in tokens / bytes
    query_set: int  # distinct queries the latency scenarios cycle through


# Paired figures are small differences of two tails: at 200 rounds SC-107's basic-over-off p95 read
# -2.1, +5.7 and -0.6% in three runs of the same code, and at 600 rounds one run in three read +7%
# where the others read +2..3%. So they run three blocks of 400 rounds and take the median figure.
FULL = Settings(smoke=False, rounds=200, paired_factor=2, paired_blocks=3, warmup=20, starts=10, token_queries=50,
                query_set=200)
SMOKE = Settings(smoke=True, rounds=10, paired_factor=1, paired_blocks=1, warmup=2, starts=1, token_queries=4,
                 query_set=10)
