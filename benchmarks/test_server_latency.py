"""Reference server latency over stdio, each figure beside a no-op round trip measured in the same run.

Run: python -m pytest benchmarks/test_server_latency.py --benchmark-only -q
p95 comes from raw per-call samples (perf_counter around each call), not from pytest-benchmark's means.
"""

from __future__ import annotations

import shutil
import sqlite3
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import Connection, connect_stdio, index_copy

ROUNDS = 300
WARMUP = 30
STARTS = 10
OUTLINE_FILE_MIN_SYMBOLS = 150


def p95(samples: list[float]) -> float:
    """95th percentile (nearest rank) in milliseconds of samples in seconds."""
    ordered = sorted(samples)
    return ordered[max(0, int(round(0.95 * len(ordered))) - 1)] * 1000


def sample(benchmark: Any, call: Callable[[], Any], rounds: int = ROUNDS) -> list[float]:
    """Time each call individually, inside pytest-benchmark's pedantic loop."""
    for _ in range(WARMUP):
        call()
    samples: list[float] = []

    def timed() -> None:
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)

    benchmark.pedantic(timed, rounds=rounds, iterations=1)
    return samples


def report(benchmark: Any, name: str, samples: list[float]) -> float:
    value = p95(samples)
    benchmark.extra_info[f"{name}_p95_ms"] = round(value, 3)
    benchmark.extra_info[f"{name}_p50_ms"] = round(statistics.median(samples) * 1000, 3)
    print(f"\n{name}: p50 {statistics.median(samples) * 1000:.2f} ms, p95 {value:.2f} ms, "
          f"max {max(samples) * 1000:.2f} ms ({len(samples)} samples)")
    return value


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return index_copy("polyglot", tmp_path_factory.mktemp("bench") / "polyglot")


@pytest.fixture(scope="module")
def server(workspace: Path) -> Iterator[Connection]:
    conn = connect_stdio(workspace)
    deadline = time.monotonic() + 30
    while conn.payload("health_check", {})[0]["status"] == "warming" and time.monotonic() < deadline:
        time.sleep(0.05)
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def noop_p95(server: Connection) -> float:
    """The SDK's own round trip (ping) over the same connection: the floor every tool sits on."""
    for _ in range(WARMUP):
        server.ping()
    samples = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        server.ping()
        samples.append(time.perf_counter() - started)
    value = p95(samples)
    print(f"\nno-op ping: p50 {statistics.median(samples) * 1000:.2f} ms, p95 {value:.2f} ms")
    return value


def biggest_file(workspace: Path) -> tuple[str, int]:
    """The indexed file with the most symbols (the fixture's ~200-symbol outline file), from the index's SQLite."""
    state = workspace / ".cruxgate"
    db = state / (state / "CURRENT").read_text(encoding="utf-8").strip() / "index.db"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        path, count = conn.execute("SELECT path, COUNT(*) FROM symbols GROUP BY path ORDER BY 2 DESC, 1 LIMIT 1"
                                   ).fetchone()
    return path, count


def test_noop_roundtrip(benchmark: Any, server: Connection, noop_p95: float) -> None:
    report(benchmark, "ping", sample(benchmark, server.ping))


def test_health_check_warm(benchmark: Any, server: Connection, noop_p95: float) -> None:
    value = report(benchmark, "health_check", sample(benchmark, lambda: server.call("health_check", {})))
    benchmark.extra_info["noop_p95_ms"] = round(noop_p95, 3)
    benchmark.extra_info["ratio_to_noop"] = round(value / noop_p95, 3)
    assert value < 10.0  # SC-105


def test_get_file_outline_warm(benchmark: Any, server: Connection, workspace: Path, noop_p95: float) -> None:
    path, count = biggest_file(workspace)
    assert count >= OUTLINE_FILE_MIN_SYMBOLS
    args = {"path": path}
    assert not server.payload("get_file_outline", args)[1]
    value = report(benchmark, "get_file_outline", sample(benchmark, lambda: server.call("get_file_outline", args)))
    benchmark.extra_info.update({"path": path, "symbols": count, "noop_p95_ms": round(noop_p95, 3),
                                 "over_noop_ms": round(value - noop_p95, 3)})
    assert value < 50.0  # SC-103


def test_start_handshake_and_first_query(benchmark: Any, workspace: Path, tmp_path: Path) -> None:
    """Process start -> handshake done, then the first search_code with prewarm on (fresh process each time)."""
    handshakes: list[float] = []
    firsts: list[float] = []

    def one_start() -> None:
        copy = tmp_path / f"ws{len(handshakes)}"
        shutil.copytree(workspace, copy)
        started = time.perf_counter()
        conn = connect_stdio(copy)
        handshakes.append(time.perf_counter() - started)
        try:
            started = time.perf_counter()
            payload, is_error = conn.payload("search_code", {"query": "validate_token"})
            firsts.append(time.perf_counter() - started)
            assert not is_error and payload["results"]
        finally:
            conn.close()

    benchmark.pedantic(one_start, rounds=STARTS, iterations=1)
    handshake = report(benchmark, "start_to_handshake", handshakes)
    first = report(benchmark, "first_search_code", firsts)
    assert first < 500.0  # SC-104
    assert handshake < 10_000.0
